/**
 * An endpoint that keeps timing out costs a bounded time (issue 22.6): one
 * get endpoint dripping a byte every 200 ms (an answer that never completes),
 * or one delete endpoint that never answers (a silent socket), against a
 * reference server started here as an external target, with a small
 * --timeout-ms T.
 *
 * The bound: the run gives an endpoint up after GIVE_UP_AFTER (3) consecutive
 * time-outs, run-wide (main process, workers and cleanup share the breaker);
 * every request to it that started before the third time-out ends within one
 * more T. So one hung endpoint adds at most (GIVE_UP_AFTER + 1) × T = 4 T to
 * the wall of the same run against a healthy store, wherever its requests
 * fall (probes, checks, cleanup), plus a few seconds of slack for a loaded
 * machine. Before the breaker the drip run took 198 s at T = 1 000 ms (220
 * requests each cut at T, 145 s of them in cleanup), and its cleanup reported
 * 167 of 168 records "left behind" that the store no longer held.
 */
import { describe, expect, it } from 'vitest';
import { GIVE_UP_AFTER } from '../../src/client/gate.js';
import { runStorecheck, type CliRun } from '../../reference/cli-process.js';
import type { TransportFaults } from '../../reference/server.js';
import { target } from './robustness-helpers.js';

const T = 600;
const ONLY = ['--depth', 'quick', '--only', 'collection.lifecycle.create.*'];
/** the healthy run's time-out: long, so that a loaded machine's slow answer is not given up there (it is the yardstick, not under test) */
const HEALTHY_T = 15_000;
/** the wall one hung endpoint may add: GIVE_UP_AFTER time-outs one after another, and those already in flight */
const HUNG_MS = (GIVE_UP_AFTER + 1) * T;
/** a loaded machine's noise between two runs of the same selection */
const SLACK_MS = 6_000;
const GET = '/api/v1/products/collections/get';
const DELETE = '/api/v1/products/collections/delete';

async function runAgainst(transport: Partial<TransportFaults>, timeoutMs = T): Promise<{ r: CliRun; hits: number; url: string }> {
  const srv = await target(transport);
  try {
    // killed long before the unbounded run would end (it took 198 s at T = 1 000 ms)
    const r = await runStorecheck([...ONLY, '--timeout-ms', String(timeoutMs)], { against: srv, timeoutMs: 90_000 });
    return { r, hits: srv.stats.byPath[transport.dripPath || transport.silentPath || ''] ?? 0, url: srv.url };
  } finally {
    await srv.close();
  }
}

describe('an endpoint that keeps timing out', () => {
  it('is given up after 3 time-outs: the run ends within 4 × --timeout-ms of a healthy one, what needed it is not judged, cleanup says what it could not verify', async () => {
    const healthy = await runAgainst({}, HEALTHY_T);
    expect(healthy.r.code, healthy.r.stderr.slice(-1500)).toBe(0);
    // the checks' files read back their records as they ended: the end-of-run cleanup had nothing left to do
    expect(healthy.r.stderr).toMatch(/^cleaning up… 0 of the \d+ record\(s\) the run created not yet read back gone$/m);

    const drip = await runAgainst({ dripPath: GET, dripEveryMs: 200 });
    const silent = await runAgainst({ silentPath: DELETE });
    const line = (x: typeof drip) => `${x.r.ms} ms, ${x.hits} request(s) to the hung path, exit ${x.r.code}`;
    console.info(`[hung endpoint] T ${T} ms · healthy ${healthy.r.ms} ms · drip on get: ${line(drip)} · silent delete: ${line(silent)}`);
    for (const x of [drip, silent]) {
      expect(x.r.timedOut, x.r.stderr.slice(-1500)).toBe(false);
      expect(x.r.ms, line(x)).toBeLessThanOrEqual(healthy.r.ms + HUNG_MS + SLACK_MS);
      // nothing more is sent once it is given up: the time-outs that gave it up and those in flight beside
      // them, not one per request the run wanted (220 before)
      expect(x.hits).toBeGreaterThanOrEqual(GIVE_UP_AFTER);
      expect(x.hits).toBeLessThanOrEqual(4 * GIVE_UP_AFTER);
    }

    // the dripping get: a check needing it is an error saying why, the endpoint is a target error, no verdict
    const d = drip.r.report!;
    expect(drip.r.code).toBe(3);
    const given = new RegExp(`endpoint ${GET} given up after 3 consecutive time-outs \\(no complete answer within ${T} ms each\\)`);
    expect(d.targetErrors.map((e) => e.message)).toContainEqual(expect.stringMatching(given));
    const errors = d.checks.filter((c) => c.status === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const c of errors) expect(c.message).toMatch(/given up after 3 consecutive time-outs/);
    // its records cannot be read back: could not verify, never "left behind"
    const dc = d.cleanup!;
    expect(dc.leftBehind).toEqual([]);
    expect(dc.unverifiedCount).toBe(dc.created - dc.deleted);
    expect(dc.unverifiedCount).toBeGreaterThan(0);
    expect(dc.unverified!.every((g) => /given up after 3 consecutive time-outs/.test(g.reason))).toBe(true);
    expect(drip.r.stderr).not.toMatch(/LEFT BEHIND/);
    expect(drip.r.stderr).toMatch(new RegExp(`^cleanup: could not verify ${dc.unverifiedCount} record\\(s\\): no usable read-back`, 'm'));
    expect(drip.r.stderr).toContain(`  retry with: ${dc.sweep}`);
    expect(dc.sweep).toContain(`--base-url ${drip.url}`);

    // the silent delete: its records are read back still there, left behind with the reason
    const sc = silent.r.report!.cleanup!;
    expect(sc.unverified).toEqual([]);
    expect(sc.leftBehind.length).toBe(sc.created - sc.deleted);
    expect(sc.leftBehind.length).toBeGreaterThan(0);
    for (const l of sc.leftBehind) expect(l).toMatch(new RegExp(`\\(no answer: GIVEN_UP not sent: ${DELETE} was given up after 3 consecutive time-outs`));
  });
});
