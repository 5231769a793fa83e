/**
 * The readings of stack defaults, applied everywhere (docs/stack-defaults.md).
 * src/observe probes each reading once, on one resource, one property or one
 * filter key; these judges see that every other resource, property and key
 * takes the same reading — a store's own reading applied everywhere is
 * honest, one place departing from it is the fault (rule observe.consistent):
 *
 *   id-case         ids of every resource in the observed letter case
 *                   (ids.letterCase), and the id filter given an id in the
 *                   other case answering as observed (filters.idCase)
 *   createdon-zone  a record just created on every audited resource has its
 *                   createdon at the observed offset from UTC
 *   integer-width   every Integer property given 2147483648 (one past a 32-bit
 *                   column): kept, clamped or refused as limits.integerWidth
 *   decimal-scale   every Decimal property given one decimal too many:
 *                   refused, rounded or truncated as limits.decimalScale
 *
 * Writes go through the check's scope (deleted when the check ends).
 */
import {
  INT32_MAX, decimalUnderScale, describeOffset, describeValue, flipAsciiCase, integerUnder, letterCaseOf, normalizeDecimal,
  normalizeInteger, utcOffsetMinutes, type CheckContext, type DecimalScaleReading, type IntegerWidth, type Exchange, type ItemContext, type PayloadPropModel, type Rec,
  type ResourceModel,
} from '../../src/check/index.js';
import { boundaryPayloads, retoken, type Payload } from '../../generators/index.js';
import { getByIds } from './writes.js';

/** A run-unique token for one write of a check ('w', 'd', 'z' keep the checks apart). */
const tokenFor = (ctx: CheckContext, use: string, i: number) => `${use}${(ctx.seed >>> 0).toString(36).padStart(6, '0').slice(-6)}${i.toString(36)}`;

/** What one create of a record at the minimum, with `values` set, got: refused, or the record read back by id. */
export interface Written { refused: boolean; rec?: Rec; exchanges: Exchange[]; sentAt: number; answeredAt: number; problem?: string }

/** Create one record (every property at its minimum, `values` set) and read it back by id. */
export async function writeOne(it: CheckContext, r: ResourceModel, values: Payload, use: string, i: number): Promise<Written> {
  const [, , min] = boundaryPayloads(r.name, { tag: it.config.runTag, decimalReading: it.observed('limits.decimalDigits') });
  const item = { ...retoken(r.name, min, it.config.runTag, tokenFor(it, use, i)), ...values };
  const sentAt = Date.now();
  const res = await it.scope.createRaw(r, [item]);
  const answeredAt = Date.now();
  if (!res.ok) return { refused: true, exchanges: [res.exchange], sentAt, answeredAt, problem: res.problem };
  const id = res.value?.[0]?.id;
  if (typeof id !== 'string') return { refused: false, exchanges: [res.exchange], sentAt, answeredAt, problem: 'the create answer holds no record id' };
  const got = await getByIds(it, r, [id], `get of the ${r.title.toLowerCase()} just created by id`);
  return { refused: false, rec: got.byId.get(id.toLowerCase()), exchanges: [res.exchange, got.exchange], sentAt, answeredAt };
}

/** Each departure of one item: where, what the store's reading says, what this place did. */
interface Departure { where: string; expected: string; actual: string; evidence: Exchange[] }

function failDepartures(it: ItemContext, what: string, reading: string, ds: Departure[]): void {
  if (!ds.length) return;
  it.fail({
    message: `${what} departs from the store's own reading (${reading}): ${ds.map((d) => `${d.where}: ${d.actual}, not ${d.expected}`).join('; ')}`,
    why: 'the spec leaves this reading to the store, but one store takes one reading everywhere (docs/stack-defaults.md)',
    expected: Object.fromEntries(ds.map((d) => [d.where, d.expected])),
    actual: Object.fromEntries(ds.map((d) => [d.where, d.actual])),
    evidence: ds.flatMap((d) => d.evidence),
  });
}

