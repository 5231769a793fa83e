/**
 * Honest cleanup (issue 14): a target whose delete answers success and
 * removes nothing. The run must not believe it: every record it created is
 * listed as left behind (read back), the terminal says so with the sweep
 * command, the ledger keeps them outstanding, and sweep says so too.
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
      expect(r.stderr).toMatch(/cleanup: \d+ record\(s\) LEFT BEHIND on the target .*storecheck sweep --ledger /);
      const ledger = join(r.reportDir, 'ledger.jsonl');
      const dry = await runStorecheck(['sweep', '--ledger', ledger, '--base-url', ref.url, '--dry-run'], { env: { STORE_API_KEY: key } });
      expect(dry.stdout).toMatch(new RegExp(`^${c.created} record\\(s\\) outstanding`, 'm'));
      const sweep = await runStorecheck(['sweep', '--ledger', ledger, '--base-url', ref.url], { env: { STORE_API_KEY: key } });
      expect(sweep.code).not.toBe(0);
      expect(sweep.stderr).toMatch(/could not remove \d+/);
    } finally {
      await ref.close();
    }
  });
});
