/**
 * Flags and the environment variables that mirror them (flags win over env,
 * env over defaults). One table drives parsing, validation, --help, the config
 * file's schema and every default: an option's default is written here and
 * nowhere else (withDefaults() applies them; the help shows them).
 */
import { randomInt } from 'node:crypto';
import { constants as bufferConstants } from 'node:buffer';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Kind = 'string' | 'int' | 'flag' | 'list';

/** A value an option holds once parsed. */
export type OptionValue = string | number | boolean | string[];

/** The headings of a command's help, in this order (one table drives flags, env, config file and help). */
export const OPTION_GROUPS = {
  target: 'target',
  selection: 'selection: which checks, how hard',
  load: 'load on the target',
  reporting: 'reporting',
  embedded: 'embedded reference server (without --base-url)',
  general: 'general',
} as const;
export type OptionGroup = keyof typeof OPTION_GROUPS;

export interface OptionSpec {
  flag: string;
  /** one-letter spelling (`-h`) */
  short?: string;
  env?: string;
  /** 'list': the option may repeat; its values are collected in order */
  kind: Kind;
  arg?: string;
  help: string;
  choices?: string[];
  /** an int option's range: every int option has both (test/unit/cli-options.test.ts), a value outside is exit 2 */
  min?: number;
  max?: number;
  /** the heading it is listed under in the help (default: general) */
  group?: OptionGroup;
  /** not settable in storecheck.config.json (per-invocation options, the key) */
  noFile?: boolean;
  /**
   * The value when neither flag, env nor config file gives one. A constant is
   * shown in the help as "(default X)"; one computed at each run (a random
   * seed, a timestamped folder, one worker per core) is a function, and its
   * help says what it computes.
   */
  default?: OptionValue | (() => OptionValue);
  /** how the help shows a constant default when the value alone does not say it ('0 = unlimited') */
  defaultNote?: string;
}

/** -h/--help and -V/--version: every command knows them (src/cli.ts answers them before the command runs). */
export const COMMON_OPTIONS: OptionSpec[] = [
  { flag: 'help', short: 'h', kind: 'flag', group: 'general', noFile: true, help: 'show this help and exit' },
  { flag: 'version', short: 'V', kind: 'flag', group: 'general', noFile: true, help: 'print the version and exit' },
];

