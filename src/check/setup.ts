/**
 * Setup file of the conformance project. Before a check file's checks start:
 * wait for the run state (observations, in-flight gate) from the main process.
 * The wait is a beforeAll, not a top-level await, so that the check file and
 * its modules load while the main process is still probing. After it: append this worker's request
 * figures to <report dir>/requests.jsonl, so the report counts every request
 * (fixtures and cleanup included), not only what checks saw.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, inject } from 'vitest';
import { awaitRunState, currentRuntime } from './runtime.js';

const ready = awaitRunState(inject('storecheck'));
beforeAll(async () => {
  await ready;
});

afterAll(() => {
  const rt = currentRuntime();
  if (!rt) return;
  const cfg = inject('storecheck');
  const s = rt.client.http.stats;
  appendFileSync(join(cfg.reportDir, 'requests.jsonl'), JSON.stringify({ worker: `${process.pid}:${threadId}`, requests: s.requests, peakInFlight: s.peakInFlight, retries: s.retries }) + '\n');
});
