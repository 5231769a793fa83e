/**
 * filters.dateOnlyBound — what a date-only bound ('YYYY-MM-DD') of a DateTime
 * range filter means (§2: a request DateTime is 'YYYY-MM-DD' or
 * 'YYYY-MM-DD HH:MM:SS'): that day's midnight (a SQL database comparing a
 * DATETIME column with a date literal) or the whole day (a store comparing
 * DATE(column)).
 *
 * One field's pair of bounds tells, on records already there (read-only
 * resources first): E, the earliest record of a default page not at
 * midnight, and L, the latest; then
 *   {<field>_max: E's day}: E back under 'whole day' when bounds are inclusive;
 *   {<field>_min: L's day}: L back under 'midnight' (inclusive or not) and
 *                           under 'whole day' only when bounds are inclusive.
 * E back and L back: whole day; neither: whole day (exclusive bounds); L only:
 * midnight; E only: no reading gives that.
 *
 * The store's reading is the one most fields show (FIELDS of them, one per
 * resource first, asked at once): a key departing from it is the fault, and
 * the filter checks, judging every key under the reading, name that key. The
 * probe's first field alone would make the store's reading whatever that one
 * key does. A tie, or a single field that tells, falls back to the first
 * field's reading; the detail says how many fields read each way.
 */
import type { Rec } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { GET_CAP, type FilterModel, type ResourceModel } from '../schema/model.js';
import { formatDate, parseDateTime, type DateOnlyBoundReading } from '../values/index.js';
import type { Shared } from './shared.js';
import { idsOf } from './shared.js';
import { couldNotTell, observation, type Probe, type ProbeContext } from './types.js';

const KEY = 'filters.dateOnlyBound';
const DAY = 86400;
/** DateTime fields asked (two gets each, all at once): a majority of 5 outvotes two keys departing from the store's reading */
export const DATE_ONLY_FIELDS = 5;
/** pairs of exchanges kept as evidence beyond the first field's: those of the fields departing from the majority */
const DEPARTURES_SHOWN = 2;

interface Bounded { r: ResourceModel; field: string; min: FilterModel; max: FilterModel }
/** A field to ask: its bounds and the two records whose days are asked. */
interface Asked extends Bounded { e: { x: Rec; at: number }; l: { x: Rec; at: number } }
/** What one field's pair of bounds showed: a reading, no reading (E only), a refusal, or nothing (an answer at the cap). */
export interface Told { where: string; value?: DateOnlyBoundReading; said: string; exchanges: Exchange[]; refused?: string; noReading?: boolean }

/** The DateTime fields of a resource with both range bounds. */
function boundedDateTimes(r: ResourceModel): Bounded[] {
  const out: Bounded[] = [];
  for (const min of r.filters) {
    if (min.filter !== 'range' || min.bound !== 'min' || min.acceptsArray) continue;
    const max = r.filters.find((x) => x.filter === 'range' && x.bound === 'max' && x.field === min.field);
    if (max && r.fields.find((x) => x.name === min.field)?.kind === 'datetime') out.push({ r, field: min.field, min, max });
  }
  return out;
}

/** E and L of a field on a default page: the earliest and the latest record not at midnight (undefined: fewer than two). */
function endsOf(records: Rec[], b: Bounded): Asked | undefined {
  const timed = records
    .map((x: Rec) => ({ x, at: parseDateTime(x?.[b.field]) }))
    .filter((y): y is { x: Rec; at: number } => y.at !== undefined && y.at % DAY !== 0 && typeof y.x.id === 'string')
    .sort((a, c) => a.at - c.at);
  return timed.length < 2 ? undefined : { ...b, e: timed[0], l: timed[timed.length - 1] };
}

/**
 * Up to DATE_ONLY_FIELDS fields whose default page holds two records at other
 * times than midnight: the first field of each resource (read-only first, by
 * count) before a second field of any, so one resource's query builder is one
 * voice. Pages are read a batch at a time (most are the other probes' reads).
 */
async function fieldsToAsk(shared: Shared): Promise<Asked[]> {
  // a resource holding the cap or more goes last: its {_min: L's day} of a first page reaches the cap and tells nothing
  const rs = (await shared.byCount(2, (x) => boundedDateTimes(x).length > 0))
    .sort((a, b) => Number(a.count >= GET_CAP) - Number(b.count >= GET_CAP))
    .map(({ r }) => boundedDateTimes(r));
  const order = [...rs.map((b) => b[0]), ...rs.flatMap((b) => b.slice(1))];
  const out: Asked[] = [];
  for (let i = 0; i < order.length && out.length < DATE_ONLY_FIELDS;) {
    const batch = order.slice(i, i + DATE_ONLY_FIELDS - out.length);
    i += batch.length;
    const pages = await Promise.all(batch.map((b) => shared.page(b.r.name).then((p) => p.records, () => [] as Rec[])));
    batch.forEach((b, k) => {
      const a = endsOf(pages[k], b);
      if (a) out.push(a);
    });
  }
  return out;
}

