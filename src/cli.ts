/**
 * storecheck command line.
 *   storecheck [run] [options]         the conformance run (default): flags → RunConfig, once → src/run/run.ts
 *   storecheck sweep [--ledger FILE]…  delete what crashed runs left behind
 *   storecheck compare A.json B.json   two reports side by side
 *   storecheck merge DIR…              combine shard reports into one
 *   storecheck list [--only PATTERN]   the check (or item) ids of the catalogue
 *   storecheck openapi                 an OpenAPI document of the API, from the schemas
 * Exit codes (src/exit.ts): 0 conformant, 1 non-conformant, 2 usage or configuration error, 3 no verdict.
 */
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { deepFreeze, type Depth, type RunConfig } from './config.js';
import { helpOrVersion, helpText, parseOptions, RUN_OPTIONS, UsageError, withDefaults, wrap, type OptionSpec, type ParsedOptions } from './cli/options.js';
import { checkBaseUrl } from './cli/base-url.js';
import { checkReportDir } from './cli/report-dir.js';
import { exitAfter } from './cli/stdio.js';
import { ConfigError, EXIT, exitWord } from './exit.js';
import { TOOL_VERSION } from './version.js';

/** The run command's help (and the tool's): commands, then the run options by group. */
export const USAGE = [
  `storecheck ${TOOL_VERSION} — conformance suite for the Online Store Administration API`,
  '',
  'usage:',
  '  storecheck [run] [options]           run every check against a target (the default command)',
  '  storecheck sweep --ledger FILE       delete what a run left behind (its ledger.jsonl)',
  '  storecheck compare A.json B.json     two reports side by side (Markdown and HTML)',
  '  storecheck merge DIR...              combine the report.json of shards into one report',
  '  storecheck list [--only PATTERN]     the check (or spec item) ids of the catalogue, for --only',
  '  storecheck openapi                   an OpenAPI document of the API, from the schemas',
  '  storecheck <command> --help          the options of a command',
  '',
  wrap('In a clone of the repository, storecheck is `npm run conformance --` (e.g. npm run conformance -- list); installed as a package, `npx storecheck`.'),
  '',
  wrap(
    'Run options come from flags, then environment variables, then a config file (--config FILE, ' +
      'default ./storecheck.config.json when it exists; its keys are the flag names without --, ' +
      'e.g. {"depth": "quick", "min-coverage": 95}; schema: schemas/config.schema.json), then defaults. ' +
      'The API key is never read from a file: set STORE_API_KEY.',
  ),
  '',
  helpText(RUN_OPTIONS),
  '',
  wrap('exit codes: 0 conformant · 1 non-conformant · 2 usage or configuration error · 3 no verdict (unreachable or failing target, interrupted run)'),
].join('\n');

/** What every command module exports (src/cli/<cmd>.ts): its help, its option table and the command. */
interface CommandModule {
  HELP: string;
  OPTIONS: OptionSpec[];
  command(args: string[]): Promise<number>;
}

export const COMMANDS = ['run', 'sweep', 'compare', 'merge', 'list', 'openapi'] as const;

/** The module of a command (loaded only when it is the one asked for: the run pulls in vitest later). */
export async function loadCommand(name: string): Promise<CommandModule | undefined> {
  switch (name) {
    case 'run':
      return { HELP: USAGE, OPTIONS: RUN_OPTIONS, command: runCommand };
    case 'sweep': {
      const m = await import('./cli/sweep.js');
      return { HELP: m.HELP, OPTIONS: m.OPTIONS, command: m.sweepCommand };
    }
    case 'compare': {
      const m = await import('./cli/compare.js');
      return { HELP: m.HELP, OPTIONS: m.OPTIONS, command: m.compareCommand };
    }
    case 'merge': {
      const m = await import('./cli/merge.js');
      return { HELP: m.HELP, OPTIONS: m.OPTIONS, command: m.mergeCommand };
    }
    case 'list': {
      const m = await import('./cli/list.js');
      return { HELP: m.HELP, OPTIONS: m.OPTIONS, command: m.listCommand };
    }
    case 'openapi': {
      const m = await import('./cli/openapi.js');
      return { HELP: m.HELP, OPTIONS: m.OPTIONS, command: m.openapiCommand };
    }
    default:
      return undefined;
  }
}

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  try {
    // `storecheck help [COMMAND]`, `storecheck version`: the spellings some users type first
    if (first === 'help') return print((await commandOrThrow(rest[0] ?? 'run')).HELP);
    if (first === 'version') return print(TOOL_VERSION);
    const name = first === undefined || first.startsWith('-') ? 'run' : first;
    const args = name === 'run' && first !== 'run' ? argv : rest;
    const mod = await commandOrThrow(name);
    // -h/--help and -V/--version, the same for every command, before the command judges its arguments
    const asked = helpOrVersion(args, mod.OPTIONS);
    if (asked === 'help') return print(mod.HELP);
    if (asked === 'version') return print(TOOL_VERSION);
    return await mod.command(args);
  } catch (e) {
    return fail(e);
  }
}

