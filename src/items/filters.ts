/**
 * Filter items (§4 Filter naming, Filters per resource), for every list
 * resource and every filter key of its model:
 *   <r>.filters.id                  #one #several #absent
 *   <r>.filters.array.<key>         #one #several #absent (#exact for text and predefined keys: equal under the
 *                                   store's observed collation — letter case, accents, trailing spaces)
 *   <r>.filters.range.<key>         #bound (a value between records) #equal (a bound equal to a record's value,
 *                                   judged under the observed inclusivity)
 *   <r>.filters.range.<field>       #both (_min and _max of one field together)
 *                                   #classes (a bound of each value class, as _min and as _max; judged on get)
 *   <r>.filters.date-only-bound.<key> #day (a DateTime bound given as a date, §2 Conventions)
 *   <r>.filters.boolean.<key>       #true #false
 *   <r>.filters.all-keys            #get (every key but id in one request; judged on get alone)
 * and count for each of those cases (count agrees with get, case by case):
 *   <r>.filters.count-agrees.<key|field> with the cases of its get check.
 */
import type { FilterModel, ResourceModel } from '../schema/model.js';
import type { CheckDraft } from './types.js';

const ARRAY_CASES: Array<[string, string]> = [
  ['one', 'one value: the records whose field equals it'],
  ['several', 'several values: the records whose field equals any of them'],
  ['absent', 'a value no record holds: no record'],
];
const EXACT: [string, string] = ['exact', 'values differing from records’ only in letter case, an accent or a trailing space: those records or not, as the store’s observed collation says (collation.*)'];
const ID_CASES: Array<[string, string]> = [
  ['one', 'one id: that record'],
  ['several', 'several ids: exactly those records'],
  ['absent', 'an id no record has: no record'],
];
const RANGE_CASES: Array<[string, string]> = [
  ['bound', 'a bound between records: the records on its side'],
  ['equal', 'a bound equal to a record’s value: that record kept or left out as the observed inclusivity says'],
];
const BOTH: [string, string] = ['both', '_min and _max of one field together: the records between them'];
/** judged on get alone (no count twin): one request per bound pair keeps a class of every field affordable */
const CLASSES: [string, string] = ['classes', 'a bound of each value class of the field (zero, values whose written length changes, float-inexact decimals, leap days…) as _min and as _max: the records between them'];
/** Cases judged on get only: count-agrees does not mirror them. */
export const GET_ONLY_CASES: ReadonlySet<string> = new Set([CLASSES[0]]);
const DAY: [string, string] = ['day', 'a bound given as a date (YYYY-MM-DD): accepted, and bounding by that day'];
const BOOLEAN_CASES: Array<[string, string]> = [['true', "'true': the records whose field is true"], ['false', "'false': the records whose field is false"]];

/** Cases of an array filter key: exact match is judged for text and predefined values (GUIDs and numbers ignore case). */
export function arrayCases(f: FilterModel): Array<[string, string]> {
  return f.valueKind === 'string' || f.valueKind === 'predefined' ? [...ARRAY_CASES, EXACT] : ARRAY_CASES;
}

/** Range fields with both bounds filterable: field → [min key, max key]. */
export function rangePairs(r: ResourceModel): Array<{ field: string; min: FilterModel; max: FilterModel }> {
  const out: Array<{ field: string; min: FilterModel; max: FilterModel }> = [];
  for (const min of r.filters) {
    if (min.filter !== 'range' || min.bound !== 'min') continue;
    const max = r.filters.find((x) => x.filter === 'range' && x.bound === 'max' && x.field === min.field);
    if (max) out.push({ field: min.field, min, max });
  }
  return out;
}

export function filterChecks(r: ResourceModel): CheckDraft[] {
  if (r.single || !r.operations.includes('get') || !r.filters.length) return [];
  const writes = r.writable;
  const get: CheckDraft[] = [];
  const base = { resource: r.name, writes };
  for (const f of r.filters) {
    if (f.key === 'id') get.push({ ...base, rule: 'filters.id', kind: 'filter', cases: ID_CASES });
    else if (f.filter === 'array') get.push({ ...base, rule: 'filters.array', subject: f.key, kind: 'filter', cases: arrayCases(f) });
    else if (f.filter === 'boolean') get.push({ ...base, rule: 'filters.boolean', subject: f.key, kind: 'filter', cases: BOOLEAN_CASES });
    else {
      get.push({ ...base, rule: 'filters.range', subject: f.key, kind: 'filter', cases: RANGE_CASES });
      if (f.valueKind === 'datetime') get.push({ ...base, rule: 'filters.date-only-bound', subject: f.key, kind: 'filter', cases: [DAY] });
    }
  }
  for (const p of rangePairs(r)) {
    get.push({ ...base, rule: 'filters.range', subject: p.field, title: `${p.min.key} and ${p.max.key} together bound ${p.field} from both sides`, kind: 'filter', cases: [BOTH, CLASSES] });
  }
  // count agrees with get, for every case of every get check above, grouped by the key (or field) filtered
  const counts = new Map<string, Array<[string, string]>>();
  for (const g of get) {
    const key = g.subject ?? 'id';
    const list = counts.get(key) ?? [];
    for (const [c, what] of g.cases) if (!GET_ONLY_CASES.has(c) && !list.some(([x]) => x === c)) list.push([c, `count agrees with get for ${what}`]);
    counts.set(key, list);
  }
  const count: CheckDraft[] = [...counts].map(([key, cases]) => ({
    ...base, rule: 'filters.count-agrees', subject: key, kind: 'count', cases,
    title: `count agrees with get for the ${key} filter, case by case`,
  }));
  // every key at once (but id, the scope of the fixture's records; an alias beside its key is one key): judged on get alone
  const keys = r.filters.filter((f) => f.key !== 'id' && f.aliasOf === undefined);
  const all: CheckDraft[] = keys.length >= 2 ? [{
    ...base, rule: 'filters.all-keys', kind: 'filter', title: `all ${keys.length} filter keys of ${r.name} but id in one request`,
    cases: [['get', 'every filter key at once, each leaving out some records: the records they match together (AND) or any of them matches (OR), as observed (filters.combination)']],
  }] : [];
  return [...get, ...count, ...all];
}
