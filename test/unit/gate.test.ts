/**
 * The shared in-flight gate (src/client/gate.ts): --concurrency bounds the
 * requests of every worker thread together, and no slot is lost or leaked.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GIVE_UP_AFTER, SharedGate } from '../../src/client/gate.js';

describe('SharedGate', () => {
  it('never lets more than its limit through, and frees every slot it gave', async () => {
    const gate = SharedGate.create(3);
    let inside = 0;
    let highest = 0;
    await Promise.all(Array.from({ length: 12 }, async (_, i) => {
      for (let round = 0; round < 5; round++) {
        expect(await gate.acquire()).toBe(true);
        inside++;
        highest = Math.max(highest, inside);
        await new Promise((r) => setTimeout(r, (i * 7 + round) % 4));
        inside--;
        gate.release();
      }
    }));
    expect(highest).toBe(3);
    expect(gate.taken).toBe(0);
  });

  it('a waiter gives up without a slot once the run is cancelled', async () => {
    const gate = SharedGate.create(1);
    await gate.acquire();
    let cancelled = false;
    const waiting = gate.acquire(() => cancelled);
    cancelled = true;
    expect(await waiting).toBe(false);
    gate.release();
    expect(gate.taken).toBe(0);
  });

  it('a freed slot goes to an urgent waiter (a step of a long chain) before the requests that waited longer', async () => {
    const gate = SharedGate.create(2);
    await gate.acquire();
    await gate.acquire();
    const order: string[] = [];
    const normal = [1, 2].map((i) => gate.acquire().then(() => order.push(`normal ${i}`)));
    await new Promise((r) => setTimeout(r, 5));
    const urgent = gate.acquire(undefined, true).then(() => order.push('urgent'));
    await new Promise((r) => setTimeout(r, 5));
    gate.release();
    await urgent;
    expect(order).toEqual(['urgent']);
    expect(gate.taken).toBe(2);
    // no urgent waiter left: the others take the next slots freed, without waiting for a time-out
    const started = Date.now();
    gate.release();
    gate.release();
    await Promise.all(normal);
    expect(Date.now() - started).toBeLessThan(150);
    expect(order).toEqual(['urgent', 'normal 1', 'normal 2']);
    gate.release();
    gate.release();
    expect(gate.taken).toBe(0);
  });

  it('while an urgent waiter waits, a slot just freed is not taken by a request asking meanwhile; once the urgent one has its slot, the others take what is left', async () => {
    const gate = SharedGate.create(2);
    await gate.acquire();
    await gate.acquire();
    const urgent = gate.acquire(undefined, true);
    await new Promise((r) => setTimeout(r, 5));
    gate.release();
    // asks in the same turn as the release, before the urgent waiter wakes: without the rule it would take the slot
    let lateIn = false;
    const late = gate.acquire().then(() => (lateIn = true));
    expect(await urgent).toBe(true);
    expect(lateIn).toBe(false);
    gate.release();
    const started = Date.now();
    await late;
    expect(Date.now() - started).toBeLessThan(150);
    expect(gate.taken).toBe(2);
  });

  it('an urgent waiter gives up without a slot once the run is cancelled', async () => {
    const gate = SharedGate.create(1);
    await gate.acquire();
    let cancelled = false;
    const waiting = gate.acquire(() => cancelled, true);
    cancelled = true;
    expect(await waiting).toBe(false);
    gate.release();
    expect(gate.taken).toBe(0);
    expect(await gate.acquire()).toBe(true);
  });

  it('bounds several threads together (the main process and the vitest workers)', () => {
    // worker threads with TypeScript need tsx's loader: the threads run in a child process
    const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../helpers/gate-threads.ts', import.meta.url))], { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'inherit'] });
    const { highest, left } = JSON.parse(out) as { highest: number[]; left: number };
    // each thread alone would reach 4 with its 6 tasks: together they still never exceed 4
    expect(highest).toHaveLength(3);
    for (const h of highest) expect(h).toBeLessThanOrEqual(4);
    expect(Math.max(...highest)).toBe(4);
    expect(left).toBe(0);
  });

  it('paces the run: one 429 slows every thread sharing the gate, later 429s of the same burst do not slow it again, other answers speed it back up', async () => {
    const gate = SharedGate.create(8);
    const twin = new SharedGate(gate.buffer);
    expect(gate.adaptiveGapMs).toBe(0);
    const sent = Date.now();
    gate.adapt(429, sent);
    expect(twin.adaptiveGapMs).toBe(10);
    // requests sent before the slow-down (or just after it) bring no news
    twin.adapt(429, sent);
    twin.adapt(429, Date.now());
    expect(gate.adaptiveGapMs).toBe(10);
    // a request sent well after it still got a 429: slower again
    twin.adapt(429, Date.now() + 1_000);
    expect(gate.adaptiveGapMs).toBeCloseTo(14, 5);
    // turns on both gates are taken one spacing apart: six take at least five spacings
    const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? gate : twin).pace(0, pause)));
    expect(Date.now() - started).toBeGreaterThanOrEqual(5 * 14 - 2);
    for (let i = 0; i < 200; i++) gate.adapt(200, Date.now());
    expect(gate.adaptiveGapMs).toBeLessThan(14);
  });

  it('gives an endpoint up after GIVE_UP_AFTER consecutive time-outs (an answer starts the count again), for every thread sharing the memory', () => {
    const gate = SharedGate.create(4);
    const twin = new SharedGate(gate.buffer);
    const path = '/api/v1/products/collections/get';
    expect(GIVE_UP_AFTER).toBe(3);
    expect(gate.endpoints.timedOut(path)).toBe(false);
    expect(twin.endpoints.timedOut(path)).toBe(false);
    // a complete answer: the two time-outs were a slow moment, not a hung endpoint
    twin.endpoints.answered(path);
    expect(gate.endpoints.timedOut(path)).toBe(false);
    expect(gate.endpoints.timedOut(path)).toBe(false);
    expect(gate.endpoints.givenUp(path)).toBe(false);
    expect(twin.endpoints.timedOut(path)).toBe(true);
    // the time-out that gave it up says so once; others of the same path are already counted
    expect(gate.endpoints.timedOut(path)).toBe(false);
    expect(gate.endpoints.givenUp(path, true)).toBe(true);
    expect(twin.endpoints.givenUp(path, true)).toBe(true);
    // an answer after it was given up (a request in flight) does not bring it back
    gate.endpoints.answered(path);
    expect(gate.endpoints.givenUp(path)).toBe(true);
    expect(gate.endpoints.givenUp('/api/v1/products/get')).toBe(false);
    expect(twin.endpoints.givenUpEndpoints()).toEqual([{ path, timeouts: 3, refused: 2 }]);
  });

  it('keeps a hundred endpoints apart, long paths cut in the report only; a custom threshold', () => {
    const gate = SharedGate.create(4, undefined, 1);
    const paths = Array.from({ length: 100 }, (_, i) => `/api/v1/resource-${i}/get`);
    for (const p of paths.filter((_, i) => i % 2)) expect(gate.endpoints.timedOut(p)).toBe(true);
    expect(paths.filter((p) => gate.endpoints.givenUp(p))).toEqual(paths.filter((_, i) => i % 2));
    const long = `/api/v1/${'x'.repeat(300)}/get`;
    gate.endpoints.timedOut(long);
    const shown = gate.endpoints.givenUpEndpoints().find((e) => e.path.startsWith('/api/v1/xxx'));
    expect(shown?.path).toBe(long.slice(0, 128));
    expect(gate.endpoints.givenUp(long.slice(0, 128))).toBe(false);
  });
});
