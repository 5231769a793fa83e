/**
 * The command StrykerJS runs for every mutant of `npm run mutation:engine`
 * (its command test runner: exit 0 = the mutant survived, anything else =
 * killed). Runs storecheck at quick depth against the embedded reference
 * server — in storecheck's own process, so the instrumented reference code
 * is what answers — and records each mutant's outcome to runs.jsonl.
 *
 * Without an active mutant (Stryker's initial run) it runs every server
 * configuration once — the default server and the honest variant stores
 * (reference/variants.ts, all variants joined five to a store) — requires
 * each to be judged conformant, and records which mutants each one reaches
 * (scripts/mutation-engine-probe.mjs) with its observations, to coverage.json.
 *
 * With mutant N active (`__STRYKER_ACTIVE_MUTANT__`), it runs the default
 * server when that reaches N; else the variant stores that reach N, until
 * one detects it (a mutant of a variant's branch is judged by a store running
 * that variant). A survivor of the default server whose site was evaluated
 * at most once there (a module constant, a start-up path: its value may only
 * matter where a variant uses it) goes on to every store that reaches it; any
 * other survivor of the default server goes to the stores that choose
 * otherwise on a choice its code reads (raw/touches.json,
 * scripts/mutation-engine-touches.ts: at most EXTRA_STORES, nearest reads
 * first) — the branches a variant's choice opens, which the default server
 * never takes — and the record names them (`policy`). A mutant no
 * configuration reaches is recorded as unreached and not run: a site never
 * evaluated cannot change what a server answers. Outcomes:
 *   killed      exit 1: the suite said non-conformant
 *   no-verdict  exit 3 (or exit 2, the key refused at the preflight): the
 *               mutant broke the server so that nothing could be judged; a CI
 *               gate fails on it, so it counts as detected, reported apart
 *   crashed     storecheck ended without a verdict of its own (a signal, a
 *               stack trace): counted as detected, reported apart and looked at
 *   survived    the configurations tried judged the server conformant
 *   unreached   no configuration reaches the mutant
 *
 * Environment (set by scripts/mutation-engine.ts): STORECHECK_MUTATION_RAW,
 * the folder shared by every sandbox (coverage.json, runs.jsonl);
 * STORECHECK_MUTATION_SEED; STORECHECK_MUTATION_SCRATCH, where report
 * folders live while a run is read.
 */
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runStorecheck, type CliRun } from '../reference/cli-process.js';
import { storesFor, TOUCHES_FILE, type Touch } from './mutation-engine-touches.js';

export const ACTIVE_MUTANT_ENV = '__STRYKER_ACTIVE_MUTANT__';
/** honest variants joined into stores of this many choices (reference/variants.ts variantCombos) */
export const VARIANTS_PER_STORE = 5;
/** list lengths kept per run in runs.jsonl */
const KEEP = 40;
/**
 * A kill by at most this many failing checks is confirmed before it counts:
 * the mutant is run again with only those checks (`--only`), and when they do
 * not fail again, with the whole suite once more. A check that fails now and
 * then on a busy machine (a rare race of the suite, a slow instrumented
 * server) must not pass for a detection; a kill that does not come back is
 * recorded as a survivor with its first failure, to be looked at.
 */
const CONFIRM_MAX = 6;
/**
 * A mutant that slows the server down (reads that never show a write make the
 * suite poll, a 500 on every lookup makes it retry) ends as no verdict with its
 * reason by a deadline of this many times the configuration's unmutated run
 * (within 60 s … 10 min), before Stryker's own timeout (1.5 × the initial run
 * of every configuration + 1 min: about 13 unmutated runs), which is left for
 * a server that hangs outright.
 */
const DEADLINE_FACTOR = 8;
const deadlineS = (ms: number | undefined) => Math.round(Math.min(600, Math.max(60, (DEADLINE_FACTOR * (ms ?? 60_000)) / 1000)));

export interface Configuration {
  /** 'default', or the joined variant names */
  name: string;
  variant?: string;
}

