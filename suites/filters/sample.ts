/**
 * The scope of a read-only resource's filter checks: nothing can be created,
 * so the checks share a sample of the records already there (one get of the
 * first page, up to SAMPLE records) and derive filter values from it. Results
 * are judged for soundness (every record returned satisfies the filter) and
 * completeness relative to the sample. When filters combine with AND
 * (observation filters.combination) every query carries the sample's ids, so
 * the rest of the store never matters.
 */
import { CheckFailure, fixture, TargetError, isTargetError, readPage, type Fixture, type ResourceModel } from '../../src/check/index.js';
import type { Scoped } from './scoped.js';

const SAMPLE = 200;

export function sampleFixture(r: ResourceModel): Fixture<Scoped> {
  return fixture(async (f) => {
    const res = await readPage(f.client, r, { pageSize: SAMPLE });
    if (!res.ok) {
      if (isTargetError(res.exchange)) throw new TargetError(`${r.title} get (the sample these checks filter): ${res.problem}`, [res.exchange]);
      throw new CheckFailure({ message: `${r.title} get without filters (the sample these checks filter) was not accepted: ${res.problem} (§4 Common rules: filters are optional)`, evidence: [res.exchange] });
    }
    const records = (res.value ?? []).filter((x) => x && typeof x.id === 'string');
    const what = records.length ? `the sample (${records.length} ${r.title} records of the first page)` : `the target (no ${r.title.toLowerCase()} records on it)`;
    return { r, records, ids: records.map((x) => String(x.id)), what };
  });
}
