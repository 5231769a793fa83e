/**
 * The values each filter case is judged with: the first designed to split the
 * scope's records where the usual faults show, the others generated
 * (generators/filters.ts); depth decides how many (DepthProfile.values).
 *
 * Designed values, by case:
 *   array #one      the present value with the most near-misses (values containing it, equal but for case or accents)
 *   array #several  two present values holding different records (a target reading only the first shows)
 *   array #absent   a proper prefix of a present value that no record holds (substring matching shows)
 *   array #exact    three records' values changed in one part each — letter case, an accent, a trailing space —
 *                   held by no record: each record comes back or not as the store's observed collation says
 *                   (fewer distinct values, as in an enumeration: the changes the store tells apart share one)
 *   range #bound    a bound strictly between two values whose text order differs from their numeric/calendar order
 *   range #equal    a bound equal to a value, with records on both sides (inclusivity, ignored bounds)
 *   range #both     _min and _max inside the values, records below, between and above
 *   #day            a date-only bound on a day with records before, on and after it (records on it first
 *                   once filters.dateOnlyBound is observed: they show how the key reads the date)
 *   boolean         'true' / 'false'
 *   id              one id, several ids, an id no record has
 * A case the scope cannot give a value for (no record holds the field) is not judged, with the reason.
 */
import fc from 'fast-check';
import {
  maxLengthOf, integerDigitsOf, decimalLimitOf,
  decimalWithin, decimalToScaled, formatDate, formatDateTime, normalizeDecimal, normalizeInteger, parseDateTime,
  scaledToDecimal, flipAsciiCase, changeAccent, padRight, expectation, collation, observed, type Collation, type FilterModel, type ScalarKind, type Term,
} from '../../src/check/index.js';
import { dateArb, decimalArb, integerArb, looseKey, rangeBoundArb, textArb } from '../../generators/index.js';
import { dateOnlyBound } from './query.js';
import { fieldKind, lower, poolOf, spread, type Scoped } from './scoped.js';
import { arrayClassList, booleanClasses, boundClassPairs, idLongList, type CaseClasses, type ClassEnv } from './classes.js';

export interface CaseValues<V> {
  designed?: fc.Arbitrary<V>;
  generated: fc.Arbitrary<V>;
  /** values judged in every run, whatever the depth (a class case's bound pairs); then no designed or generated ones */
  all?: V[];
  /** the value classes the case's values carry (docs/value-classes.md) */
  classes?: CaseClasses;
  /** the filter keys and values the case sends for a value */
  terms(v: V): Term[];
}

export type CaseSpec = CaseValues<any> | { notJudged: string };

const DAY = 86400;
const TOP = 8;

// ---------------------------------------------------------------- id

export function idCase(s: Scoped, f: FilterModel, c: string, env: ClassEnv): CaseSpec {
  const terms = (ids: string[]): Term[] => [{ f, value: ids }];
  const absent = fc.uuid({ version: 4 }).filter((a) => !s.ids.some((id) => lower(id) === lower(a)));
  if (c === 'absent') return { generated: absent.map((a) => [a]), terms };
  if (!s.ids.length) return { notJudged: `${s.what} holds no record` };
  if (c === 'one') return { generated: fc.constantFrom(...s.ids).map((id) => [id]), terms };
  const max = Math.min(20, s.ids.length);
  const several = s.ids.length >= 2
    ? fc.shuffledSubarray(s.ids, { minLength: 2, maxLength: max })
    : fc.tuple(fc.constant(s.ids[0]), absent).map(([a, b]) => [a, b]);
  // designed: the scope's ids in one list longer than the IN-list and parameter limits, with the GUID classes
  const long = idLongList(s, env);
  return { designed: long ? fc.constant(long.values) : undefined, generated: several, terms, classes: long && { judged: long.judged, notJudged: long.notJudged } };
}

// ---------------------------------------------------------------- array filters

/** Loose identity of a filter value (absent values must be absent to any collation). */
function looseOf(kind: ScalarKind, v: string): string {
  switch (kind) {
    case 'guid': return v.toLowerCase();
    case 'integer': return normalizeInteger(v) ?? v;
    case 'decimal': return normalizeDecimal(v) ?? v;
    default: return looseKey(v);
  }
}

