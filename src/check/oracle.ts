/**
 * The oracle: which scoped records a filter must return (§4 Filter naming:
 * an array filter matches records whose field equals any listed value; a
 * range filter `_min`/`_max` bounds the field from below/above; a Boolean
 * filter matches that value), and the judgement of a get against it —
 * soundness (nothing returned that fails the filter), completeness (every
 * scoped record that satisfies it, when the walk was complete), and records on
 * the day of a date-only bound treated as one instant.
 */
import type { Rec } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { DATE_PATTERN, type FilterModel, type ResourceModel, type ScalarKind } from '../schema/model.js';
import {
  compareScalar, compareWithDateOnlyBound, describeCollation, describeValue, normalizeBoolean, normalizeDecimal, normalizeInteger, parseDateTime, sameUnderCollation, looseText,
  type Collation, type DateOnlyBoundReading,
} from '../values/index.js';
import type { FailureDetail } from './failure.js';
import { observed } from './observed.js';

/**
 * What judging a get needs of an item (ItemContext has it) and of a walk
 * (pages.ts Walk has it), written here so that the oracle depends on neither:
 * the invariants judge every answer with it from inside the kit.
 */
interface Failing {
  fail(detail: FailureDetail & { why?: string }): never;
}
interface Walked {
  records: Rec[];
  complete: boolean;
  exchanges: Exchange[];
}

/** §4 "How several filters combine: not shown": 'and' lets every query carry the id filter beside the one under test. */
export function andMode(): boolean {
  return observed('filters.combination') !== 'or';
}

/** §4 "whether the range bounds are inclusive: not shown" */
export function inclusive(): boolean {
  return observed('filters.rangeInclusive') !== false;
}

/** §2 a DateTime bound 'YYYY-MM-DD' stands for that day's midnight or the whole day (observation filters.dateOnlyBound; null: either, judged alike). */
export function dateOnlyBound(): DateOnlyBoundReading | null {
  return observed('filters.dateOnlyBound');
}

/**
 * §4 "equals", for String and Predefined values: under the store's collation
 * (observations collation.case, .accents, .trailingSpaces, .normalization); a
 * part not observed leaves the pairs it decides unjudged.
 */
export function collation(): Collation {
  return {
    case: observed('collation.case'), accents: observed('collation.accents'), trailingSpaces: observed('collation.trailingSpaces'),
    normalization: observed('collation.normalization'),
  };
}

/** The records a filter is judged against: records as get shows them, and their ids. */
export interface Scoped {
  r: ResourceModel;
  /** the records as get shows them */
  records: Rec[];
  ids: string[];
  /** 'the fixture (…)' / 'the sample (…)', for messages */
  what: string;
}

export const lower = (v: unknown) => String(v ?? '').toLowerCase();

/** The kind of the record field a filter reads (customer birthdate is a date, filtered by DateTime bounds). */
export function fieldKind(r: ResourceModel, f: FilterModel): ScalarKind {
  const k = r.fields.find((x) => x.name === f.field)?.kind;
  return (k && k !== 'array' && k !== 'object' && k !== 'any' ? k : f.valueKind) as ScalarKind;
}

/**
 * in / out: the record must / must not be returned. open: a DateTime record on
 * the day of a date-only bound (is 'D' midnight or the whole day?), or a date
 * record (birthdate) on the day of a date-time bound: either answer, as long
 * as all such records are treated alike (judgeOpen). unknown: the record's
 * value cannot be read; not judged.
 */
export type Expect = 'in' | 'out' | 'open' | 'unknown';

/** One filter key and its value in a case (a case may set two keys: `_min` and `_max` of a field). */
export interface Term {
  f: FilterModel;
  value: unknown;
}

const DAY = 86400;
const SHOWN = 12;

/** The bound a range filter value stands for: a string, or the first element of an array (Decimal[] filters). */
export function boundOf(value: unknown): string {
  return String(Array.isArray(value) ? value[0] : value);
}

