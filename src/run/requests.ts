/**
 * The run's request tally (report.run.requestCount) and the target's answer
 * times (report.latency): the main process's (preflight, probes), the
 * workers' (the checks, their fixtures and scope cleanup) and, for the count,
 * the cleanup's.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { mergeTables, type LatencyTable } from '../client/latency.js';

export interface RunTally {
  requestCount: number;
  /** every answered request's round trip, per API path: the main process's and the workers' */
  latency: LatencyTable;
}

export function runTally(reportDir: string, main: { requests: number; latency: LatencyTable }, cleanupRequests: number): RunTally {
  const workers = workerFigures(reportDir);
  return { requestCount: main.requests + workers.requests + cleanupRequests, latency: mergeTables([main.latency, ...workers.latency]) };
}

/**
 * Requests made in the workers: each appends its cumulative figures to
 * <report dir>/requests.jsonl when its files are done (src/check/setup.ts);
 * the last figures of each worker (its largest count), summed. The file goes once read.
 */
function workerFigures(dir: string): { requests: number; latency: LatencyTable[] } {
  const file = join(dir, 'requests.jsonl');
  if (!existsSync(file)) return { requests: 0, latency: [] };
  const last = new Map<string, { requests: number; latency?: LatencyTable }>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const figures = JSON.parse(line) as { worker: string; requests: number; latency?: LatencyTable };
    if (figures.requests >= (last.get(figures.worker)?.requests ?? 0)) last.set(figures.worker, figures);
  }
  rmSync(file, { force: true });
  const all = [...last.values()];
  return { requests: all.reduce((a, b) => a + b.requests, 0), latency: all.flatMap((f) => (f.latency ? [f.latency] : [])) };
}
