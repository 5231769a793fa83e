/**
 * The scope of a writable resource's filter checks: one create of generated
 * records (6 "splitters" + the depth's batch), read back once with the id
 * filter; every expectation is computed from the read-back. The splitters
 * hold, per filtered field:
 * - text: a value, its duplicate, a longer value that contains it, a shorter
 *   one it contains, its lower-case and its unaccented form (for unique
 *   properties, which carry the run tag, only the nested values v, v+'d',
 *   v+'dd': a target may well refuse names or slugs equal but for case);
 * - numbers: 2, 9, 10, 11, 100, 0 and 9.5, 10.25, 2.05, 100.5, 10.2, 0.99,
 *   whose text order is not their numeric order;
 * - DateTime: instants on distinct days whose unpadded text order misleads
 *   (2024-09-30 vs 2024-10-01), two on one day (a date-only bound on that day
 *   shows its reading), one sent as a date only;
 * - both Boolean values, every known Predefined value.
 * After them, the value classes (docs/value-classes.md): for every filtered
 * field, one record per value of each class it takes (zero, "0", "false",
 * values whose written length changes, float-inexact decimals, LIKE wildcards
 * beside the value they would match, leap days…), in the same create — so
 * every filter request of every case judges every class of the records.
 */
import {
  maxLengthOf, decimalLimitOf,
  CheckFailure, fixture, walk, isRejected, decimalWithin, decimalLimitOfEveryReading, type Fixture, type FixtureContext,
  type Rec, type PayloadPropModel, type ResourceModel,
} from '../../src/check/index.js';
import { batchArb, dateRangePairs, maxDecimal, type Payload } from '../../generators/index.js';
import { classItemCount, observedNotTaken, payloadClasses, withClasses } from '../support/classes.js';
import { lower, type Scoped } from './scoped.js';

const SPLITTERS = 6;
const INTEGERS = ['2', '9', '10', '11', '100', '0'];
const DECIMALS = ['9.5', '10.25', '2.05', '100.5', '10.2', '0.99'];
const STARTS = ['2024-09-30 14:30:00', '2024-10-01 09:15:00', '2024-10-01 18:40:00', '2024-02-05', '2031-01-01 00:00:00', '2025-06-30 23:59:59'];
const ENDS = ['2024-10-09 10:00:00', '2024-10-10 07:05:00', '2024-10-10 20:00:00', '2024-02-09 08:00:00', '2031-01-02 00:00:00', '2025-07-01 12:00:00'];

const cut = (s: string, n: number) => Array.from(s).slice(0, n).join('');
const unaccented = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

/** Overwrite the filtered properties of the first SPLITTERS items with values that split every filter. */
function split(r: ResourceModel, items: Payload[]): Payload[] {
  const filtered = new Set(r.filters.map((f) => f.field));
  const props = r.payload.filter((p) => !p.references && p.kind !== 'list' && filtered.has(p.recordField ?? p.name));
  const ends = new Set(dateRangePairs(r.name).map(([, e]) => e));
  const n = Math.min(SPLITTERS, items.length);
  props.forEach((p, j) => {
    // text variants derive from the first item's generated value, read before any is overwritten
    const first = String(items[0]?.[p.name] ?? '');
    for (let i = 0; i < n; i++) {
      const v = splitValue(p, i, j, first, ends.has(p.name));
      if (v !== undefined) items[i][p.name] = v;
    }
  });
  return items;
}

/** The value the i-th splitter writes to property p (j staggers numbers across properties); exported for its unit test. */
export function splitValue(p: PayloadPropModel, i: number, j: number, first: string, isEnd: boolean): string | undefined {
  if (p.safeValue !== undefined) return p.safeValue;
  switch (p.kind) {
    case 'string': {
      const max = maxLengthOf(p);
      if (p.unique) {
        // a cut inside the text may end it with white-space: generated text never has any at its edges (a store may trim or refuse it)
        const v = cut(first, max - 2).replace(/\s$/u, 'x');
        return [v, `${v}d`, `${v}dd`][i];
      }
      const b = `${cut(first, Math.min(40, max - 4))} Éa`;
      return [b, b, `${b}d`, b.toLowerCase(), unaccented(b), cut(b, Array.from(b).length - 1)][i];
    }
    case 'integer':
      return INTEGERS[(i + j) % INTEGERS.length];
    case 'decimal': {
      const v = DECIMALS[(i + j) % DECIMALS.length];
      const within = decimalLimitOfEveryReading(decimalLimitOf(p));
      return !decimalWithin(v, within) ? maxDecimal(within) : v;
    }
    case 'boolean':
      return (i + j) % 2 === 0 ? 'true' : 'false';
    case 'predefined':
      return p.knownValues?.length ? p.knownValues[i % p.knownValues.length] : undefined;
    case 'datetime':
      return (isEnd ? ENDS : STARTS)[i % STARTS.length];
    default:
      return undefined;
  }
}

/** The filtered payload properties (the fields a filter key reads), each with its value classes. */
function filteredClasses(r: ResourceModel, f: FixtureContext) {
  const filtered = new Set(r.filters.map((x) => x.field));
  return payloadClasses(r, f.config.runTag, f.depth.classValues, f.sample, { only: (p) => !p.references && p.kind !== 'list' && filtered.has(p.recordField ?? p.name), underReadings: observedNotTaken() });
}

async function build(r: ResourceModel, f: FixtureContext): Promise<Scoped> {
  const classes = filteredClasses(r, f);
  const base = SPLITTERS + f.depth.batch;
  const n = base + classItemCount(classes);
  const drafts = f.sample(batchArb(r.name, { tag: f.config.runTag }, { minLength: n, maxLength: n }), `filters.fixture.${r.name}`);
  const items = split(r, drafts.slice(0, base));
  const created = await f.scope.create(r, [...items, ...withClasses(r, drafts.slice(base), classes, f.config.runTag)]);
  const ids = created.map((x) => String(x.id));
  const read = await walk(f.client, r, { id: ids });
  if (isRejected(read)) {
    throw new CheckFailure({ message: `reading back the ${ids.length} ${r.title} records just created with the id filter was not accepted: ${read.problem} (§4 Filters per resource)`, evidence: read.exchanges.slice(-1) });
  }
  const byId = new Map(read.records.map((x: Rec) => [lower(x.id), x]));
  const missing = ids.filter((id) => !byId.has(lower(id)));
  if (missing.length) {
    throw new CheckFailure({
      message: `get with the id filter of the ${ids.length} ${r.title} records just created returned ${read.records.length} record(s) and left out ${missing.length} of them, e.g. ${missing[0]} (§4 Filters per resource: the id filter returns the records with the listed ids)`,
      expected: ids,
      actual: read.records.slice(0, 30).map((x: Rec) => x.id),
      evidence: read.exchanges.slice(-1),
    });
  }
  return { r, records: ids.map((id) => byId.get(lower(id))!), ids, what: `the fixture (${ids.length} ${r.title} records created for these checks)` };
}

/** The fixture of a writable resource, built by the first check that needs it (its requests are that check's evidence). */
export function writableFixture(r: ResourceModel): Fixture<Scoped> {
  return fixture((f) => build(r, f));
}
