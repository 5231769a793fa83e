/**
 * Filters under OR combination (observation filters.combination): the filters
 * are sent without the id filter, so the walks reach the run's other records,
 * which other checks create and delete meanwhile — the pagination checks'
 * 1 001 copies above all. A delete while a walk is under way shifts records
 * onto a page already read, and a record of the check's scope that was there
 * all along is missing from that walk. Judged on one walk, this honest store
 * (every choice here is a reading the spec allows) failed 6 and 8 product
 * filter checks at these seeds; the checks now look for a left-out record in
 * up to two more walks (suites/filters/query.ts settledWalk), and a store
 * that leaves a record out of every walk still fails (the OR-mode filter
 * faults of test/meta/faults.test.ts and the local-faults sample).
 */
import { describe, expect, it } from 'vitest';
import { runStorecheck } from '../../reference/cli-process.js';

const STORE = 'first-page-zero+page-size-25+order-desc+or-filters+exclusive-ranges';

describe('filters under OR while other checks write', () => {
  it.each([2027, 2028])('pass an honest OR store whose walks the run\'s own deletes shift (seed %i)', async (seed) => {
    const run = await runStorecheck(['--depth', 'quick', '--seed', String(seed), '--reference-variant', STORE, '--only', 'product.filters.*,product.pagination.*'], { timeoutMs: 120_000 });
    const failed = (run.report?.checks ?? []).filter((c) => c.status === 'failed').map((c) => c.id);
    expect(failed, run.stdout.slice(-2000)).toEqual([]);
    expect(run.code).toBe(0);
    expect((run.report?.checks ?? []).filter((c) => c.id.startsWith('product.filters.')).length).toBeGreaterThan(40);
  }, 150_000);
});