async function commandOrThrow(name: string): Promise<CommandModule> {
  const mod = await loadCommand(name);
  if (!mod) throw new UsageError(`unknown command "${name}" (commands: ${COMMANDS.join(', ')}; see --help)`);
  return mod;
}

function print(text: string): number {
  process.stdout.write(text.endsWith('\n') ? text : text + '\n');
  return 0;
}

async function runCommand(args: string[]): Promise<number> {
  const { options: given, positional } = parseOptions(args, RUN_OPTIONS);
  if (positional.length) throw new UsageError(`unexpected argument "${positional[0]}" (options start with --; see --help)`);
  // the config file (ajv) is loaded only for a run
  const { withConfigFile } = await import('./cli/config-file.js');
  const options = withConfigFile(given);
  let embedded: EmbeddedServer | undefined;
  try {
    const config = await resolveConfig(options, async (server) => (embedded = await startEmbedded(server)).url);
    // the run pulls in vitest: loaded only once the flags are known to be good
    const { runConformance } = await import('./run/run.js');
    const outcome = await runConformance({
      config,
      expectFile: options.expect as string | undefined,
      baselineFile: options.baseline as string | undefined,
      quiet: options.quiet === true,
      configFile: options.config as string | undefined,
    });
    if (outcome.exitCode !== EXIT.conformant) process.stderr.write(`storecheck: ${exitWord(outcome.exitCode)}: ${outcome.reason}\n`);
    return outcome.exitCode;
  } finally {
    await embedded?.close();
  }
}

/** What the embedded reference server is started with: the run's key and its switches. */
export type EmbeddedOptions = Pick<RunConfig, 'apiKey' | 'referenceFaults' | 'referenceVariant'>;
interface EmbeddedServer {
  url: string;
  close(): Promise<void>;
}

async function startEmbedded(o: EmbeddedOptions): Promise<EmbeddedServer> {
  const { startReferenceServer } = await import('../reference/server.js');
  try {
    return await startReferenceServer({ apiKey: o.apiKey, faults: [...(o.referenceFaults ?? [])], variant: o.referenceVariant });
  } catch (e) {
    throw new UsageError(`embedded reference server: ${(e as Error).message}`);
  }
}

/**
 * Flags/env/config file → RunConfig, once, frozen; every rule a sentence when
 * broken (exit 2). Defaults come from the option table. Without --base-url the
 * target is the embedded reference server: `startEmbedded` starts it with the
 * run's key and switches and gives its URL, the config's baseUrl (without it,
 * as in unit tests, baseUrl stays empty).
 */
export async function resolveConfig(given: ParsedOptions, startEmbedded?: (o: EmbeddedOptions) => Promise<string>): Promise<RunConfig> {
  await checkOptions(given);
  const o = withDefaults(given, RUN_OPTIONS);
  // the default folder too: two runs started in the same second must not share one
  checkReportDir(String(o['report-dir']));
  const embedded = o['base-url'] === undefined;
  const reportDir = resolve(o['report-dir'] as string);
  const concurrency = o.concurrency as number;
  const fields = {
    apiKey: (o['api-key'] as string | undefined) ?? `ref-${randomBytes(12).toString('hex')}`,
    embedded,
    reportDir,
    ledgerFile: join(reportDir, 'ledger.jsonl'),
    runTag: `sc${randomBytes(4).toString('hex')}`,
    seed: o.seed as number,
    depth: o.depth as Depth,
    shrinkMs: (o['shrink-s'] as number) * 1000,
    readOnly: o['read-only'] === true,
    ...(o['keep-data'] === true ? { keepData: true } : {}),
    ...(o.replay !== undefined ? { replay: parseReplay(String(o.replay)) } : {}),
    ...(embedded ? referenceOf(o) : {}),
    visibilityTimeoutMs: o['visibility-timeout-ms'] as number,
    ...(o['min-coverage'] !== undefined ? { minCoverage: o['min-coverage'] as number } : {}),
    only: o.only as string | undefined,
    shard: o.shard as string | undefined,
    concurrency,
    // every worker holds at least one connection: more workers than --concurrency would exceed it
    workers: Math.min(concurrency, o.workers as number),
    ...(given.workers !== undefined ? { workersGiven: true } : {}),
    timeoutMs: o['timeout-ms'] as number,
    maxAnswerBytes: (o['max-answer-mb'] as number) * 1024 * 1024,
    maxRps: o['max-rps'] as number,
    insecure: o.insecure === true,
    deadlineMs: (o['deadline-s'] as number) * 1000,
  };
  const baseUrl = embedded ? ((await startEmbedded?.(fields)) ?? '') : (o['base-url'] as string);
  return deepFreeze({ baseUrl, ...fields });
}