/** What a write did with one property's value: 'refused', the value stored, or why it cannot be told. */
function outcome_(w: Written, p: PayloadPropModel, normalize: (v: unknown) => string | undefined): string {
  if (w.refused) return 'refused';
  if (w.problem) return w.problem;
  const raw = w.rec?.[p.recordField ?? p.name];
  return normalize(raw) ?? `shown as ${describeValue(raw)}`;
}

// ---------------------------------------------------------------- integer width, decimal scale

/** The Integer properties of a resource that take any value (not a value the store must hold: safeValue). */
export const integerProps = (r: ResourceModel) => r.payload.filter((p) => p.kind === 'integer' && p.safeValue === undefined);
/** The Decimal properties with decimals that take any value. */
export const decimalProps = (r: ResourceModel) => r.payload.filter((p) => p.kind === 'decimal' && !!p.decimal?.scale && p.safeValue === undefined);

/** What one property did with the value sent: the reading it shows (undefined: none of them), and how. */
export interface PropShown<R> { prop: string; sent: string; reading?: R; outcome: string; evidence: Exchange[] }

/** Every Integer property of `r` given 2147483648 (one past a 32-bit column): the width each shows. */
export async function integerWidths(it: CheckContext, r: ResourceModel): Promise<Seen<Array<PropShown<IntegerWidth>>>> {
  const over = (INT32_MAX + 1n).toString();
  const props = integerProps(r);
  const written = await Promise.all(props.map((p, i) => writeOne(it, r, { [p.name]: over }, 'w', i)));
  const value = props.map((p, i): PropShown<IntegerWidth> => {
    const outcome = outcome_(written[i], p, normalizeInteger);
    const reading = WIDTHS.find((w) => integerUnder(w, over) === outcome);
    return { prop: p.name, sent: over, reading, outcome, evidence: written[i].exchanges };
  });
  return { value, evidence: written.flatMap((w) => w.exchanges), detail: '' };
}
const WIDTHS: IntegerWidth[] = ['digits', '32-bit refused', '32-bit clamped'];

/** Every Decimal property of `r` given one decimal too many, ending in 6 (0.006 for 2 decimals): the reading each shows. */
export async function decimalScales(it: CheckContext, r: ResourceModel): Promise<Seen<Array<PropShown<DecimalScaleReading>>>> {
  const props = decimalProps(r);
  // below 1: within the property's limit under every reading of its digits (weight 0.99 under DECIMAL(8,2))
  const sent = props.map((p) => `0.${'0'.repeat(p.decimal!.scale)}6`);
  const written = await Promise.all(props.map((p, i) => writeOne(it, r, { [p.name]: sent[i] }, 'd', i)));
  const value = props.map((p, i): PropShown<DecimalScaleReading> => {
    const outcome = outcome_(written[i], p, normalizeDecimal);
    const reading = SCALES.find((x) => { const w = decimalUnderScale(sent[i], p.decimal!.scale, x); return (w === 'refused' ? w : normalizeDecimal(w)) === outcome; });
    return { prop: p.name, sent: sent[i], reading, outcome, evidence: written[i].exchanges };
  });
  return { value, evidence: written.flatMap((w) => w.exchanges), detail: '' };
}
const SCALES: DecimalScaleReading[] = ['refused', 'rounded', 'truncated'];

/** The reading most properties of every resource show, the probe's observation breaking a tie. */
export const propsReading = <R>(observed: R | null) => (shown: ReadonlyArray<Array<PropShown<R>> | undefined>): R | undefined =>
  storeReading(shown.flatMap((x) => (x ?? []).map((p) => p.reading)), observed);

