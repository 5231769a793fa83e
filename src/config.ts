/**
 * The resolved configuration of one run. CLI flags, environment variables and
 * the config file (flags win, then env, then the file, then the option table's
 * defaults) resolve into this once, in src/cli.ts (resolveConfig), frozen:
 * nothing changes it later — the type is readonly all the way down, and the
 * value is frozen, so a later assignment is a type error and, failing that, a
 * TypeError. From here it flows one way into the client factory, the run's
 * phases, the vitest workers (provide/inject) and the report.
 *
 * What the run learns on the way (the observations) is not config: it is run
 * state (RunState below), handed to the workers beside it.
 */

import type { Kept } from './client/shared-reads.js';

export type Depth = 'quick' | 'standard' | 'deep';

/** `T`, readonly all the way down (arrays included). */
export type DeepReadonly<T> = T extends (infer U)[]
  ? ReadonlyArray<DeepReadonly<U>>
  : T extends Function
    ? T
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/** Freezes `value` and everything in it: what DeepReadonly promises, held at run time too. */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value as DeepReadonly<T>;
}

export type RunConfig = DeepReadonly<ConfigFields>;

/** The fields of RunConfig (written mutable here for readability; RunConfig makes them readonly). */
interface ConfigFields {
  /** the target; for the embedded reference server, the URL it was started at */
  baseUrl: string;
  /** never written anywhere; the redactor replaces it in every output */
  apiKey: string;
  embedded: boolean;
  reportDir: string;
  ledgerFile: string;
  runTag: string;
  seed: number;
  depth: Depth;
  readOnly: boolean;
  /** check-id pattern (glob with *, comma-separated alternatives) */
  only?: string;
  shard?: string;
  /** total requests in flight across all workers */
  concurrency: number;
  /** vitest workers running check files in parallel: --workers, or the default (src/run/workers.ts) */
  workers: number;
  /** --workers was given (reported as the reason of the count) */
  workersGiven?: boolean;
  timeoutMs: number;
  /** answers larger than this are cut while they stream (a target error for their check), bytes */
  maxAnswerBytes: number;
  maxRps: number;
  insecure: boolean;
  /** the whole run ends by then, with cleanup and a clear message */
  deadlineMs: number;
  /** how long a read may take to show a write (a lagging replica), ms */
  visibilityTimeoutMs: number;
  /** --min-coverage PERCENT: fewer spec items judged gives no verdict (exit 3) */
  minCoverage?: number;
  /** how long one failing property may shrink (--shrink-s), ms: each try is a run against the target */
  shrinkMs: number;
  /** replay one property case (--replay SEED:PATH): the property with this seed runs that path only */
  replay?: { seed: number; path: string };
  /**
   * --keep-data: the records the checks created stay on the target (no scope
   * cleanup in the workers, no cleanup at the end); the ledger keeps them for
   * `storecheck sweep`
   */
  keepData?: boolean;
  /** the embedded reference server's faults (--reference-faults), recorded for the report and reproducers */
  referenceFaults?: string[];
  /** the embedded reference server's benign variant (--reference-variant) */
  referenceVariant?: string;
}

/**
 * How much each depth does. Depth changes how many generated values each spec
 * item gets, never which items are judged (src/items): every depth judges the
 * whole catalogue.
 */
export interface DepthProfile {
  /** generated values per spec item (the first one designed to split the records, the rest generated) */
  values: number;
  /**
   * values of each filter case (from its first) whose count is asked beside
   * the get: count against get is judged on the case's designed value in
   * every run, and on every value at deep; the other values are judged on get
   * alone (the count of a generated value buys little its get does not, and
   * costs a request each: docs/speed.md)
   */
  countedValues: number;
  /** fast-check runs per property */
  runs: number;
  /** records per generated create batch */
  batch: number;
  /** shrink counterexamples (costs requests) */
  shrink: boolean;
  /**
   * values of each value class an item is judged with (docs/value-classes.md):
   * every depth judges every applicable class; deeper ones add values within classes
   */
  classValues: number;
  /**
   * near-miss keys each resource sends per operation (src/values/near-miss.ts
   * nearMissPlan: every case is still sent on every operation by some resource
   * in every run). Standard, the depth a CI gate runs, sends every case on every
   * resource and operation: an endpoint with its own key comparison (a prefix
   * match, a case-insensitive one) is caught in every run, not in one of eight
   * seeds; it costs ~320 requests (docs/speed.md). Quick samples them across
   * resources.
   */
  nearMissPerPlace: number;
}

export const DEPTHS: Record<Depth, DepthProfile> = {
  quick: { values: 1, countedValues: 1, runs: 1, batch: 4, shrink: false, classValues: 1, nearMissPerPlace: 1 },
  standard: { values: 2, countedValues: 1, runs: 3, batch: 6, shrink: true, classValues: 1, nearMissPerPlace: Number.MAX_SAFE_INTEGER },
  deep: { values: 8, countedValues: 8, runs: 12, batch: 10, shrink: true, classValues: 3, nearMissPerPlace: Number.MAX_SAFE_INTEGER },
};

/**
 * What the workers wait for before their first check: the observations (probed
 * by the main process while the workers load; their values, keyed as in
 * report.json) and the run-wide in-flight gate (a SharedArrayBuffer of
 * src/client/gate.ts). Sent over runChannelName().
 */
export interface RunState {
  observations: Readonly<Record<string, unknown>>;
  gate: SharedArrayBuffer;
  /** the reads the preflight and probes sent that the checks may share (src/client/shared-reads.ts): not sent again */
  sharedReads?: Array<[string, Kept]>;
  /** set when the run was stopped (signal, deadline) before this state was sent: send nothing */
  stopped?: string;
}

/** The BroadcastChannel on which a worker asks for the RunState ('want') and the main process sends it. */
export function runChannelName(runTag: string): string {
  return `storecheck:state:${runTag}`;
}

/** The BroadcastChannel on which the main process tells the workers to stop (signal, deadline). */
export function stopChannelName(runTag: string): string {
  return `storecheck:stop:${runTag}`;
}

declare module 'vitest' {
  export interface ProvidedContext {
    storecheck: RunConfig;
  }
}