/**
 * One value of the filter's kind that no scoped record holds, even loosely;
 * undefined, with why, when there is none to send. A Predefined filter gets a
 * value of its field's enumeration (§2's table) unless the store was seen to
 * answer a value it does not know with no record (filters.unknownPredefinedValue
 * 'matches-nothing'): an enum-typed filter model refuses any other, an honest
 * reading (src/observe/unknown-predefined.ts).
 */
function absentValueArb(s: Scoped, f: FilterModel, pool: readonly string[]): fc.Arbitrary<string> | { notJudged: string } {
  const taken = new Set(pool.map((v) => looseOf(f.valueKind, v)));
  let base: fc.Arbitrary<string>;
  switch (f.valueKind) {
    case 'guid': base = fc.uuid({ version: 4 }); break;
    case 'integer': base = integerArb({ digits: integerDigitsOf(f) }); break;
    case 'decimal': base = decimalArb(decimalLimitOf(f)); break;
    case 'predefined': {
      if (observed('filters.unknownPredefinedValue') === 'matches-nothing') {
        base = fc.array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ_'), { minLength: 3, maxLength: 20 }).map((a) => `X${a.join('')}`);
        break;
      }
      const known = (s.r.fields.find((x) => x.name === f.field)?.knownValues ?? []).filter((v) => !taken.has(looseOf(f.valueKind, v)));
      if (!known.length) return { notJudged: `every ${f.field} value of the enumeration is held by a record of ${s.what}, and a value outside it may be refused (filters.unknownPredefinedValue: ${observed('filters.unknownPredefinedValue') ?? 'not observed'})` };
      return fc.constantFrom(...known);
    }
    default: base = textArb({ maxLength: Math.min(maxLengthOf(f), 60) });
  }
  return base.filter((v) => v !== '' && !taken.has(looseOf(f.valueKind, v)));
}

/** Near-misses of a present value: values containing it (substring matching), equal loosely (case/accents), duplicates. */
function traps(v: string, pool: readonly string[], loose: ReadonlyMap<string, string>, copies: ReadonlyMap<string, number>): number {
  let n = 0;
  const key = loose.get(v);
  for (const w of pool) {
    if (w === v) continue;
    if (w.includes(v)) n += 2;
    else if (v.includes(w)) n++;
    if (loose.get(w) === key) n += 2;
  }
  return n + ((copies.get(v) ?? 0) > 1 ? 1 : 0);
}

/** Memoised per scope and filter key: several cases (and their count twins) ask the same. */
function memo<T>(cache: WeakMap<Scoped, Map<string, T>>, s: Scoped, key: string, make: () => T): T {
  let m = cache.get(s);
  if (!m) cache.set(s, (m = new Map()));
  if (!m.has(key)) m.set(key, make());
  return m.get(key)!;
}
const rankedCache = new WeakMap<Scoped, Map<string, string[]>>();

/** Present values ranked by near-misses (the best first). */
function ranked(s: Scoped, f: FilterModel, pool: string[]): string[] {
  return memo(rankedCache, s, f.key, () => rankPool(s, f, pool));
}

function rankPool(s: Scoped, f: FilterModel, pool: string[]): string[] {
  const kind = fieldKind(s.r, f);
  if (kind !== 'string') return pool;
  const loose = new Map(pool.map((v) => [v, looseKey(v)]));
  const copies = new Map<string, number>();
  for (const rec of s.records) {
    const v = rec[f.field];
    if (typeof v === 'string') copies.set(v, (copies.get(v) ?? 0) + 1);
  }
  return pool.map((v) => ({ v, n: traps(v, pool, loose, copies) })).sort((a, b) => b.n - a.n).map((x) => x.v);
}

/** A value with its letter case changed (every letter flipped), or undefined when it has no letters. */
function otherCase(v: string): string | undefined {
  const flipped = Array.from(v).map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
  if (flipped === v) return undefined;
  // only a value whose case folding round-trips: 'ß' → 'SS', 'ς' → 'Σ' → 'σ' would make a server that
  // ignores case miss the flipped value too, and the case would show nothing
  return flipped.toLowerCase() === v.toLowerCase() && flipped.toUpperCase() === v.toUpperCase() ? flipped : undefined;
}

