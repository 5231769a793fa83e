/**
 * `storecheck sweep`: delete what runs left behind, from their ledgers, and
 * say what happened to each record. Only ids a ledger records as created are
 * touched; an id counts as removed when a read-back shows it gone; what a
 * read-back still shows is left behind, and what no usable read-back could
 * speak for (a time-out, an answer cut or padded) could not be verified —
 * both make the exit code 3. `--dry-run` says what is outstanding, per
 * resource, without a request.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ledger } from '../client/ledger.js';
import { cleanupLedger, unverifiedCount, type CleanupResult } from '../run/cleanup.js';
import { checkBaseUrl } from './base-url.js';
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
  runOption('concurrency', 'requests in flight at most'),
  { flag: 'dry-run', kind: 'flag', help: 'say what is outstanding, per resource, and delete nothing (needs no target)' },
  { flag: 'list', kind: 'flag', help: 'print every id (outstanding with --dry-run; removed, already gone, left behind and not verified otherwise)' },
  ...COMMON_OPTIONS,
];

export const HELP = commandHelp(
  'storecheck sweep [--ledger FILE]... --base-url URL [--dry-run] [--list]',
  'Deletes what runs left on a target: every record a ledger.jsonl records as created and not ' +
    'read back gone (a crashed or killed run, a run with --keep-data, a cleanup that could not ' +
    'verify), and what its unanswered creates stored (looked up by their run-tagged values). Only ' +
    'ids a ledger records are touched; an id counts as removed when a read-back shows it gone. ' +
    'The key comes from STORE_API_KEY.',
  OPTIONS,
  'exit codes: 0 done (or nothing to do) · 2 usage error · 3 records left behind (still there when read back) or not verified (no usable read-back)',
);

/** Ids shown per list without --list. */
const SHOWN = 10;

export async function sweepCommand(args: string[]): Promise<number> {
  const parsed = parseOptions(args, OPTIONS);
  const options = withDefaults(parsed.options, OPTIONS);
  if (parsed.positional.length) throw new UsageError(`unexpected argument "${parsed.positional[0]}" (give ledgers with --ledger FILE; see storecheck sweep --help)`);
  const ledgers = (options.ledger as string[] | undefined) ?? [];
  const files = ledgers.length ? ledgers.map((f) => resolve(f)) : defaultLedgers();
  for (const f of files) if (!existsSync(f)) throw new UsageError(`--ledger ${f}: no such file`);
  if (!files.length) {
    process.stderr.write('storecheck sweep: no ledger found (looked in reports/*/ledger.jsonl); nothing to do\n');
    return 0;
  }
  const loaded = Ledger.load(files);
  const list = options.list === true;
  const todo = outstandingLines(loaded, files.length, list);
  if (options['dry-run'] || (todo.total === 0 && loaded.openIntents().length === 0)) {
    process.stdout.write(todo.lines.join('\n') + '\n');
    return 0;
  }
  const baseUrl = options['base-url'] as string | undefined;
  const apiKey = options['api-key'] as string | undefined;
  if (!baseUrl || !apiKey) throw new UsageError('sweep needs the target: --base-url URL and STORE_API_KEY (or --api-key)');
  checkBaseUrl(baseUrl);
  process.stdout.write(todo.lines[0] + '\n');
  const result = await cleanupLedger(
    { baseUrl, apiKey, timeoutMs: options['timeout-ms'] as number, insecure: options.insecure === true, concurrency: options.concurrency as number, ledgerFile: files[0] },
    files,
  );
  return reportSweep(result, list);
}

/**
 * What the ledgers hold outstanding: a line of totals, then per resource the
 * records created, already read back gone, outstanding, and the unanswered
 * creates to look up (`list`: every outstanding id and every lookup too).
 */
function outstandingLines(ledger: Ledger, files: number, list: boolean): { total: number; lines: string[] } {
  const outstanding = ledger.outstanding();
  // a create answered with ids no get has shown yet: those ids are outstanding, and their read-back settles it
  const intents = ledger.openIntents().filter((i) => !i.answered);
  const total = [...outstanding.values()].reduce((n, ids) => n + ids.length, 0);
  const lines = [`${total} record(s) outstanding in ${files} ledger(s)${intents.length ? `, ${intents.length} unanswered create(s) to look up` : ''}`];
  const resources = [...new Set([...outstanding.keys(), ...intents.map((i) => i.resource)])].sort();
  if (!resources.length) return { total, lines };
  const rows = resources.map((r) => {
    const left = outstanding.get(r)?.length ?? 0;
    const created = ledger.createdCountOf(r);
    return [r, String(created), String(created - left), String(left), String(intents.filter((i) => i.resource === r).length)];
  });
  lines.push(...aligned([['resource', 'created', 'read back gone', 'outstanding', 'unanswered creates'], ...rows]).map((l) => `  ${l}`));
  if (list) {
    for (const [r, ids] of outstanding) lines.push(`  ${r}: ${ids.join(', ')}`);
    // creates sent whose answer never reached the ledger: their records are looked up by these values
    for (const i of intents) lines.push(`  ${i.resource}: unanswered create, looked up by ${i.key} in [${i.values.join(', ')}]`);
  } else lines.push('  (--list prints every id)');
  return { total, lines };
}

/** Columns padded to their widest cell, numbers right-aligned. */
function aligned(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd());
}

/** What the sweep did, per state; exit 3 when records are left behind or not verified. */
function reportSweep(result: CleanupResult, list: boolean): number {
  const out = (s: string) => process.stdout.write(s + '\n');
  const err = (s: string) => process.stderr.write(s + '\n');
  for (const [label, byResource] of [['removed (read back gone)', result.removed], ['already gone (read back gone before any delete)', result.alreadyGone]] as const) {
    const n = Object.values(byResource).reduce((k, ids) => k + ids.length, 0);
    if (!n) continue;
    out(`${label}: ${n} — ${Object.entries(byResource).map(([r, ids]) => `${r} ${ids.length}`).join(', ')}`);
    if (list) for (const [r, ids] of Object.entries(byResource)) out(`  ${r}: ${ids.join(', ')}`);
  }
  const unsure = unverifiedCount(result.unverified);
  if (result.leftBehind.length) {
    err(`left behind: ${result.leftBehind.length} record(s) still there when read back:`);
    for (const l of list ? result.leftBehind : result.leftBehind.slice(0, SHOWN)) err(`  ${l}`);
    if (!list && result.leftBehind.length > SHOWN) err(`  … and ${result.leftBehind.length - SHOWN} more (--list prints them all)`);
  }
  if (unsure) {
    err(`could not verify: ${unsure} record(s) — no usable read-back (they may be gone or still there):`);
    for (const g of result.unverified) {
      err(`  ${g.resource} ×${g.ids.length || (g.values?.length ?? 0)}: ${g.reason}`);
      if (list && g.ids.length) err(`    ${g.ids.join(', ')}`);
    }
  }
  if (result.leftBehind.length || unsure) {
    err(`sweep: ${result.deleted} of ${result.created} record(s) read back gone; ${result.leftBehind.length} left behind, ${unsure} not verified (run sweep again later)`);
    return 3;
  }
  out(`sweep done: ${result.deleted} of ${result.created} record(s) read back gone, none left`);
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
