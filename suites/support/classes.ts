/**
 * Value classes in the records a suite creates (docs/value-classes.md): for
 * every payload property, one entry per value of each class it takes (and the
 * decoys a wrong comparison would confuse with them), laid out over extra
 * items of a create the suite sends anyway — item k holds entry k of every
 * property — so a batch that exists carries every class at no extra request.
 * Classes that depend on an honest reading are left out, with the reason, until
 * a check judges under the observed reading.
 */
import type fc from 'fast-check';
import {
  chunks, classesFor, observed, payloadTarget, parseDateTime, probed, type ClassTarget, type PayloadPropModel, type ReadingId, type ResourceModel,
  type ValueClass,
} from '../../src/check/index.js';
import {
  classValues, dateRangePairs, listClassValue, uniquePrefix, TOKEN_LENGTH, type Payload, type PayloadValue,
} from '../../generators/index.js';

export interface ClassEntry {
  cls: ValueClass;
  value: PayloadValue;
  /** a value a wrong comparison would confuse with a class value (LIKE's aZZbYc beside a%b_c) */
  decoy: boolean;
}

export interface PropClasses {
  p: PayloadPropModel;
  t: ClassTarget;
  entries: ClassEntry[];
  judged: ValueClass[];
  notJudged: Array<{ class: string; reason: string }>;
}

/** The placeholder start of a unique property's class values, replaced by each item's own tag and token. */
const placeholder = (tag: string) => uniquePrefix(tag, 'z'.repeat(TOKEN_LENGTH));

type Draw = <T>(arb: fc.Arbitrary<T>, label: string) => T;

/** A list property's entries: the list classes it takes, built from short distinct items (references: the ids given). */
function listEntries(p: PayloadPropModel, t: ClassTarget, judged: ValueClass[], refs: readonly string[]): ClassEntry[] {
  const fill = (i: number) => `vc${i.toString(36)}`;
  const items = p.references ? [...refs] : [fill(0), fill(1)];
  return judged.filter((c) => !p.references || refs.length || c.name === 'list.empty')
    .map((cls) => ({ cls, value: listClassValue(cls, items, p.references ? (i) => refs[i % refs.length] : fill, t.use), decoy: false }));
}

/**
 * The honest readings a store was observed NOT to take, by the probe of its
 * reading (src/observe): the classes that depend on one are valid on this
 * store, so its records carry them and the checks judge them — > 32-bit
 * integers on a store whose Integer columns were seen to hold 2^31, 4-byte
 * characters where one was kept, 99999999.99 where 8 digits before the point
 * were taken, case twins where filters were seen to compare case. A reading
 * not probed (the fallback) keeps its classes out, with the reading named.
 */
const JUDGED_UNDER: ReadonlyArray<{ reading: ReadingId; when: () => boolean }> = [
  { reading: 'int32', when: () => probed('limits.integerWidth') && observed('limits.integerWidth') === 'digits' },
  { reading: 'utf8mb3', when: () => probed('text.astral') && observed('text.astral') === 'kept' },
  { reading: 'decimal-digits', when: () => probed('limits.decimalDigits') && observed('limits.decimalDigits') === 'integer digits' },
  { reading: 'case-insensitive', when: () => probed('collation.case') && observed('collation.case') === 'sensitive' },
  // judged under the observed reading: spaces at the edges kept (compared exactly) or trimmed (compared trimmed, support/writes.ts)
  { reading: 'trimming', when: () => probed('text.trimming') && observed('text.trimming') !== 'refused' },
  // an empty String: judged on the properties where it was seen stored as '' (mandatory ones, or the others: classesKeptOut)
  { reading: 'empty-as-null', when: () => EMPTY_KEYS.some((k) => probed(k) && observed(k) === 'kept') },
  // an Integer written '007' or '-0': each class where its form was seen taken (classesKeptOut)
  { reading: 'number-syntax', when: () => Object.values(SYNTAX_KEYS).some((k) => probed(k) && observed(k) === 'taken') },
  // a list holding one item twice: kept (compared as sent) or merged (compared as a set, support/writes.ts); Strings only (classesKeptOut)
  { reading: 'list-duplicates', when: () => probed('lists.duplicates') && observed('lists.duplicates') !== 'refused' },
  // a DateTime before 1970 or after 2038 (datetime.before-1970, .after-2038): where one was seen stored as sent
  { reading: 'timestamp-range', when: () => probed('time.dateTimeRange') && observed('time.dateTimeRange') === 'full' },
  // a GUID of another version than 4 (the max GUID): taken where a GUID filter was seen to take it (the filters' lists, filters/register.ts)
  { reading: 'guid-version', when: () => probed('filters.guidVersion') && observed('filters.guidVersion') === 'any' },
  // a combining sequence (e + U+0301): judged under the store's own reading, whichever it is — stored as sent or NFC
  // (support/writes.ts), filters telling canonical equivalents apart or not (the oracle's collation)
  { reading: 'normalization', when: () => probed('text.normalization') && probed('collation.normalization') },
];