/** The part of the store's collation (observations collation.*) a change touches. */
type Part = keyof Collation;

/** A value changed in one part a collation may ignore: letter case, one accent, a trailing space (undefined: cannot be). */
const CHANGES: Array<{ part: Part; change: (v: string, max: number) => string | undefined }> = [
  { part: 'case', change: (v) => flipAsciiCase(v) ?? otherCase(v) },
  { part: 'accents', change: (v) => changeAccent(v) },
  { part: 'trailingSpaces', change: (v, max) => (Array.from(v).length < max ? padRight(v) : undefined) },
];

/** The store was seen to tell a value changed in this part from the value (sensitive, significant); false when it ignores the part or it was not observed. */
const tells = (c: Collation, part: Part): boolean => c[part] === 'sensitive' || c[part] === 'significant';

/**
 * #exact — the parts of a comparison a collation may ignore, one record each:
 * A's value in the other letter case, B's with one accent changed, C's with a
 * trailing space (A, B, C loosely distinct, the best-ranked first; no record
 * holds a changed value). The oracle expects each record back or not as the
 * store's observed collation says (collation.*): a key departing from the
 * store's own reading shows here. Where the records hold fewer loosely
 * distinct values than there are parts (an enumeration of one value: product
 * type PHYSICAL, order status COMPLETED), a change the store tells apart joins
 * a value whose changes the store all tells apart too: the record must stay
 * out of the answer, and a key ignoring any of those parts brings it back. A
 * change the store ignores never joins another (its record is expected back,
 * which would hide the others). Generated: one pool value, one part changed.
 * Exported for its unit test; `c` is the observed collation.
 */
export function exactCase(s: Scoped, f: FilterModel, pool: string[], all: ReadonlySet<unknown>, terms: (vs: string[]) => Term[], c: Collation): CaseSpec {
  const max = maxLengthOf(f);
  const fresh = (v: string | undefined): v is string => v !== undefined && !all.has(v);
  const designed: string[] = [];
  // loose key of each value a change was taken from → whether the store tells every change made to it apart
  const used = new Map<string, boolean>();
  const byRank = ranked(s, f, pool);
  for (const { part, change } of CHANGES) {
    const from = byRank.find((v) => !used.has(looseKey(v)) && fresh(change(v, max)));
    if (from) {
      used.set(looseKey(from), tells(c, part));
      designed.push(change(from, max)!);
      continue;
    }
    if (!tells(c, part)) continue;
    const shared = byRank.find((v) => used.get(looseKey(v)) === true && fresh(change(v, max)));
    if (shared) designed.push(change(shared, max)!);
  }
  const changed = pool.flatMap((v) => CHANGES.map(({ change }) => change(v, max)).filter(fresh));
  if (!changed.length) return { notJudged: pool.length ? `no ${f.field} value of ${s.what} can be changed in letter case, an accent or a trailing space alone` : `no record of ${s.what} holds a ${f.field}` };
  return { designed: fc.constant(designed), generated: fc.constantFrom(...changed).map((v) => [v]), terms };
}

export function arrayCase(s: Scoped, f: FilterModel, c: string, env: ClassEnv): CaseSpec {
  const pool = poolOf(s, f);
  const terms = (vs: string[]): Term[] => [{ f, value: vs }];
  const all = new Set(s.records.map((x) => x[f.field]).filter((v): v is string => typeof v === 'string'));
  switch (c) {
    case 'absent': {
      const prefixes = pool
        .filter((v) => f.valueKind === 'string' && Array.from(v).length > 2)
        .map((v) => Array.from(v).slice(0, -1).join(''))
        .filter((p) => !pool.some((w) => looseOf(f.valueKind, w) === looseOf(f.valueKind, p)));
      const absent = absentValueArb(s, f, pool);
      if ('notJudged' in absent) return absent;
      return { designed: prefixes.length ? fc.constantFrom(...prefixes.slice(0, TOP)).map((p) => [p]) : undefined, generated: absent.map((a) => [a]), terms };
    }
    case 'exact': {
      // a value changed in case, an accent or a trailing space is no longer an enumeration name: a store
      // that refuses names it does not know may refuse it (as Java's Enum.valueOf does a case change)
      const reading = observed('filters.unknownPredefinedValue');
      if (f.valueKind === 'predefined' && reading !== 'matches-nothing') return { notJudged: `a ${f.field} value changed in letter case, an accent or a trailing space is outside the enumeration, which this store may refuse (filters.unknownPredefinedValue: ${reading ?? 'not observed'})` };
      return exactCase(s, f, pool, all, terms, collation());
    }
  }
  if (!pool.length) return { notJudged: `no record of ${s.what} holds a non-empty ${f.field}` };
  const best = ranked(s, f, pool);
  if (c === 'one') return { designed: fc.constantFrom(...best.slice(0, TOP)).map((v) => [v]), generated: fc.constantFrom(...pool).map((v) => [v]), terms };
  return severalCase(s, f, pool, best, env);
}