function eqDefined<T>(a: T | undefined, b: T | undefined): boolean | undefined {
  return a === undefined || b === undefined ? undefined : a === b;
}

/**
 * What a term needs of itself on every record, worked out once per term (a
 * case's terms are judged against every record of a scope and of every answer,
 * by the checks and by the invariants): the field's kind, and for an array
 * filter the values listed as strings with their loose identities (looseText).
 */
interface TermPlan {
  r: ResourceModel;
  value: unknown;
  kind: ScalarKind;
  wanted: string[];
  /** looseText of each wanted value (String and Predefined fields only) */
  loose?: string[];
}

const plans = new WeakMap<Term, TermPlan>();

const COMPARED_AS_VALUES = new Set<ScalarKind>(['guid', 'integer', 'decimal', 'boolean', 'datetime', 'date']);

function planOf(r: ResourceModel, t: Term): TermPlan {
  const known = plans.get(t);
  // the same term object judged with another model, or its value replaced: planned again
  if (known && known.r === r && known.value === t.value) return known;
  const kind = fieldKind(r, t.f);
  const wanted = t.f.filter === 'array' ? (Array.isArray(t.value) ? t.value : [t.value]).map(String) : [];
  const plan: TermPlan = { r, value: t.value, kind, wanted, ...(t.f.filter === 'array' && !COMPARED_AS_VALUES.has(kind) ? { loose: wanted.map(looseText) } : {}) };
  plans.set(t, plan);
  return plan;
}

/**
 * One listed value against the record's, by the field's kind. String and
 * Predefined: equal under the store's own collation (or unjudged where it
 * cannot be told) — sameUnderCollation, whose first two steps (equal strings;
 * different loose identities) are taken here with the loose identities
 * computed once: the listed value's per term, the record's per record.
 */
function sameListed(p: TermPlan, i: number, raw: string, looseRaw: () => string, c: () => Collation): boolean | undefined {
  const w = p.wanted[i];
  switch (p.kind) {
    case 'guid': return w.toLowerCase() === raw.toLowerCase();
    case 'integer': return eqDefined(normalizeInteger(w), normalizeInteger(raw));
    case 'decimal': return eqDefined(normalizeDecimal(w), normalizeDecimal(raw));
    case 'boolean': return eqDefined(normalizeBoolean(w), normalizeBoolean(raw));
    case 'datetime': case 'date': return eqDefined(parseDateTime(w), parseDateTime(raw));
    default:
      if (w === raw) return true;
      if (p.loose![i] !== looseRaw()) return false;
      return sameUnderCollation(w, raw, c());
  }
}

