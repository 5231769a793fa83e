/**
 * What filters.check.ts (writable resources, a generated fixture) and
 * filters-readonly.check.ts (read-only resources, a sample of existing
 * records) share: what each filter kind means (§4 Filter naming), how a query
 * is scoped and walked, how a result is judged, and the designed first case of
 * each check (the one case a --depth quick run makes), chosen from the scope's
 * own values so that the usual faults show: an absent value listed before a
 * present one that has near-misses (first-value-only, substring, case); a
 * bound equal to a value whose text order differs from its numeric or
 * calendar order (range-as-text, inclusivity, ignored bounds).
 *
 * Not a check file (vitest runs suites/**\/*.check.ts only).
 */
import fc from 'fast-check';
import { check, fixture, observed, runtime, TargetError, isTargetError, type CheckContext, type Fixture } from '../src/check/index.js';
import type { Scope } from '../src/check/scope.js';
import type { Rec, StoreClient } from '../src/client/api.js';
import type { Exchange } from '../src/client/http.js';
import type { FilterModel, ResourceModel, ScalarKind } from '../src/schema/model.js';
import {
  compareScalar, describeValue, formatDate, formatDateTime, normalizeBoolean, normalizeDecimal,
  normalizeInteger, parseDateTime,
} from '../src/values/index.js';
import { arrayFilterValuesArb, booleanFilterArb, dateArb, decimalArb, integerArb, looseKey, rangeBoundArb, textArb } from '../generators/index.js';

/** The records a check judges against: created by the file's fixture or sampled from the store. */
export interface Scoped {
  r: ResourceModel;
  /** the records as get shows them */
  records: Rec[];
  ids: string[];
  /** 'the fixture' / 'the sample', for messages */
  what: string;
}

export interface QueryResult {
  records: Rec[];
  /** every page was walked (false: stopped at the bound) */
  complete: boolean;
  exchanges: Exchange[];
}

const PAGE_SIZE = 250;
/** pages walked at most when the filter cannot be scoped by id (filters.combination 'or') */
const MAX_PAGES = 4;
const DAY = 86400;
const SHOWN = 12;

export const lower = (v: unknown) => String(v ?? '').toLowerCase();

/** §4 "How several filters combine: not shown": 'and' lets every query carry the id filter beside the one under test. */
export function andMode(): boolean {
  return observed('filters.combination') !== 'or';
}

/** §4 "whether the range bounds are inclusive: not shown" */
export function inclusive(): boolean {
  return observed('filters.rangeInclusive') !== false;
}

/**
 * The filters of a query: the id filter of the scope beside the ones under
 * test when filters combine with AND. When they combine with OR (observation
 * filters.combination) the id filter would widen the result instead, so the
 * filter goes alone: the query then reaches the whole store, its pages are
 * walked (bounded, MAX_PAGES), every record returned must satisfy the filter
 * and every scoped record that satisfies it must be among them (judged only
 * when the walk reached the last page).
 */
export function scopedFilters(s: Scoped, filters: Rec): Rec {
  return andMode() ? { id: s.ids, ...filters } : { ...filters };
}

/** The kind of the record field a filter reads (customer birthdate is a date, filtered by DateTime bounds). */
export function fieldKind(r: ResourceModel, f: FilterModel): ScalarKind {
  const k = r.fields.find((x) => x.name === f.field)?.kind;
  return (k && k !== 'array' && k !== 'object' && k !== 'any' ? k : f.valueKind) as ScalarKind;
}

/** Distinct non-empty values of the filtered field among the scope's records (a filter value may not exceed maxLength). */
export function poolOf(s: Scoped, f: FilterModel): string[] {
  const out = new Set<string>();
  for (const rec of s.records) {
    const v = rec[f.field];
    if (typeof v !== 'string' || v === '') continue;
    if (f.maxLength !== undefined && Array.from(v).length > f.maxLength) continue;
    out.add(v);
  }
  return [...out];
}

// ---------------------------------------------------------------- queries

/**
 * get with these filters, walking pages while they come back full (bounded:
 * only an unscoped query can be long). A 4xx is a failure (every filter sent
 * is documented, every value valid); a 5xx or no answer a target error.
 */
export async function query(ctx: CheckContext, r: ResourceModel, filters: Rec): Promise<QueryResult> {
  const out = await fetchAll(ctx.client, r, filters);
  if ('rejected' in out) {
    ctx.fail({
      message: `${r.title} get with filters ${showFilters(filters)} was not accepted: ${out.problem} (§4 Filters per resource: ${Object.keys(filters).join(', ')} are documented filters and the values are valid)`,
      expected: '2xx with the matching records',
      actual: out.problem,
      evidence: out.exchanges.slice(-1),
    });
  }
  return out;
}

