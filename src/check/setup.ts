/**
 * Setup file of the conformance project. Before a check file's checks start:
 * wait for the run state (observations, in-flight gate) from the main process.
 * The wait is a beforeAll, not a top-level await, so that the check file and
 * its modules load while the main process is still probing. After it (after the file's own hooks:
 * its fixtures are deleted by then): read back and delete what the file created (src/check/file-cleanup.ts),
 * then append the file's chains to <report dir>/chains.jsonl (src/check/chains.ts: the run's critical path)
 * and this worker's request figures to <report dir>/requests.jsonl, so the report counts every
 * request (fixtures and cleanup included), not only what checks saw, and the target's answer times.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, inject } from 'vitest';
import { fileBegins, writeFileChains } from './chains.js';
import { settleFileRecords } from './file-cleanup.js';
import { awaitRunState, currentRuntime } from './runtime.js';

const ready = awaitRunState(inject('storecheck'));
beforeAll(async () => {
  await ready;
  fileBegins();
});

afterAll(async () => {
  await settleFileRecords();
  const rt = currentRuntime();
  if (!rt) return;
  const cfg = inject('storecheck');
  const worker = `${process.pid}:${threadId}`;
  writeFileChains(cfg.reportDir, worker, cfg.runTag);
  const s = rt.client.http.stats;
  appendFileSync(join(cfg.reportDir, 'requests.jsonl'), JSON.stringify({ worker, requests: s.requests, peakInFlight: s.peakInFlight, retries: s.retries, latency: s.latency }) + '\n');
});
