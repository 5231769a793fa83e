/**
 * Values of the value classes (src/schema/value-classes.ts): for each class,
 * its designed values for a target (the representative first, then the other
 * members a check needs beside it: 9 and 100 beside 10; the value LIKE
 * wildcards would wrongly match), and a fast-check arbitrary of values within
 * the class — depth adds values within classes, never removes classes.
 *
 * Every value is valid for its target: within its maxLength, digits and scale,
 * and for a run-tagged unique property, starting with the run tag and token
 * (`prefix`). test/unit/value-classes.test.ts checks every designed and
 * generated value against the class's own membership test and the target's
 * schema.
 */
import fc from 'fast-check';
import { ZERO_GUID } from '../src/schema/model.js';
import {
  MANY_FILTER_VALUES, MANY_STORED_ITEMS, floatUnrepresentable, largestDecimalUnitsOfEveryReading, largestIntegerOfEveryReading,
  type ClassTarget, type ValueClass,
} from '../src/schema/value-classes.js';
import { MAX_GUID } from '../src/values/readings.js';
import { formatDate, formatDateTime, daysFromCivil, decimalToScaled, scaledToDecimal, largestDecimal } from '../src/values/normalize.js';
import { fixedText } from './text.js';

/** The designed values of a class: `values` are members (the first the representative), `decoys` the values a wrong comparison would confuse with them. */
export interface ClassValues {
  cls: ValueClass;
  values: string[];
  decoys: string[];
}

export interface ClassValueContext {
  /** what every value of a unique property starts with (the run tag and a token) */
  prefix?: string;
  /** a GUID the GUID classes are written from (a record's id) */
  id?: string;
}

const cp = (s: string) => Array.from(s);
/** `prefix` + `body`, cut to `max` code points (the prefix kept whole). */
function within(prefix: string, body: string, max: number | undefined): string {
  const all = cp(prefix + body);
  return max === undefined ? all.join('') : all.slice(0, Math.max(max, cp(prefix).length)).join('');
}
const text = (t: ClassTarget, c: ClassValueContext, body: string) => within(t.unique ? c.prefix ?? '' : '', body, t.maxLength);
const fixed = (t: ClassTarget, c: ClassValueContext, length: number, style: 'ascii' | 'multibyte' = 'ascii') =>
  fixedText(length, { prefix: t.unique ? c.prefix : undefined, style });
const maxLen = (t: ClassTarget) => t.maxLength ?? 64;

type Designer = (t: ClassTarget, c: ClassValueContext) => { values: string[]; decoys?: string[] };
type Within = (t: ClassTarget, c: ClassValueContext) => fc.Arbitrary<string>;

const DAY = 86400;
const at = (y: number, m: number, d: number, s = 0) => daysFromCivil(y, m, d) * DAY + s;
const dt = (t: ClassTarget, epoch: number) => (t.kind === 'date' ? formatDate(epoch) : formatDateTime(epoch));
const secondOfDay = fc.integer({ min: 0, max: DAY - 1 });
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

// ---------------------------------------------------------------- numbers

const scale = (t: ClassTarget) => t.decimal?.scale ?? 0;
const dec = (t: ClassTarget, units: bigint) => scaledToDecimal(units, scale(t));
const largestUnits = (t: ClassTarget) => (t.decimal ? largestDecimalUnitsOfEveryReading(t.decimal) : 0n);
/** decimal values of the class `length-change` that every reading of the limit holds */
function lengthChangeDecimals(t: ClassTarget): string[] {
  const max = largestUnits(t);
  const unit = 10n ** BigInt(scale(t));
  return [10n * unit, 10n * unit - 1n, 100n * unit, 100n * unit - 1n].filter((u) => u <= max).map((u) => dec(t, u));
}
/** float-unrepresentable values within every reading, those that arithmetic in doubles visibly changes (0.29 × 100 = 28.999…) first */
function floatValues(t: ClassTarget): string[] {
  const s = scale(t);
  const max = largestUnits(t);
  const fits = ['0.29', '0.57', '1.15', '4.35', '1.005', '0.1', '0.7']
    .map((v) => dec(t, BigInt(Math.round(Number(v) * 10 ** s))))
    .filter((v) => floatUnrepresentable(v, s) && (decimalToScaled(v, s) ?? max + 1n) <= max);
  const visible = fits.filter((v) => Number(v) * 10 ** s !== Number(decimalToScaled(v, s)));
  return [...new Set([...visible, ...fits])].slice(0, 2);
}
const integers = (t: ClassTarget) => (t.integerDigits ?? 1);