/** Filters for a message: a long id list said as its length. */
export function showFilters(filters: Rec): string {
  const shown = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, k === 'id' && Array.isArray(v) && v.length > 3 ? `[${v.length} ids]` : v]));
  return describeValue(shown);
}

export type Fetched = QueryResult | { rejected: true; problem: string; status?: number; exchanges: Exchange[] };

export async function fetchAll(client: StoreClient, r: ResourceModel, filters: Rec): Promise<Fetched> {
  const first = observed('pagination.firstPageNumber');
  const max = observed('pagination.maxPageSize');
  const size = Math.max(1, Math.min(PAGE_SIZE, Number.isFinite(max) && max > 0 ? max : PAGE_SIZE));
  const seen = new Map<string, Rec>();
  const exchanges: Exchange[] = [];
  for (let i = 0; i < MAX_PAGES; i++) {
    const res = await client.get(r, { filters, pagination: { pageNumber: first + i, pageSize: size } });
    exchanges.push(res.exchange);
    if (!res.ok) {
      if (isTargetError(res.exchange)) throw new TargetError(`${r.title} get: ${res.problem}`, [res.exchange]);
      return { rejected: true, problem: res.problem ?? 'not accepted', status: res.exchange.response?.status, exchanges };
    }
    const page = res.value ?? [];
    let fresh = 0;
    for (const rec of page) {
      const id = lower(rec?.id);
      if (!seen.has(id)) {
        seen.set(id, rec);
        fresh++;
      }
    }
    if (page.length < size) return { records: [...seen.values()], complete: true, exchanges };
    if (fresh === 0) break;
  }
  return { records: [...seen.values()], complete: false, exchanges };
}

/** count with these filters; users count at the observed path (§4: the documented path is another resource's). */
export async function countOf(ctx: CheckContext, r: ResourceModel, filters: Rec): Promise<{ value: number; exchange: Exchange }> {
  const path = r.name === 'user' ? observed('users.countPath') : undefined;
  const res = await ctx.client.count(r, { filters, path });
  return { value: ctx.ok(res, `${r.title} count with filters ${showFilters(filters)}`), exchange: res.exchange };
}

// ---------------------------------------------------------------- meaning of a filter

/**
 * in / out: the record must / must not be returned. open: a DateTime record on
 * the day of a date-only bound (is 'D' midnight or the whole day?), or a date
 * record (birthdate) on the day of a date-time bound: either answer, as long
 * as all such records are treated alike (judgeOpen). unknown: the record's
 * value cannot be read; not judged.
 */
export type Expect = 'in' | 'out' | 'open' | 'unknown';

const DATE_ONLY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** The bound a range filter value stands for: a string, or the first element of an array (Decimal[] filters). */
export function boundOf(value: unknown): string {
  return String(Array.isArray(value) ? value[0] : value);
}

export function expectation(r: ResourceModel, f: FilterModel, value: unknown, rec: Rec, incl: boolean): Expect {
  const kind = fieldKind(r, f);
  const raw = rec?.[f.field];
  if (typeof raw !== 'string') return 'unknown';
  if (f.filter === 'array') {
    const wanted = (Array.isArray(value) ? value : [value]).map(String);
    const same = (w: string): boolean | undefined => {
      switch (kind) {
        case 'guid': return w.toLowerCase() === raw.toLowerCase();
        case 'integer': return eqDefined(normalizeInteger(w), normalizeInteger(raw));
        case 'decimal': return eqDefined(normalizeDecimal(w), normalizeDecimal(raw));
        case 'boolean': return eqDefined(normalizeBoolean(w), normalizeBoolean(raw));
        case 'datetime': case 'date': return eqDefined(parseDateTime(w), parseDateTime(raw));
        default: return w === raw;
      }
    };
    const results = wanted.map(same);
    if (results.some((x) => x === true)) return 'in';
    return results.some((x) => x === undefined) ? 'unknown' : 'out';
  }
  if (f.filter === 'boolean') {
    const b = normalizeBoolean(raw);
    if (b === undefined) return 'unknown';
    return b === (value === 'true') ? 'in' : 'out';
  }
  const bound = boundOf(value);
  let c: number;
  if (kind === 'datetime' || kind === 'date') {
    const t = parseDateTime(raw);
    const b = parseDateTime(bound);
    if (t === undefined || b === undefined) return 'unknown';
    const boundDateOnly = DATE_ONLY.test(bound);
    if (kind === 'datetime' && boundDateOnly && t >= b && t < b + DAY) return 'open';
    if (kind === 'date' && !boundDateOnly && Math.floor(b / DAY) * DAY === t) return 'open';
    c = Math.sign(t - b);
  } else {
    try {
      c = compareScalar(kind as any, raw, bound);
    } catch {
      return 'unknown';
    }
  }
  if (c === 0) return incl ? 'in' : 'out';
  if (f.bound === 'min') return c > 0 ? 'in' : 'out';
  return c < 0 ? 'in' : 'out';
}