/** The observation of the Integer form each number-syntax class writes. */
const SYNTAX_KEYS = { 'integer.leading-zeros': 'integers.leadingZeros', 'integer.negative-zero': 'integers.negativeZero' } as const;

const EMPTY_KEYS = ['text.emptyRequired', 'text.emptyOptional'] as const;

export function observedNotTaken(): ReadingId[] {
  return JUDGED_UNDER.filter((x) => x.when()).map((x) => x.reading);
}

/** What a String of spaces only is stored as under the observed trimming: as sent when kept, '' when trimmed. */
const BLANK_UNDER_TRIMMING = { kept: 'kept', trimmed: 'emptied' } as const;

/**
 * The number-syntax classes ('007', '-0') this store was not seen to take as
 * the Integer they denote, with why: the same on every Integer property and
 * filter value (the probe writes one; a store parses its Integers one way).
 */
export function numberSyntaxKeptOut(): Map<string, string> {
  const out = new Map<string, string>();
  if (!observedNotTaken().includes('number-syntax')) return out;
  for (const [cls, key] of Object.entries(SYNTAX_KEYS)) {
    if (!(probed(key) && observed(key) === 'taken')) out.set(cls, probed(key) ? `this store refuses an Integer so written (${key}: ${observed(key)}): an honest reading, not judged` : `what this store does with an Integer so written was not observed (${key})`);
  }
  return out;
}

/**
 * Classes of a reading the run judges under that this store still does not
 * take on property p, with why: an empty String joins the properties where
 * one was seen stored as '' (mandatory ones, or those outside the mandatory
 * list: the probe tries one of each); a String of spaces only joins where the store was seen to
 * store it as its trimming says (as sent, or '' when it trims), not where it
 * refuses it as blank (ASP.NET's [Required]) or stores null.
 */
export function classesKeptOut(p: PayloadPropModel): Map<string, string> {
  const out = new Map<string, string>();
  const under = observedNotTaken();
  const emptyKey = p.required ? EMPTY_KEYS[0] : EMPTY_KEYS[1];
  if (under.includes('empty-as-null') && !(probed(emptyKey) && observed(emptyKey) === 'kept')) {
    out.set('string.empty', probed(emptyKey)
      ? `this store takes an empty String ${p.required ? 'in a mandatory property' : 'outside the mandatory list'} otherwise than as '' (${emptyKey}: ${observed(emptyKey)}): an honest reading, not judged`
      : `what this store does with an empty String ${p.required ? 'in a mandatory property' : 'outside the mandatory list'} was not observed (${emptyKey})`);
  }
  for (const [cls, reason] of numberSyntaxKeptOut()) out.set(cls, reason);
  if (under.includes('list-duplicates') && p.references) out.set('list.duplicates', 'the duplicates reading was observed on a list of Strings (lists.duplicates), not on a list of references');
  if (!under.includes('trimming')) return out;
  const blank = probed('text.whitespaceOnly') ? observed('text.whitespaceOnly') : null;
  const want = BLANK_UNDER_TRIMMING[observed('text.trimming') as keyof typeof BLANK_UNDER_TRIMMING];
  if (blank !== want) {
    out.set('string.whitespace-only', blank === null
      ? 'what this store does with a String of spaces only was not observed (text.whitespaceOnly)'
      : `this store takes a String of spaces only otherwise than its trimming (text.trimming: ${observed('text.trimming')}) would store it (text.whitespaceOnly: ${blank}): an honest reading, not judged`);
  }
  return out;
}

/**
 * The class entries of every property of a resource's payload that takes
 * classes (`only`: those properties), `perClass` values of each class.
 */
