/**
 * How many check files a run keeps in flight (src/run/workers.ts): --workers
 * given is obeyed; otherwise a near target keeps the CPU default and a target
 * whose shortest preflight round trip is FAR_ROUND_TRIP_MS or more gets the
 * far default. RoundTrips takes the shortest answered single attempt.
 */
import { describe, expect, it } from 'vitest';
import { FAR_ROUND_TRIP_MS } from '../../src/cli/options.js';
import type { Exchange } from '../../src/client/http.js';
import type { StoreClient } from '../../src/client/api.js';
import { chooseWorkers, RoundTrips, roundTripOf } from '../../src/run/workers.js';

const adaptive = { workers: 3, workersFar: 6, embedded: false };

describe('chooseWorkers', () => {
  it('keeps the near default below the threshold and when nothing answered', () => {
    expect(chooseWorkers(adaptive, FAR_ROUND_TRIP_MS - 0.1, 18)).toEqual({ count: 3, by: 'near-target', roundTripMs: FAR_ROUND_TRIP_MS - 0.1 });
    expect(chooseWorkers(adaptive, undefined, 18)).toEqual({ count: 3, by: 'near-target' });
  });
  it('takes the far default from the threshold on', () => {
    expect(chooseWorkers(adaptive, FAR_ROUND_TRIP_MS, 18)).toEqual({ count: 6, by: 'far-target', roundTripMs: FAR_ROUND_TRIP_MS });
    expect(chooseWorkers(adaptive, 31.26, 18)).toEqual({ count: 6, by: 'far-target', roundTripMs: 31.3 });
  });
  it('never takes the embedded server for far (a loaded machine slows its answers, not its distance)', () => {
    expect(chooseWorkers({ ...adaptive, embedded: true }, 200, 18).count).toBe(3);
  });
  it('never takes more workers than files holding a selected check (nor fewer than one)', () => {
    expect(chooseWorkers(adaptive, 40, 2)).toEqual({ count: 2, by: 'far-target', roundTripMs: 40 });
    expect(chooseWorkers(adaptive, 1, 1).count).toBe(1);
    expect(chooseWorkers({ workers: 8, embedded: false }, 1, 3).count).toBe(3);
    expect(chooseWorkers(adaptive, 40, 0).count).toBe(1);
  });
  it('obeys --workers whatever the round trip', () => {
    expect(chooseWorkers({ workers: 2, embedded: false }, 500, 18)).toEqual({ count: 2, by: 'given', roundTripMs: 500 });
    expect(chooseWorkers({ workers: 9, embedded: false }, 1, 18)).toEqual({ count: 9, by: 'given', roundTripMs: 1 });
  });
});

describe('RoundTrips', () => {
  function fakeClient() {
    const listeners = new Set<(ex: Exchange) => void>();
    return { client: { http: { listeners } } as unknown as StoreClient, send: (ex: Partial<Exchange>) => { for (const l of listeners) l(ex as Exchange); }, listeners };
  }
  const answered = (durationMs: number, more: Partial<Exchange> = {}): Partial<Exchange> => ({ response: { status: 200, headers: {}, text: '{}' }, attempts: 1, durationMs, answeredAt: performance.now(), ...more });

  it('is the shortest answered single attempt, and stops listening at its end', () => {
    const { client, send, listeners } = fakeClient();
    const rt = new RoundTrips(client);
    send(answered(42));
    send(answered(31));
    // a retried request's duration holds its back-off; an unanswered one is no round trip
    send(answered(5, { attempts: 2 }));
    send({ transportError: { code: 'ECONNREFUSED', message: 'x' }, attempts: 1, durationMs: 1 });
    send(answered(2, { notSent: true }));
    expect(rt.end()).toBe(31);
    expect(listeners.size).toBe(0);
  });
  it('says when n answers were read clear of a stall (the checks start then)', async () => {
    const { client, send } = fakeClient();
    // answered before the heartbeat began: clear of any stall it could find, whatever the machine's load
    const past = performance.now() - 100;
    const rt = new RoundTrips(client);
    let seen = false;
    const two = rt.clearAnswers(2).then(() => (seen = true));
    send(answered(12, { answeredAt: past }));
    send(answered(3, { attempts: 2, answeredAt: past }));
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toBe(false);
    send(answered(9, { answeredAt: past + 1 }));
    await two;
    expect(rt.end()).toBe(9);
  });
  it('is undefined when nothing was answered', () => {
    expect(new RoundTrips(fakeClient().client).end()).toBeUndefined();
  });
  it('leaves out an answer this thread read late (a stall of its own overlapping its span); none clear of one: not measured', () => {
    const span = (from: number, to: number) => ({ from, to });
    // a near target (2 ms) whose answers this busy thread read late: the answers clear of the stall tell
    expect(roundTripOf([span(0, 40), span(100, 102), span(200, 203)], [span(10, 45)])).toBe(2);
    // every answer overlapped a stall: the cores were taken, the distance cannot be told (the near default stays)
    expect(roundTripOf([span(0, 40), span(50, 75)], [span(10, 45), span(60, 70)])).toBeUndefined();
    // a far target read in time: every answer counts
    expect(roundTripOf([span(0, 31), span(5, 37)], [span(40, 60)])).toBe(31);
    expect(roundTripOf([], [])).toBeUndefined();
  });
  it('finds the stalls of its own thread', async () => {
    const { client, send } = fakeClient();
    const before = performance.now();
    const rt = new RoundTrips(client);
    await new Promise((r) => setTimeout(r, 10));
    const sent = performance.now();
    while (performance.now() < sent + 30);
    // a 2 ms span inside the 30 ms this thread was busy: dropped; a 4 ms span from before the heartbeat began: kept
    send({ response: { status: 200, headers: {}, text: '{}' }, attempts: 1, durationMs: 2, answeredAt: sent + 12 });
    send({ response: { status: 200, headers: {}, text: '{}' }, attempts: 1, durationMs: 4, answeredAt: before - 100 });
    expect(rt.end()).toBe(4);
  });
});