function eqDefined<T>(a: T | undefined, b: T | undefined): boolean | undefined {
  return a === undefined || b === undefined ? undefined : a === b;
}

/** What the filter promises, for messages. */
export function ruleText(r: ResourceModel, f: FilterModel): string {
  const kind = fieldKind(r, f);
  if (f.filter === 'array') {
    const how = kind === 'guid' ? 'ignoring case (GUIDs)' : kind === 'integer' || kind === 'decimal' ? 'compared as numbers' : 'exactly (no substring, no case folding)';
    return `§4 Filter naming: the array filter ${f.key} matches records whose ${f.field} equals one of the listed values, ${how}`;
  }
  if (f.filter === 'boolean') return `§4 Filters per resource: the Boolean filter ${f.key} matches records whose ${f.field} has that value`;
  const as = kind === 'datetime' || kind === 'date' ? 'as instants' : 'as numbers';
  const incl = inclusive() ? 'inclusive' : 'exclusive';
  return `§4 Filter naming: ${f.key} bounds ${f.field} from ${f.bound === 'min' ? 'below' : 'above'}, compared ${as}; bounds are ${incl} on this target (observation filters.rangeInclusive)`;
}

const showRec = (f: FilterModel, rec: Rec) => `${rec?.id} (${f.field} ${describeValue(rec?.[f.field])})`;
const showList = (f: FilterModel, recs: Rec[]) => recs.slice(0, SHOWN).map((x) => showRec(f, x)).concat(recs.length > SHOWN ? [`… ${recs.length - SHOWN} more`] : []);

/**
 * Judge one result against the scope: in AND mode nothing outside the id
 * filter; every returned record satisfies the filter (soundness); every scoped
 * record that satisfies it is returned when the walk is complete
 * (completeness); open records treated alike.
 */
export function judge(ctx: CheckContext, s: Scoped, f: FilterModel, value: unknown, result: QueryResult, note = ''): void {
  const { r } = s;
  const incl = inclusive();
  const scopeIds = new Set(s.ids.map(lower));
  const returned = new Map(result.records.map((x) => [lower(x?.id), x]));
  const label = `${r.name} ${f.key}=${describeValue(value)}${note}`;
  const evidence = result.exchanges.slice(-2);
  if (andMode()) {
    const outside = result.records.filter((x) => !scopeIds.has(lower(x?.id)));
    if (outside.length) {
      ctx.fail({
        message: `${label} with the id filter of ${s.what} (${s.ids.length} ids) returned ${outside.length} record(s) whose id was not listed, e.g. ${outside[0]?.id} (§4 Filters per resource: the id filter returns only the listed ids; filters combine with AND on this target, observation filters.combination)`,
        expected: `only records among the ${s.ids.length} listed ids`,
        actual: outside.slice(0, SHOWN).map((x) => x?.id),
        evidence,
      });
    }
  }
  const wrong = result.records.filter((x) => expectation(r, f, value, x, incl) === 'out');
  if (wrong.length) {
    ctx.fail({
      message: `${label} returned ${wrong.length} record(s) that do not satisfy it, e.g. ${showRec(f, wrong[0])} (${ruleText(r, f)})`,
      expected: `only records satisfying ${f.key}=${describeValue(value)}`,
      actual: showList(f, wrong),
      evidence,
    });
  }
  if (result.complete) {
    const missing = s.records.filter((x) => expectation(r, f, value, x, incl) === 'in' && !returned.has(lower(x.id)));
    if (missing.length) {
      ctx.fail({
        message: `${label} left out ${missing.length} record(s) of ${s.what} that satisfy it, e.g. ${showRec(f, missing[0])}; it returned ${result.records.length} record(s) (${ruleText(r, f)})`,
        expected: showList(f, s.records.filter((x) => expectation(r, f, value, x, incl) === 'in')),
        actual: showList(f, result.records),
        evidence,
      });
    }
  }
  judgeOpen(ctx, s, f, value, result, label, evidence);
}