/**
 * several: two present values holding different records, then a value of
 * every class the field takes (classes.ts) — one request judges them all;
 * with one value only, an absent one beside it.
 */
function severalCase(s: Scoped, f: FilterModel, pool: string[], best: string[], env: ClassEnv): CaseSpec {
  const terms = (vs: string[]): Term[] => [{ f, value: vs }];
  const first = best[0];
  // distinct values hold distinct records (equality is exact); one not equal loosely keeps case folding out of it
  const second = pool.length < 2 ? undefined : best.find((v) => v !== first && looseKey(v) !== looseKey(first)) ?? best.find((v) => v !== first)!;
  const head = pool.length < 2 ? [pool[0]] : [first, second!];
  const cl = arrayClassList(s, f, env, head);
  const classes = cl && { judged: cl.judged, notJudged: cl.notJudged };
  const designed = fc.constant([...new Set([...head, ...(cl?.values ?? [])])]);
  if (pool.length < 2) {
    // one value only: an absent one beside it, where there is one to send
    const absent = absentValueArb(s, f, pool);
    const generated = 'notJudged' in absent ? fc.constant([pool[0]]) : fc.tuple(absent, fc.constant(pool[0])).map(([a, b]) => [a, b]);
    return { designed: cl?.values.length ? designed : undefined, generated, terms, classes };
  }
  const generated = fc.uniqueArray(fc.constantFrom(...pool), { minLength: 2, maxLength: Math.min(4, pool.length) });
  return { designed, generated, terms, classes };
}

// ---------------------------------------------------------------- range filters

/** Within the filter's limits (a generated or sampled value may exceed them: then it is no bound to send). */
export function withinLimits(f: FilterModel, b: string): boolean {
  // request bounds are dot decimals (§4): the same limit the schemas' x-decimal keyword validates
  if (f.valueKind === 'decimal') return /^-?[0-9]+(\.[0-9]+)?$/.test(b) && decimalWithin(b, decimalLimitOf(f));
  if (f.valueKind === 'integer') return /^-?[0-9]+$/.test(b) && b.replace(/^-/, '').length <= integerDigitsOf(f);
  return true;
}

/** Points on a field's axis: integers, decimals in units of the filter's scale, instants in seconds, dates in days. */
interface Axis {
  point(v: string): bigint | undefined;
  /** the request bound for a point, or undefined when it is beyond the filter's limits */
  bound(p: bigint): string | undefined;
  /** points are whole days (date fields) */
  step: bigint;
}

function axisOf(kind: ScalarKind, f: FilterModel): Axis | undefined {
  switch (kind) {
    case 'integer': {
      const digits = integerDigitsOf(f);
      return {
        point: (v) => { const n = normalizeInteger(v); return n === undefined ? undefined : BigInt(n); },
        bound: (p) => (p.toString().replace('-', '').length <= digits ? p.toString() : undefined),
        step: 1n,
      };
    }
    case 'decimal': {
      const limit = decimalLimitOf(f);
      const max = 10n ** BigInt(limit.digits + limit.scale) - 1n;
      return {
        point: (v) => decimalToScaled(v, limit.scale),
        bound: (p) => (p <= max && p >= -max ? scaledToDecimal(p, limit.scale) : undefined),
        step: 1n,
      };
    }
    case 'datetime':
      return { point: (v) => { const t = parseDateTime(v); return t === undefined ? undefined : BigInt(t); }, bound: (p) => formatDateTime(Number(p)), step: 1n };
    case 'date':
      return { point: (v) => { const t = parseDateTime(v); return t === undefined ? undefined : BigInt(Math.floor(t / DAY)); }, bound: (p) => formatDate(Number(p) * DAY), step: 1n };
    default:
      return undefined;
  }
}

