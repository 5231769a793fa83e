/**
 * Filters of the read-only resources (§4 Filter naming, Filters per
 * resource): order, customer, shipping method, tax, payment method, user,
 * file, country. Nothing can be created, so each resource's checks share a
 * sample of the records already there (one get, first page of SAMPLE records)
 * and derive filter values from it: results are judged for soundness (every
 * record returned satisfies the filter) and completeness relative to the
 * sample (every sampled record that satisfies it is returned). When filters
 * combine with AND (observation filters.combination), every query carries the
 * sample's ids, so the rest of the store never matters.
 *
 * Orders totalprice_min/max and discount_min/max are typed Decimal[] but the
 * samples send one string: the string form is what these checks send. (The
 * reference server also takes an array and uses its first element; the spec
 * does not say what an array of several bounds means, so it is not judged.)
 * Users count goes to the observed users count path (observation
 * users.countPath; §4 documents the shipping methods path with the users
 * filter table).
 */
import { observed, CheckFailure, TargetError, isTargetError } from '../src/check/index.js';
import type { StoreClient } from '../src/client/api.js';
import { resources, type ResourceModel } from '../src/schema/model.js';
import { filterFixture, registerFilterChecks, type Scoped } from './filters-shared.js';

const SAMPLE = 200;

async function sample(r: ResourceModel, client: StoreClient): Promise<Scoped> {
  const first = observed('pagination.firstPageNumber');
  const res = await client.get(r, { pagination: { pageNumber: first, pageSize: SAMPLE } });
  if (!res.ok) {
    if (isTargetError(res.exchange)) throw new TargetError(`${r.title} get (the sample these checks filter): ${res.problem}`, [res.exchange]);
    throw new CheckFailure({ message: `${r.title} get without filters (the sample these checks filter) was not accepted: ${res.problem} (§4 Common rules: filters are optional)`, evidence: [res.exchange] });
  }
  const records = (res.value ?? []).filter((x) => x && typeof x.id === 'string');
  return { r, records, ids: records.map((x) => String(x.id)), what: `the sample (${records.length} ${r.title} records of the first page)` };
}

for (const r of resources()) {
  if (r.writable || r.single || !r.filters.length) continue;
  registerFilterChecks(r, filterFixture((_scope, client) => sample(r, client)), false);
}