// ---------------------------------------------------------------- the designers

const DESIGNED: Record<string, Designer> = {
  'string.one-char': () => ({ values: ['Q'] }),
  'string.at-limit': (t, c) => ({ values: [fixed(t, c, maxLen(t))] }),
  'string.below-limit': (t, c) => ({ values: [fixed(t, c, maxLen(t) - 1)] }),
  'string.multibyte': (t, c) => ({ values: [fixed(t, c, Math.min(maxLen(t), cp(c.prefix ?? '').length + 24), 'multibyte')] }),
  'string.falsy-zero': () => ({ values: ['0'] }),
  'string.falsy-false': () => ({ values: ['false'] }),
  'string.null-word': () => ({ values: ['null'] }),
  'string.numeric-looking': () => ({ values: ['1e3'], decoys: ['1000'] }),
  'string.like-wildcards': (t, c) => ({ values: [text(t, c, 'a%b_c')], decoys: [text(t, c, 'aZZbYc')] }),
  'string.quotes-backslash': (t, c) => ({ values: [text(t, c, `O'Hara "q" back\\slash`)] }),
  'string.html-special': (t, c) => ({ values: [text(t, c, '<b>&amp;</b>')] }),
  'string.empty': () => ({ values: [''] }),
  'string.whitespace-only': () => ({ values: ['   '] }),
  'string.edge-whitespace': (t, c) => ({ values: [` ${text(t, c, 'padded')} `.slice(t.unique ? 1 : 0)] }),
  'string.case-twin': (t, c) => ({ values: [text(t, c, 'MixedCase')], decoys: [text(t, c, 'mIXEDcASE')] }),
  'string.combining': (t, c) => ({ values: [text(t, c, 'Cafe\u0301')] }),
  'string.astral': (t, c) => ({ values: [text(t, c, 'smile \u{1F600}')] }),

  'integer.zero': () => ({ values: ['0'] }),
  'integer.one': () => ({ values: ['1'] }),
  'integer.length-change': (t) => ({ values: ['10', '9', '100', '99'].filter((v) => v.length <= integers(t)) }),
  'integer.int32-max': (t) => ({ values: [largestIntegerOfEveryReading(integers(t)).toString()] }),
  'integer.beyond-int32': () => ({ values: ['2147483648'] }),
  'integer.at-digit-limit': (t) => ({ values: [(10n ** BigInt(integers(t)) - 1n).toString()] }),
  'integer.beyond-53-bits': () => ({ values: [(2n ** 53n + 1n).toString()] }),
  // '010' rather than '007': a store that reads leading zeros as octal stores 8, not 10 ('007' is 7 either way)
  'integer.leading-zeros': () => ({ values: ['010'] }),
  'integer.negative-zero': () => ({ values: ['-0'] }),

  'decimal.zero': (t) => ({ values: [dec(t, 0n), '0'] }),
  'decimal.smallest-positive': (t) => ({ values: [dec(t, 1n)] }),
  'decimal.trailing-zeros': (t) => {
    const unit = 10n ** BigInt(scale(t));
    const u = 105n * unit / 10n <= largestUnits(t) ? 105n * unit / 10n : 5n * unit / 10n;
    return { values: [dec(t, u)] };
  },
  'decimal.length-change': (t) => ({ values: lengthChangeDecimals(t) }),
  'decimal.float-unrepresentable': (t) => ({ values: floatValues(t) }),
  'decimal.largest': (t) => ({ values: [dec(t, largestUnits(t))] }),
  'decimal.at-digit-limit': (t) => ({ values: t.decimal ? [largestDecimal(t.decimal)] : [] }),

  'boolean.true': () => ({ values: ['true'] }),
  'boolean.false': () => ({ values: ['false'] }),

  'datetime.leap-day': (t) => ({ values: [dt(t, at(2024, 2, 29, 45_296))] }),
  'datetime.month-end': (t) => ({ values: [dt(t, at(2024, 4, 30, 67_500))] }),
  'datetime.midnight': (t) => ({ values: [dt(t, at(2024, 3, 1))] }),
  'datetime.last-second': (t) => ({ values: [dt(t, at(2024, 6, 30, DAY - 1))] }),
  'datetime.before-1970': (t) => ({ values: [dt(t, at(1969, 12, 31, DAY - 1))] }),
  'datetime.after-2038': (t) => ({ values: [dt(t, at(2038, 1, 19, 11_648))] }),
  'date.leap-day': (t) => ({ values: [dt(t, at(2024, 2, 29))] }),
  'date.month-end': (t) => ({ values: [dt(t, at(2024, 4, 30))] }),
  'date.before-1970': (t) => ({ values: [dt(t, at(1969, 12, 31))] }),
  'date.after-2038': (t) => ({ values: [dt(t, at(2038, 1, 20))] }),

  'guid.lower-case': (_t, c) => ({ values: [(c.id ?? '3f2504e0-4f89-41d3-9a0c-0305e82c3301').toLowerCase()] }),
  'guid.upper-case': (_t, c) => ({ values: [(c.id ?? '3f2504e0-4f89-41d3-9a0c-0305e82c3301').toUpperCase()] }),
  'guid.zero': () => ({ values: [ZERO_GUID] }),
  'guid.max': () => ({ values: [MAX_GUID] }),
};

