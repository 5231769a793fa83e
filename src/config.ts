/**
 * The resolved configuration of one run. CLI flags and environment variables
 * (flags win) resolve into this once, in src/cli.ts; from here it flows one way
 * into the vitest run (provide/inject), the checks and the report builders.
 */

export type Depth = 'quick' | 'standard' | 'deep';

export interface RunConfig {
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
  /** vitest workers running check files in parallel */
  workers: number;
  timeoutMs: number;
  /** answers larger than this are cut while they stream (a target error for their check), bytes */
  maxAnswerBytes?: number;
  maxRps: number;
  insecure: boolean;
  /** the whole run ends by then, with cleanup and a clear message */
  deadlineMs: number;
  /** how long a read may take to show a write (a lagging replica), ms; default 5000 */
  visibilityTimeoutMs?: number;
  /** --min-coverage PERCENT: fewer spec items judged gives no verdict (exit 3) */
  minCoverage?: number;
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
  /** observations probed before the checks, keyed as in report.json (the workers get them as RunState) */
  observations: Record<string, unknown>;
}

/**
 * How much each depth does. Depth changes how many generated values each spec
 * item gets, never which items are judged (src/items): every depth judges the
 * whole catalogue.
 */
export interface DepthProfile {
  /** generated values per spec item (the first one designed to split the records, the rest generated) */
  values: number;
  /** fast-check runs per property */
  runs: number;
  /** records per generated create batch */
  batch: number;
  /** shrink counterexamples (costs requests) */
  shrink: boolean;
}

export const DEPTHS: Record<Depth, DepthProfile> = {
  quick: { values: 1, runs: 1, batch: 4, shrink: false },
  standard: { values: 2, runs: 3, batch: 6, shrink: true },
  deep: { values: 8, runs: 12, batch: 10, shrink: true },
};

/**
 * What the workers wait for before their first check: the observations (probed
 * by the main process while the workers load) and the run-wide in-flight gate
 * (a SharedArrayBuffer of src/client/gate.ts). Sent over runChannelName().
 */
export interface RunState {
  observations: Record<string, unknown>;
  gate: SharedArrayBuffer;
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
