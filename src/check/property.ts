/**
 * Properties over generated values, item-aware. One property run may judge
 * several items (one create judges every payload property): each item's
 * failure is recorded as it happens (ctx.item), and the run then fails as a
 * whole so fast-check can shrink it; the shrunk counterexample replaces the
 * first failure of each item it still fails. A target error (no answer, 5xx)
 * ends the property without shrinking: it says nothing about the values.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as fc from 'fast-check';
import { CheckFailure, TargetError, type FailureDetail } from './failure.js';

/** The items failed during one property run, and a target error met in it. */
export interface PropertyRun {
  failures: Map<string, FailureDetail>;
  targetError?: TargetError;
}

const current = new AsyncLocalStorage<PropertyRun>();

/** The property run the calling code is in (ctx.item reports its outcome to it). */
export function currentRun(): PropertyRun | undefined {
  return current.getStore();
}

/**
 * Stop the property run now when an item of it failed or met a target error:
 * a sequence of commands (a model-based run) must not go on against a target
 * that already disagrees with its model. The failure is fast-check's to shrink;
 * a target error ends the property unshrunk.
 */
export function stopOnItemOutcome(): void {
  const run = current.getStore();
  if (run?.failures.size) throw new ItemsFailed(new Map(run.failures));
  if (run?.targetError) throw run.targetError;
}

/** Thrown at the end of a run that failed some items: fast-check shrinks on it. */
export class ItemsFailed extends Error {
  constructor(readonly failures: Map<string, FailureDetail>) {
    super(`${failures.size} item(s) failed: ${[...failures].map(([c, d]) => `${c}: ${d.message}`).join(' | ')}`);
    this.name = 'ItemsFailed';
  }
}

export interface PropertyOptions {
  seed: number;
  runs: number;
  shrink: boolean;
  /** replay one case: a seed and fast-check path from a report (--replay SEED:PATH), applied when the seed matches */
  replay?: { seed: number; path: string };
  /** how long shrinking may take (--shrink-s): a failure never holds the run hostage */
  shrinkMs: number;
}

export interface PropertyOutcome {
  /** items the final (shrunk) run failed, with their detail and replay data */
  failures: Map<string, FailureDetail>;
}

/**
 * A failing case's path. Of a model-based run (fc.commands) it also carries
 * the commands' replay path after '@' (which commands really ran: fast-check
 * cannot walk a shrunk sequence again without it) — `--replay SEED:PATH@RUN`.
 */
function casePath(out: { counterexamplePath: string | null; counterexample: unknown[] | null }): string | undefined {
  if (!out.counterexamplePath) return undefined;
  const ran = /replayPath="([^"]*)"/.exec(String(out.counterexample?.[0] ?? ''))?.[1];
  return ran !== undefined ? `${out.counterexamplePath}@${ran}` : out.counterexamplePath;
}

/** The commands' replay path of a model-based case being replayed (the part of --replay after '@'), when `seed` is the one replayed. */
export function commandsReplayPath(replay: PropertyOptions['replay'], seed: number): string | undefined {
  if (!replay || replay.seed !== seed) return undefined;
  const at = replay.path.indexOf('@');
  return at === -1 ? undefined : replay.path.slice(at + 1);
}

export async function runItemProperty<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, o: PropertyOptions): Promise<PropertyOutcome> {
  let stopped: TargetError | undefined;
  const replaying = o.replay !== undefined && o.replay.seed === o.seed;
  let calls = 0;
  // shrinking is bounded, the runs before it are not (the run's deadline bounds them): once the first
  // failure is older than shrinkMs, the candidates left pass untried and the smallest failing case so
  // far stands. (fast-check's interruptAfterTimeLimit counts from the property's start and abandons a
  // run in flight: a slow first run then failed with no error, and a later one went unjudged.)
  const { shrinkMs } = o;
  let failedAt: number | undefined;
  const failing = (e: unknown): never => {
    failedAt ??= performance.now();
    throw e;
  };
  const wrapped = async (value: T): Promise<void> => {
    // a replay reruns the one case its path names, nothing after it
    if (stopped || (replaying && calls++ > 0)) return;
    if (failedAt !== undefined && performance.now() - failedAt > shrinkMs) return;
    const run: PropertyRun = { failures: new Map() };
    try {
      await current.run(run, () => predicate(value));
    } catch (e) {
      if (e instanceof TargetError) {
        stopped = e;
        return;
      }
      failing(e);
    }
    if (run.failures.size) failing(new ItemsFailed(run.failures));
    if (run.targetError) stopped = run.targetError;
  };
  const out = await fc.check(fc.asyncProperty(arb, wrapped), {
    seed: o.seed,
    numRuns: replaying ? 1 : o.runs,
    ...(replaying ? { path: o.replay!.path.split('@')[0] } : {}),
    endOnFailure: !o.shrink,
  });
  if (!out.failed) {
    if (stopped) throw stopped;
    return { failures: new Map() };
  }
  const replay = { seed: out.seed, path: casePath(out), counterexample: out.counterexample?.[0] };
  const note = ` (property failed after ${out.numRuns} run(s), shrunk ${out.numShrinks} time(s))`;
  const err = out.errorInstance;
  if (err instanceof ItemsFailed) {
    const failures = new Map<string, FailureDetail>();
    // a failure that says what its case was (a model-based run: the commands that ran) keeps its own counterexample
    for (const [c, d] of err.failures) failures.set(c, { ...d, message: d.message + note, ...replay, ...(d.counterexample !== undefined ? { counterexample: d.counterexample } : {}) });
    return { failures };
  }
  if (err instanceof CheckFailure) throw new CheckFailure({ ...err.detail, message: err.detail.message + note, ...replay });
  if (err instanceof TargetError) throw err;
  // an error of the suite itself (a bug), never a verdict on the target
  if (err instanceof Error) throw err;
  throw new Error(err === null || err === undefined ? `the property failed without an error (fast-check: ${out.numRuns} run(s), ${out.numSkips} skipped${out.interrupted ? ', interrupted' : ''})` : `the property threw a non-Error: ${String(err)}`);
}
