/**
 * A lying target (issue 14): a create stores the records but answers them —
 * the values sent, run tag included — under the ids of records the store held
 * before. Trusting those ids, a run would update and delete the store's own
 * records. The run must damage nothing: every record held before is there and
 * unchanged after the run; the writes it refused fail their checks, saying
 * why; and the records it really stored are found by their tagged values and
 * deleted by cleanup (or listed as left behind), never silently kept.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../reference/server.js';
import { runCli } from '../helpers/cli.js';

const KEY = 'hostile-target-key-1234';
const RESOURCE = 'collection';

describe('a create answered under the ids of records the store held before', () => {
  it('touches none of them: the ids are never owned, the checks fail saying why, cleanup finds what was really stored', async () => {
    const ref = await startReferenceServer({ apiKey: KEY, transport: { createAnswersExistingIds: true } });
    try {
      const before = ref.snapshot().records[RESOURCE];
      const r = await runCli(['--base-url', ref.url, '--depth', 'quick', '--only', `${RESOURCE}.lifecycle.*`], { env: { STORE_API_KEY: KEY } });
      const why = `exit ${r.code}\n${r.stderr.slice(-3000)}`;
      expect(r.report, why).toBeDefined();
      const after = ref.snapshot().records[RESOURCE];
      // every record held before: still there, unchanged
      for (const rec of before) expect(after.find((x) => x.id === rec.id), `${rec.id}\n${why}`).toEqual(rec);
      expect(r.code, why).toBe(1);
      const failed = r.report!.checks.filter((c) => c.status === 'failed');
      expect(failed.length, why).toBeGreaterThan(0);
      expect(failed.some((c) => /read back, carry no run tag/.test(c.message ?? '')), why).toBe(true);
      // what the run really stored carries its tag: cleanup found it by those values and deleted it,
      // or says it is left behind
      const tag = r.report!.run.runTag;
      const stored = after.filter((x) => Object.values(x).some((v) => typeof v === 'string' && v.startsWith(tag)));
      expect(stored.length === 0 || r.report!.cleanup!.leftBehind.length > 0, `${stored.length} tagged records left, none reported\n${why}`).toBe(true);
      expect(stored, why).toEqual([]);
    } finally {
      await ref.close();
    }
  }, 120_000);
});