export interface ConfigurationCoverage extends Configuration {
  ms: number;
  /** the Behaviour keys this store's variants set otherwise than the default server (absent in older maps: derived when needed) */
  chooses?: string[];
  /** the unmutated run failed once and passed when run again (its first report kept in the raw folder) */
  flaky?: { exit: number | null; reason: string };
  /** ids of the mutants the unmutated run reached */
  reached: string[];
  /** the observations of the unmutated run (values) */
  observations: Record<string, unknown>;
}

export interface CoverageMap {
  seed: number;
  at: string;
  configurations: ConfigurationCoverage[];
  /** variant stores not judged conformant unmutated in UNMUTATED_TRIES runs: left out (their mutants judged by the others, or unreached) */
  excluded?: Array<{ name: string; exit: number | null; reason: string }>;
}

export type Outcome = 'killed' | 'no-verdict' | 'crashed' | 'survived' | 'unreached' | 'harness-error' | 'not-sampled';

export interface MutantRun {
  configuration: string;
  /** a run that only confirms an earlier one (see CONFIRM_MAX): `--only` its failing checks, or the whole suite again */
  confirms?: 'only' | 'again';
  exit: number | null;
  signal?: string | null;
  ms: number;
  /** how often the mutant's site was evaluated (null: not measured) */
  hits: number | null;
  verdict?: string;
  reason?: string;
  failedChecks: string[];
  failedCheckCount: number;
  failedItems: string[];
  failedItemCount: number;
  errorChecks: string[];
  errorCheckCount: number;
  /** observations whose value differs from the unmutated run of this configuration */
  changedObservations: Array<{ key: string; before: unknown; after: unknown }>;
  /** the end of stderr, when there was no report */
  stderrTail?: string;
}

export interface MutantRecord {
  id: string;
  at: string;
  outcome: Outcome;
  /** a kill confirmed by a second run (kills by few checks only): by those checks alone, or by the whole suite again */
  confirmed?: 'only' | 'again';
  /** detected once, not when run again: recorded as survived, the first failure kept here */
  flaky?: { configuration: string; failedChecks: string[] };
  /** the configurations that reach the mutant, in the order they were tried */
  reachedBy: string[];
  runs: MutantRun[];
  /** a survivor of the default server sent on to the stores choosing otherwise on what its code reads */
  policy?: { touches: string[]; stores: Array<{ name: string; keys: string[] }> };
  problem?: string;
}

const env = (name: string): string | undefined => process.env[name] || undefined;

function rawDir(): string {
  const dir = env('STORECHECK_MUTATION_RAW');
  if (!dir) throw new Error('STORECHECK_MUTATION_RAW is not set: run through `npm run mutation:engine`');
  mkdirSync(dir, { recursive: true });
  return dir;
}

const seed = (): number => Number(env('STORECHECK_MUTATION_SEED') ?? 2026);

/** The default server, then the honest variant stores (loaded only for the initial run: mutant runs read coverage.json). */
async function configurations(): Promise<Configuration[]> {
  const { variantCombos, variantNames } = await import('../reference/variants.js');
  return [{ name: 'default' }, ...variantCombos(variantNames(), VARIANTS_PER_STORE).map((v) => ({ name: v, variant: v }))];
}

interface Probe { activeMutant: string | null; hits: number; reached: string[] }

