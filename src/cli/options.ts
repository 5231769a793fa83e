/**
 * Flags and the environment variables that mirror them (flags win over env,
 * env over defaults). One table drives parsing, validation and --help.
 */

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Kind = 'string' | 'int' | 'flag' | 'list';

export interface OptionSpec {
  flag: string;
  env?: string;
  kind: Kind;
  arg?: string;
  help: string;
  choices?: string[];
  min?: number;
}

export const RUN_OPTIONS: OptionSpec[] = [
  { flag: 'base-url', env: 'STORE_BASE_URL', kind: 'string', arg: 'URL', help: 'target base URL (paths /api/v1/... are appended); without it the embedded reference server is started' },
  { flag: 'api-key', env: 'STORE_API_KEY', kind: 'string', arg: 'KEY', help: 'the API key, sent in the body only; never printed or stored (prefer the env var)' },
  { flag: 'report-dir', env: 'STORE_REPORT_DIR', kind: 'string', arg: 'DIR', help: 'where reports go (default reports/<timestamp>/, with reports/latest pointing at it)' },
  { flag: 'depth', env: 'STORE_DEPTH', kind: 'string', arg: 'quick|standard|deep', choices: ['quick', 'standard', 'deep'], help: 'how hard the properties search (default standard)' },
  { flag: 'seed', env: 'STORE_SEED', kind: 'int', arg: 'N', help: 'seed of every generator; replays a run (default: random, printed and reported)' },
  { flag: 'only', env: 'STORE_ONLY', kind: 'string', arg: 'PATTERN', help: "check ids to run: globs with *, comma-separated (e.g. 'product.*,*.filters.range.*')" },
  { flag: 'read-only', env: 'STORE_READ_ONLY', kind: 'flag', help: 'only get, count and store checks: no create, update or delete is ever sent' },
  { flag: 'expect', env: 'STORE_EXPECT', kind: 'string', arg: 'FILE', help: 'known deviations (JSON): reported as expected failures, they do not fail the run' },
  { flag: 'baseline', env: 'STORE_BASELINE', kind: 'string', arg: 'FILE', help: 'an earlier report.json: new failures and changed observations fail the run' },
  { flag: 'min-coverage', env: 'STORE_MIN_COVERAGE', kind: 'int', arg: 'PERCENT', min: 0, help: 'no verdict (exit 3) when fewer than PERCENT % of the spec items could be judged' },
  { flag: 'visibility-timeout-ms', env: 'STORE_VISIBILITY_TIMEOUT_MS', kind: 'int', arg: 'N', min: 0, help: 'how long a read may take to show a write (lagging replicas) before it is judged (default 5000)' },
  { flag: 'concurrency', env: 'STORE_CONCURRENCY', kind: 'int', arg: 'N', min: 1, help: 'requests in flight at most, across all workers (default 24)' },
  { flag: 'workers', env: 'STORE_WORKERS', kind: 'int', arg: 'N', min: 1, help: 'check files run in parallel (default: cores + 1, 2 to 4; at most --concurrency)' },
  { flag: 'timeout-ms', env: 'STORE_TIMEOUT_MS', kind: 'int', arg: 'N', min: 100, help: 'per-request timeout (default 15000)' },
  { flag: 'max-answer-mb', env: 'STORE_MAX_ANSWER_MB', kind: 'int', arg: 'N', min: 1, help: 'an answer larger than this is cut while it streams and not judged (default 32)' },
  { flag: 'max-rps', env: 'STORE_MAX_RPS', kind: 'int', arg: 'N', min: 0, help: 'requests per second at most (default 0 = unlimited)' },
  { flag: 'deadline-s', env: 'STORE_DEADLINE_S', kind: 'int', arg: 'N', min: 10, help: 'the whole run ends by then, with cleanup (default 900)' },
  { flag: 'shard', env: 'STORE_SHARD', kind: 'string', arg: 'i/n', help: 'run one slice of the check files (merge the shards with `storecheck merge`)' },
  { flag: 'insecure', env: 'STORE_INSECURE', kind: 'flag', help: "accept a self-signed TLS certificate (or give the CA with NODE_EXTRA_CA_CERTS)" },
  { flag: 'quiet', env: 'STORE_QUIET', kind: 'flag', help: 'no progress line, only the summary' },
  { flag: 'reference-faults', env: 'STORECHECK_REFERENCE_FAULTS', kind: 'string', arg: 'NAMES', help: 'embedded server only: switch on faults (comma-separated, see reference/README.md) to see the suite catch them' },
  { flag: 'reference-variant', env: 'STORECHECK_REFERENCE_VARIANT', kind: 'string', arg: 'NAME', help: 'embedded server only: run it as a benign variant (another honest choice where the spec is silent)' },
  { flag: 'help', kind: 'flag', help: 'show this help' },
];

export type ParsedOptions = Record<string, string | number | boolean | undefined>;

/** Parse `--flag value`, `--flag=value` and boolean `--flag`; env vars fill what flags leave out. */
export function parseOptions(argv: string[], specs: OptionSpec[], env: NodeJS.ProcessEnv = process.env): { options: ParsedOptions; positional: string[] } {
  const options: ParsedOptions = {};
  const positional: string[] = [];
  const byFlag = new Map(specs.map((s) => [s.flag, s]));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
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
    options[name] = convert(spec, value, `--${name}`);
  }
  for (const spec of specs) {
    if (options[spec.flag] !== undefined || !spec.env) continue;
    const v = env[spec.env];
    if (v === undefined || v === '') continue;
    options[spec.flag] = spec.kind === 'flag' ? parseBool(v, spec.env) : convert(spec, v, spec.env);
  }
  return { options, positional };
}

function convert(spec: OptionSpec, value: string, where: string): string | number {
  if (spec.kind === 'int') {
    if (!/^-?[0-9]+$/.test(value)) throw new UsageError(`${where} must be an integer, got "${value}"`);
    const n = Number(value);
    if (spec.min !== undefined && n < spec.min) throw new UsageError(`${where} must be at least ${spec.min}, got ${n}`);
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

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

export function helpText(specs: OptionSpec[]): string {
  return specs
    .map((s) => {
      const left = `  --${s.flag}${s.arg ? ` ${s.arg}` : ''}`;
      const env = s.env ? ` [env ${s.env}]` : '';
      return `${left.padEnd(36)}${s.help}${env}`;
    })
    .join('\n');
}
