/**
 * The value classes a filter is asked with (docs/value-classes.md), for the
 * cases that carry them:
 * - array keys, #several: the designed list holds a value of every class the
 *   field takes — one a record holds where the scope has one (the fixture's
 *   class records do), else the class's own value, held by no record — so one
 *   request judges every class against every record (a filter that drops "0"
 *   or matches LIKE's wildcards shows);
 * - the id filter, #several: one list of more than 2100 ids (past the IN-list
 *   and parameter limits of Oracle, SQL Server and SQLite), the scope's ids at
 *   the positions those limits cut, every other one in upper case, the first
 *   twice, and the all-zero GUID;
 * - range fields, #classes: bounds of every class as _min and as _max, the
 *   fewest values covering the classes, one request per neighbouring pair;
 * - Boolean keys: 'true' and 'false' are the classes.
 */
import fc from 'fast-check';
import {
  ZERO_GUID, IN_LIST_LIMITS, classesFor, filterTarget, otherNormalForm, valueClass, type ClassTarget, type FilterModel, type ReadingId, type ValueClass,
} from '../../src/check/index.js';
import { classValues, guidsFrom, guidSeedArb, looseKey, listClassValue } from '../../generators/index.js';
import { fieldKind, poolOf, spread, type Scoped } from './scoped.js';

type Draw = <T>(arb: fc.Arbitrary<T>, label: string) => T;

/** What a case needs to draw class values: how many per class (the depth's) and a seeded draw. */
export interface ClassEnv {
  perClass: number;
  draw: Draw;
  /** the store's observed reading of an id in the other letter case (filters.idCase): 'sensitive' finds no record by it */
  idCase: 'insensitive' | 'sensitive';
  /**
   * The honest readings the store was probed not to take (support/classes.ts
   * observedNotTaken): the classes that depend on one join the lists and
   * bounds — > 32-bit integers, 4-byte text, 99999999.99, case twins — as
   * they join the fixture's records. None given: those classes stay out, named.
   */
  readings?: readonly ReadingId[];
  /** classes of those readings this store still does not take, with why (support/classes.ts numberSyntaxKeptOut): named, not asked */
  keptOut?: ReadonlyMap<string, string>;
}

/**
 * A held value written in a class's form, for the classes no stored value
 * shows (a store shows the Integer it took, not '007'): '00' before a held
 * positive Integer ('001001' for 1001; read as octal from 8 up), '-0' for a
 * held 0. A store that takes '007' as 7 in a create and compares a filter's
 * '007' as text against 7 departs from its own reading (integers.leadingZeros).
 */
const WRITTEN_AS: Readonly<Record<string, (held: string) => string | undefined>> = {
  'integer.leading-zeros': (v) => (/^[1-9][0-9]*$/.test(v) ? `00${v}` : undefined),
  'integer.negative-zero': (v) => (v === '0' ? '-0' : undefined),
};

/**
 * A held value asked in its other Unicode normalization form (e + U+0301 as
 * é; é as e + U+0301 where the store keeps NFC): canonically equivalent to
 * it, so its record comes back only where the store's filters equate
 * canonical equivalents (collation.normalization), as the oracle judges.
 */
const ASKED_AS: Readonly<Record<string, (held: string) => string | undefined>> = {
  'string.combining': otherNormalForm,
};

/** The classes a case asks (those `keptOut` names go to notJudged with its reason). */
function classesUnder(t: ClassTarget, env: ClassEnv): { judged: ValueClass[]; notJudged: Array<{ cls: ValueClass; reason: string }> } {
  const { judged, notJudged } = classesFor(t, env.readings);
  const out = env.keptOut ?? new Map<string, string>();
  return { judged: judged.filter((c) => !out.has(c.name)), notJudged: [...notJudged, ...judged.filter((c) => out.has(c.name)).map((cls) => ({ cls, reason: out.get(cls.name)! }))] };
}

export interface CaseClasses {
  judged: string[];
  notJudged: Array<{ class: string; reason: string }>;
}

const reasons = (xs: Array<{ cls: ValueClass; reason: string }>) => xs.map((x) => ({ class: x.cls.name, reason: x.reason }));
const unique = <T>(xs: T[]) => [...new Set(xs)];

/**
 * The values of every class an array key's field takes: a present one per
 * class where the scope holds one (or a held value in the class's form), else
 * the class's own. `head`: the values the list starts with.
 */
