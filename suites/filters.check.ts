/**
 * Filters of the writable resources (§4 Filter naming, Filters per resource):
 * every filter key of every resource in every case of the item catalogue
 * (src/items/filters.ts), against a fixture of generated records built to
 * split them (filters/fixture.ts); count agrees with get case by case.
 */
import { resources } from '../src/schema/model.js';
import { writableFixture } from './filters/fixture.js';
import { registerFilterChecks } from './filters/register.js';

for (const r of resources()) {
  if (!r.writable || r.single || !r.filters.length) continue;
  registerFilterChecks(r, writableFixture(r));
}
