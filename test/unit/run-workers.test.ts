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
import { chooseWorkers, RoundTrips } from '../../src/run/workers.js';

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
  const answered = (durationMs: number, more: Partial<Exchange> = {}): Partial<Exchange> => ({ response: { status: 200, headers: {}, text: '{}' }, attempts: 1, durationMs, ...more });

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
  it('is undefined when nothing was answered', () => {
    expect(new RoundTrips(fakeClient().client).end()).toBeUndefined();
  });
});
