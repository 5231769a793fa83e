/**
 * Filters of the read-only resources (§4 Filter naming, Filters per
 * resource): order, customer, shipping method, tax, payment method, user,
 * file, country — every filter key in every case of the item catalogue,
 * against a sample of the records already there (filters/sample.ts). A
 * resource with no records has its items reported as not judged, with why.
 *
 * Orders totalprice_min/max and discount_min/max are typed Decimal[] but the
 * samples send one string: the string form is what these checks send. Users
 * count goes to the observed users count path (observation users.countPath).
 */
import { resources, type SuiteDeclaration } from '../src/check/index.js';
import { registerFilterChecks } from './filters/register.js';
import { sampleFixture } from './filters/sample.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = {
  rules: ['filters.id', 'filters.array', 'filters.range', 'filters.boolean', 'filters.date-only-bound', 'filters.count-agrees', 'filters.all-keys'],
  resources: 'read-only',
};

for (const r of resources()) {
  if (r.writable || r.single || !r.filters.length) continue;
  registerFilterChecks(r, sampleFixture(r));
}