/**
 * Records on the day of a date-only bound: 'D' may stand for any one instant
 * of day D (midnight, end of day), but for one instant: with _max, every
 * record kept must be earlier than every record left out; with _min, later.
 * (A birthdate on the day of a date-time bound: all such records alike.)
 */
function judgeOpen(ctx: CheckContext, s: Scoped, f: FilterModel, value: unknown, result: QueryResult, label: string, evidence: Exchange[]): void {
  const { r } = s;
  const incl = inclusive();
  const returned = new Set(result.records.map((x) => lower(x?.id)));
  const known: Array<{ rec: Rec; t: number; kept: boolean }> = [];
  const seen = new Set<string>();
  const add = (rec: Rec, kept: boolean) => {
    const id = lower(rec?.id);
    if (seen.has(id) || expectation(r, f, value, rec, incl) !== 'open') return;
    seen.add(id);
    known.push({ rec, t: parseDateTime(rec[f.field])!, kept });
  };
  for (const rec of result.records) add(rec, true);
  if (result.complete) for (const rec of s.records) add(rec, returned.has(lower(rec.id)));
  const kept = known.filter((x) => x.kept);
  const left = known.filter((x) => !x.kept);
  if (!kept.length || !left.length) return;
  const bad = f.bound === 'max'
    ? pairOf(kept, left, (k, l) => k.t >= l.t)
    : pairOf(kept, left, (k, l) => k.t <= l.t);
  if (bad) {
    ctx.fail({
      message: `${label} treated records on the bound's day inconsistently: it kept ${showRec(f, bad[0].rec)} but left out ${showRec(f, bad[1].rec)}; a bound given as a date stands for one instant of that day, whichever the target chose, so with ${f.bound === 'max' ? '_max every kept record is earlier than every one left out' : '_min every kept record is later than every one left out'} (${ruleText(r, f)}; §2 Conventions: a DateTime in a request is a date or a date with time)`,
      expected: 'one reading of the date for every record on that day',
      actual: { kept: showList(f, kept.map((x) => x.rec)), leftOut: showList(f, left.map((x) => x.rec)) },
      evidence,
    });
  }
}

function pairOf<T>(a: T[], b: T[], bad: (x: T, y: T) => boolean): [T, T] | undefined {
  for (const x of a) for (const y of b) if (bad(x, y)) return [x, y];
  return undefined;
}

// ---------------------------------------------------------------- designed and generated cases

/**
 * Run the designed case (one run), then generated ones for the rest of the
 * depth's runs: --depth quick makes exactly the designed case.
 */
export async function cases<T>(ctx: CheckContext, designed: fc.Arbitrary<T> | undefined, generated: fc.Arbitrary<T>, run: (v: T) => Promise<void>): Promise<void> {
  const total = Math.max(1, ctx.depth.runs);
  if (designed) await ctx.property(designed, run, { runs: 1 });
  const rest = designed ? total - 1 : total;
  if (rest > 0) await ctx.property(generated, run, { runs: rest });
}

/** Loose identity of a filter value (absent values must be absent to any collation). */
function looseOf(kind: ScalarKind, v: string): string {
  switch (kind) {
    case 'guid': return v.toLowerCase();
    case 'integer': return normalizeInteger(v) ?? v;
    case 'decimal': return normalizeDecimal(v) ?? v;
    default: return looseKey(v);
  }
}

/** One value of the filter's kind that no scoped record holds, even loosely. */
export function absentValueArb(f: FilterModel, pool: readonly string[]): fc.Arbitrary<string> {
  const taken = new Set(pool.map((v) => looseOf(f.valueKind, v)));
  let base: fc.Arbitrary<string>;
  switch (f.valueKind) {
    case 'guid': base = fc.uuid({ version: 4 }); break;
    case 'integer': base = integerArb({ digits: f.integerDigits ?? 11 }); break;
    case 'decimal': base = decimalArb(f.decimal ?? { digits: 8, scale: 2 }); break;
    case 'predefined': base = fc.array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ_'), { minLength: 3, maxLength: 20 }).map((a) => `X${a.join('')}`); break;
    default: base = textArb({ maxLength: Math.min(f.maxLength ?? 255, 60) });
  }
  return base.filter((v) => v !== '' && !taken.has(looseOf(f.valueKind, v)));
}

/**
 * How many near-misses a present value has in the pool: values that contain
 * it (substring matching returns them) and, less, values it contains; values
 * equal to it but for case or accents (case- or accent-insensitive matching);
 * its duplicates.
 */