/** One storecheck run; `keepAs`: where to keep its report folder when it is not conformant; `only`: --only these checks. */
async function run(c: Configuration & { ms?: number }, withMutant: boolean, keepAs?: string, only?: string[]): Promise<{ cli: CliRun; probe?: Probe }> {
  const scratchRoot = env('STORECHECK_MUTATION_SCRATCH') ?? tmpdir();
  mkdirSync(scratchRoot, { recursive: true });
  const dir = mkdtempSync(join(scratchRoot, 'run-'));
  const probeFile = join(dir, 'probe.json');
  const reportDir = join(dir, 'report');
  const args = ['--depth', 'quick', '--seed', String(seed()), '--deadline-s', String(deadlineS(c.ms)), '--quiet', '--report-dir', reportDir, ...(c.variant ? ['--reference-variant', c.variant] : []), ...(only ? ['--only', only.join(',')] : [])];
  // the unmutated runs of the coverage pass must not inherit a mutant (they never do under Stryker's initial run)
  const saved = process.env[ACTIVE_MUTANT_ENV];
  if (!withMutant) delete process.env[ACTIVE_MUTANT_ENV];
  try {
    const cli = await runStorecheck(args, {
      preload: [join(ROOT, 'scripts', 'mutation-engine-probe.mjs')],
      env: { STORECHECK_MUTATION_PROBE: probeFile },
      // a run that overshoots its deadline by a minute is ended here (a target answering 500 to every
      // lookup kept storecheck retrying well past --deadline-s), before Stryker's timeout would
      timeoutMs: (deadlineS(c.ms) + 60) * 1000,
    });
    const probe = existsSync(probeFile) ? (JSON.parse(readFileSync(probeFile, 'utf8')) as Probe) : undefined;
    if (keepAs && cli.code !== 0 && existsSync(reportDir)) cpSync(reportDir, keepAs, { recursive: true });
    return { cli, probe };
  } finally {
    if (saved !== undefined) process.env[ACTIVE_MUTANT_ENV] = saved;
    rmSync(dir, { recursive: true, force: true });
  }
}

const observationValues = (cli: CliRun): Record<string, unknown> =>
  Object.fromEntries(Object.entries(cli.report?.observations ?? {}).map(([k, o]) => [k, (o as { value?: unknown } | undefined)?.value]));

/**
 * How often an unmutated configuration is run before it is given up: a check
 * that races the run's own writes now and then on a loaded machine must not
 * stop hours of work, nor pass for a detection.
 */
const UNMUTATED_TRIES = 3;

/** The Behaviour keys a configuration's variants set otherwise than the default (none for the default server). */
async function choicesOfStore(c: Configuration): Promise<string[]> {
  if (!c.variant) return [];
  const { getVariant } = await import('../reference/variants.js');
  const { DEFAULT_BEHAVIOUR } = await import('../reference/behaviour.js');
  const { choicesOf } = await import('./mutation-engine-touches.js');
  return choicesOf(c.variant.split('+').map((n) => getVariant(n).behaviour as Record<string, unknown>), DEFAULT_BEHAVIOUR as unknown as Record<string, unknown>);
}

/** The stores a survivor of the default server goes on to: those choosing otherwise on what its code reads (none without raw/touches.json). */
async function storesForSurvivor(id: string, reaching: ConfigurationCoverage[]): Promise<{ touches: string[]; stores: Array<ConfigurationCoverage & { keys: string[] }> }> {
  const file = join(rawDir(), TOUCHES_FILE);
  const touches = existsSync(file) ? ((JSON.parse(readFileSync(file, 'utf8')) as Record<string, Touch[]>)[id] ?? []) : [];
  if (!touches.length) return { touches: [], stores: [] };
  const stores = await Promise.all(reaching.filter((c) => c.variant).map(async (c) => ({ ...c, chooses: c.chooses ?? (await choicesOfStore(c)) })));
  return { touches: touches.map((t) => `${t.key}@${t.line ? 'line' : t.depth}`), stores: storesFor(touches, stores) };
}

