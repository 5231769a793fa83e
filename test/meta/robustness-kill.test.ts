/**
 * A run stopped midway, against a reference server started here as an external
 * target:
 * - SIGKILL (a crash: no handler runs) leaves the records it had created; then
 *   `storecheck sweep --ledger <dir>/ledger.jsonl --base-url …` removes exactly
 *   those, and the store equals its snapshot from before the run.
 * - SIGINT: the run stops, cleans up itself, and exits 3 with a line saying so;
 *   the store equals its snapshot.
 *
 * The run is `node bin/storecheck.mjs` (the installed command, one process):
 * under the tsx CLI the program is a child of a relaying parent, and a signal
 * would be the parent's business. The signal comes once the checks have
 * started (first progress line) and the ledger holds records not yet deleted.
 *
 * Subset: product and collection lifecycle — writes in every check, batches
 * and references (products → categories/collections), so a kill lands with
 * records of several resources alive. 100 ms latency keeps the run busy long
 * enough for the signal to land mid-run.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/client/ledger.js';
import { runStorecheck } from '../../reference/cli-process.js';
import { added, describeBad, expectRestored, settle, target } from './robustness-helpers.js';

const ONLY = 'product.lifecycle.*,collection.lifecycle.*';

/** Records the ledger says were created and not deleted (a line being written is retried later). */
function outstanding(dir: string): number {
  try {
    return [...Ledger.load([join(dir, 'ledger.jsonl')]).outstanding().values()].reduce((n, ids) => n + ids.length, 0);
  } catch {
    return 0;
  }
}

async function waitFor(what: string, cond: () => boolean, ms = 180_000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Start a run; resolve with it once checks run and records are alive. */
async function startAndWait(srv: Awaited<ReturnType<typeof target>>, dir: string) {
  let pid = 0;
  let checksStarted = false;
  const run = runStorecheck(['--depth', 'quick', '--only', ONLY], {
    against: srv,
    reportDir: dir,
    timeoutMs: 240_000,
    detached: true,
    onSpawn: (p) => (pid = p),
    onStderr: (t) => { if (/checks \d+\//.test(t)) checksStarted = true; },
  });
  // --quiet is off here: the progress line tells when the checks are running
  try {
    await waitFor('the checks to start and records to be alive', () => checksStarted && outstanding(dir) > 0);
  } catch (e) {
    if (pid) process.kill(-pid, 'SIGKILL');
    await run;
    throw e;
  }
  return { run, pid };
}

describe('a run stopped midway', () => {
  it('SIGKILL leaves records behind; sweep removes exactly those and the store is as before', async () => {
    const srv = await target({ latencyMs: 100 });
    try {
      const before = srv.snapshot();
      const dir = mkdtempSync(join(tmpdir(), 'sc-kill-'));
      const { run, pid } = await startAndWait(srv, dir);
      process.kill(-pid, 'SIGKILL');
      const r = await run;
      expect(r.code).toBeNull();
      await settle(srv);
      const left = added(before, srv.snapshot());
      expect(Object.keys(left).length, 'the kill left nothing behind: it landed too late to prove anything').toBeGreaterThan(0);

      const sweep = await runStorecheck(['sweep', '--list', '--ledger', join(dir, 'ledger.jsonl')], { against: srv });
      expect(sweep.code, sweep.stderr).toBe(0);
      // --list: under 'removed (read back gone)', one line per resource with its ids
      const removed: Record<string, string[]> = {};
      const block = /^removed \(read back gone\):.*\n((?: {2}\S+: .*\n)*)/m.exec(sweep.stdout)?.[1] ?? '';
      for (const m of block.matchAll(/^ {2}(\S+): (.*)$/gm)) removed[m[1]] = m[2].split(', ');
      const sorted = (o: Record<string, string[]>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, [...v].map((x) => x.toLowerCase()).sort()]).sort());
      expect(sorted(removed), sweep.stdout).toEqual(sorted(left));
      expect(sweep.stdout).toMatch(/sweep done: (\d+) of \1 record\(s\) read back gone, none left/);
      expectRestored(before, srv.snapshot());

      // a second sweep finds nothing left to do
      const again = await runStorecheck(['sweep', '--ledger', join(dir, 'ledger.jsonl')], { against: srv });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/^0 record\(s\) outstanding/m);
    } finally {
      await srv.close();
    }
  });

  it('SIGINT: the run cleans up itself and exits 3 with a clear line', async () => {
    const srv = await target({ latencyMs: 100 });
    try {
      const before = srv.snapshot();
      const dir = mkdtempSync(join(tmpdir(), 'sc-int-'));
      const { run, pid } = await startAndWait(srv, dir);
      const signalled = Date.now();
      process.kill(pid, 'SIGINT');
      const r = await run;
      const why = `exit ${r.code}\n${r.stderr.slice(-2000)}\n${describeBad(r.report)}`;
      expect(r.code, why).toBe(3);
      expect(r.stderr).toMatch(/interrupted by SIGINT: stopping and cleaning up what this run created/);
      expect(r.stderr).toMatch(/storecheck: no verdict: interrupted by SIGINT; cleanup deleted \d+ record\(s\), none left behind/);
      // stopped promptly: requests in flight abandoned, no new check started (cleanup at 100 ms a request)
      expect(Date.now() - signalled, why).toBeLessThan(30_000);
      expect(r.report?.summary.verdict).toBe('no-verdict');
      expect(r.report?.summary.failed, why).toBe(0);
      expect(r.report?.cleanup?.leftBehind).toEqual([]);
      await settle(srv);
      expectRestored(before, srv.snapshot());
    } finally {
      await srv.close();
    }
  });
});
