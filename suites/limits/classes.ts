/**
 * Value classes at and around the §8 limits (docs/value-classes.md): what
 * each limit item (`limits.<rule>#<prop>.<op>`) is judged with beyond the
 * designed values of limits.check.ts (ASCII and 2-/3-byte text at maxLength,
 * the largest value under the observed reading, the minimum): one value of
 * each class of the property's kind that concerns its limit — text one
 * below the limit, spaces at its edges, a list of many items at the limit;
 * 1, the lengths where the written number grows, the 32-bit maximum and one
 * past it; 0.01, trailing zeros, float-unrepresentable decimals, the largest
 * value every reading of the digits holds… Each goes in a class item of the
 * create the check sends anyway (item j holds value j of every property, the
 * others at their minimum) and in its update: no request more.
 *
 * A class that depends on an honest reading joins where the store was probed
 * not to take it (`readings`: support/classes.ts observedNotTaken); 4-byte text at the
 * 255 limit goes in a create apart (`astralItem`), judged under the store's
 * own unit of length: a store that cuts or refuses it in every property counts
 * UTF-16 units or bytes (SQL Server's nvarchar, JavaScript's length), one
 * property that cuts it while the others keep it departs from that reading.
 */
import type fc from 'fast-check';
import {
  classesOf, notApplicable, payloadTarget, readingOf, READINGS, type ClassTarget, type LimitRule, type PayloadPropModel, type ReadingId,
  type ValueClass,
} from '../../src/check/index.js';
import { classValues, fixedText, listClassValue, type PayloadValue } from '../../generators/index.js';

type Draw = <T>(arb: fc.Arbitrary<T>, label: string) => T;

/** The classes each limit is judged with, of its properties' kind (and, for a list of text, of its items). */
const LIMIT_SETS: Record<LimitRule, readonly string[]> = {
  'limits.string-255': [
    'string.one-char', 'string.below-limit', 'string.at-limit', 'string.multibyte', 'string.astral', 'string.quotes-backslash', 'string.html-special',
    'string.edge-whitespace', 'string.whitespace-only', 'string.empty', 'list.empty', 'list.one', 'list.many', 'list.duplicates',
  ],
  'limits.page-content-65535': ['string.below-limit', 'string.at-limit', 'string.multibyte', 'string.astral', 'string.quotes-backslash', 'string.html-special', 'string.edge-whitespace'],
  'limits.integer-11-digits': classesOf('integer').map((c) => c.name),
  'limits.decimal-digits': classesOf('decimal').map((c) => c.name),
  'limits.text-encoding': ['string.multibyte', 'string.astral', 'string.quotes-backslash', 'string.html-special', 'string.combining'],
};

/** Classes a limit leaves to another item, with where. */
const ELSEWHERE: Partial<Record<LimitRule, Record<string, string>>> = {
  'limits.page-content-65535': {
    'string.astral': '4-byte text at the limit is judged at the 255 limit (limits.string-255), where the store\'s own unit of length shows across properties; page content is the only property of its limit',
  },
};

/**
 * Text classes at the limit (`max` code points; `prefix`: a unique property's
 * tag and token, kept whole): a value of the class as long as the class lets
 * it be, or undefined when the class cannot hold the prefix.
 */
const AT_LIMIT: Record<string, (max: number, prefix: string | undefined) => string | undefined> = {
  'string.one-char': (_m, pre) => (pre ? undefined : 'Q'),
  'string.below-limit': (m, pre) => fixedText(m - 1, { prefix: pre, offset: 7 }),
  'string.at-limit': (m, pre) => fixedText(m, { prefix: pre }),
  'string.multibyte': (m, pre) => fixedText(m, { prefix: pre, style: 'multibyte' }),
  'string.astral': (m, pre) => fixedText(m, { prefix: pre, style: 'astral' }),
  'string.edge-whitespace': (m, pre) => (pre ? `${fixedText(m - 1, { prefix: pre, offset: 3 })} ` : ` ${fixedText(m - 2, { offset: 3 })} `),
  'string.whitespace-only': (m, pre) => (pre ? undefined : ' '.repeat(m)),
  'string.empty': (_m, pre) => (pre ? undefined : ''),
  'string.combining': (m, pre) => `${pre ?? ''}Cafe\u0301 ${fixedText(Math.min(m, 40) - (pre ? Array.from(pre).length : 0) - 7, { offset: 5 })}`,
};