export function arrayClassList(s: Scoped, f: FilterModel, env: ClassEnv, head: readonly string[] = []): (CaseClasses & { values: string[] }) | undefined {
  const kind = fieldKind(s.r, f);
  const t = filterTarget(f, kind);
  if (!t) return undefined;
  const { judged, notJudged } = classesUnder(t, env);
  const pool = poolOf(s, f);
  const taken = new Set(kind === 'string' ? pool.map(looseKey) : []);
  const values: string[] = [];
  const used: string[] = [];
  const skipped: Array<{ class: string; reason: string }> = [];
  for (const cls of judged) {
    const present = pool.filter((v) => cls.has(v, t));
    const asked = ASKED_AS[cls.name];
    if (asked) {
      // the held values of the class, else (a store that stored them NFC) any held value with another form
      // (within the key's length: the decomposed form of a value at the limit is longer than it)
      const fits = (v: string | undefined): v is string => v !== undefined && (t.maxLength === undefined || Array.from(v).length <= t.maxLength);
      const twins = [present, pool].map((xs) => xs.map(asked).filter(fits)).find((xs) => xs.length);
      if (twins) {
        values.push(...spread(twins, env.perClass));
        used.push(cls.name);
        continue;
      }
    }
    // a held value the list's head does not already ask, so only its written form can match its records
    const written = WRITTEN_AS[cls.name] ? pool.filter((v) => !head.includes(v)).map(WRITTEN_AS[cls.name]).filter((v): v is string => v !== undefined) : [];
    if (present.length || written.length) {
      values.push(...spread(present.length ? present : written, env.perClass));
      used.push(cls.name);
      continue;
    }
    const own = classValues(cls, t, env.perClass, env.draw, { id: kind === 'guid' ? pool[0] : undefined }).values;
    // a string equal to a held one but for case or accents is a match to a case-insensitive store: not asked as absent
    const absent = own.filter((v) => kind !== 'string' || !taken.has(looseKey(v)));
    if (!absent.length) {
      skipped.push({ class: cls.name, reason: `a record of ${s.what} holds a value equal to it but for letter case or accents, which an honest case-insensitive store matches` });
      continue;
    }
    values.push(...absent);
    used.push(cls.name);
  }
  return { values: unique(values), judged: used, notJudged: [...reasons(notJudged), ...skipped] };
}

/** The slots of a long list the IN-list and parameter limits cut at (SQLite 999, Oracle 1000, SQL Server 2100), most telling first. */
const LIMIT_SLOTS = [...new Set([...Object.values(IN_LIST_LIMITS).sort((a, b) => b - a), ...Object.values(IN_LIST_LIMITS).map((n) => n + 1), 0])];

/**
 * One id list of more than 2100 values: ids no record has, the scope's ids at
 * the slots the common limits cut (and spread over the rest), every other one
 * in upper case, the first listed twice, the all-zero GUID, and the max GUID
 * where the store was seen to take a GUID of any version (filters.guidVersion).
 */