/** The rules between options, each a sentence when broken (exit 2), judged on what was given (before defaults). */
async function checkOptions(o: ParsedOptions): Promise<void> {
  const baseUrl = o['base-url'] as string | undefined;
  if (baseUrl && (o['reference-faults'] || o['reference-variant'])) {
    throw new UsageError('--reference-faults and --reference-variant apply to the embedded server only; drop --base-url to use them');
  }
  if (baseUrl !== undefined) {
    checkBaseUrl(baseUrl);
    if (!o['api-key']) throw new UsageError('an external target needs its API key: set STORE_API_KEY (or --api-key)');
  }
  if (o.shard !== undefined) {
    const m = /^([0-9]+)\/([0-9]+)$/.exec(String(o.shard));
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new UsageError(`--shard must be i/n with 1 ≤ i ≤ n, got "${o.shard}"`);
  }
  if (o.replay !== undefined) parseReplay(String(o.replay));
  if (o.replay !== undefined && o.seed === undefined) throw new UsageError('--replay needs the run\'s --seed too (a reproducer command gives both)');
  if (o['keep-data'] === true && !baseUrl) {
    throw new UsageError('--keep-data needs --base-url: the embedded reference server and its records are gone when the run ends');
  }
  if (o.only !== undefined) {
    // loads the item catalogue: only when there is something to check
    const { checkOnly } = await import('./cli/validate.js');
    checkOnly(String(o.only));
  }
}

/**
 * `--replay SEED:PATH`: the seed and fast-check path of one property case, as
 * a reproducer gives them (`-123456:0:1:1`; a model-based case adds the
 * commands' replay path: `-123456:3:2@AB:C`). The seed is the property's own
 * (the run seed mixed with the check or item id), a 32-bit integer.
 */
export function parseReplay(value: string): { seed: number; path: string } {
  // a model-based case adds, after '@', the commands' replay path (fast-check's own encoding)
  const m = /^(-?[0-9]{1,10}):([0-9]+(?::[0-9]+)*(?:@[A-Za-z0-9+/]*:[A-Za-z0-9+/]*)?)$/.exec(value.trim());
  const seed = m ? Number(m[1]) : NaN;
  if (!m || seed < -(2 ** 31) || seed >= 2 ** 32) {
    throw new UsageError(`--replay must be SEED:PATH as a reproducer gives it (a 32-bit seed, then the fast-check path, e.g. -1234567:0:1), got "${value}"`);
  }
  return { seed, path: m[2] };
}

/** The embedded server's switches, carried in RunConfig so they reach the report and its reproducers. */
function referenceOf(o: ParsedOptions): { referenceFaults?: string[]; referenceVariant?: string } {
  const faults = String(o['reference-faults'] ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  const variant = (o['reference-variant'] as string | undefined)?.trim();
  return { ...(faults.length ? { referenceFaults: faults } : {}), ...(variant ? { referenceVariant: variant } : {}) };
}

/** Every error ends as one clear line on stderr and an exit code; a stack only with STORECHECK_DEBUG. */
function fail(e: unknown): number {
  const err = e as Error;
  const usage = err instanceof UsageError || err instanceof ConfigError || /^(--|STORE_)/.test(err?.message ?? '');
  process.stderr.write(`storecheck: ${usage ? 'usage' : 'error'}: ${err?.message ?? String(e)}\n`);
  if (process.env.STORECHECK_DEBUG) process.stderr.write(`${err?.stack}\n`);
  return usage ? EXIT.usage : EXIT.noVerdict;
}

const invokedDirectly = process.argv[1] && /cli\.(ts|js|mjs)$/.test(process.argv[1]);
// the same end as bin/storecheck.mjs: exit once stdout and stderr have drained
if (invokedDirectly) void exitAfter(() => main(process.argv.slice(2)).catch(fail));
