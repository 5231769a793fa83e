/**
 * filters.unknownKey — what a filter key the resource does not have gets is
 * not shown (§4 names the keys, §7 the errors). One get of the first resource
 * holding records, filtered by a key no resource has:
 *   an error (4xx)                         → 'rejected'
 *   2xx with the records of the same get unfiltered → 'ignored'
 *   5xx                                    → fits no reading (no value; the run gives no verdict on it)
 * A key ignored is why the page title probe judges what a key returns, not
 * whether it is accepted (pages.titleFilterKey).
 */
import { couldNotTell, is2xx, observation, statusText, unusableAnswer, type Probe } from './types.js';
import { idsOf } from './shared.js';

const KEY = 'filters.unknownKey';
/** No resource has it (the schemas' keys are lower-case field names and their _min/_max). */
export const UNKNOWN_FILTER_KEY = 'storecheck_no_such_key';

export const unknownFilterProbe: Probe = {
  name: 'unknown filter key',
  keys: [KEY],
  phase: 1,
  async run({ client, shared }) {
    const counts = await shared.counts();
    const r = shared.listResources().find((x) => (counts.get(x.name) ?? 0) > 0);
    if (!r) return { [KEY]: couldNotTell('no resource holds a record to filter') };
    const { records, exchange: plain } = await shared.page(r.name);
    const got = await client.get(r, { filters: { [UNKNOWN_FILTER_KEY]: ['x'] } });
    const ex = got.exchange;
    const unusable = unusableAnswer(ex, `a get of ${r.prefix} filtered by ${UNKNOWN_FILTER_KEY}`, got.problem);
    if (unusable) return { [KEY]: unusable };
    if (!is2xx(ex)) return { [KEY]: observation('rejected', `a get of ${r.prefix} filtered by ${UNKNOWN_FILTER_KEY} is refused: ${statusText(ex)}`, ex) };
    const want = idsOf(records).sort().join();
    if (got.value && idsOf(got.value).sort().join() === want) {
      return { [KEY]: observation('ignored', `a get of ${r.prefix} filtered by ${UNKNOWN_FILTER_KEY} answers ${statusText(ex)} with the ${records.length} records of the same get unfiltered: the key is ignored`, ex, plain) };
    }
    return { [KEY]: couldNotTell(`a get of ${r.prefix} filtered by ${UNKNOWN_FILTER_KEY} answers ${statusText(ex)} with ${got.value?.length ?? 'no'} records, not those of the same get unfiltered (${records.length})`, ex, plain) };
  },
};
