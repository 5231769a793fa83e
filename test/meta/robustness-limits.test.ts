/**
 * The limits a user sets for a real store hold, measured at a reference
 * server started here as an external target:
 * - --read-only: not one create, update or delete reaches the server, and the
 *   verdict still means something (reads judged, writing checks skipped).
 * - --deadline-s: a target answering just under --timeout-ms makes the run
 *   stop at its deadline, clean up, and exit 3 saying so.
 * - --max-rps and --concurrency: no second with more requests than allowed,
 *   never more requests in flight than allowed.
 */
import { describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../reference/server.js';
import { runStorecheck } from '../../reference/cli-process.js';
import { describeBad, expectEvidence, expectRestored, ledgerLines, settle, target } from './robustness-helpers.js';

const WRITES = ['create', 'update', 'delete'];

describe('--read-only', () => {
  // the whole suite: the property is that *no* check and no probe writes, so every one of them runs
  it('sends no create, update or delete, and still judges the reads', async () => {
    const srv = await target();
    try {
      const before = srv.snapshot();
      const r = await runStorecheck(['--depth', 'quick', '--quiet', '--read-only'], { against: srv, timeoutMs: 240_000 });
      const why = `exit ${r.code}\n${r.stderr.slice(-2000)}\n${describeBad(r.report)}`;
      console.info(`[robustness] read-only: exit ${r.code} in ${(r.ms / 1000).toFixed(1)} s · ${JSON.stringify(r.report?.summary)} · server ${JSON.stringify(srv.stats.byOperation)}`);
      for (const op of WRITES) expect(srv.stats.byOperation[op] ?? 0, `${op} requests reached the server`).toBe(0);
      expect(ledgerLines(r.reportDir).filter((l) => l.op === 'created' || l.op === 'creating'), 'the ledger records a create').toEqual([]);
      expectRestored(before, srv.snapshot());
      expect(r.code, why).toBe(0);
      const report = r.report!;
      expect(report.run.readOnly).toBe(true);
      expect(report.summary.verdict).toBe('conformant');
      // meaningful: a good share of the suite judged the reads, and every skip says why
      expect(report.summary.passed, why).toBeGreaterThanOrEqual(50);
      expect(srv.stats.byOperation.get ?? 0).toBeGreaterThan(0);
      const skipped = report.checks.filter((c) => c.status === 'skipped');
      expect(skipped.length).toBeGreaterThan(0);
      for (const c of skipped) expect(c.reason, `${c.id} skipped without a reason`).toBeTruthy();
      expect(skipped.filter((c) => /read-only/.test(c.reason ?? '')).length, 'no check was skipped for needing writes').toBeGreaterThan(0);
      // the probes that need writes say so instead of guessing
      const writeProbes = Object.entries(report.observations).filter(([, o]) => /read-only/.test(o.detail ?? ''));
      expect(writeProbes.length).toBeGreaterThan(0);
    } finally {
      await srv.close();
    }
  });
});

describe('--deadline-s', () => {
  // product and collection lifecycle: writes in flight when the deadline comes, so cleanup has work;
  // at 1.5 s an answer, the probes and these checks together need far longer than 15 s
  it('a slow target: the run ends by its deadline with cleanup done, exit 3, naming the deadline', async () => {
    const srv = await target({ latencyMs: 1_500 });
    try {
      const before = srv.snapshot();
      const r = await runStorecheck(['--depth', 'quick', '--quiet', '--only', 'product.lifecycle.*,collection.lifecycle.*', '--deadline-s', '15', '--timeout-ms', '2000'], { against: srv, timeoutMs: 120_000 });
      const why = `exit ${r.code} after ${r.ms} ms\n${r.stderr.slice(-2000)}\n${describeBad(r.report)}`;
      console.info(`[robustness] deadline 15 s at 1.5 s an answer: exit ${r.code}, run ${r.report?.run.durationMs} ms, process ${r.ms} ms, cleanup ${JSON.stringify(r.report?.cleanup)}`);
      expect(r.code, why).toBe(3);
      expect(r.stderr).toMatch(/storecheck: no verdict: stopped by the deadline \(--deadline-s 15[;)]/);
      // the run (start of the run to its report, cleanup included) ends by the deadline, give or
      // take the last deletes at 1.5 s each; the process also starts tsx and vitest on a loaded CI box
      expect(r.report!.run.durationMs, why).toBeLessThan(15_000 + 8_000);
      expect(r.ms, why).toBeLessThan(15_000 + 25_000);
      expect(r.report!.summary.verdict).toBe('no-verdict');
      expect(r.report!.summary.failed, why).toBe(0);
      expect(r.report!.cleanup?.leftBehind, why).toEqual([]);
      await settle(srv);
      // a record whose create got no answer before the deadline, and whose read-back could not be sent (its
      // endpoint given up after 3 time-outs on a loaded machine), may remain: only where the report names it
      expectRestored(before, srv.snapshot(), '', r.report);
    } finally {
      await srv.close();
    }
  });
});

/**
 * Requests counted at the server, sampled every 10 ms: the most that arrived
 * within any span of at most one second between two samples. It can miss a
 * request or two at a span's edges, never count one too many.
 */
function sampler(srv: ReferenceServer): { stop(): number } {
  const samples: Array<[number, number]> = [];
  const timer = setInterval(() => samples.push([performance.now(), srv.stats.total]), 10);
  return {
    stop() {
      clearInterval(timer);
      let most = 0;
      for (let i = 0, j = 0; j < samples.length; j++) {
        while (samples[j][0] - samples[i][0] > 1000) i++;
        most = Math.max(most, samples[j][1] - samples[i][1]);
      }
      return most;
    },
  };
}

describe('--max-rps and --concurrency', () => {
  // collection lifecycle, filters and conventions: reads and writes across three check files
  // (so two workers run at once) after the probes, which run in parallel themselves
  it('--max-rps 20 --concurrency 2: about 20 requests a second at most (22 with arrival jitter), never more than 2 in flight', async () => {
    const srv = await target({ latencyMs: 20 });
    try {
      const before = srv.snapshot();
      const rate = sampler(srv);
      const r = await runStorecheck(['--depth', 'quick', '--quiet', '--only', 'collection.lifecycle.*,collection.filters.*,collection.conventions.*', '--max-rps', '20', '--concurrency', '2'], { against: srv, timeoutMs: 240_000 });
      const most = rate.stop();
      const why = `exit ${r.code}\n${r.stderr.slice(-2000)}\n${describeBad(r.report)}`;
      console.info(`[robustness] max-rps 20, concurrency 2: exit ${r.code} in ${(r.ms / 1000).toFixed(1)} s · ${srv.stats.total} requests · busiest second ${most} · peak in flight ${srv.stats.peakInFlight}`);
      expect(r.code, why).toBe(0);
      // each worker spaces its starts 1000/(20/workers) ms apart: 20 a second between them; a request
      // the event loop held back a moment can reach the server just after the previous one — one
      // extra per second per worker at most, so 22 with the two workers --concurrency 2 allows
      expect(most, 'requests in one second').toBeLessThanOrEqual(22);
      expect(srv.stats.peakInFlight, 'requests in flight at once').toBeLessThanOrEqual(2);
      expect(srv.stats.total).toBeGreaterThan(60);
      expectEvidence(r.report!, srv.url);
      await settle(srv);
      expectRestored(before, srv.snapshot());
    } finally {
      await srv.close();
    }
  });
});
