/**
 * Proofs that the suite works: run the whole storecheck CLI (quick depth, a
 * fixed seed) against the embedded reference server
 *   - with one fault of faults.ts switched on: it must say non-conformant
 *     (exit 1) and a failing check must name the rule the fault breaks;
 *   - as one benign variant of variants.ts (or the default server): it must
 *     say conformant (exit 0) and observe what the variant chose.
 * Used by test/meta/{faults,variants}.test.ts and scripts/mutation.ts.
 *
 * Lives in reference/ beside the fault and variant registries it proves (and
 * not in src/, which is what users run against their own targets and never
 * needs the faults).
 */
import { rmSync } from 'node:fs';
import type { CheckResult, Verdict } from '../src/report/types.js';
import { runStorecheck, type CliRun } from './cli-process.js';
import { defaultConcurrency, runPool } from './pool.js';
import { FAULTS, getFault } from './faults.js';
import type { Fault } from './pipeline.js';
import { DEFAULT_OBSERVATIONS, expectedObservationsOf, getVariant, VARIANTS, type Between, type Observations } from './variants.js';

export { defaultConcurrency, runPool };

/** The seed every proof runs with: the same seed replays the same run. */
export const PROVE_SEED = 20261122;
/** The pseudo-variant name of the default server (no --reference-variant). */
export const DEFAULT_SERVER = 'default';

export interface ProveOptions {
  seed?: number;
  depth?: 'quick' | 'standard' | 'deep';
  /** kill the run after this long (default 10 min) */
  timeoutMs?: number;
  /** keep the report directory even when the proof holds (by default only a failed proof keeps it) */
  keepReport?: boolean;
  /** extra CLI flags (e.g. --workers 2) */
  extraArgs?: string[];
  /**
   * Run only the checks of the rule the fault breaks (--only), not the whole
   * suite: the proof asks whether that rule's checks catch the fault, and
   * costs a fifth of a whole run (how `npm test` proves the catalogue;
   * `npm run mutation` runs the whole suite).
   */
  ruleOnly?: boolean;
}

/** The --only patterns of one rule's checks (<resource>.<rule> and its subjects). */
export const onlyRule = (rule: string): string => `*.${rule},*.${rule}.*`;

export interface CheckBrief {
  id: string;
  rule: string;
  status: CheckResult['status'];
  message?: string;
}

interface ProofBase {
  name: string;
  description: string;
  exitCode: number | null;
  verdict: Verdict | 'none';
  /** the verdict line's reason (what failed, or what could not be judged) */
  verdictReason?: string;
  /** wall time of the run, ms */
  ms: number;
  /** CPU time of the run (all its threads), ms */
  cpuMs?: number;
  checks: number;
  requestCount?: number;
  /** checks that could not judge the target (status error) */
  errors: CheckBrief[];
  /** why there is no report / the run did not end normally (stderr tail) */
  problem?: string;
  /** kept only when the proof failed or keepReport was asked */
  reportDir?: string;
  seed: number;
}

export interface FaultProof extends ProofBase {
  kind: 'fault';
  breaks: string;
  section: string;
  failing: CheckBrief[];
  /** failing checks whose rule is the one the fault breaks */
  detectedBy: CheckBrief[];
  detected: boolean;
  /** failing checks of other rules */
  collateral: CheckBrief[];
  /** the proof holds: exit 1 and detected */
  caught: boolean;
}

export interface ObservationMismatch {
  key: string;
  expected: unknown;
  /** undefined: the report holds no such observation */
  actual: unknown;
}

export interface VariantProof extends ProofBase {
  kind: 'variant';
  /** checks that failed against an honest server */
  falseAlarms: CheckBrief[];
  observations: Record<string, unknown>;
  expected: Observations;
  mismatches: ObservationMismatch[];
  /** the proof holds: exit 0, no false alarm, every expected observation probed as expected */
  passed: boolean;
}

export type Proof = FaultProof | VariantProof;

const brief = (c: CheckResult): CheckBrief => ({
  id: c.id,
  rule: c.rule,
  status: c.status,
  ...(c.message ? { message: c.message.length > 400 ? `${c.message.slice(0, 400)}…` : c.message } : {}),
});

function cliArgs(opts: ProveOptions, proveDepth?: Fault['proveDepth']): { seed: number; args: string[] } {
  const seed = opts.seed ?? PROVE_SEED;
  const depth = opts.depth ?? proveDepth ?? 'quick';
  // one vitest worker: the check files run one after another, but their checks run concurrently
  // anyway; a worker fewer saves a module graph and a schema compile per proof (~30 % of its CPU)
  return { seed, args: ['--depth', depth, '--seed', String(seed), '--workers', '1', '--quiet', ...(opts.extraArgs ?? [])] };
}

function problemOf(run: CliRun): string | undefined {
  if (run.timedOut) return `killed after ${Math.round(run.ms / 1000)} s (timeout)`;
  if (!run.report) return `no report.json (exit ${run.code ?? run.signal}): ${run.stderr.trim().split('\n').slice(-5).join(' | ') || '(no stderr)'}`;
  if (run.code !== 0 && run.code !== 1) return `exit ${run.code}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`;
  return undefined;
}