/** Text order a careless server might use: the string as shown; DateTime without zero padding ('2024-9-30 …' > '2024-10-1 …'). */
function textKey(kind: ScalarKind, v: string): string {
  return kind === 'datetime' || kind === 'date' ? v.split(/[-: T]/).map(Number).join('-') : v;
}
const strcmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface Points {
  axis: Axis;
  kind: ScalarKind;
  /** every record value's point (with duplicates) */
  all: bigint[];
  /** distinct points, sorted */
  distinct: bigint[];
  values: string[];
  /** each value's text-order key (textKey) and point, computed once */
  keys: string[];
  at: Array<bigint | undefined>;
}
const pointsCache = new WeakMap<Scoped, Map<string, Points | undefined>>();

function pointsOf(s: Scoped, f: FilterModel): Points | undefined {
  return memo(pointsCache, s, f.key, () => makePoints(s, f));
}

function makePoints(s: Scoped, f: FilterModel): Points | undefined {
  const kind = fieldKind(s.r, f);
  const axis = axisOf(kind, f);
  if (!axis) return undefined;
  const values = s.records.map((x) => x[f.field]).filter((v): v is string => typeof v === 'string' && v !== '');
  const all = values.map((v) => axis.point(v)).filter((x): x is bigint => x !== undefined);
  const distinct = [...new Set(all)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const at = values.map((v) => axis.point(v));
  return { axis, kind, all, distinct, values, keys: values.map((v) => textKey(kind, v)), at };
}

/** How many record values a bound's text order misjudges (a server comparing text instead of numbers or instants). */
function misleading(p: Points, b: string): number {
  const bKey = textKey(p.kind, b);
  const at = p.axis.point(b);
  if (at === undefined) return 0;
  let n = 0;
  p.at.forEach((x, i) => {
    if (x === undefined) return;
    const c = x < at ? -1 : x > at ? 1 : 0;
    if (strcmp(p.keys[i], bKey) !== c) n++;
  });
  return n;
}

const best = <T>(scored: Array<{ v: T; n: number }>): T[] => {
  const top = Math.max(...scored.map((x) => x.n));
  return scored.filter((x) => x.n === top).map((x) => x.v).slice(0, TOP);
};

export function rangeCase(s: Scoped, f: FilterModel, c: string): CaseSpec {
  const p = pointsOf(s, f);
  const terms = (b: string): Term[] => [{ f, value: b }];
  const generated = rangeBoundArb(f, poolOf(s, f)).filter((b) => withinLimits(f, b));
  if (!p || !p.distinct.length) return { notJudged: `no record of ${s.what} holds a ${f.field} to bound` };
  if (c === 'equal') {
    const bounds = spread(p.distinct, 48).map((x) => p.axis.bound(x)).filter((b): b is string => b !== undefined);
    if (!bounds.length) return { notJudged: `no ${f.field} value of ${s.what} is within the bound's limits` };
    const scored = bounds.map((b) => {
      const at = p.axis.point(b)!;
      const below = p.all.some((x) => x < at) ? 1 : 0;
      const above = p.all.some((x) => x > at) ? 1 : 0;
      return { v: b, n: below + above + (misleading(p, b) > 0 ? 2 : 0) };
    });
    return { designed: fc.constantFrom(...best(scored)), generated: fc.constantFrom(...bounds), terms };
  }
  // bound: strictly between two neighbouring values, so no record sits on it
  const between: string[] = [];
  for (let i = 0; i + 1 < p.distinct.length; i++) {
    const mid = (p.distinct[i] + p.distinct[i + 1]) / 2n;
    if (mid > p.distinct[i] && mid < p.distinct[i + 1]) {
      const b = p.axis.bound(mid);
      if (b !== undefined) between.push(b);
    }
  }
  const outside = [p.distinct[0] - p.axis.step, p.distinct[p.distinct.length - 1] + p.axis.step].map((x) => p.axis.bound(x)).filter((b): b is string => b !== undefined);
  const candidates = spread([...between, ...outside], 48);
  if (!candidates.length) return { generated, terms };
  // a bound that leaves no record out cannot show the filter ignored; one that keeps none cannot show
  // it applied to the wrong side: the designed bound leaves some out, keeps some where it can, and
  // misleads a text comparison where it can (records created in one second share their createdon:
  // then only a bound outside the values exists, and the one leaving them all out is taken)
  const isMin = f.key.endsWith('_min');
  const score = (b: string) => {
    const at = p.axis.point(b);
    if (at === undefined) return 0;
    const kept = p.all.filter((x) => (isMin ? x > at : x < at)).length;
    const left = p.all.length - kept;
    return (left > 0 ? 4 : 0) + (kept > 0 ? 2 : 0) + (misleading(p, b) > 0 ? 1 : 0);
  };
  const designed = fc.constantFrom(...best(candidates.map((b) => ({ v: b, n: score(b) }))));
  return { designed, generated, terms };
}

/** _min and _max of one field together. */
export function bothCase(s: Scoped, min: FilterModel, max: FilterModel): CaseSpec {
  const p = pointsOf(s, min);
  const terms = ([lo, hi]: [string, string]): Term[] => [{ f: min, value: lo }, { f: max, value: hi }];
  if (!p || !p.distinct.length) return { notJudged: `no record of ${s.what} holds a ${min.field} to bound` };
  const bounds = p.distinct.map((x) => p.axis.bound(x)).filter((b): b is string => b !== undefined);
  if (!bounds.length) return { notJudged: `no ${min.field} value of ${s.what} is within the bounds' limits` };
  const n = bounds.length;
  const designed: [string, string] = n >= 4 ? [bounds[1], bounds[n - 2]] : n === 3 ? [bounds[1], bounds[1]] : [bounds[0], bounds[n - 1]];
  const sorted = (a: string, b: string): [string, string] => (p.axis.point(a)! <= p.axis.point(b)! ? [a, b] : [b, a]);
  const generated = fc.tuple(fc.constantFrom(...bounds), fc.constantFrom(...bounds)).map(([a, b]) => sorted(a, b));
  return { designed: fc.constant(designed), generated, terms };
}

/**
 * A date-only bound (§2: a DateTime in a request is a date or a date with
 * time): the days of the scoped values and their neighbours. Designed: a day
 * with records strictly before and after it, preferring one that holds records
 * (the reading of 'D' is then visible) and whose unpadded text order misleads.
 */
export function dayCase(s: Scoped, f: FilterModel): CaseSpec {
  const terms = (day: string): Term[] => [{ f, value: day }];
  const times = s.records.map((x) => parseDateTime(x[f.field])).filter((t): t is number => t !== undefined);
  const days = [...new Set(times.flatMap((t) => { const d = Math.floor(t / DAY); return [d - 1, d, d + 1]; }))];
  if (!days.length) return { generated: dateArb(), terms };
  const timeKeys = times.map((t) => textKey('datetime', formatDateTime(t)));
  const scored = spread(days, 48).map((d) => {
    const start = d * DAY;
    const before = times.filter((t) => t < start).length;
    const after = times.filter((t) => t >= start + DAY).length;
    const on = times.length - before - after;
    // past midnight: only those tell the readings apart (one at 00:00:00 is in under both)
    const telling = times.some((t) => t > start && t < start + DAY);
    const b = formatDate(start);
    const bKey = textKey('datetime', b);
    const misleads = times.some((t, i) => strcmp(timeKeys[i], bKey) !== Math.sign(t - start));
    // records on the day show how the bound is read: decisive once the reading is observed (filters.dateOnlyBound),
    // so such a day outweighs one with records on both sides only (a key reading the day otherwise shows on it alone)
    const onDay = on > 0 ? (dateOnlyBound() && telling ? 4 : 1) : 0;
    return { v: b, n: (before > 0 && after > 0 ? 3 : before > 0 || after > 0 ? 1 : 0) + onDay + (misleads ? 1 : 0) };
  });
  const all = days.map((d) => formatDate(d * DAY));
  return { designed: fc.constantFrom(...best(scored)), generated: fc.oneof({ arbitrary: fc.constantFrom(...all), weight: 3 }, { arbitrary: dateArb(), weight: 1 }), terms };
}

// ---------------------------------------------------------------- boolean filters

export function booleanCase(f: FilterModel, c: string): CaseSpec {
  // 'false' is the value a server reading the filter as a truthy string gets wrong; the two cases are the two classes
  return { generated: fc.constant(c), terms: (v: string): Term[] => [{ f, value: v }], classes: booleanClasses(c) };
}

/** _min and _max of one field, bounds of every value class of the field (classes.ts), one request per neighbouring pair. */
export function classesCase(s: Scoped, min: FilterModel, max: FilterModel, env: ClassEnv): CaseSpec {
  const kind = fieldKind(s.r, min);
  const axis = axisOf(kind, min);
  if (!axis) return { notJudged: `${min.field} is not a field bounds compare` };
  const got = boundClassPairs(s, min, axis, (v) => withinLimits(min, v) && withinLimits(max, v), env);
  if (!got || !got.pairs.length) return { notJudged: `no value class of ${min.field} has a value within the limits of ${min.key} and ${max.key}` };
  const terms = ([lo, hi]: [string, string]): Term[] => [{ f: min, value: lo }, { f: max, value: hi }];
  return { generated: fc.constant(got.pairs[0]), all: got.pairs, terms, classes: { judged: got.judged, notJudged: got.notJudged } };
}

// ---------------------------------------------------------------- every key at once

/** A range key's bound leaving out the records at its end (min: the smallest values, max: the largest); one keeping all when the values are one. */
function edgeBound(s: Scoped, f: FilterModel): string | undefined {
  const p = pointsOf(s, f);
  if (!p || !p.distinct.length) return undefined;
  const d = p.distinct;
  const isMin = f.key.endsWith('_min');
  if (d.length < 2) return p.axis.bound(isMin ? d[0] - p.axis.step : d[0] + p.axis.step);
  const [a, b] = isMin ? [d[0], d[1]] : [d[d.length - 2], d[d.length - 1]];
  const mid = (a + b) / 2n;
  const at = mid > a && mid < b ? mid : isMin ? b : a;
  const bound = p.axis.bound(at);
  return bound !== undefined && withinLimits(f, bound) ? bound : undefined;
}

/** The value most records hold of a boolean field ('true' or 'false'). */
function majority(s: Scoped, f: FilterModel): string {
  const t = s.records.filter((x) => ['true', '1'].includes(String(x[f.field]))).length;
  return t * 2 >= s.records.length ? 'true' : 'false';
}

/**
 * Every key given (`keys`, those the target takes) in one request, each
 * leaving out some records: an array key lists every value of the records
 * but one record's (a different record for each key), a range key bounds
 * off the records at its end, a boolean key asks the value most records hold.
 * Under AND a store that drops a key when many are given returns the records
 * only that key left out; under OR one that drops a key loses the records
 * only it matched. The oracle judges under the observed combination.
 */
export function allKeysCase(s: Scoped, keys: readonly FilterModel[]): { terms: Term[]; left: string[] } | { notJudged: string } {
  const recs = s.records;
  if (recs.length < 2) return { notJudged: `${s.what} holds fewer than 2 records: no key can leave one out` };
  const terms: Term[] = [];
  const left: string[] = [];
  keys.forEach((f, k) => {
    if (f.filter === 'boolean') return terms.push({ f, value: majority(s, f) });
    if (f.filter === 'range') {
      const b = edgeBound(s, f);
      return b === undefined ? left.push(f.key) : terms.push({ f, value: b });
    }
    const pool = poolOf(s, f);
    const skip = recs[k % recs.length][f.field];
    const values = pool.filter((v) => v !== skip);
    return pool.length ? terms.push({ f, value: values.length ? values : pool }) : left.push(f.key);
  });
  if (terms.length < 2) return { notJudged: `no two filter keys of ${s.r.name} have values among ${s.what} (${left.join(', ')} none)` };
  // a store that applies only the first few keys of a request must drop one that matters: the keys
  // that leave no record out (createdon bounds around records made within one second) go first
  const leaves = (t: Term) => recs.some((x) => expectation(s.r, [t], x) === 'out');
  return { terms: [...terms.filter((t) => !leaves(t)), ...terms.filter(leaves)], left };
}
