/**
 * How long the target took to answer, per endpoint: every answered request's
 * round trip (from sending to the whole answer read; retries and waits for the
 * run's pace apart, each attempt counts once) in a histogram of buckets 2 %
 * wide, so that a run of any length holds at most a few hundred numbers per
 * endpoint and the workers' histograms add up in the main process. Quantiles
 * read from it are the bucket's upper bound (at most 2 % above the true value),
 * never above the largest duration seen.
 */

/** Each bucket's upper bound is this many times the one before. */
const GROWTH = 1.02;
/** The upper bound of bucket 0, ms (any faster answer falls in it). */
const FLOOR_MS = 0.01;

export interface LatencyHistogram {
  count: number;
  maxMs: number;
  /** bucket index → answers in it (bucket i holds durations in (FLOOR·GROWTH^(i-1), FLOOR·GROWTH^i]) */
  buckets: Record<string, number>;
}

/** API path (`/api/v1/products/get`) → the histogram of its answers. */
export type LatencyTable = Record<string, LatencyHistogram>;

export interface LatencyFigures {
  count: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

function bucketOf(ms: number): number {
  return ms <= FLOOR_MS ? 0 : Math.ceil(Math.log(ms / FLOOR_MS) / Math.log(GROWTH) - 1e-9);
}

export function recordLatency(table: LatencyTable, path: string, ms: number): void {
  const h = (table[path] ??= { count: 0, maxMs: 0, buckets: {} });
  h.count++;
  h.maxMs = Math.max(h.maxMs, ms);
  const b = String(bucketOf(ms));
  h.buckets[b] = (h.buckets[b] ?? 0) + 1;
}

/** `into` gains every answer of `from` (tables of several processes, or endpoints of one operation). */
export function mergeHistogram(into: LatencyHistogram, from: LatencyHistogram): LatencyHistogram {
  into.count += from.count;
  into.maxMs = Math.max(into.maxMs, from.maxMs);
  for (const [b, n] of Object.entries(from.buckets)) into.buckets[b] = (into.buckets[b] ?? 0) + n;
  return into;
}

export function mergeTables(tables: readonly LatencyTable[]): LatencyTable {
  const out: LatencyTable = {};
  for (const t of tables) for (const [path, h] of Object.entries(t)) mergeHistogram((out[path] ??= { count: 0, maxMs: 0, buckets: {} }), h);
  return out;
}

/** The duration under which a share `q` of the answers fell (nearest rank), to the bucket's bound. */
function quantile(h: LatencyHistogram, q: number): number {
  const rank = Math.max(1, Math.ceil(q * h.count));
  let seen = 0;
  for (const [b, n] of Object.entries(h.buckets).map(([b, n]) => [Number(b), n] as const).sort((x, y) => x[0] - y[0])) {
    seen += n;
    if (seen >= rank) return Math.min(h.maxMs, FLOOR_MS * GROWTH ** b);
  }
  return h.maxMs;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export function latencyFigures(h: LatencyHistogram): LatencyFigures {
  return { count: h.count, medianMs: round(quantile(h, 0.5)), p95Ms: round(quantile(h, 0.95)), maxMs: round(h.maxMs) };
}
