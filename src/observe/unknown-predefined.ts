/**
 * filters.unknownPredefinedValue — what a Predefined filter (`type`, `status`,
 * `role`...) gets for a value outside the values the store knows is not shown:
 * §2 says the complete lists of allowed values are not shown beyond the
 * enumeration table, §4 types the filters Predefined[]. Stacks differ by
 * default: a text column compared with `IN (...)` (PHP or Node over SQL)
 * matches nothing; an enum-typed filter model (ASP.NET Core binding a
 * `Status[]`, a Java enum, a Laravel `in:` rule) refuses the request (400/422).
 * One get per Predefined key, on up to KEYS resources holding records (one key
 * each, asked at once), filtered by a value no store knows:
 *   an error (4xx)           → 'refused'
 *   2xx and no record        → 'matches-nothing'
 *   2xx with records         → no reading (no record can hold such a value)
 *   5xx                      → fits no reading (the run's target error)
 * The store's reading is the one most keys show, a tie falling back to the
 * first key's: a key departing from it is the fault, and the filter cases,
 * judging every key under the reading (suites/filters/cases.ts), name that
 * key. Asked on its first key alone, a store broken in that key would make the
 * reading whatever that key does, and the others would be judged under it.
 */
import type { Exchange } from '../client/http.js';
import type { FilterModel, ResourceModel } from '../schema/model.js';
import type { Observation } from '../report/types.js';
import { couldNotTell, is2xx, observation, statusText, unusableAnswer, type Probe } from './types.js';

const KEY = 'filters.unknownPredefinedValue';
/** A value no enumeration holds (the table's values are words in upper or lower case, no digits). */
export const UNKNOWN_PREDEFINED_VALUE = 'STORECHECK_NO_SUCH_VALUE_7';
/** Keys asked (one get each, all at once): a majority of 5 outvotes two keys departing from the store's reading. */
export const UNKNOWN_PREDEFINED_KEYS = 5;

type Reading = 'refused' | 'matches-nothing';

/** What one key told: its reading, or why it told none (`unusable`: an answer that ends the probe's say). */
interface Told { where: string; exchange: Exchange; value?: Reading; said: string; unusable?: Observation }

const predefinedKey = (r: ResourceModel): FilterModel | undefined => r.filters.find((f) => f.valueKind === 'predefined' && f.filter === 'array');

/** The reading most keys show, or (a tie) the first key's; undefined when none told. */
export function decideUnknownPredefined(told: readonly Told[]): { value: Reading; how: string; departing: Told[] } | undefined {
  const telling = told.filter((t) => t.value);
  if (!telling.length) return undefined;
  const n = (v: Reading) => telling.filter((t) => t.value === v).length;
  const [refused, nothing] = [n('refused'), n('matches-nothing')];
  const value = refused === nothing ? telling[0].value! : refused > nothing ? 'refused' : 'matches-nothing';
  const why = refused === nothing ? `${telling.length > 1 ? 'a tie' : 'one key told'}: the first key asked (${telling[0].where}) decides` : 'the reading most keys show';
  return { value, how: `${telling.length} Predefined key(s) told: ${refused} refused the value, ${nothing} matched no record; ${why}`, departing: telling.filter((t) => t.value !== value) };
}

export const unknownPredefinedProbe: Probe = {
  name: 'unknown Predefined filter value',
  keys: [KEY],
  phase: 1,
  async run({ client, shared }) {
    const counts = await shared.counts();
    const asked = shared.listResources().filter((x) => (counts.get(x.name) ?? 0) > 0 && predefinedKey(x)).slice(0, UNKNOWN_PREDEFINED_KEYS);
    if (!asked.length) return { [KEY]: couldNotTell('no resource holding records has a Predefined filter') };
    const told = await Promise.all(asked.map(async (r): Promise<Told> => {
      const f = predefinedKey(r)!;
      const where = `${r.prefix} ${f.key}`;
      const what = `a get of ${r.prefix} filtered by ${f.key} ${JSON.stringify([UNKNOWN_PREDEFINED_VALUE])}`;
      const got = await client.get(r, { filters: { [f.key]: [UNKNOWN_PREDEFINED_VALUE] } });
      const ex = got.exchange;
      const unusable = unusableAnswer(ex, what, got.problem);
      if (unusable) return { where, exchange: ex, said: what, unusable };
      if (!is2xx(ex)) return { where, exchange: ex, value: 'refused', said: `${what} is refused: ${statusText(ex)}` };
      if (got.value && got.value.length === 0) return { where, exchange: ex, value: 'matches-nothing', said: `${what} answers ${statusText(ex)} with no record` };
      return { where, exchange: ex, said: `${what} answers ${statusText(ex)} with ${got.value?.length ?? 'no'} records: no record can hold a value no enumeration has` };
    }));
    // an answer no honest reading explains (a 5xx) is the run's to report, whatever the other keys told
    const unusable = told.find((t) => t.unusable);
    if (unusable) return { [KEY]: unusable.unusable! };
    const got = decideUnknownPredefined(told);
    if (!got) return { [KEY]: couldNotTell(told.map((t) => t.said).join('; '), ...told.map((t) => t.exchange)) };
    const first = told.find((t) => t.value === got.value)!;
    const departed = got.departing.map((t) => `${t.where}: ${t.said}`).join('; ');
    const silent = told.filter((t) => !t.value).map((t) => `; ${t.said}`).join('');
    return { [KEY]: observation(got.value, `${got.how}${silent}. ${first.said}${departed ? `; departing: ${departed}` : ''}`, first.exchange, ...got.departing.map((t) => t.exchange)) };
  },
};