/** One field's pair of bounds: {max: E's day} and {min: L's day}, at once. */
async function ask({ client }: ProbeContext, a: Asked): Promise<Told> {
  const where = `${a.r.name} ${a.field}`;
  const pagination = { pageSize: String(GET_CAP) };
  const eDay = formatDate(a.e.at);
  const lDay = formatDate(a.l.at);
  const [upTo, from] = await Promise.all([
    client.get(a.r, { filters: { [a.max.key]: eDay }, pagination }),
    client.get(a.r, { filters: { [a.min.key]: lDay }, pagination }),
  ]);
  const exchanges = [upTo.exchange, from.exchange];
  if (!upTo.ok || !from.ok) return { where, said: '', exchanges, refused: `a date-only bound on ${a.r.prefix} ${a.field} was not accepted: ${upTo.ok ? from.problem : upTo.problem}` };
  if (upTo.value!.length >= GET_CAP || from.value!.length >= GET_CAP) return { where, said: `${where}: an answer at the cap of ${GET_CAP}`, exchanges };
  const eBack = idsOf(upTo.value!).includes(String(a.e.x.id).toLowerCase());
  const lBack = idsOf(from.value!).includes(String(a.l.x.id).toLowerCase());
  const said = `{${a.max.key}: '${eDay}'} ${eBack ? 'returned' : 'left out'} a record of ${a.e.x[a.field]}; {${a.min.key}: '${lDay}'} ${lBack ? 'returned' : 'left out'} a record of ${a.l.x[a.field]} (${a.r.prefix}/get)`;
  if (eBack && !lBack) return { where, said, exchanges, noReading: true };
  return { where, said, exchanges, value: !eBack && lBack ? 'midnight' : 'whole day' };
}

const MEANS = { midnight: "the day's midnight", 'whole day': 'the whole day' } as const;
const list = (ts: Told[]) => ts.map((t) => t.where).join(', ');

/** The store's reading from what every field told: the majority, or (a tie, a single field) the first field's, saying which. */
export function decide(told: Told[]): { value: DateOnlyBoundReading; how: string; departing: Told[] } | undefined {
  const telling = told.filter((t) => t.value);
  if (!telling.length) return undefined;
  const n = (v: DateOnlyBoundReading) => telling.filter((t) => t.value === v).length;
  const [m, w] = [n('midnight'), n('whole day')];
  const first = telling[0].value!;
  const value = m === w || telling.length < 2 ? first : m > w ? 'midnight' : 'whole day';
  const why = telling.length < 2 ? `only one field could tell: its reading (${telling[0].where}) stands`
    : m === w ? `a tie: the first field asked (${telling[0].where}) decides` : 'the reading most fields show';
  const how = `${telling.length} DateTime field(s) told: ${m} read a date-only bound as the day's midnight${m ? ` (${list(telling.filter((t) => t.value === 'midnight'))})` : ''}, ${w} as the whole day${w ? ` (${list(telling.filter((t) => t.value === 'whole day'))})` : ''}; ${why}`;
  return { value, how, departing: telling.filter((t) => t.value !== value) };
}

function observed(told: Told[]) {
  const got = decide(told);
  const refused = told.find((t) => t.refused);
  const odd = told.filter((t) => t.noReading);
  const oddText = odd.length ? `; ${odd.length} fit no reading (${odd.map((t) => `${t.said}`).join('; ')})` : '';
  if (!got) {
    if (refused) return couldNotTell(refused.refused!, ...refused.exchanges);
    if (odd.length) return couldNotTell(`${odd[0].said}: no reading of a date gives that`, ...odd[0].exchanges);
    return couldNotTell(`no field of ${told.length} asked could tell (${told.map((t) => t.said).join('; ')})`, ...told.flatMap((t) => t.exchanges));
  }
  const first = told.find((t) => t.value === got.value)!;
  const departed = got.departing.map((t) => `${t.where}: ${t.said}`).join('; ');
  const refusedText = told.filter((t) => t.refused).map((t) => `; ${t.refused}`).join('');
  const capped = told.filter((t) => !t.value && !t.refused && !t.noReading);
  const cappedText = capped.length ? `; ${capped.length} could not tell (${capped.map((t) => t.said).join('; ')})` : '';
  const detail = `${got.how}${oddText}${refusedText}${cappedText}. ${first.said}${departed ? `; departing: ${departed}` : ''}: a date-only bound stands for ${MEANS[got.value]}`;
  return observation(got.value, detail, ...first.exchanges, ...got.departing.slice(0, DEPARTURES_SHOWN).flatMap((t) => t.exchanges));
}

export const dateOnlyBoundProbe: Probe = {
  name: 'date-only bound',
  keys: [KEY],
  phase: 1,
  async run(ctx) {
    const fields = await fieldsToAsk(ctx.shared);
    if (!fields.length) return { [KEY]: couldNotTell('no resource with a DateTime range filter holds two records at other times than midnight') };
    return { [KEY]: observed(await Promise.all(fields.map((a) => ask(ctx, a)))) };
  },
};