/** Stryker's initial run: every configuration, unmutated, until conformant (UNMUTATED_TRIES at most). */
async function coveragePass(): Promise<number> {
  const out: ConfigurationCoverage[] = [];
  const excluded: NonNullable<CoverageMap['excluded']> = [];
  for (const c of await configurations()) {
    const kept = join(rawDir(), `unmutated-${c.name.replace(/[^a-z0-9+-]/gi, '_').slice(0, 80)}`);
    let { cli, probe } = await run(c, false, kept);
    let flaky: ConfigurationCoverage['flaky'];
    for (let tries = 1; (cli.code !== 0 || !probe) && tries < UNMUTATED_TRIES; tries++) {
      // again: a failure that does not come back is recorded as flaky (and reported)
      flaky ??= { exit: cli.code, reason: cli.report?.summary.reason ?? cli.stderr.trim().split('\n').slice(-3).join(' | ') };
      process.stdout.write(`${c.name}: not conformant unmutated (exit ${cli.code}; first report kept in ${kept}); running it again\n`);
      ({ cli, probe } = await run(c, false));
    }
    if (cli.code !== 0 || !probe) {
      const why = cli.report?.summary.reason ?? cli.stderr.trim().split('\n').slice(-5).join(' | ');
      process.stdout.write(`mutation:engine: the unmutated ${c.name} server is not judged conformant in ${UNMUTATED_TRIES} runs (exit ${cli.code ?? cli.signal}${probe ? '' : ', no probe'}; report kept in ${kept}): ${why}\n`);
      // without the default server nothing can be judged; a variant store is left out and reported
      if (!c.variant) return 1;
      excluded.push({ name: c.name, exit: cli.code, reason: why });
      continue;
    }
    out.push({ ...c, ms: cli.ms, chooses: await choicesOfStore(c), ...(flaky ? { flaky } : {}), reached: probe.reached, observations: observationValues(cli) });
    process.stdout.write(`${c.name}: conformant, reaches ${probe.reached.length} mutants, ${(cli.ms / 1000).toFixed(1)} s\n`);
  }
  const map: CoverageMap = { seed: seed(), at: new Date().toISOString(), configurations: out, ...(excluded.length ? { excluded } : {}) };
  writeFileSync(join(rawDir(), 'coverage.json'), JSON.stringify(map) + '\n');
  return 0;
}

function outcomeOf(cli: CliRun): Outcome {
  if (cli.code === 0) return 'survived';
  if (cli.code === 1 && cli.report) return 'killed';
  // killed a minute past its deadline: nothing could be judged in the time a run may take
  if (cli.timedOut || ((cli.code === 3 || cli.code === 2))) return 'no-verdict';
  return 'crashed';
}

function describe(c: ConfigurationCoverage, cli: CliRun, probe: Probe | undefined): MutantRun {
  const checks = cli.report?.checks ?? [];
  const failed = checks.filter((x) => x.status === 'failed').map((x) => x.id);
  const errors = checks.filter((x) => x.status === 'error').map((x) => x.id);
  const items = (cli.report?.items ?? []).filter((x) => x.status === 'failed').map((x) => x.id);
  const after = cli.report ? observationValues(cli) : {};
  const changed = cli.report
    ? [...new Set([...Object.keys(c.observations), ...Object.keys(after)])]
        .filter((k) => JSON.stringify(c.observations[k]) !== JSON.stringify(after[k]))
        .map((key) => ({ key, before: c.observations[key], after: after[key] }))
    : [];
  return {
    configuration: c.name,
    exit: cli.code,
    ...(cli.signal ? { signal: cli.signal } : {}),
    ms: cli.ms,
    hits: probe ? probe.hits : null,
    ...(cli.report ? { verdict: cli.report.summary.verdict, reason: cli.report.summary.reason } : {}),
    failedChecks: failed.slice(0, KEEP),
    failedCheckCount: failed.length,
    failedItems: items.slice(0, KEEP),
    failedItemCount: items.length,
    errorChecks: errors.slice(0, KEEP),
    errorCheckCount: errors.length,
    changedObservations: changed,
    ...(cli.timedOut ? { reason: `storecheck did not end by its deadline: killed after ${Math.round(cli.ms / 1000)} s` } : {}),
    ...(cli.report ? {} : { stderrTail: cli.stderr.trim().split('\n').slice(-8).join('\n').slice(-2000) }),
  };
}