// ---------------------------------------------------------------- values within each class

const oneOf = (xs: readonly string[]) => fc.constantFrom(...xs);
const BMP_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèçàÉœßΩЖ漢字한';
const letter = fc.constantFrom(...cp(BMP_LETTERS));
const word = (min: number, max: number) => fc.array(letter, { minLength: min, maxLength: max }).map((a) => a.join(''));
/** an exact length of BMP text (prefix included), from a random chunk tiled */
const exact = (t: ClassTarget, c: ClassValueContext, length: number, style?: 'multibyte') =>
  fc.nat({ max: 40 }).map((offset) => fixedText(length, { prefix: t.unique ? c.prefix : undefined, style, offset }));
const leapYears = [2004, 2008, 2012, 2016, 2020, 2024, 2028, 2032];

const WITHIN: Record<string, Within> = {
  'string.one-char': () => letter,
  'string.at-limit': (t, c) => exact(t, c, maxLen(t)),
  'string.below-limit': (t, c) => exact(t, c, maxLen(t) - 1),
  'string.multibyte': (t, c) => fc.integer({ min: 1, max: Math.min(maxLen(t) - cp(c.prefix ?? '').length, 200) })
    .chain((n) => exact(t, c, cp(c.prefix ?? '').length + n, 'multibyte')).filter((v) => /[^\u0000-\u007F]/u.test(v)),
  'string.falsy-zero': () => fc.constant('0'),
  'string.falsy-false': () => fc.constant('false'),
  'string.null-word': () => oneOf(['null', 'NULL', 'Null']),
  'string.numeric-looking': () => fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 6 })).map(([a, b]) => `${a}e${b}`),
  'string.like-wildcards': (t, c) => fc.tuple(word(0, 6), word(0, 6)).map(([a, b]) => text(t, c, `${a}%${b}_x`)),
  'string.quotes-backslash': (t, c) => word(1, 8).map((w) => text(t, c, `${w}'s "${w}" \\${w}`)),
  'string.html-special': (t, c) => word(1, 8).map((w) => text(t, c, `<i>${w}</i> & ${w}`)),
  'string.empty': () => fc.constant(''),
  'string.whitespace-only': () => fc.integer({ min: 1, max: 8 }).map((n) => ' '.repeat(n)),
  'string.edge-whitespace': (t, c) => word(1, 8).map((w) => `${text(t, c, w)} `),
  'string.case-twin': (t, c) => word(2, 10).filter((w) => w.toLowerCase() !== w.toUpperCase()).map((w) => text(t, c, w)),
  'string.combining': (t, c) => word(1, 8).map((w) => text(t, c, `${w}e\u0301`)),
  'string.astral': (t, c) => word(1, 8).map((w) => text(t, c, `${w} \u{1F389}`)),

  'integer.zero': () => fc.constant('0'),
  'integer.one': () => fc.constant('1'),
  // 9…9 and 10…0 up to what every reading holds (32 bits: 10^9)
  'integer.length-change': (t) => fc.integer({ min: 1, max: Math.max(1, largestIntegerOfEveryReading(integers(t)).toString().length - 1) })
    .chain((k) => oneOf([`${'9'.repeat(k)}`, `1${'0'.repeat(k)}`])),
  'integer.int32-max': (t) => fc.constant(largestIntegerOfEveryReading(integers(t)).toString()),
  'integer.beyond-int32': () => fc.constant('2147483648'),
  'integer.at-digit-limit': (t) => fc.constant((10n ** BigInt(integers(t)) - 1n).toString()),
  'integer.beyond-53-bits': () => fc.constant((2n ** 53n + 1n).toString()),
  'integer.leading-zeros': () => fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 999 })).map(([z, n]) => '0'.repeat(z) + n),
  'integer.negative-zero': () => fc.integer({ min: 1, max: 3 }).map((n) => `-${'0'.repeat(n)}`),

  'decimal.zero': (t) => fc.integer({ min: 0, max: scale(t) }).map((k) => (k === 0 ? '0' : `0.${'0'.repeat(k)}`)),
  'decimal.smallest-positive': (t) => fc.constant(dec(t, 1n)),
  'decimal.trailing-zeros': (t) => fc.bigInt({ min: 1n, max: largestUnits(t) / 10n > 0n ? largestUnits(t) / 10n : 1n }).map((u) => dec(t, u * 10n)).filter((v) => /0$/.test(v)),
  'decimal.length-change': (t) => oneOf(lengthChangeDecimals(t).length ? lengthChangeDecimals(t) : [dec(t, largestUnits(t))]),
  'decimal.float-unrepresentable': (t) => fc.bigInt({ min: 1n, max: largestUnits(t) }).map((u) => dec(t, u)).filter((v) => floatUnrepresentable(v, scale(t))),
  'decimal.largest': (t) => fc.constant(dec(t, largestUnits(t))),
  'decimal.at-digit-limit': (t) => fc.constant(t.decimal ? largestDecimal(t.decimal) : '0'),

  'boolean.true': () => fc.constant('true'),
  'boolean.false': () => fc.constant('false'),

  'datetime.leap-day': (t) => fc.tuple(oneOf(leapYears.map(String)), secondOfDay).map(([y, s]) => dt(t, at(Number(y), 2, 29, s))),
  'datetime.month-end': (t) => fc.tuple(fc.integer({ min: 2001, max: 2035 }), fc.integer({ min: 1, max: 12 }), secondOfDay)
    .map(([y, m, s]) => dt(t, at(y, m, lastDay(y, m), s))),
  'datetime.midnight': (t) => fc.integer({ min: daysFromCivil(2001, 1, 1), max: daysFromCivil(2035, 12, 31) }).map((d) => dt(t, d * DAY)),
  'datetime.last-second': (t) => fc.integer({ min: daysFromCivil(2001, 1, 1), max: daysFromCivil(2035, 12, 31) }).map((d) => dt(t, d * DAY + DAY - 1)),
  'datetime.before-1970': (t) => fc.tuple(fc.integer({ min: daysFromCivil(1901, 1, 1), max: daysFromCivil(1969, 12, 31) }), secondOfDay).map(([d, s]) => dt(t, d * DAY + s)),
  'datetime.after-2038': (t) => fc.tuple(fc.integer({ min: daysFromCivil(2038, 1, 20), max: daysFromCivil(2099, 12, 31) }), secondOfDay).map(([d, s]) => dt(t, d * DAY + s)),
  'date.leap-day': (t) => oneOf(leapYears.map(String)).map((y) => dt(t, at(Number(y), 2, 29))),
  'date.month-end': (t) => fc.tuple(fc.integer({ min: 1940, max: 2035 }), fc.integer({ min: 1, max: 12 })).map(([y, m]) => dt(t, at(y, m, lastDay(y, m)))),
  'date.before-1970': (t) => fc.integer({ min: daysFromCivil(1901, 1, 1), max: daysFromCivil(1969, 12, 31) }).map((d) => dt(t, d * DAY)),
  'date.after-2038': (t) => fc.integer({ min: daysFromCivil(2038, 1, 20), max: daysFromCivil(2099, 12, 31) }).map((d) => dt(t, d * DAY)),

  'guid.lower-case': (_t, c) => (c.id ? fc.constant(c.id.toLowerCase()) : fc.uuid({ version: 4 })),
  'guid.upper-case': (_t, c) => (c.id ? fc.constant(c.id.toUpperCase()) : fc.uuid({ version: 4 }).map((u) => u.toUpperCase())).filter((u) => /[A-F]/.test(u)),
  'guid.zero': () => fc.constant(ZERO_GUID),
  'guid.max': () => oneOf([MAX_GUID, MAX_GUID.toUpperCase()]),
};