/** One class value of a property: `make(prefix)` writes it for an item's own unique prefix. */
export interface ClassValue {
  cls: ValueClass;
  make: (prefix: string | undefined) => PayloadValue;
}

/** A property's classes under one limit: the values to add, and what a target of its kind takes. */
export interface PropLimitClasses {
  p: PayloadPropModel;
  /** the property as the classes see it (a list: its items are text of `item`) */
  t: ClassTarget;
  item?: ClassTarget;
  values: ClassValue[];
  /** the 4-byte text at the limit (a create apart), when judged on this store */
  astral?: ClassValue;
  /** classes of a reading the store was probed not to take, kept out of this property with why (support/classes.ts classesKeptOut) */
  keptOut?: ReadonlyMap<string, string>;
}

/** The classes whose values here are ASCII text (as many UTF-8 bytes as characters). */
const ASCII_AT_LIMIT = new Set(['string.below-limit', 'string.at-limit', 'string.edge-whitespace', 'string.whitespace-only']);

/** A unique property's prefix as long as a real one (the run tag and a token), to try a class's value. */
const SAMPLE_PREFIX = 'sc00000000-zzzzzzzz';

/** Why a class of the limit's set is not used on a target here (undefined: it is). */
function whyNot(rule: LimitRule, c: ValueClass, t: ClassTarget, readings: readonly ReadingId[], keptOut: ReadonlyMap<string, string> = new Map()): string | undefined {
  const na = notApplicable(c, t);
  if (na) return `cannot apply: ${na}`;
  if (keptOut.has(c.name)) return keptOut.get(c.name);
  const elsewhere = ELSEWHERE[rule]?.[c.name];
  if (elsewhere) return elsewhere;
  const reading = readingOf(c, t);
  // the text of these classes at the limit is ASCII (fixedText): as many bytes as characters, valid where TEXT counts bytes
  if (reading === 'text-bytes' && ASCII_AT_LIMIT.has(c.name)) return undefined;
  if (reading && !readings.includes(reading)) return `depends on an honest reading this store was not probed not to take: ${READINGS[reading]}`;
  return undefined;
}

/** The text values of a class at the limit (undefined: none for this target). */
function textValue(c: ValueClass, t: ClassTarget): ClassValue | undefined {
  const at = AT_LIMIT[c.name];
  const max = t.maxLength;
  if (!at || max === undefined) return undefined;
  if (at(max, t.unique ? SAMPLE_PREFIX : undefined) === undefined) return undefined;
  return { cls: c, make: (prefix) => at(max, t.unique ? prefix : undefined)! };
}

/** The values of a list of text: a class of its items as a list of one such item; list classes from items at the limit. */
function listValues(rule: LimitRule, t: ClassTarget, item: ClassTarget, readings: readonly ReadingId[], keptOut: ReadonlyMap<string, string>): ClassValue[] {
  const out: ClassValue[] = [];
  for (const c of classesOf('string').filter((x) => LIMIT_SETS[rule].includes(x.name) && !whyNot(rule, x, item, readings, keptOut))) {
    const v = textValue(c, item);
    if (v && c.name !== 'string.astral') out.push({ cls: c, make: () => [v.make(undefined) as string] });
  }
  const atLimit = (i: number) => fixedText(item.maxLength!, { prefix: String(i + 1) });
  for (const c of classesOf('list').filter((x) => LIMIT_SETS[rule].includes(x.name) && !whyNot(rule, x, t, readings, keptOut))) {
    if (c.name === 'list.empty' || c.name === 'list.one') continue; // the minimum ([]) and one-item lists above
    out.push({ cls: c, make: () => listClassValue(c, [atLimit(0), atLimit(1)], atLimit, 'stored') });
  }
  return out;
}

const ASTRAL = () => classesOf('string').find((c) => c.name === 'string.astral')!;