function base(run: CliRun, name: string, description: string, seed: number): ProofBase {
  const checks = run.report?.checks ?? [];
  const problem = problemOf(run);
  return {
    name,
    description,
    exitCode: run.code,
    verdict: run.report?.summary.verdict ?? 'none',
    ...(run.report?.summary.reason ? { verdictReason: run.report.summary.reason } : {}),
    ms: run.ms,
    ...(run.cpuMs !== undefined ? { cpuMs: run.cpuMs } : {}),
    checks: checks.length,
    ...(run.report ? { requestCount: run.report.run.requestCount } : {}),
    errors: checks.filter((c) => c.status === 'error').map(brief),
    ...(problem ? { problem } : {}),
    seed,
  };
}

function settleReportDir<P extends Proof>(proof: P, run: CliRun, ok: boolean, keep: boolean | undefined): P {
  if (ok && !keep) rmSync(run.reportDir, { recursive: true, force: true });
  else proof.reportDir = run.reportDir;
  return proof;
}

/** The whole suite against the embedded server with fault `name` switched on. */
export async function proveFault(name: string, opts: ProveOptions = {}): Promise<FaultProof> {
  const fault = getFault(name);
  const { seed, args } = cliArgs(opts, fault.proveDepth);
  const only = opts.ruleOnly ? ['--only', onlyRule(fault.breaks)] : [];
  const run = await runStorecheck([...args, ...only, '--reference-faults', name], { timeoutMs: opts.timeoutMs, inMemory: true });
  const failing = (run.report?.checks ?? []).filter((c) => c.status === 'failed').map(brief);
  const detectedBy = failing.filter((c) => c.rule === fault.breaks);
  const proof: FaultProof = {
    kind: 'fault',
    ...base(run, name, fault.description, seed),
    breaks: fault.breaks,
    section: fault.section,
    failing,
    detectedBy,
    detected: detectedBy.length > 0,
    collateral: failing.filter((c) => c.rule !== fault.breaks),
    caught: run.code === 1 && detectedBy.length > 0,
  };
  return settleReportDir(proof, run, proof.caught, opts.keepReport);
}

/** Deep equality of two observation values (JSON values). */
export function sameObservation(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (isBetween(a)) return typeof b === 'number' && b >= a.between[0] && b <= a.between[1];
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

const isBetween = (x: unknown): x is Between => !!x && typeof x === 'object' && Array.isArray((x as Between).between);

/** Expected vs probed, for every key the variant's expectations name. */
export function compareObservations(expected: Observations, observed: Record<string, unknown>): ObservationMismatch[] {
  const out: ObservationMismatch[] = [];
  for (const [key, want] of Object.entries(expected)) {
    const got = Object.prototype.hasOwnProperty.call(observed, key) ? observed[key] : undefined;
    if (!sameObservation(want, got)) out.push({ key, expected: want, actual: got });
  }
  return out;
}

/** The whole suite against the embedded server run as variant `name` (or `default`: the default server). */
export async function proveVariant(name: string, opts: ProveOptions = {}): Promise<VariantProof> {
  const isDefault = name === DEFAULT_SERVER;
  const variant = isDefault ? undefined : getVariant(name);
  const expected = isDefault ? DEFAULT_OBSERVATIONS : expectedObservationsOf(name);
  const { seed, args } = cliArgs(opts);
  const run = await runStorecheck(isDefault ? args : [...args, '--reference-variant', name], { timeoutMs: opts.timeoutMs, inMemory: true });
  const observations = Object.fromEntries(Object.entries(run.report?.observations ?? {}).map(([k, o]) => [k, o?.value]));
  const falseAlarms = (run.report?.checks ?? []).filter((c) => c.status === 'failed').map(brief);
  const mismatches = run.report ? compareObservations(expected, observations) : [];
  const proof: VariantProof = {
    kind: 'variant',
    ...base(run, name, variant?.description ?? 'the default reference server', seed),
    falseAlarms,
    observations,
    expected,
    mismatches,
    passed: run.code === 0 && falseAlarms.length === 0 && mismatches.length === 0 && !!run.report,
  };
  return settleReportDir(proof, run, proof.passed, opts.keepReport);
}

export interface ProveAllOptions extends ProveOptions {
  faults?: string[];
  /** variant names; `default` is the default server */
  variants?: string[];
  concurrency?: number;
  onProof?: (p: Proof, done: number, total: number) => void;
}

export interface ProveAllResult {
  faults: FaultProof[];
  variants: VariantProof[];
  concurrency: number;
  ms: number;
}

/** Every fault and every variant (plus the default server), through one pool. */
export async function proveAll(opts: ProveAllOptions = {}): Promise<ProveAllResult> {
  const faults = opts.faults ?? FAULTS.map((f) => f.name);
  const variants = opts.variants ?? [DEFAULT_SERVER, ...VARIANTS.map((v) => v.name)];
  const jobs: Array<{ kind: 'fault' | 'variant'; name: string }> = [
    ...faults.map((name) => ({ kind: 'fault' as const, name })),
    ...variants.map((name) => ({ kind: 'variant' as const, name })),
  ];
  const concurrency = opts.concurrency ?? defaultConcurrency();
  const started = Date.now();
  let done = 0;
  const proofs = await runPool(jobs, concurrency, async (job) => {
    const p: Proof = job.kind === 'fault' ? await proveFault(job.name, opts) : await proveVariant(job.name, opts);
    opts.onProof?.(p, ++done, jobs.length);
    return p;
  });
  return {
    faults: proofs.filter((p): p is FaultProof => p.kind === 'fault'),
    variants: proofs.filter((p): p is VariantProof => p.kind === 'variant'),
    concurrency,
    ms: Date.now() - started,
  };
}
