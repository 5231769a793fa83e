/**
 * Honest cleanup (issue 14): a target whose delete answers success and
 * removes nothing. The run must not believe it: every record it created is
 * listed as left behind (read back — not merely unverified), the terminal says
 * so with the sweep command (--base-url included), the ledger keeps them
 * outstanding, sweep --dry-run summarises them per resource and state, and
 * sweep says they are still there.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../reference/server.js';
import { runStorecheck } from '../../reference/cli-process.js';

describe('a delete that removes nothing', () => {
  it('leaves the records listed as left behind, outstanding in the ledger and for sweep', async () => {
    const key = 'cleanup-honest-key-1234';
    const ref = await startReferenceServer({ apiKey: key, faults: ['delete-nothing'] });
    try {
      const r = await runStorecheck(['--base-url', ref.url, '--depth', 'quick', '--only', 'collection.lifecycle.create.*'], { env: { STORE_API_KEY: key } });
      expect(r.report, r.stderr).toBeDefined();
      const c = r.report!.cleanup!;
      expect(c.created).toBeGreaterThan(0);
      expect(c.deleted).toBe(0);
      expect(c.leftBehind.length).toBe(c.created);
      // every read-back answered: what is there is proven there, nothing is merely unverified
      expect(c.unverified).toEqual([]);
      expect(c.unverifiedCount).toBe(0);
      expect(r.stderr).toMatch(/^cleanup: \d+ record\(s\) LEFT BEHIND on the target \(still there when read back\)$/m);
      // the terminal's hint is the command report.json gives: --base-url included
      expect(c.sweep).toMatch(/^storecheck sweep --ledger \S+ledger\.jsonl --base-url /);
      expect(r.stderr).toContain(`  retry with: ${c.sweep}`);
      expect(c.sweep).toContain(`--base-url ${ref.url}`);
      const ledger = join(r.reportDir, 'ledger.jsonl');
      // a dry run summarises per resource and state; --list prints the ids
      const dry = await runStorecheck(['sweep', '--ledger', ledger, '--base-url', ref.url, '--dry-run'], { env: { STORE_API_KEY: key } });
      expect(dry.stdout).toMatch(new RegExp(`^${c.created} record\\(s\\) outstanding in 1 ledger\\(s\\)$`, 'm'));
      expect(dry.stdout).toMatch(/^ +resource +created +read back gone +outstanding +unanswered creates$/m);
      // the collections of the checks (and a probe's record or two of another resource), none read back gone
      const rows = [...dry.stdout.matchAll(/^ +([a-z-]+) +(\d+) +(\d+) +(\d+) +(\d+)$/gm)].map((m) => m.slice(1));
      expect(rows.map((x) => x[0])).toContain('collection');
      for (const [, created, gone, left, unanswered] of rows) expect([gone, left, unanswered]).toEqual(['0', created, '0']);
      expect(rows.reduce((n, x) => n + Number(x[3]), 0)).toBe(c.created);
      expect(dry.stdout).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      const listed = await runStorecheck(['sweep', '--ledger', ledger, '--dry-run', '--list'], { env: { STORE_API_KEY: key } });
      expect(listed.stdout.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g)).toHaveLength(c.created);
      const sweep = await runStorecheck(['sweep', '--ledger', ledger, '--base-url', ref.url], { env: { STORE_API_KEY: key } });
      expect(sweep.code).toBe(3);
      expect(sweep.stderr).toMatch(new RegExp(`^left behind: ${c.created} record\\(s\\) still there when read back:$`, 'm'));
      expect(sweep.stderr).not.toMatch(/could not verify/);
    } finally {
      await ref.close();
    }
  });
});