/**
 * The limits of the platform the int options meet. A timer of more than
 * 2^31 - 1 ms fires at once (Node's setTimeout); an answer is decoded as one
 * string, and V8's longest is MAX_STRING_LENGTH; the gate paces starts in
 * ticks of 0.1 ms (src/client/gate.ts), so no finer pace than 10 000 a second;
 * each request in flight holds a socket, and 1 024 open files is the usual
 * per-process limit; seeds are mixed as 32-bit integers (src/check/seed.ts),
 * so two seeds further apart would replay the same run.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;
const MAX_ANSWER_MB = Math.floor(bufferConstants.MAX_STRING_LENGTH / 2 ** 20);
const MAX_RPS = 10_000;
const MAX_CONCURRENCY = 1_024;
const MAX_WORKERS = 64;

export const RUN_OPTIONS: OptionSpec[] = [
  { flag: 'base-url', env: 'STORE_BASE_URL', kind: 'string', arg: 'URL', group: 'target', help: 'target base URL (paths /api/v1/... are appended); without it the embedded reference server is started' },
  { flag: 'api-key', env: 'STORE_API_KEY', kind: 'string', arg: 'KEY', group: 'target', noFile: true, help: 'the API key, sent in the body only; never printed or stored (prefer the env var; never in a config file)' },
  { flag: 'insecure', env: 'STORE_INSECURE', kind: 'flag', group: 'target', help: 'accept a self-signed TLS certificate (or give the CA with NODE_EXTRA_CA_CERTS)' },
  { flag: 'timeout-ms', env: 'STORE_TIMEOUT_MS', kind: 'int', arg: 'N', min: 100, max: MAX_TIMER_MS, group: 'target', default: 15_000, help: 'per-request timeout' },
  { flag: 'visibility-timeout-ms', env: 'STORE_VISIBILITY_TIMEOUT_MS', kind: 'int', arg: 'N', min: 0, max: MAX_TIMER_MS, group: 'target', default: 5_000, help: 'how long a read may take to show a write (lagging replicas) before it is judged' },
  { flag: 'max-answer-mb', env: 'STORE_MAX_ANSWER_MB', kind: 'int', arg: 'N', min: 1, max: MAX_ANSWER_MB, group: 'target', default: 32, help: 'an answer larger than this is cut while it streams and not judged' },
  { flag: 'keep-data', env: 'STORE_KEEP_DATA', kind: 'flag', group: 'target', help: 'leave the records the run created on the target (to look at them, or to rerun a reproducer\'s curl; external targets only); the ledger keeps them and the run prints the sweep command that removes them' },
  { flag: 'only', env: 'STORE_ONLY', kind: 'string', arg: 'PATTERN', group: 'selection', help: "check or item ids to run: globs with *, comma-separated (e.g. 'product.*,*.filters.range.*'); `storecheck list` prints them" },
  { flag: 'depth', env: 'STORE_DEPTH', kind: 'string', arg: 'quick|standard|deep', choices: ['quick', 'standard', 'deep'], group: 'selection', default: 'standard', help: 'how hard the properties search' },
  { flag: 'seed', env: 'STORE_SEED', kind: 'int', arg: 'N', min: -(2 ** 31), max: 2 ** 31 - 1, group: 'selection', default: () => randomInt(1, 2 ** 31 - 1), help: 'seed of every generator; replays a run (default: random, printed and reported)' },
  { flag: 'replay', kind: 'string', arg: 'SEED:PATH', group: 'selection', noFile: true, help: 'replay one failing property case: the seed and fast-check path of a reproducer (with its --seed and --only)' },
  { flag: 'shrink-s', env: 'STORE_SHRINK_S', kind: 'int', arg: 'N', min: 0, max: 3600, group: 'selection', default: 60, help: 'how long one failing property may look for a smaller failing case (standard and deep depth; each try is a run against the target; 0: report the case as first found)' },
  { flag: 'read-only', env: 'STORE_READ_ONLY', kind: 'flag', group: 'selection', help: 'only get, count and store checks: no create, update or delete is ever sent' },
  { flag: 'shard', env: 'STORE_SHARD', kind: 'string', arg: 'i/n', group: 'selection', help: 'run one of n slices of the checks, of similar estimated cost (merge the shards with `storecheck merge`)' },
  { flag: 'concurrency', env: 'STORE_CONCURRENCY', kind: 'int', arg: 'N', min: 1, max: MAX_CONCURRENCY, group: 'load', default: 24, help: 'requests in flight at most, across all workers' },
  { flag: 'max-rps', env: 'STORE_MAX_RPS', kind: 'int', arg: 'N', min: 0, max: MAX_RPS, group: 'load', default: 0, defaultNote: '0 = unlimited', help: 'requests per second at most' },
  { flag: 'workers', env: 'STORE_WORKERS', kind: 'int', arg: 'N', min: 1, max: MAX_WORKERS, group: 'load', default: () => defaultWorkers(availableParallelism()), help: 'check files run in parallel (default: cores + 1, 2 to 4; at most --concurrency and the files holding a selected check)' },
  { flag: 'deadline-s', env: 'STORE_DEADLINE_S', kind: 'int', arg: 'N', min: 10, max: Math.floor(MAX_TIMER_MS / 1000), group: 'load', default: 900, help: 'the whole run ends by then, with cleanup' },
  { flag: 'report-dir', env: 'STORE_REPORT_DIR', kind: 'string', arg: 'DIR', group: 'reporting', default: () => join('reports', timestamp()), help: 'where reports go (default reports/<timestamp>/, with reports/latest pointing at it)' },
  { flag: 'expect', env: 'STORE_EXPECT', kind: 'string', arg: 'FILE', group: 'reporting', help: 'known deviations (JSON): reported as expected failures, they do not fail the run' },
  { flag: 'baseline', env: 'STORE_BASELINE', kind: 'string', arg: 'FILE', group: 'reporting', help: 'an earlier report.json: new failures and changed observations fail the run' },
  { flag: 'min-coverage', env: 'STORE_MIN_COVERAGE', kind: 'int', arg: 'PERCENT', min: 0, max: 100, group: 'reporting', help: 'no verdict (exit 3) when fewer than PERCENT % of the spec items could be judged' },
  { flag: 'quiet', env: 'STORE_QUIET', kind: 'flag', group: 'reporting', help: 'no progress line, only the summary' },
  { flag: 'reference-faults', env: 'STORECHECK_REFERENCE_FAULTS', kind: 'string', arg: 'NAMES', group: 'embedded', help: 'switch on faults (comma-separated, see reference/README.md) to see the suite catch them' },
  { flag: 'reference-variant', env: 'STORECHECK_REFERENCE_VARIANT', kind: 'string', arg: 'NAME', group: 'embedded', help: 'run it as a benign variant (another honest choice where the spec is silent)' },
  { flag: 'config', env: 'STORE_CONFIG', kind: 'string', arg: 'FILE', group: 'general', noFile: true, help: 'run options from a JSON file (default: ./storecheck.config.json when it exists); flags win over env, env over the file' },
  ...COMMON_OPTIONS,
];

export type ParsedOptions = Record<string, OptionValue | undefined>;

/**
 * Requests in flight at most, by default (--concurrency 24): at 30 ms a
 * response, 16 in flight were the bound of a standard run (the gate full most
 * of the time, ~400 requests/s); 24 leave the CPU the bound again. A fragile
 * target gets fewer with --concurrency (and --max-rps).
 *
 * Check files run in parallel by default (--workers): one per core and one
 * more, 2 to 4. Requests overlap within a file already (its checks run
 * concurrently), so workers are there for the CPU and for the tail of each
 * file; every worker is a V8 isolate of its own that loads, compiles and warms
 * up the whole suite again (about 1.5 CPU-s a run), so more workers than cores
 * cost more than they hide (bench on 2 cores, 30 ms latency: 2 workers 11.2 s,
 * 3 9.4 s, 4 10.8 s).
 */