/** What one term says of one record. */
export function expectTerm(r: ResourceModel, t: Term, rec: Rec, incl: boolean): Expect {
  const { f, value } = t;
  const raw = rec?.[f.field];
  if (typeof raw !== 'string') return 'unknown';
  const plan = planOf(r, t);
  const kind = plan.kind;
  if (f.filter === 'array') {
    let loose: string | undefined;
    let coll: Collation | undefined;
    let unknown = false;
    for (let i = 0; i < plan.wanted.length; i++) {
      const same = sameListed(plan, i, raw, () => (loose ??= looseText(raw)), () => (coll ??= collation()));
      if (same === true) return 'in';
      if (same === undefined) unknown = true;
    }
    return unknown ? 'unknown' : 'out';
  }
  if (f.filter === 'boolean') {
    const b = normalizeBoolean(raw);
    if (b === undefined) return 'unknown';
    return b === (value === 'true') ? 'in' : 'out';
  }
  const bound = boundOf(value);
  let c: number;
  if (kind === 'datetime' || kind === 'date') {
    const at = parseDateTime(raw);
    const b = parseDateTime(bound);
    if (at === undefined || b === undefined) return 'unknown';
    const boundDateOnly = DATE_PATTERN.test(bound);
    const reading = dateOnlyBound();
    if (kind === 'datetime' && boundDateOnly && !reading && at >= b && at < b + DAY) return 'open';
    if (kind === 'date' && !boundDateOnly && Math.floor(b / DAY) * DAY === at) return 'open';
    // a date-only bound as the store reads it (filters.dateOnlyBound): its midnight, or the whole day
    c = kind === 'datetime' && boundDateOnly && reading ? compareWithDateOnlyBound(at, Math.floor(b / DAY), reading) : Math.sign(at - b);
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

/** Every term of a case together (one request: the keys combine as one filter set). */
export function expectation(r: ResourceModel, terms: readonly Term[], rec: Rec, incl = inclusive()): Expect {
  const each = terms.map((t) => expectTerm(r, t, rec, incl));
  if (each.includes('out')) return 'out';
  if (each.includes('unknown')) return 'unknown';
  if (each.includes('open')) return 'open';
  return 'in';
}

/** The scoped records a case must return. */
export function expectedIn(s: Scoped, terms: readonly Term[]): Rec[] {
  const incl = inclusive();
  return s.records.filter((x) => expectation(s.r, terms, x, incl) === 'in');
}

/** What the filter promises, for messages. */
export function ruleText(r: ResourceModel, f: FilterModel): string {
  const kind = fieldKind(r, f);
  if (f.filter === 'array') {
    const how = kind === 'guid' ? 'ignoring case (GUIDs)' : kind === 'integer' || kind === 'decimal' ? 'compared as numbers'
      : `as one value under the store's collation (no substring), observed ${describeCollation(collation())} (observations collation.*)`;
    return `the array filter ${f.key} matches records whose ${f.field} equals one of the listed values, ${how}`;
  }
  if (f.filter === 'boolean') return `the Boolean filter ${f.key} matches records whose ${f.field} has that value`;
  const as = kind === 'datetime' || kind === 'date' ? 'as instants' : 'as numbers';
  const day = kind === 'datetime' && dateOnlyBound() ? `; a date-only bound stands for ${dateOnlyBound() === 'midnight' ? "the day's midnight" : 'the whole day'} (observation filters.dateOnlyBound)` : '';
  return `${f.key} bounds ${f.field} from ${f.bound === 'min' ? 'below' : 'above'}, compared ${as}; bounds are ${inclusive() ? 'inclusive' : 'exclusive'} on this target (observation filters.rangeInclusive)${day}`;
}

export const termsText = (terms: readonly Term[]) => terms.map((t) => `${t.f.key}=${describeValue(t.value)}`).join(' ');
const showRec = (terms: readonly Term[], rec: Rec) => `${rec?.id} (${[...new Set(terms.map((t) => t.f.field))].map((fd) => `${fd} ${describeValue(rec?.[fd])}`).join(', ')})`;
const showList = (terms: readonly Term[], recs: Rec[]) => recs.slice(0, SHOWN).map((x) => showRec(terms, x)).concat(recs.length > SHOWN ? [`… ${recs.length - SHOWN} more`] : []);

/**
 * Judge one get against the scope: in AND mode nothing outside the id filter;
 * every returned record satisfies the case (soundness); every scoped record
 * that satisfies it is returned when the walk is complete (completeness);
 * open records treated alike.
 */
export function judgeGet(it: Failing, s: Scoped, terms: readonly Term[], result: Walked, note = ''): void {
  const { r } = s;
  const incl = inclusive();
  // the words of a failure are written only when there is one (most gets pass: writing them was ~1 % of a run's CPU)
  const why = () => terms.map((t) => ruleText(r, t.f)).join('; ');
  const scopeIds = new Set(s.ids.map(lower));
  const returned = new Set(result.records.map((x) => lower(x?.id)));
  const label = () => `${r.name} ${termsText(terms)}${note}`;
  const evidence = result.exchanges.slice(-2);
  if (andMode()) {
    const outside = result.records.filter((x) => !scopeIds.has(lower(x?.id)));
    if (outside.length) {
      it.fail({
        message: `${label()} with the id filter of ${s.what} (${s.ids.length} ids) returned ${outside.length} record(s) whose id was not listed, e.g. ${outside[0]?.id}`,
        why: 'the id filter returns only the listed ids; filters combine with AND on this target (observation filters.combination)',
        expected: `only records among the ${s.ids.length} listed ids`,
        actual: outside.slice(0, SHOWN).map((x) => x?.id),
        evidence,
      });
    }
  }
  const wrong = result.records.filter((x) => expectation(r, terms, x, incl) === 'out');
  if (wrong.length) {
    it.fail({
      message: `${label()} returned ${wrong.length} record(s) that do not satisfy it, e.g. ${showRec(terms, wrong[0])}`,
      why: why(),
      expected: `only records satisfying ${termsText(terms)}`,
      actual: showList(terms, wrong),
      evidence,
    });
  }
  if (result.complete) {
    const want = s.records.filter((x) => expectation(r, terms, x, incl) === 'in');
    const missing = want.filter((x) => !returned.has(lower(x.id)));
    if (missing.length) {
      it.fail({
        message: `${label()} left out ${missing.length} record(s) of ${s.what} that satisfy it, e.g. ${showRec(terms, missing[0])}; it returned ${result.records.length} record(s)`,
        why: why(),
        expected: showList(terms, want),
        actual: showList(terms, result.records),
        evidence,
      });
    }
  }
  judgeOpen(it, s, terms, result, label, evidence);
}

/**
 * Records on the day of a date-only bound: 'D' may stand for any one instant
 * of day D (midnight, end of day), but for one instant: with _max, every
 * record kept must be earlier than every record left out; with _min, later.
 */
function judgeOpen(it: Failing, s: Scoped, terms: readonly Term[], result: Walked, label: () => string, evidence: Exchange[]): void {
  const t = terms.length === 1 ? terms[0] : undefined;
  if (!t || t.f.filter !== 'range') return;
  const { r } = s;
  const incl = inclusive();
  const returned = new Set(result.records.map((x) => lower(x?.id)));
  const known: Array<{ rec: Rec; at: number; kept: boolean }> = [];
  const seen = new Set<string>();
  const add = (rec: Rec, kept: boolean) => {
    const id = lower(rec?.id);
    if (seen.has(id) || expectTerm(r, t, rec, incl) !== 'open') return;
    seen.add(id);
    known.push({ rec, at: parseDateTime(rec[t.f.field])!, kept });
  };
  for (const rec of result.records) add(rec, true);
  if (result.complete) for (const rec of s.records) add(rec, returned.has(lower(rec.id)));
  const kept = known.filter((x) => x.kept);
  const left = known.filter((x) => !x.kept);
  if (!kept.length || !left.length) return;
  const bad = t.f.bound === 'max' ? pairOf(kept, left, (k, l) => k.at >= l.at) : pairOf(kept, left, (k, l) => k.at <= l.at);
  if (bad) {
    it.fail({
      message: `${label()} treated records on the bound's day inconsistently: it kept ${showRec(terms, bad[0].rec)} but left out ${showRec(terms, bad[1].rec)}`,
      why: `a bound given as a date stands for one instant of that day, whichever the target chose, so with ${t.f.bound === 'max' ? '_max every kept record is earlier than every one left out' : '_min every kept record is later than every one left out'}; ${ruleText(r, t.f)}`,
      expected: 'one reading of the date for every record on that day',
      actual: { kept: showList(terms, kept.map((x) => x.rec)), leftOut: showList(terms, left.map((x) => x.rec)) },
      evidence,
    });
  }
}

function pairOf<T>(a: T[], b: T[], bad: (x: T, y: T) => boolean): [T, T] | undefined {
  for (const x of a) for (const y of b) if (bad(x, y)) return [x, y];
  return undefined;
}

/** Does any scoped record sit on the day of a date-only bound of this case? (count may then be judged only against get) */
export function hasOpen(s: Scoped, terms: readonly Term[]): boolean {
  const incl = inclusive();
  return s.records.some((x) => expectation(s.r, terms, x, incl) === 'open');
}