/** Each property of one resource showing another reading than the store's. */
export function judgeProps<R>(what: string, key: string) {
  return (it: ItemContext, r: ResourceModel, x: Seen<Array<PropShown<R>>>, reading: R | undefined, all: number): void => {
    if (reading === undefined) it.notJudged(`no property showed a reading of ${key}`);
    const ds = (x.value ?? []).filter((p) => p.reading !== reading).map((p): Departure => ({
      where: `${r.prefix}/create ${p.prop}=${p.sent}`, expected: `${reading}`, actual: p.reading ? `${p.reading} (${p.outcome === 'refused' ? 'refused' : `stored as ${p.outcome}`})` : p.outcome, evidence: p.evidence,
    }));
    failDepartures(it, `${what} on ${r.name}`, `${reading} on most properties of ${all} resources; observed ${key} ${describeValue(it.observed(key as 'limits.integerWidth'))}`, ds);
  };
}

// ---------------------------------------------------------------- the store's own reading

/**
 * The store's own reading of one behaviour: what most of the places judged
 * show (resources, properties), the probe's observation breaking a tie. The
 * probe sees one or three places: when one of those is the place departing,
 * its observation is not the store's reading, the rest of the store is.
 */
export function storeReading<T>(shown: ReadonlyArray<T | undefined>, observed: T | null): T | undefined {
  const counts = new Map<T, number>();
  for (const v of shown) if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
  const top = Math.max(0, ...counts.values());
  const tied = [...counts.entries()].filter(([, n]) => n === top).map(([v]) => v);
  if (observed !== null && (tied.includes(observed) || !tied.length)) return observed;
  return tied[0];
}

/** What one place showed, gathered before any item is judged (a target error is kept for its item). */
export interface Seen<T> { value?: T; evidence: Exchange[]; detail: string }
export type Shown<T> = Seen<T> | { error: unknown };

/** Gather what every place shows, then judge each item against the store's reading of all of it. */
export async function judgeAgainstStore<T, R>(ctx: CheckContext, places: ResourceModel[], show: (it: CheckContext, r: ResourceModel) => Promise<Shown<T>>,
  readingOf: (shown: ReadonlyArray<T | undefined>) => R, judge: (it: ItemContext, r: ResourceModel, shown: Seen<T>, reading: R, all: number) => void): Promise<void> {
  const shown = await Promise.all(places.map((r) => show(ctx, r).catch((error: unknown): Shown<T> => ({ error }))));
  const reading = readingOf(shown.map((x) => ('value' in x ? x.value : undefined)));
  await Promise.all(places.map((r, i) => ctx.item(r.name, (it) => {
    const x = shown[i];
    if ('error' in x) throw x.error;
    judge(it, r, x, reading, shown.length);
  })));
}

// ---------------------------------------------------------------- createdon's zone

/** The offset of createdon on a record just created on `r`. */
export async function createdonOffset(it: CheckContext, r: ResourceModel): Promise<Shown<number>> {
  const w = await writeOne(it, r, {}, 'z', 0);
  if (w.refused || w.problem || !w.rec) return { evidence: w.exchanges, detail: `a record at the minimum could not be created and read back on ${r.prefix}: ${w.problem ?? 'not found by its id'}` };
  const at = (w.sentAt + w.answeredAt) / 2;
  const when = new Date(at).toISOString().slice(0, 19).replace('T', ' ');
  const value = utcOffsetMinutes(w.rec.createdon, at);
  return { value, evidence: w.exchanges, detail: `${r.prefix}/create at ${when} UTC (the client's clock) wrote createdon ${describeValue(w.rec.createdon)}${value === undefined ? ', at no quarter-hour offset' : ` (${describeOffset(value)})`}` };
}

export function judgeCreatedonZone(it: ItemContext, r: ResourceModel, x: { value?: number; evidence: Exchange[]; detail: string }, reading: number | undefined, all: number): void {
  if (reading === undefined) it.notJudged(`no resource's createdon showed an offset from UTC: ${x.detail}`);
  if (x.value === reading) return;
  failDepartures(it, `createdon on ${r.name}`, `createdon in ${describeOffset(reading!)} on most of ${all} resources; observed time.createdonOffsetMinutes ${describeValue(it.observed('time.createdonOffsetMinutes'))}`, [{
    where: r.prefix, expected: `createdon in ${describeOffset(reading!)}`, actual: x.detail, evidence: x.evidence,
  }]);
}

