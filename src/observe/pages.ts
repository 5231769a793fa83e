/**
 * pages.titleFilterKey — §4: pages filter on `title`, "The page filter samples
 * use a `name` key instead of `title`". Which key filters?
 *
 * A page P with title T; one get with {title: [T]} and one with {name: [T]}.
 * Each key either filters (2xx, P among the results, every result titled T),
 * is ignored (2xx with pages of other titles: everything comes back), is
 * rejected (an error), or matches nothing. Both filter → 'both'; one → that one.
 */
import type { Rec } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { resource } from '../schema/model.js';
import { couldNotTell, is2xx, observation, statusText, type Probe } from './types.js';
import { idsOf } from './shared.js';

const KEY = 'pages.titleFilterKey';

type Verdict = 'filters' | 'ignored' | 'rejected' | 'matches nothing' | 'no answer';

function judge(ex: Exchange, value: Rec[] | undefined, p: Rec, field: string): Verdict {
  if (!ex.response) return 'no answer';
  if (!is2xx(ex) || !value) return 'rejected';
  if (value.length === 0) return 'matches nothing';
  const hasP = idsOf(value).includes(String(p.id).toLowerCase());
  return hasP && value.every((x) => x[field] === p[field]) ? 'filters' : 'ignored';
}

export const pagesTitleProbe: Probe = {
  name: 'page title filter key',
  keys: [KEY],
  phase: 1,
  async run({ client, shared }) {
    const r = resource('page');
    const alias = r.filters.find((f) => f.aliasOf);
    if (!alias) return { [KEY]: couldNotTell('the page model has no alias filter key') };
    const titleKey = alias.aliasOf!;
    const nameKey = alias.key;
    const { records } = await shared.page(r.name);
    const p = records.find((x) => typeof x[titleKey] === 'string' && x[titleKey] !== '');
    if (!p) return { [KEY]: couldNotTell(`no page with a ${titleKey} to filter on`) };
    const [byTitle, byName] = await Promise.all([
      client.get(r, { filters: { [titleKey]: [p[titleKey]] } }),
      client.get(r, { filters: { [nameKey]: [p[titleKey]] } }),
    ]);
    const t = judge(byTitle.exchange, byTitle.value, p, titleKey);
    const n = judge(byName.exchange, byName.value, p, titleKey);
    const detail = `{${titleKey}: [T]} ${t === 'rejected' ? `is rejected (${statusText(byTitle.exchange)})` : t}; {${nameKey}: [T]} ${n === 'rejected' ? `is rejected (${statusText(byName.exchange)})` : n} (${r.prefix}/get)`;
    const value = t === 'filters' && n === 'filters' ? 'both' : t === 'filters' ? titleKey : n === 'filters' ? nameKey : null;
    if (value === null) return { [KEY]: couldNotTell(`neither key filters: ${detail}`, byTitle.exchange, byName.exchange) };
    return { [KEY]: observation(value, detail, byTitle.exchange, byName.exchange) };
  },
};