export function idLongList(s: Scoped, env: ClassEnv): (CaseClasses & { values: string[] }) | undefined {
  if (!s.ids.length) return undefined;
  const t: ClassTarget = { kind: 'list', use: 'matched', itemKind: 'guid' };
  const many = listClassValue(valueClass('list.many'), [], (i) => `slot-${i}`, 'matched');
  const length = many.length + s.ids.length + 2;
  const known = new Set(s.ids.map((id) => id.toLowerCase()));
  const absent = [...new Set(guidsFrom(env.draw(guidSeedArb, 'absent ids'), length))].filter((id) => !known.has(id));
  // the other letter case only where the store's id filter takes it (filters.idCase): under an exact comparison
  // an id in the other case names no record, an honest reading the list must not contradict
  const mixed = env.idCase !== 'sensitive';
  const ids = mixed ? s.ids.map((id, i) => (i % 2 === 1 ? id.toUpperCase() : id.toLowerCase())) : [...s.ids];
  const free = Array.from({ length }, (_, i) => i).filter((i) => !LIMIT_SLOTS.includes(i));
  const slots = [...LIMIT_SLOTS, ...spread(free, Math.max(0, ids.length - LIMIT_SLOTS.length))].slice(0, ids.length);
  const list: string[] = [];
  const at = new Map(slots.map((slot, i) => [slot, ids[i]]));
  for (let i = 0, a = 0; i < length - 2; i++) list.push(at.get(i) ?? absent[a++]);
  // the first id again, in upper case: a duplicate (to a count that sums per listed value) and an upper-case GUID
  list.push(ZERO_GUID, mixed ? ids[0].toUpperCase() : ids[0]);
  const g: ClassTarget = { kind: 'guid', use: 'matched' };
  // the GUID classes of the readings the store was seen to take (the max GUID where a GUID filter takes any version)
  for (const c of classesFor(g, env.readings).judged.filter((x) => x.reading?.(g) && !list.some((v) => x.has(v, g)))) list.push(...classValues(c, g, 1, env.draw).values);
  const judged = [
    ...classesFor(t).judged.filter((c) => c.has(list, t)),
    ...classesFor(g, env.readings).judged.filter((c) => list.some((v) => c.has(v, g))),
  ].map((c) => c.name);
  const notJudged = [...classesFor(t).notJudged, ...classesFor(g, env.readings).notJudged];
  const caseNote = mixed ? [] : classesFor(g).judged.filter((c) => !judged.includes(c.name) && !c.has(list[0], g) && c.has(list[0].toUpperCase(), g))
    .map((c) => ({ class: c.name, reason: 'the store\'s id filter compares ids exactly (filters.idCase sensitive): an id in the other letter case names no record under its own reading' }));
  return { values: list, judged, notJudged: [...reasons(notJudged), ...caseNote] };
}

/** Points and bounds of a field's axis (the range cases' own). */
export interface BoundAxis {
  point(v: string): bigint | undefined;
}

/**
 * Bound pairs [_min, _max] carrying every class a range field takes: the
 * fewest class values covering the classes (every value, deeper), sorted,
 * then [v1, v1], [v1, v2], …, [vk, vk] — every value is a _min and a _max.
 */
export function boundClassPairs(s: Scoped, min: FilterModel, axis: BoundAxis, within: (v: string) => boolean, env: ClassEnv): (CaseClasses & { pairs: Array<[string, string]> }) | undefined {
  const t = filterTarget(min, fieldKind(s.r, min));
  if (!t) return undefined;
  const { judged, notJudged } = classesUnder(t, env);
  const candidates = unique(judged.flatMap((cls) => classValues(cls, t, env.perClass, env.draw).values)).filter((v) => within(v) && axis.point(v) !== undefined);
  const members = new Map(candidates.map((v) => [v, judged.filter((c) => c.has(v, t)).map((c) => c.name)]));
  const chosen = env.perClass > 1 ? candidates : cover(candidates, members);
  const sorted = chosen.sort((a, b) => { const x = axis.point(a)!; const y = axis.point(b)!; return x < y ? -1 : x > y ? 1 : 0; });
  const pairs: Array<[string, string]> = sorted.length ? [[sorted[0], sorted[0]], ...sorted.slice(1).map((v, i): [string, string] => [sorted[i], v]), [sorted[sorted.length - 1], sorted[sorted.length - 1]]] : [];
  const covered = new Set(sorted.flatMap((v) => members.get(v) ?? []));
  return {
    pairs,
    judged: judged.filter((c) => covered.has(c.name)).map((c) => c.name),
    notJudged: [...reasons(notJudged), ...judged.filter((c) => !covered.has(c.name)).map((c) => ({ class: c.name, reason: `no value of it within the limits of ${min.key}` }))],
  };
}

/** The fewest values covering every class any of them belongs to (greedy set cover, ties in catalogue order). */
function cover(values: string[], members: Map<string, string[]>): string[] {
  const left = new Set(values.flatMap((v) => members.get(v) ?? []));
  const out: string[] = [];
  while (left.size) {
    let best = values[0];
    let gain = -1;
    for (const v of values) {
      const g = (members.get(v) ?? []).filter((c) => left.has(c)).length;
      if (g > gain) { best = v; gain = g; }
    }
    if (gain <= 0) break;
    out.push(best);
    for (const c of members.get(best) ?? []) left.delete(c);
  }
  return out;
}

/** A Boolean key's cases are its classes. */
export function booleanClasses(c: string): CaseClasses {
  return { judged: [`boolean.${c}`].filter((n) => { try { return !!valueClass(n); } catch { return false; } }), notJudged: [] };
}