export function payloadClasses(r: ResourceModel, tag: string, perClass: number, draw: Draw, opts: { only?: (p: PayloadPropModel) => boolean; refs?: Partial<Record<string, string[]>>; underReadings?: readonly ReadingId[] } = {}): PropClasses[] {
  const out: PropClasses[] = [];
  for (const p of r.payload) {
    if (opts.only && !opts.only(p)) continue;
    const t = payloadTarget(p);
    if (!t) continue;
    const all = classesFor(t, opts.underReadings);
    const keptOut = opts.underReadings?.length ? classesKeptOut(p) : new Map<string, string>();
    const judged = all.judged.filter((c) => !keptOut.has(c.name));
    const notJudged = [...all.notJudged, ...all.judged.filter((c) => keptOut.has(c.name)).map((cls) => ({ cls, reason: keptOut.get(cls.name)! }))];
    const entries: ClassEntry[] = t.kind === 'list'
      ? listEntries(p, t, judged, p.references ? opts.refs?.[p.references] ?? [] : [])
      : judged.flatMap((cls) => {
        const cv = classValues(cls, t, perClass, draw, { prefix: placeholder(tag) });
        return [...cv.values.map((value) => ({ cls, value, decoy: false })), ...cv.decoys.map((value) => ({ cls, value, decoy: true }))];
      });
    const covered = new Set(entries.map((e) => e.cls.name));
    out.push({
      p, t, entries, judged: judged.filter((c) => covered.has(c.name)),
      notJudged: [...notJudged.map((x) => ({ class: x.cls.name, reason: x.reason })), ...judged.filter((c) => !covered.has(c.name)).map((c) => ({ class: c.name, reason: `no value of it for ${p.name} in this run (nothing to reference)` }))],
    });
  }
  return out;
}

/** How many items carry every entry of every property. */
export const classItemCount = (props: readonly PropClasses[]) => Math.max(0, ...props.map((x) => x.entries.length));

/** A unique property's value: the placeholder start replaced by the item's own tag and token (its generated value's start). */
function own(value: PayloadValue, item: Payload, p: PayloadPropModel, tag: string): PayloadValue {
  const ph = placeholder(tag);
  const mine = item[p.name];
  if (!p.unique || typeof value !== 'string' || typeof mine !== 'string' || !value.startsWith(ph)) return value;
  return mine.slice(0, ph.length) + value.slice(ph.length);
}

/** Start ≤ end for the date pairs of the payload (a class value on each side may reverse them). */
function ordered(r: ResourceModel, item: Payload): Payload {
  for (const [s, e] of dateRangePairs(r.name)) {
    const a = parseDateTime(item[s]);
    const b = parseDateTime(item[e]);
    if (a !== undefined && b !== undefined && a > b) [item[s], item[e]] = [item[e], item[s]];
  }
  return item;
}

/**
 * Items carrying the class entries: item k holds entry k of every property
 * (entry `(k + shift) mod n` with a shift: the base an update to entry k
 * starts from holds another one); the other properties keep their generated
 * values. Unique properties keep each item's own tag and token.
 */
export function withClasses(r: ResourceModel, items: readonly Payload[], props: readonly PropClasses[], tag: string, shift = 0): Payload[] {
  return items.map((item, k) => {
    const out: Payload = { ...item };
    for (const { p, entries } of props) {
      if (k >= entries.length) continue;
      out[p.name] = own(entries[(k + shift) % entries.length].value, item, p, tag);
    }
    return ordered(r, out);
  });
}

/** The classes of a target whose values are among `values` (what a read-only sample holds, what came back). */
export function classesAmong(t: ClassTarget, judged: readonly ValueClass[], values: readonly unknown[]): { present: ValueClass[]; absent: ValueClass[] } {
  const present = judged.filter((c) => values.some((v) => c.has(v, t)));
  return { present, absent: judged.filter((c) => !present.includes(c)) };
}

/** The classes of a resource's payload, as an item records them: every class judged on some property, and those not judged with why. */
export interface ItemClasses { judged: string[]; notJudged: Array<{ class: string; reason: string }> }

export function classNames(props: readonly PropClasses[]): ItemClasses {
  const judged = [...new Set(props.flatMap((x) => x.judged.map((c) => c.name)))].sort();
  const notJudged = props.flatMap((x) => x.notJudged.map((n) => ({ class: n.class, reason: `${x.p.name}: ${n.reason}` })));
  return { judged, notJudged };
}

/** `items` in lists of at most `max` (the observed limits.maxDataItems; all at once when none was observed). */
export function chunked<T>(items: readonly T[], max: unknown): T[][] {
  return chunks(items, typeof max === 'number' && max > 0 ? max : items.length);
}
