/**
 * `storecheck sweep`: delete what crashed runs left behind, from their ledgers,
 * and say what was removed. Only ids a ledger records as created are touched.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ledger } from '../client/ledger.js';
import { cleanupLedger } from '../run/cleanup.js';
import { commandHelp, COMMON_OPTIONS, optionSpec, parseOptions, UsageError, withDefaults, type OptionSpec } from './options.js';

/** A run option (its flag, env, kind, limits and default: the run table's entry), described for sweep. */
function runOption(flag: string, help: string): OptionSpec {
  return { ...optionSpec(flag), help, group: undefined };
}

export const OPTIONS: OptionSpec[] = [
  { flag: 'ledger', kind: 'list', arg: 'FILE', help: 'a ledger.jsonl (repeatable; default: every ./reports/*/ledger.jsonl)' },
  runOption('base-url', 'the target the ledger was written against'),
  runOption('api-key', 'its API key (prefer the env var)'),
  runOption('timeout-ms', 'per-request timeout'),
  runOption('insecure', 'accept a self-signed certificate'),
  { flag: 'dry-run', kind: 'flag', help: 'list what would be deleted, delete nothing (needs no target)' },
  ...COMMON_OPTIONS,
];

export const HELP = commandHelp(
  'storecheck sweep [--ledger FILE]... --base-url URL [--dry-run]',
  'Deletes what runs left on a target: every record a ledger.jsonl records as created and not ' +
    'deleted (a crashed or killed run, a run with --keep-data), and what its unanswered creates ' +
    'stored (looked up by their run-tagged values). Only ids a ledger records are touched; an id ' +
    'counts as removed when a read-back shows it gone. The key comes from STORE_API_KEY.',
  OPTIONS,
  'exit codes: 0 done (or nothing to do) · 2 usage error · 3 some records could not be removed (listed)',
);

export async function sweepCommand(args: string[]): Promise<number> {
  const parsed = parseOptions(args, OPTIONS);
  const { positional } = parsed;
  const options = withDefaults(parsed.options, OPTIONS);
  if (positional.length) throw new UsageError(`unexpected argument "${positional[0]}" (give ledgers with --ledger FILE; see storecheck sweep --help)`);
  const ledgers = (options.ledger as string[] | undefined) ?? [];
  const files = ledgers.length ? ledgers.map((f) => resolve(f)) : defaultLedgers();
  for (const f of files) if (!existsSync(f)) throw new UsageError(`--ledger ${f}: no such file`);
  if (!files.length) {
    process.stderr.write('storecheck sweep: no ledger found (looked in reports/*/ledger.jsonl); nothing to do\n');
    return 0;
  }
  const baseUrl = options['base-url'] as string | undefined;
  const apiKey = options['api-key'] as string | undefined;
  const loaded = Ledger.load(files);
  const outstanding = loaded.outstanding();
  const intents = loaded.openIntents();
  const total = [...outstanding.values()].reduce((n, ids) => n + ids.length, 0);
  if (options['dry-run'] || (total === 0 && intents.length === 0)) {
    process.stdout.write(`${total} record(s) outstanding in ${files.length} ledger(s)\n`);
    for (const [r, ids] of outstanding) process.stdout.write(`  ${r}: ${ids.join(', ')}\n`);
    // creates sent whose answer never reached the ledger: their records are looked up by these values
    for (const i of intents) process.stdout.write(`  ${i.resource}: unanswered create, looked up by ${i.key} in [${i.values.join(', ')}]\n`);
    return 0;
  }
  if (!baseUrl || !apiKey) throw new UsageError('sweep needs the target: --base-url URL and STORE_API_KEY (or --api-key)');
  const result = await cleanupLedger(
    { baseUrl, apiKey, timeoutMs: options['timeout-ms'] as number, insecure: options.insecure === true, ledgerFile: files[0] },
    files,
  );
  for (const [r, ids] of Object.entries(result.removed)) process.stdout.write(`removed ${ids.length} ${r}: ${ids.join(', ')}\n`);
  for (const [r, ids] of Object.entries(result.alreadyGone)) process.stdout.write(`already gone ${ids.length} ${r}: ${ids.join(', ')}\n`);
  if (result.leftBehind.length) {
    process.stderr.write(`could not remove ${result.leftBehind.length}:\n${result.leftBehind.map((l) => `  ${l}`).join('\n')}\n`);
    return 3;
  }
  process.stdout.write(`sweep done: ${result.deleted} record(s) removed\n`);
  return 0;
}

function defaultLedgers(): string[] {
  const dir = resolve('reports');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((d) => d !== 'latest')
    .map((d) => join(dir, d, 'ledger.jsonl'))
    .filter((f) => existsSync(f) && statSync(f).isFile());
}
