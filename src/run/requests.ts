/**
 * The run's request tally (report.run.requestCount): the main process's
 * (preflight, probes), the workers' (the checks, their fixtures and scope
 * cleanup) and the cleanup's.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export function requestTally(reportDir: string, mainRequests: number, cleanupRequests: number): number {
  return mainRequests + workerRequests(reportDir) + cleanupRequests;
}

/**
 * Requests made in the workers: each appends its cumulative figure to
 * <report dir>/requests.jsonl when its files are done (src/check/setup.ts);
 * the last figure of each worker, summed. The file goes once read.
 */
function workerRequests(dir: string): number {
  const file = join(dir, 'requests.jsonl');
  if (!existsSync(file)) return 0;
  const last = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const { worker, requests } = JSON.parse(line) as { worker: string; requests: number };
    last.set(worker, Math.max(last.get(worker) ?? 0, requests));
  }
  rmSync(file, { force: true });
  return [...last.values()].reduce((a, b) => a + b, 0);
}