export function defaultWorkers(cores: number): number {
  return Math.max(2, Math.min(4, cores + 1));
}

/** A run's folder name under reports/: its start, to the second (2025-03-14_09-26-53). */
function timestamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19);
}

/** The entry of `flag` in a table (a command shares a run option's entry: one kind, env, limit and default). */
export function optionSpec(flag: string, specs: readonly OptionSpec[] = RUN_OPTIONS): OptionSpec {
  const spec = specs.find((s) => s.flag === flag);
  if (!spec) throw new Error(`no option --${flag} in the table`);
  return spec;
}

/** The default of an option with a constant one (the table's). */
export function optionDefault(flag: string, specs: readonly OptionSpec[] = RUN_OPTIONS): OptionValue {
  const d = optionSpec(flag, specs).default;
  if (d === undefined || typeof d === 'function') throw new Error(`--${flag} has no constant default`);
  return d;
}

/** `options` with every option nobody gave set to its default (flags, env and a config file all came first). */
export function withDefaults(options: ParsedOptions, specs: readonly OptionSpec[]): ParsedOptions {
  const out: ParsedOptions = { ...options };
  for (const s of specs) {
    if (out[s.flag] !== undefined || s.default === undefined) continue;
    out[s.flag] = typeof s.default === 'function' ? s.default() : s.default;
  }
  return out;
}

/** An option's description as the help and the config schema show it: its help, then its constant default. */
export function optionHelp(s: OptionSpec): string {
  if (s.default === undefined || typeof s.default === 'function') return s.help;
  return `${s.help} (default ${s.defaultNote ?? String(s.default)})`;
}

/**
 * Parse `--flag value`, `--flag=value`, boolean `--flag` and one-letter `-h`;
 * an option of kind 'list' may repeat. Env vars fill what flags leave out.
 */
export function parseOptions(argv: string[], specs: OptionSpec[], env: NodeJS.ProcessEnv = process.env): { options: ParsedOptions; positional: string[] } {
  const options: ParsedOptions = {};
  const positional: string[] = [];
  const byFlag = new Map(specs.map((s) => [s.flag, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (/^-[^-]/.test(a)) {
      const spec = byShort.get(a.slice(1));
      if (!spec) throw new UsageError(`unknown option ${a}${suggest(a.replace(/^-+/, ''), specs)} (see --help)`);
      if (spec.kind !== 'flag') throw new UsageError(`option ${a} needs the long form --${spec.flag} ${spec.arg ?? ''}`.trim());
      options[spec.flag] = true;
      continue;
    }
    if (!a.startsWith('--') || a === '--') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq === -1 ? undefined : eq);
    const spec = byFlag.get(name);
    if (!spec) throw new UsageError(`unknown option --${name}${suggest(name, specs)} (see --help)`);
    if (spec.kind === 'flag') {
      if (eq !== -1) options[name] = parseBool(a.slice(eq + 1), `--${name}`);
      else options[name] = true;
      continue;
    }
    const value = eq !== -1 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new UsageError(`option --${name} needs a value ${spec.arg ?? ''}`.trim());
    if (spec.kind === 'list') options[name] = [...((options[name] as string[] | undefined) ?? []), convert(spec, value, `--${name}`) as string];
    else options[name] = convert(spec, value, `--${name}`);
  }
  for (const spec of specs) {
    if (options[spec.flag] !== undefined || !spec.env) continue;
    const v = env[spec.env];
    if (v === undefined || v === '') continue;
    options[spec.flag] = fromText(spec, v, spec.env);
  }
  return { options, positional };
}

/** A value given as text (flag or env) in the option's type. */
export function fromText(spec: OptionSpec, value: string, where: string): string | number | boolean | string[] {
  if (spec.kind === 'flag') return parseBool(value, where);
  if (spec.kind === 'list') return [convert(spec, value, where) as string];
  return convert(spec, value, where);
}

/**
 * Does a command line ask for help or the version? Walks it with the
 * command's option table (so the value of `--only -h` is not mistaken for a
 * flag); the first of -h/--help/-V/--version wins. Anything else, even an
 * unknown option, is left for the command to judge.
 */
export function helpOrVersion(argv: string[], specs: OptionSpec[]): 'help' | 'version' | undefined {
  const takesValue = new Set(specs.filter((s) => s.kind !== 'flag').map((s) => s.flag));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') return 'help';
    if (a === '-V' || a === '--version') return 'version';
    if (a.startsWith('--') && !a.includes('=') && takesValue.has(a.slice(2))) i++;
  }
  return undefined;
}

