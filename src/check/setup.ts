/**
 * Setup file of the conformance project. Before a check file starts: wait for
 * the run state (observations, in-flight gate) from the main process — the
 * worker loaded its modules meanwhile. After it: append this worker's request
 * figures to <report dir>/requests.jsonl, so the report counts every request
 * (fixtures and cleanup included), not only what checks saw.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, inject } from 'vitest';
import { awaitRunState, currentRuntime } from './runtime.js';

await awaitRunState(inject('storecheck'));

afterAll(() => {
  const rt = currentRuntime();
  if (!rt) return;
  const cfg = inject('storecheck');
  const s = rt.client.http.stats;
  appendFileSync(join(cfg.reportDir, 'requests.jsonl'), JSON.stringify({ worker: `${process.pid}:${threadId}`, requests: s.requests, peakInFlight: s.peakInFlight, retries: s.retries }) + '\n');
});
