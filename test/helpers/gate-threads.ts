/**
 * Run by test/unit/gate.test.ts in a child process (`node --import tsx`): three
 * worker threads (gate-worker.mjs) share one SharedGate of limit 4; each runs 6
 * tasks (a third of them urgent) that take a slot, hold it a moment and give it back, 8 times. Prints, as
 * JSON, the highest count of slots taken each thread saw and the count left.
 */
import { Worker } from 'node:worker_threads';
import { SharedGate } from '../../src/client/gate.js';

const gate = SharedGate.create(4);
const results = await Promise.all(Array.from({ length: 3 }, () => new Promise<{ highest: number }>((resolve, reject) => {
  const w = new Worker(new URL('./gate-worker.mjs', import.meta.url), { workerData: { buffer: gate.buffer } });
  w.once('message', resolve);
  w.once('error', reject);
})));
process.stdout.write(JSON.stringify({ highest: results.map((r) => r.highest), left: gate.taken }) + '\n');