function traps(v: string, pool: readonly string[], loose: ReadonlyMap<string, string>, copies: ReadonlyMap<string, number>): number {
  let n = 0;
  const key = loose.get(v);
  for (const w of pool) {
    if (w === v) continue;
    // a longer value holding it is what substring matching returns: weighs most
    if (w.includes(v)) n += 2;
    else if (v.includes(w)) n++;
    if (loose.get(w) === key) n += 2;
  }
  return n + ((copies.get(v) ?? 0) > 1 ? 1 : 0);
}

/** Designed array case: [an absent value, the present value with the most near-misses]: first-value-only, substring, case all show. */
export function arrayDesigned(s: Scoped, f: FilterModel): fc.Arbitrary<string[]> | undefined {
  const pool = poolOf(s, f);
  if (!pool.length) return undefined;
  const all = s.records.map((x) => x[f.field]).filter((v): v is string => typeof v === 'string');
  const kind = fieldKind(s.r, f);
  // loose keys and copies counted once: traps() compares every pair of the pool
  const loose = new Map(kind === 'string' ? pool.map((v) => [v, looseKey(v)]) : []);
  const copies = new Map<string, number>();
  for (const v of all) copies.set(v, (copies.get(v) ?? 0) + 1);
  const scored = pool.map((v) => ({ v, n: kind === 'string' ? traps(v, pool, loose, copies) : 0 }));
  const best = Math.max(...scored.map((x) => x.n));
  const top = scored.filter((x) => x.n === best).map((x) => x.v).slice(0, 8);
  return fc.tuple(absentValueArb(f, pool), fc.constantFrom(...top)).map(([a, b]) => [a, b]);
}

export function arrayGenerated(s: Scoped, f: FilterModel): fc.Arbitrary<string[]> {
  return arrayFilterValuesArb(f, poolOf(s, f));
}

/** A pool value as a request bound: dot decimals, canonical integers, date-times (dates for date fields). */
function asBound(kind: ScalarKind, v: string): string | undefined {
  switch (kind) {
    case 'integer': return normalizeInteger(v);
    case 'decimal': return normalizeDecimal(v);
    case 'datetime': { const t = parseDateTime(v); return t === undefined ? undefined : formatDateTime(t); }
    case 'date': { const t = parseDateTime(v); return t === undefined ? undefined : formatDate(t); }
    default: return undefined;
  }
}

/** Text order a careless server might use: the string as shown; DateTime without zero padding ('2024-9-30 …' > '2024-10-1 …'). */
function textKey(kind: ScalarKind, v: string): string {
  return kind === 'datetime' || kind === 'date' ? v.split(/[-: T]/).map(Number).join('-') : v;
}

const strcmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Designed range case: a bound equal to a scoped value (inclusivity), with
 * records on both sides (a bound that is ignored shows), preferring one whose
 * text order differs from its numeric or calendar order for some record.
 */
export function rangeDesigned(s: Scoped, f: FilterModel): fc.Arbitrary<string> | undefined {
  const kind = fieldKind(s.r, f);
  const values = s.records.map((x) => x[f.field]).filter((v): v is string => typeof v === 'string' && v !== '');
  const bounds = spread([...new Set(values.map((v) => asBound(kind, v)).filter((b): b is string => b !== undefined && validBound(f, b)))], 48);
  if (!bounds.length) return undefined;
  // each candidate is scored against every value: on a resource of 1000+ records, 48 evenly spread
  // candidates keep that to tens of thousands of comparisons instead of a million
  const valueKeys = values.map((v) => textKey(kind, v));
  const scored = bounds.map((b) => {
    const bKey = textKey(kind, b);
    let below = 0, above = 0, equal = 0, textDiffers = 0;
    values.forEach((v, i) => {
      let c: number;
      try {
        c = compareScalar(kind as any, v, b);
      } catch {
        return;
      }
      if (c < 0) below++; else if (c > 0) above++; else equal++;
      if (strcmp(valueKeys[i], bKey) !== c) textDiffers++;
    });
    return { b, n: (below > 0 ? 1 : 0) + (above > 0 ? 1 : 0) + (equal > 0 ? 1 : 0) + (textDiffers > 0 ? 2 : 0) };
  });
  const best = Math.max(...scored.map((x) => x.n));
  return fc.constantFrom(...scored.filter((x) => x.n === best).map((x) => x.b).slice(0, 8));
}

/** Within the filter's limits (a sampled value may exceed a bound's limit: then it is no bound to send). */
function validBound(f: FilterModel, b: string): boolean {
  if (f.valueKind === 'decimal' && f.decimal) {
    const m = /^-?([0-9]+)(?:\.([0-9]+))?$/.exec(b);
    return !!m && m[1].replace(/^0+(?=[0-9])/, '').length <= f.decimal.digits && (m[2] ?? '').length <= f.decimal.scale;
  }
  if (f.valueKind === 'integer') return /^-?[0-9]+$/.test(b) && b.replace(/^-/, '').length <= (f.integerDigits ?? 11);
  return true;
}