function convert(spec: OptionSpec, value: string, where: string): string | number {
  if (spec.kind === 'int') {
    if (!/^-?[0-9]+$/.test(value)) throw new UsageError(`${where} must be an integer, got "${value}"`);
    const n = Number(value);
    if (spec.min !== undefined && n < spec.min) throw new UsageError(`${where} must be at least ${spec.min}, got ${n}`);
    if (spec.max !== undefined && n > spec.max) throw new UsageError(`${where} must be at most ${spec.max}, got ${n}`);
    return n;
  }
  if (spec.choices && !spec.choices.includes(value)) throw new UsageError(`${where} must be one of ${spec.choices.join(', ')}, got "${value}"`);
  return value;
}

function parseBool(v: string, where: string): boolean {
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new UsageError(`${where} must be true or false, got "${v}"`);
}

function suggest(name: string, specs: OptionSpec[]): string {
  const close = specs.map((s) => s.flag).find((f) => f.includes(name) || name.includes(f) || distance(f, name) <= 2);
  return close ? ` (did you mean --${close}?)` : '';
}

/** Levenshtein distance of two short names (for "did you mean"). */
export function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

/** Help lines are wrapped to this many columns (a unit test holds every command's help to it). */
export const HELP_WIDTH = 100;
/** Column where an option's description starts. */
const HELP_COLUMN = 30;

/** Word-wrap `text` to `width` columns; lines after the first are indented by `indent` spaces. */
export function wrap(text: string, width = HELP_WIDTH, indent = 0, firstIndent = indent): string {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    // a paragraph's own leading spaces (an indented example) are kept on its lines
    const lead = /^ */.exec(para)![0].length;
    let line = ' '.repeat((out.length ? indent : firstIndent) + lead);
    let empty = true;
    for (const word of para.split(/ +/).filter(Boolean)) {
      if (!empty && line.length + 1 + word.length > width) {
        out.push(line);
        line = ' '.repeat(indent + lead);
        empty = true;
      }
      line += (empty ? '' : ' ') + word;
      empty = false;
    }
    out.push(line.trimEnd());
  }
  return out.join('\n');
}

/** The options of a table under their group headings, descriptions wrapped to HELP_WIDTH. */
export function helpText(specs: OptionSpec[], width = HELP_WIDTH): string {
  const groups = Object.keys(OPTION_GROUPS) as OptionGroup[];
  const used = groups.filter((g) => specs.some((s) => (s.group ?? 'general') === g));
  return used
    .map((g) => {
      const lines = specs.filter((s) => (s.group ?? 'general') === g).map((s) => optionLine(s, width));
      return used.length > 1 ? `${OPTION_GROUPS[g]}:\n${lines.join('\n')}` : lines.join('\n');
    })
    .join('\n\n');
}

function optionLine(s: OptionSpec, width: number): string {
  const left = `  ${s.short ? `-${s.short}, ` : ''}--${s.flag}${s.arg ? ` ${s.arg}` : ''}`;
  // "[env NAME]" stays on one line (a no-break space while wrapping)
  const text = `${optionHelp(s)}${s.env ? ` [env\u00a0${s.env}]` : ''}`;
  const body = wrap(text, width, HELP_COLUMN).replace(/\u00a0/g, ' ');
  if (left.length >= HELP_COLUMN - 1) return `${left}\n${body}`;
  return left.padEnd(HELP_COLUMN) + body.slice(HELP_COLUMN);
}

/** A subcommand's whole help: usage line(s), what it does, its options. */
export function commandHelp(usage: string, about: string, specs: OptionSpec[], after?: string): string {
  return [`usage: ${usage}`, '', wrap(about), '', 'options:', helpText(specs), ...(after ? ['', wrap(after)] : [])].join('\n');
}
