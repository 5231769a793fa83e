/**
 * A lying target (issue 14): a create stores the records but answers them —
 * the values sent, run tag included — under the ids of records the store held
 * before; or an update answers with other records, and a lookup by value (how
 * a lost create is found) lists a record the store held before. Trusting those
 * ids, a run would update and delete the store's own records. The run must damage nothing: every record held before is there and
 * unchanged after the run; the writes it refused fail their checks, saying
 * why; and the records it really stored are found by their tagged values and
 * deleted by cleanup (or listed as left behind), never silently kept.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer, type TransportFaults } from '../../reference/server.js';
import { runStorecheck } from '../../reference/cli-process.js';

const KEY = 'hostile-target-key-1234';
const RESOURCE = 'collection';

const LIES: Array<{ name: string; transport: Partial<TransportFaults>; only: string; says?: RegExp }> = [
  { name: 'a create answered under the ids of records the store held before', transport: { createAnswersExistingIds: true }, only: `${RESOURCE}.lifecycle.*`, says: /a get by id shows a record without the run's tag under that id/ },
  {
    name: 'an update answered with other records, and every lookup by value listing a record the store held before',
    transport: { updateAnswersExistingIds: true, getAddsForeignRecord: true },
    only: `${RESOURCE}.lifecycle.*,${RESOURCE}.filters.array.*,${RESOURCE}.model.*,${RESOURCE}.auth.*`,
  },
];

describe.each(LIES)('$name', ({ transport, only, says }) => {
  it('touches none of the records held before: the ids are never owned, the checks fail saying why, cleanup finds what was really stored', async () => {
    const ref = await startReferenceServer({ apiKey: KEY, transport });
    try {
      const before = ref.snapshot().records[RESOURCE];
      const r = await runStorecheck(['--base-url', ref.url, '--depth', 'quick', '--only', only], { env: { STORE_API_KEY: KEY } });
      const why = `exit ${r.code}\n${r.stderr.slice(-3000)}`;
      expect(r.report, why).toBeDefined();
      const after = ref.snapshot().records[RESOURCE];
      // every record held before: still there, unchanged
      for (const rec of before) expect(after.find((x) => x.id === rec.id), `${rec.id}\n${why}`).toEqual(rec);
      expect(r.code, why).toBe(1);
      const failed = r.report!.checks.filter((c) => c.status === 'failed');
      expect(failed.length, why).toBeGreaterThan(0);
      if (says) expect(failed.some((c) => says.test(c.message ?? '')), why).toBe(true);
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