export function rangeGenerated(s: Scoped, f: FilterModel): fc.Arbitrary<string> {
  return rangeBoundArb(f, poolOf(s, f)).filter((b) => validBound(f, b));
}

/**
 * Days for a date-only bound: the days of the scoped values and their
 * neighbours. Designed: a day with scoped records strictly before and after it
 * (both judged strictly), preferring one that also holds records (the reading
 * of 'D' is then visible) and whose unpadded text order misleads.
 */
export function dateOnlyDays(s: Scoped, f: FilterModel): { designed: string[]; all: string[] } {
  const times = s.records.map((x) => parseDateTime(x[f.field])).filter((t): t is number => t !== undefined);
  const days = [...new Set(times.flatMap((t) => { const d = Math.floor(t / DAY); return [d - 1, d, d + 1]; }))];
  if (!days.length) return { designed: [], all: [] };
  // scoring is days × times: on a resource of 1000+ records, 48 evenly spread candidate days suffice
  const timeKeys = times.map((t) => textKey('datetime', formatDateTime(t)));
  const scored = spread(days, 48).map((d) => {
    const start = d * DAY;
    const before = times.filter((t) => t < start).length;
    const after = times.filter((t) => t >= start + DAY).length;
    const on = times.length - before - after;
    const b = formatDate(start);
    const bKey = textKey('datetime', b);
    const misleads = times.some((t, i) => strcmp(timeKeys[i], bKey) !== Math.sign(t - start));
    return { b, n: (before > 0 && after > 0 ? 3 : before > 0 || after > 0 ? 1 : 0) + (on > 0 ? 1 : 0) + (misleads ? 1 : 0) };
  });
  const best = Math.max(...scored.map((x) => x.n));
  return { designed: scored.filter((x) => x.n === best).map((x) => x.b).slice(0, 8), all: days.map((d) => formatDate(d * DAY)) };
}

export function dateOnlyGenerated(days: string[]): fc.Arbitrary<string> {
  return days.length ? fc.oneof({ arbitrary: fc.constantFrom(...days), weight: 3 }, { arbitrary: dateArb(), weight: 1 }) : dateArb();
}

// ---------------------------------------------------------------- the checks' bodies

/** Keys the target takes for this filter: page `title`/`name` per observation pages.titleFilterKey. */
export function keySupported(r: ResourceModel, f: FilterModel): boolean {
  const paired = f.aliasOf !== undefined || r.filters.some((x) => x.aliasOf === f.key);
  if (!paired) return true;
  const mode = observed('pages.titleFilterKey');
  return mode === 'both' || mode === f.key;
}

/** A value filter (array, range, boolean) checked against the scope. */
export async function filterCase(ctx: CheckContext, s: Scoped, f: FilterModel, value: unknown): Promise<void> {
  const filters = scopedFilters(s, { [f.key]: value });
  if (!keySupported(s.r, f)) {
    // documented but not taken by this target (observation pages.titleFilterKey): a rejection is the
    // honest answer (recorded by the observation); a 2xx must still filter, never ignore the key
    const out = await fetchAll(ctx.client, s.r, filters);
    if ('rejected' in out) return;
    const mode = observed('pages.titleFilterKey');
    judge(ctx, s, f, value, out, ` (a key this target does not take, observation pages.titleFilterKey=${mode}: it may be rejected, never ignored)`);
    return;
  }
  const result = await query(ctx, s.r, filters);
  judge(ctx, s, f, value, result);
}

/** The id filter: exactly the listed ids (absent ones match nothing). */
export async function idCase(ctx: CheckContext, s: Scoped, ids: string[]): Promise<void> {
  const { r } = s;
  const result = await query(ctx, r, { id: ids });
  const wanted = new Set(ids.map(lower));
  const expected = s.ids.filter((id) => wanted.has(lower(id)));
  const got = result.records.map((x) => lower(x?.id));
  const extra = result.records.filter((x) => !wanted.has(lower(x?.id)));
  const missing = expected.filter((id) => !got.includes(lower(id)));
  if (extra.length || missing.length) {
    ctx.fail({
      message: `${r.name} id=[${ids.length} ids, ${expected.length} of them in ${s.what}] returned ${result.records.length} record(s): ${extra.length} not listed${extra.length ? ` (e.g. ${extra[0]?.id})` : ''}, ${missing.length} listed id(s) missing${missing.length ? ` (e.g. ${missing[0]})` : ''} (§4 Filters per resource: the id filter returns exactly the records with the listed ids)`,
      expected: expected.slice(0, SHOWN * 2),
      actual: result.records.slice(0, SHOWN * 2).map((x) => x?.id),
      evidence: result.exchanges.slice(-2),
    });
  }
}

