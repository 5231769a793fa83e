/**
 * filters.dateOnlyBound — what a DateTime range bound given as a date only
 * means (§2: a request DateTime is 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'):
 * that day's midnight (a SQL database comparing a DATETIME column with a date
 * literal) or the whole day (a store comparing DATE(column)).
 *
 * On records already there (read-only resources first): E, the earliest
 * record of a default page not at midnight, and L, the latest; then
 *   {<field>_max: E's day}: E back under 'whole day' when bounds are inclusive;
 *   {<field>_min: L's day}: L back under 'midnight' (inclusive or not) and
 *                           under 'whole day' only when bounds are inclusive.
 * E back and L back: whole day; neither: whole day (exclusive bounds); L only:
 * midnight; E only: no reading gives that.
 */
import type { Rec } from '../client/api.js';
import { GET_CAP, type FilterModel, type ResourceModel } from '../schema/model.js';
import { formatDate, parseDateTime } from '../values/index.js';
import { idsOf } from './shared.js';
import { couldNotTell, observation, type Probe } from './types.js';

const KEY = 'filters.dateOnlyBound';
const DAY = 86400;

/** The DateTime fields of a resource with both range bounds. */
function boundedDateTimes(r: ResourceModel): Array<{ field: string; min: FilterModel; max: FilterModel }> {
  const out: Array<{ field: string; min: FilterModel; max: FilterModel }> = [];
  for (const min of r.filters) {
    if (min.filter !== 'range' || min.bound !== 'min' || min.acceptsArray) continue;
    const max = r.filters.find((x) => x.filter === 'range' && x.bound === 'max' && x.field === min.field);
    if (max && r.fields.find((x) => x.name === min.field)?.kind === 'datetime') out.push({ field: min.field, min, max });
  }
  return out;
}

export const dateOnlyBoundProbe: Probe = {
  name: 'date-only bound',
  keys: [KEY],
  phase: 1,
  async run({ client, shared }) {
    for (const { r } of await shared.byCount(2, (x) => boundedDateTimes(x).length > 0)) {
      const { records } = await shared.page(r.name);
      for (const { field, min, max } of boundedDateTimes(r)) {
        const timed = records
          .map((x: Rec) => ({ x, at: parseDateTime(x?.[field]) }))
          .filter((y): y is { x: Rec; at: number } => y.at !== undefined && y.at % DAY !== 0 && typeof y.x.id === 'string')
          .sort((a, b) => a.at - b.at);
        if (timed.length < 2) continue;
        const e = timed[0];
        const l = timed[timed.length - 1];
        const pagination = { pageSize: String(GET_CAP) };
        const eDay = formatDate(e.at);
        const lDay = formatDate(l.at);
        const [upTo, from] = await Promise.all([
          client.get(r, { filters: { [max.key]: eDay }, pagination }),
          client.get(r, { filters: { [min.key]: lDay }, pagination }),
        ]);
        if (!upTo.ok || !from.ok) return { [KEY]: couldNotTell(`a date-only bound on ${r.prefix} ${field} was not accepted: ${upTo.ok ? from.problem : upTo.problem}`, upTo.exchange, from.exchange) };
        if (upTo.value!.length >= GET_CAP || from.value!.length >= GET_CAP) continue;
        const eBack = idsOf(upTo.value!).includes(String(e.x.id).toLowerCase());
        const lBack = idsOf(from.value!).includes(String(l.x.id).toLowerCase());
        const said = `{${max.key}: '${eDay}'} ${eBack ? 'returned' : 'left out'} a record of ${e.x[field]}; {${min.key}: '${lDay}'} ${lBack ? 'returned' : 'left out'} a record of ${l.x[field]} (${r.prefix}/get)`;
        if (eBack && !lBack) return { [KEY]: couldNotTell(`${said}: no reading of a date gives that`, upTo.exchange, from.exchange) };
        const value = !eBack && lBack ? 'midnight' : 'whole day';
        return { [KEY]: observation(value, `${said}: a date-only bound stands for ${value === 'midnight' ? "the day's midnight" : 'the whole day'}`, upTo.exchange, from.exchange) };
      }
    }
    return { [KEY]: couldNotTell('no resource with a DateTime range filter holds two records at other times than midnight') };
  },
};
