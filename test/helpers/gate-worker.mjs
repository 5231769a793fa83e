// A worker thread of test/helpers/gate-threads.ts (plain JS: a worker does not inherit tsx's loader,
// so it registers it before importing the TypeScript gate).
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { SharedGate } = await import('../../src/client/gate.ts');
const gate = new SharedGate(workerData.buffer);
let highest = 0;
await Promise.all(Array.from({ length: 6 }, async (_, i) => {
  for (let round = 0; round < 8; round++) {
    // a third of the tasks are steps of long chains: served first, bound alike
    await gate.acquire(undefined, i % 3 === 0);
    highest = Math.max(highest, gate.taken);
    await new Promise((r) => setTimeout(r, (i + round) % 3));
    gate.release();
  }
}));
parentPort.postMessage({ highest });