export function idArb(s: Scoped): fc.Arbitrary<string[]> {
  const max = Math.max(1, Math.min(20, s.ids.length - 1));
  return fc
    .tuple(fc.shuffledSubarray(s.ids, { minLength: 1, maxLength: max }), fc.array(fc.uuid({ version: 4 }), { maxLength: 2 }))
    .map(([present, absent]) => [...present, ...absent.filter((a) => !s.ids.some((id) => lower(id) === lower(a)))]);
}

/**
 * count-agrees: one narrowing case per filter kind (id, array, range, boolean):
 * a value that keeps some but not all scoped records, so a count that drops a
 * filter kind shows. Each case: get (walked) and count with the same filters.
 */
const COUNT_VALUES = 40;

/**
 * A value as a bound, and for DateTime also one second either side: a fixture
 * created in one request shares one createdon, and only a bound beside it
 * drops records.
 */
function rangeNeighbours(kind: ScalarKind, v: string): string[] {
  const b = asBound(kind, v);
  if (b === undefined) return [];
  if (kind !== 'datetime') return [b];
  const t = parseDateTime(b)!;
  return [b, formatDateTime(t - 1), formatDateTime(t + 1)];
}

/** At most n items, spread evenly over the list. */
function spread<T>(list: T[], n: number): T[] {
  if (list.length <= n) return list;
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]);
}

export function countCasesArb(s: Scoped): fc.Arbitrary<Array<{ kind: string; filters: Rec }>> {
  const { r } = s;
  const incl = inclusive();
  // tier 0: keeps some scoped records and drops others; 1: drops some (maybe all); 2: anything
  const tiers: Record<string, Array<Array<[string, unknown]>>> = { array: [[], [], []], range: [[], [], []], boolean: [[], [], []] };
  for (const f of r.filters) {
    if (f.key === 'id' || !keySupported(r, f)) continue;
    // at most COUNT_VALUES values per filter: enough to find narrowing ones, cheap on a 200-record sample
    const pool = spread(poolOf(s, f), COUNT_VALUES);
    const kind = fieldKind(r, f);
    const values: unknown[] = f.filter === 'boolean' ? ['true', 'false']
      : f.filter === 'array' ? pool.map((v) => [v])
        : pool.flatMap((v) => rangeNeighbours(kind, v)).filter((b) => validBound(f, b));
    for (const v of values) {
      const exp = s.records.map((x) => expectation(r, f, v, x, incl));
      if (exp.includes('open')) continue;
      const kept = exp.filter((e) => e === 'in').length;
      const dropped = exp.filter((e) => e === 'out').length;
      tiers[f.filter][kept > 0 && dropped > 0 ? 0 : dropped > 0 ? 1 : 2].push([f.key, v]);
    }
  }
  const arbs: Array<fc.Arbitrary<{ kind: string; filters: Rec }>> = [];
  arbs.push(idArb(s).map((ids) => ({ kind: 'id', filters: { id: ids } })));
  for (const kind of ['array', 'range', 'boolean']) {
    const list = tiers[kind].find((t) => t.length);
    if (!list) continue;
    arbs.push(fc.constantFrom(...list.slice(0, 200)).map(([key, v]) => ({ kind, filters: scopedFilters(s, { [key]: v }) })));
  }
  return fc.tuple(...arbs);
}