/** The classes with values here (list classes are built by the checks from their own items: listClassValue). */
export const SCALAR_CLASS_NAMES: readonly string[] = Object.keys(DESIGNED);

/** The designed values of a class for a target (the representative first), and its decoys. */
export function designedValues(cls: ValueClass, t: ClassTarget, c: ClassValueContext = {}): ClassValues {
  const d = DESIGNED[cls.name];
  if (!d) throw new Error(`value class ${cls.name} has no designed values (generators/classes.ts)`);
  const { values, decoys = [] } = d(t, c);
  return { cls, values, decoys };
}

/** Values within a class for a target: what depth adds beyond the designed ones. */
export function classArb(cls: ValueClass, t: ClassTarget, c: ClassValueContext = {}): fc.Arbitrary<string> {
  const w = WITHIN[cls.name];
  if (!w) throw new Error(`value class ${cls.name} has no generator (generators/classes.ts)`);
  return w(t, c);
}

/**
 * `n` values of a class for a target: its designed values first (every one
 * of them, whatever n), then `n − 1` more drawn within the class (`draw`
 * seeds them: the same label, the same values), distinct.
 */
export function classValues(cls: ValueClass, t: ClassTarget, n: number, draw: <T>(arb: fc.Arbitrary<T>, label: string) => T, c: ClassValueContext = {}): ClassValues {
  const d = designedValues(cls, t, c);
  if (n <= 1 || !d.values.length) return d;
  const extra = draw(fc.uniqueArray(classArb(cls, t, c), { minLength: 0, maxLength: n - 1 }), `class ${cls.name}`);
  return { ...d, values: [...new Set([...d.values, ...extra])] };
}

/**
 * A list of a list class: `list.empty` [], `list.one` [the first item],
 * `list.many` MANY items (stored lists: MANY_STORED_ITEMS; filter values: more
 * than 2100), `list.duplicates` the items with the first listed twice. `fill(i)`
 * makes the i-th distinct item when the given ones are too few.
 */
export function listClassValue(cls: ValueClass, items: readonly string[], fill: (i: number) => string, use: ClassTarget['use']): string[] {
  const many = use === 'stored' ? MANY_STORED_ITEMS : MANY_FILTER_VALUES;
  switch (cls.name) {
    case 'list.empty': return [];
    case 'list.one': return [items[0] ?? fill(0)];
    case 'list.many': return [...items, ...Array.from({ length: Math.max(0, many - items.length) }, (_, i) => fill(items.length + i))];
    case 'list.duplicates': {
      const base = items.length ? [...items] : [fill(0)];
      return [...base, base[0]];
    }
    default: throw new Error(`not a list class: ${cls.name}`);
  }
}