/** One mutant: the configurations that reach it, until one detects it. Exit 0 = survived. */
async function mutantRun(id: string): Promise<number> {
  const raw = rawDir();
  const record = (r: Omit<MutantRecord, 'id' | 'at'>) => appendFileSync(join(raw, 'runs.jsonl'), JSON.stringify({ id, at: new Date().toISOString(), ...r }) + '\n');
  const file = join(raw, 'coverage.json');
  if (!existsSync(file)) {
    // never counted as a kill: a broken harness must not raise the score
    record({ outcome: 'harness-error', reachedBy: [], runs: [], problem: 'no coverage.json (the initial run did not write it)' });
    process.stdout.write('harness error: no coverage.json\n');
    return 0;
  }
  const map = JSON.parse(readFileSync(file, 'utf8')) as CoverageMap;
  const reaching = map.configurations.filter((c) => c.reached.includes(id));
  if (!reaching.length) {
    record({ outcome: 'unreached', reachedBy: [], runs: [] });
    process.stdout.write('unreached: no server configuration reaches this mutant\n');
    return 0;
  }
  const runs: MutantRun[] = [];
  let order = reaching;
  let policy: MutantRecord['policy'];
  for (let i = 0; i < order.length; i++) {
    const c = order[i];
    // the default server judges what it evaluates more than once; the stores choosing otherwise on what its code reads judge it then
    const last = runs[runs.length - 1];
    if (last?.configuration === 'default' && (last.hits === null || last.hits > 1) && !policy) {
      const sent = await storesForSurvivor(id, reaching);
      policy = { touches: sent.touches, stores: sent.stores.map((s) => ({ name: s.name, keys: s.keys })) };
      if (!sent.stores.length) break;
      order = [...order.slice(0, i), ...sent.stores];
      i--;
      continue;
    }
    const { cli, probe } = await run(c, true);
    const r = describe(c, cli, probe);
    runs.push(r);
    let outcome = outcomeOf(cli);
    let confirmed: MutantRecord['confirmed'];
    if (outcome === 'killed' && r.failedCheckCount <= CONFIRM_MAX) {
      const only = await run(c, true, undefined, r.failedChecks);
      const byOnly = { ...describe(c, only.cli, only.probe), confirms: 'only' as const };
      runs.push(byOnly);
      if (only.cli.code === 1 && byOnly.failedChecks.some((x) => r.failedChecks.includes(x))) confirmed = 'only';
      else {
        const again = await run(c, true);
        runs.push({ ...describe(c, again.cli, again.probe), confirms: 'again' });
        if (outcomeOf(again.cli) === 'killed') confirmed = 'again';
        else outcome = 'survived';
      }
    }
    if (outcome !== 'survived') {
      record({ outcome, ...(confirmed ? { confirmed } : {}), reachedBy: reaching.map((x) => x.name), runs, ...(policy ? { policy } : {}) });
      const what = outcome === 'killed'
        ? `${r.failedCheckCount} failed check(s): ${r.failedChecks.slice(0, 5).join(', ')}`
        : r.reason ?? r.stderrTail ?? '';
      process.stdout.write(`${outcome} by the ${c.name} server (exit ${cli.code ?? cli.signal}): ${what}\n`);
      return 1;
    }
  }
  const flaky = runs.find((x, i) => x.exit === 1 && !x.confirms && runs[i + 1]?.confirms);
  record({ outcome: 'survived', ...(flaky ? { flaky: { configuration: flaky.configuration, failedChecks: flaky.failedChecks } } : {}), reachedBy: reaching.map((x) => x.name), runs, ...(policy ? { policy } : {}) });
  process.stdout.write(`survived: conformant on ${runs.map((x) => x.configuration).join(', ')}\n`);
  return 0;
}

async function main(): Promise<number> {
  const id = process.env[ACTIVE_MUTANT_ENV];
  // a resumed run keeps the coverage of the run it continues (the same source and seed): no second pass
  if (id === undefined && env('STORECHECK_MUTATION_RESUME') && existsSync(join(rawDir(), 'coverage.json'))) return 0;
  return id === undefined ? coveragePass() : mutantRun(id);
}

main().then(
  (code) => process.exit(code),
  (e) => {
    const problem = `harness error: ${(e as Error)?.stack ?? e}`;
    process.stdout.write(`mutation:engine ${problem}\n`);
    const id = process.env[ACTIVE_MUTANT_ENV];
    if (id === undefined) process.exit(2);
    // a crash of the harness is never a kill: recorded, and the report refuses a score while any is left
    try {
      appendFileSync(join(rawDir(), 'runs.jsonl'), JSON.stringify({ id, at: new Date().toISOString(), outcome: 'harness-error', reachedBy: [], runs: [], problem }) + '\n');
    } finally {
      process.exit(0);
    }
  },
);
