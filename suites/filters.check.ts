/**
 * Filters of the writable resources (§4 Filter naming, Filters per resource):
 * every filter key of every resource in every case of the item catalogue
 * (src/items/filters.ts), against a fixture of generated records built to
 * split them (filters/fixture.ts); count agrees with get case by case.
 */
import { resources, type SuiteDeclaration } from '../src/check/index.js';
import { writableFixture } from './filters/fixture.js';
import { registerFilterChecks } from './filters/register.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = {
  rules: ['filters.id', 'filters.array', 'filters.range', 'filters.boolean', 'filters.date-only-bound', 'filters.count-agrees', 'filters.all-keys'],
  resources: 'writable',
};

for (const r of resources()) {
  if (!r.writable || r.single || !r.filters.length) continue;
  registerFilterChecks(r, writableFixture(r));
}