/** The scalar values of one property's classes: text at the limit, numbers as the class designs them. */
function scalarValues(rule: LimitRule, t: ClassTarget, draw: Draw, perClass: number, readings: readonly ReadingId[], keptOut: ReadonlyMap<string, string>): ClassValue[] {
  const out: ClassValue[] = [];
  for (const c of classesOf(t.kind).filter((x) => LIMIT_SETS[rule].includes(x.name) && !whyNot(rule, x, t, readings, keptOut))) {
    if (t.kind !== 'string') out.push(...classValues(c, t, perClass, draw).values.map((v) => ({ cls: c, make: () => v })));
    else if (c.name !== 'string.astral') out.push(...[textValue(c, t)].filter((v): v is ClassValue => v !== undefined));
  }
  return out;
}

/** The 4-byte text at the 255 limit (a create apart), when this store was seen keeping 4-byte characters. */
function astralValue(rule: LimitRule, t: ClassTarget, item: ClassTarget | undefined, readings: readonly ReadingId[]): ClassValue | undefined {
  const on = item ?? t;
  if (rule !== 'limits.string-255' || whyNot(rule, ASTRAL(), on, readings)) return undefined;
  const v = textValue(ASTRAL(), on);
  if (!v) return undefined;
  return item ? { cls: v.cls, make: () => [v.make(undefined) as string] } : v;
}

/**
 * The class values of one property under one limit, but those of the classes
 * its designed values (`existing`) already hold.
 */
export function limitClasses(rule: LimitRule, p: PayloadPropModel, draw: Draw, perClass: number, existing: readonly PayloadValue[], readings: readonly ReadingId[], keptOut: ReadonlyMap<string, string> = new Map()): PropLimitClasses | undefined {
  const t = payloadTarget(p);
  if (!t) return undefined;
  const item: ClassTarget | undefined = t.kind === 'list' ? { kind: 'string', use: 'stored', maxLength: p.maxLength } : undefined;
  const pc: PropLimitClasses = { p, t, item, values: [], keptOut };
  const held = new Set(existing.flatMap((v) => classesOfValue(pc, v)));
  const values = t.kind === 'list' ? (item ? listValues(rule, t, item, readings, keptOut) : []) : scalarValues(rule, t, draw, perClass, readings, keptOut);
  return { ...pc, values: values.filter((v) => !held.has(v.cls.name)), astral: astralValue(rule, t, item, readings) };
}

/** The classes of the target's kind (and of a list's items) a value is a member of. */
export function classesOfValue(pc: PropLimitClasses, v: PayloadValue | undefined): string[] {
  if (v === undefined) return [];
  const of = (kind: ClassTarget, x: unknown) => classesOf(kind.kind).filter((c) => c.has(x, kind)).map((c) => c.name);
  if (pc.t.kind !== 'list') return of(pc.t, v);
  return [...of(pc.t, v), ...(Array.isArray(v) && pc.item ? v.flatMap((x) => of(pc.item!, x)) : [])];
}

/**
 * What an item records: every class some value it was judged with belongs to,
 * and each other class of the kind with why not (`reasons`: a class's own
 * reason here, e.g. the store's unit of length).
 */
export function itemClasses(rule: LimitRule, pc: PropLimitClasses, sent: readonly PayloadValue[], readings: readonly ReadingId[], reasons: ReadonlyMap<string, string> = new Map()): { judged: string[]; notJudged: Array<{ class: string; reason: string }> } {
  // a class of the limit's set a value sent belongs to (membership alone says little of the others: any text with a letter is a case twin)
  const judged = new Set(sent.flatMap((v) => classesOfValue(pc, v)).filter((n) => LIMIT_SETS[rule].includes(n)));
  const notJudged: Array<{ class: string; reason: string }> = [];
  const targets: Array<[ClassTarget, ValueClass[]]> = [[pc.t, classesOf(pc.t.kind)], ...(pc.item ? [[pc.item, classesOf('string')] as [ClassTarget, ValueClass[]]] : [])];
  for (const [t, classes] of targets) {
    for (const c of classes) {
      if (judged.has(c.name)) continue;
      const reason = reasons.get(c.name) ?? (LIMIT_SETS[rule].includes(c.name) ? whyNot(rule, c, t, readings, pc.keptOut) ?? 'no value of it at this limit for this property' : `not a class of this limit: lifecycle.create.single#${pc.p.name} and lifecycle.update.changes#${pc.p.name} judge it`);
      notJudged.push({ class: c.name, reason });
    }
  }
  return { judged: [...judged], notJudged };
}