export async function countAgrees(ctx: CheckContext, s: Scoped, cs: Array<{ kind: string; filters: Rec }>): Promise<void> {
  const { r } = s;
  // without id scoping ('or' combination) other checks' records come and go between the get and
  // the count: a disagreement counts only when it holds on a second and third look
  const attempts = andMode() ? 1 : 3;
  // the get walk and the count of a case go out together, and the cases side by side: none
  // depends on another's answer (and a get and count close in time see the same records)
  const looks = async (filters: Rec) => {
    const [got, n] = await Promise.all([query(ctx, r, filters), countOf(ctx, r, filters)]);
    return { got, n };
  };
  const outcomes = await Promise.all(cs.map(async (c) => {
    let { got, n } = await looks(c.filters);
    const disagree = () => (got.complete ? n.value !== got.records.length : n.value < got.records.length);
    for (let a = 1; a < attempts && disagree(); a++) ({ got, n } = await looks(c.filters));
    return { c, got, n, disagree: disagree() };
  }));
  for (const { c, got, n, disagree } of outcomes) {
    const walked = got.records.length;
    if (disagree) {
      ctx.fail({
        message: `${r.name} count with ${c.kind === 'id' ? 'the id filter' : `${c.kind} filter`} ${showFilters(c.filters)}${c.kind !== 'id' && andMode() ? ` (the id filter holds the ids of ${s.what})` : ''} answered ${n.value} while get returned ${walked} record(s)${got.complete ? '' : ' before the walk stopped'} (§4 Filters per resource: filters are the same for get and count; count says how many records get returns)`,
        expected: got.complete ? walked : `at least ${walked}`,
        actual: n.value,
        evidence: [...got.exchanges.slice(-1), n.exchange],
      });
    }
  }
}

// ---------------------------------------------------------------- registration

/**
 * fixture() whose build also gets the client of the check that builds it, so
 * the build's reads count as that check's requests and evidence.
 */
export function filterFixture<T>(build: (scope: Scope, client: StoreClient) => Promise<T>): Fixture<T> {
  let client: StoreClient | undefined;
  const fx = fixture((scope) => build(scope, client ?? runtime().client));
  return {
    get(ctx) {
      client ??= ctx?.client;
      return fx.get(ctx);
    },
  };
}

/**
 * The checks of one resource, ids `<resource>.filters.id`,
 * `<resource>.filters.<array|range|boolean>.<key>` for every other key of the
 * model, `<resource>.filters.date-only-bound.<key>` for DateTime ranges and
 * `<resource>.filters.count-agrees`.
 */
export function registerFilterChecks(r: ResourceModel, fx: Fixture<Scoped>, writes: boolean): void {
  const scoped = async (ctx: CheckContext): Promise<Scoped> => {
    const s = await fx.get(ctx);
    if (!s.records.length) ctx.skip(`${s.what} holds no ${r.title} record: nothing to filter`);
    return s;
  };

  check({ rule: 'filters.id', resource: r.name, writes }, async (ctx) => {
    const s = await scoped(ctx);
    await cases(ctx, undefined, idArb(s), (ids) => idCase(ctx, s, ids));
  });

  for (const f of r.filters) {
    if (f.key === 'id') continue;
    check({ rule: `filters.${f.filter}`, resource: r.name, subject: f.key, writes }, async (ctx) => {
      const s = await scoped(ctx);
      if (f.filter === 'array') await cases(ctx, arrayDesigned(s, f), arrayGenerated(s, f), (v) => filterCase(ctx, s, f, v));
      else if (f.filter === 'range') await cases(ctx, rangeDesigned(s, f), rangeGenerated(s, f), (v) => filterCase(ctx, s, f, v));
      // designed: 'false', the value a server reading the filter as a truthy string gets wrong (ignored or inverted filters show with either)
      else await cases(ctx, fc.constant('false'), booleanFilterArb(), (v) => filterCase(ctx, s, f, v));
    });
    if (f.filter === 'range' && f.valueKind === 'datetime') {
      check({ rule: 'filters.date-only-bound', resource: r.name, subject: f.key, writes }, async (ctx) => {
        const s = await scoped(ctx);
        const days = dateOnlyDays(s, f);
        await cases(ctx, days.designed.length ? fc.constantFrom(...days.designed) : undefined, dateOnlyGenerated(days.all), (day) => dateOnlyCase(ctx, s, f, day));
      });
    }
  }

  check({ rule: 'filters.count-agrees', resource: r.name, writes }, async (ctx) => {
    const s = await scoped(ctx);
    await cases(ctx, undefined, countCasesArb(s), (cs) => countAgrees(ctx, s, cs));
  });
}

/** A DateTime bound given as a date only ('YYYY-MM-DD', §2 Conventions): accepted, and bounds by that day. */
async function dateOnlyCase(ctx: CheckContext, s: Scoped, f: FilterModel, day: string): Promise<void> {
  const filters = scopedFilters(s, { [f.key]: day });
  const out = await fetchAll(ctx.client, s.r, filters);
  if ('rejected' in out) {
    ctx.fail({
      message: `${s.r.name} ${f.key}='${day}' (a date without time) was not accepted: ${out.problem} (§2 Conventions: in requests a DateTime is given either as a date or as a date with time)`,
      expected: '2xx with the records bounded by that day',
      actual: out.problem,
      evidence: out.exchanges.slice(-1),
    });
  }
  judge(ctx, s, f, day, out);
}