// ---------------------------------------------------------------- ids' letter case

/** The id of a record with hex letters to change in case (digits only cannot show case). */
const withLetters = (records: Rec[]) => records.map((x) => String(x?.id ?? '')).find((id) => letterCaseOf(id) !== undefined);

/** What one resource shows of its ids: their letter case, and whether the id filter found an id written in the other case. */
export interface IdsShown { letterCase?: 'lower' | 'upper' | 'mixed'; found?: boolean; other?: string; count: number }

export async function idsShown(it: CheckContext, r: ResourceModel, page: { records: Rec[]; exchange: Exchange }): Promise<Shown<IdsShown>> {
  const cases = new Set(page.records.map((x) => letterCaseOf(String(x?.id ?? ''))).filter((c) => c !== undefined));
  const letterCase = cases.size === 0 ? undefined : cases.size === 1 ? [...cases][0] : 'mixed';
  const id = withLetters(page.records);
  if (!id) return { value: { letterCase, count: page.records.length }, evidence: [page.exchange], detail: `${r.prefix}/get returned no record whose id has letters` };
  const other = flipAsciiCase(id)!;
  const res = await it.client.get(r, { filters: { id: [other] } });
  const found = it.ok(res, `get of ${r.prefix} by an id in the other letter case`).some((x) => String(x?.id).toLowerCase() === id.toLowerCase());
  return { value: { letterCase, found, other, count: page.records.length }, evidence: [page.exchange, res.exchange], detail: `${r.prefix}/get: ids in ${letterCase} case; {id: [${other}]} found ${found ? 'that record' : 'nothing'}` };
}

/** The store's reading of ids: the letter case and the id filter's answer most resources show. */
export function idsReading(shown: ReadonlyArray<IdsShown | undefined>, observed: { letterCase: 'lower' | 'upper' | 'mixed' | null; filter: 'insensitive' | 'sensitive' }): { letterCase?: string; found?: boolean } {
  return {
    letterCase: storeReading(shown.map((x) => (x?.letterCase === 'mixed' ? undefined : x?.letterCase)), observed.letterCase === 'mixed' ? null : observed.letterCase),
    found: storeReading(shown.map((x) => x?.found), observed.filter === 'insensitive'),
  };
}

export function judgeIdCase(it: ItemContext, r: ResourceModel, x: { value?: IdsShown; evidence: Exchange[]; detail: string }, reading: { letterCase?: string; found?: boolean }, all: number): void {
  const v = x.value;
  if (!v || v.count === 0) it.notJudged(`${r.prefix}/get returned no record: no id to see`);
  const ds: Departure[] = [];
  if (reading.letterCase && v!.letterCase && v!.letterCase !== reading.letterCase) ds.push({ where: `${r.prefix}/get`, expected: `ids in ${reading.letterCase} case`, actual: `ids in ${v!.letterCase} case`, evidence: x.evidence.slice(0, 1) });
  if (reading.found !== undefined && v!.found !== undefined && v!.found !== reading.found) {
    ds.push({ where: `${r.prefix}/get {id: [${v!.other}]}`, expected: reading.found ? 'the record of that id (ids compared ignoring case)' : 'no record (ids compared exactly)', actual: v!.found ? 'the record of that id' : 'no record', evidence: x.evidence });
  }
  const observed = `observed ids.letterCase ${describeValue(it.observed('ids.letterCase'))}, filters.idCase ${it.observed('filters.idCase')}`;
  failDepartures(it, `ids on ${r.name}`, `ids in ${reading.letterCase ?? 'either'} case, the id filter ${reading.found ? 'ignoring' : 'minding'} case, on most of ${all} resources; ${observed}`, ds);
}
