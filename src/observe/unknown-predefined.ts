/**
 * filters.unknownPredefinedValue — what a Predefined filter (`type`, `status`,
 * `role`...) gets for a value outside the values the store knows is not shown:
 * §2 says the complete lists of allowed values are not shown beyond the
 * enumeration table, §4 types the filters Predefined[]. Stacks differ by
 * default: a text column compared with `IN (...)` (PHP or Node over SQL)
 * matches nothing; an enum-typed filter model (ASP.NET Core binding a
 * `Status[]`, a Java enum, a Laravel `in:` rule) refuses the request (400/422).
 * One get of the first resource holding records that has a Predefined filter,
 * filtered by a value no store knows:
 *   an error (4xx)           → 'refused'
 *   2xx and no record        → 'matches-nothing'
 *   2xx with records, or 5xx → fits no reading (could not tell; a 5xx is the
 *                              run's target error)
 * The filter cases draw a value no record holds from the enumeration table
 * unless 'matches-nothing' was observed (suites/filters/cases.ts), so a store
 * of either reading is judged by what its keys return.
 */
import { couldNotTell, is2xx, observation, statusText, unusableAnswer, type Probe } from './types.js';

const KEY = 'filters.unknownPredefinedValue';
/** A value no enumeration holds (the table's values are words in upper or lower case, no digits). */
export const UNKNOWN_PREDEFINED_VALUE = 'STORECHECK_NO_SUCH_VALUE_7';

export const unknownPredefinedProbe: Probe = {
  name: 'unknown Predefined filter value',
  keys: [KEY],
  phase: 1,
  async run({ client, shared }) {
    const counts = await shared.counts();
    const r = shared.listResources().find((x) => (counts.get(x.name) ?? 0) > 0 && x.filters.some((f) => f.valueKind === 'predefined' && f.filter === 'array'));
    if (!r) return { [KEY]: couldNotTell('no resource holding records has a Predefined filter') };
    const f = r.filters.find((x) => x.valueKind === 'predefined' && x.filter === 'array')!;
    const what = `a get of ${r.prefix} filtered by ${f.key} ${JSON.stringify([UNKNOWN_PREDEFINED_VALUE])}`;
    const got = await client.get(r, { filters: { [f.key]: [UNKNOWN_PREDEFINED_VALUE] } });
    const ex = got.exchange;
    const unusable = unusableAnswer(ex, what, got.problem);
    if (unusable) return { [KEY]: unusable };
    if (!is2xx(ex)) return { [KEY]: observation('refused', `${what} is refused: ${statusText(ex)}`, ex) };
    if (got.value && got.value.length === 0) return { [KEY]: observation('matches-nothing', `${what} answers ${statusText(ex)} with no record`, ex) };
    return { [KEY]: couldNotTell(`${what} answers ${statusText(ex)} with ${got.value?.length ?? 'no'} records: no record can hold a value no enumeration has`, ex) };
  },
};
