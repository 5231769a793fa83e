/**
 * report.json's latency section: the target's answer times per operation
 * (get, count, create, update, delete — every resource together) and per
 * endpoint, each as count, median, p95 and max, and the slowest checks (their
 * durationMs). Made once, when the report is assembled; the views only show it.
 */
import { latencyFigures, mergeHistogram, type LatencyHistogram, type LatencyTable } from '../client/latency.js';
import type { CheckResult, Latency } from './types.js';

/** How many of the slowest checks the report names. */
export const SLOWEST_CHECKS = 10;

/** The operations in the order of §4 (get, count, then the writes); any other path's last segment after them. */
const OPERATION_ORDER = ['get', 'count', 'create', 'update', 'delete'];

const operationOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

export function latencySection(table: LatencyTable, checks: readonly CheckResult[]): Latency {
  const byOp: Record<string, LatencyHistogram> = {};
  for (const [path, h] of Object.entries(table)) mergeHistogram((byOp[operationOf(path)] ??= { count: 0, maxMs: 0, buckets: {} }), h);
  const rank = (op: string) => (OPERATION_ORDER.includes(op) ? OPERATION_ORDER.indexOf(op) : OPERATION_ORDER.length);
  const ops = Object.keys(byOp).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return {
    byOperation: Object.fromEntries(ops.map((op) => [op, latencyFigures(byOp[op])])),
    byEndpoint: Object.fromEntries(Object.keys(table).sort().map((path) => [path, latencyFigures(table[path])])),
    slowestChecks: checks
      .filter((c) => typeof c.durationMs === 'number')
      .sort((a, b) => b.durationMs! - a.durationMs! || a.id.localeCompare(b.id))
      .slice(0, SLOWEST_CHECKS)
      .map((c) => ({ id: c.id, durationMs: Math.round(c.durationMs!) })),
  };
}
