/**
 * The value-class catalogue: for each kind of value the API takes (String,
 * Integer, Decimal, Boolean, DateTime, Date, GUID, lists) the classes of values
 * where implementations go wrong — empty and falsy values, zero, the widths of
 * machine types, values whose written length changes, float-unrepresentable
 * decimals, leap days and month ends, LIKE wildcards, long and duplicated
 * lists… Each class has a stable name, says which properties and filters it
 * applies to (derived from their limits in the schema model: maxLength, digits,
 * scale, run-tagged unique values), where it comes from (boundary-value
 * analysis, equivalence partitioning, the documented defaults of common
 * databases and languages), and — when an honest store may answer it
 * otherwise — the reading it depends on (a collation, a 32-bit column, a
 * TIMESTAMP column, a framework that trims or nulls empty strings).
 *
 * This module says what the classes are; generators/classes.ts gives each
 * class its designed values and a fast-check arbitrary of values within it
 * (depth adds values within classes), and the checks say which items judge
 * which classes (docs/value-classes.md). Every class a check can use is
 * judged in every run, or reported not judged with the reason.
 */
import { TEXT_MAX_LENGTH, ZERO_GUID, decimalLimitOfEveryReading, type DecimalLimit, type FilterModel, type PayloadPropModel } from './model.js';

/** The kinds of values classes are defined for (a Predefined value takes no class: only its known values are valid). */
export type ValueKind = 'string' | 'integer' | 'decimal' | 'boolean' | 'datetime' | 'date' | 'guid' | 'list';
export const VALUE_KINDS: readonly ValueKind[] = ['string', 'integer', 'decimal', 'boolean', 'datetime', 'date', 'guid', 'list'];

/**
 * What a class is applied to: a payload property (stored, read back), a filter
 * value of an array filter (matched for equality), a range bound (compared), or
 * a list (a list property's items, or an array filter's values).
 */
export type ClassUse = 'stored' | 'matched' | 'bound' | 'list';

/** A property or filter as the classes see it: its kind and its limits, from the schema model. */
export interface ClassTarget {
  kind: ValueKind;
  use: ClassUse;
  maxLength?: number;
  integerDigits?: number;
  decimal?: DecimalLimit;
  /** its values start with the run tag and a token (x-unique): a class must keep that prefix */
  unique?: boolean;
  /** of a list: the kind of its items */
  itemKind?: ValueKind;
}

// ------------------------------------------------------------------ readings

/**
 * An honest reading of the spec under which a store may answer a class's
 * values otherwise — refuse them, store them changed, or compare them
 * otherwise — and still be conformant. A class that depends on one is used
 * only where the check judges under the store's observed reading, and is
 * otherwise reported not judged with the reading named.
 */
export const READINGS = {
  'empty-as-null': "an empty string is refused for a mandatory property or stored as NULL (Oracle treats '' as NULL; ASP.NET's [Required] refuses it by default; Laravel converts it to null)",
  trimming: 'strings are trimmed on input (Laravel TrimStrings) or compared without trailing spaces (PAD SPACE collations, MySQL before 8.0, MariaDB before 10.2)',
  'case-insensitive': "strings compare case-insensitively (MySQL's and SQL Server's default _ci/CI collations)",
  normalization: 'strings compare accent- or normalization-insensitively (Unicode collations), or are stored normalized',
  utf8mb3: "4-byte characters are refused or mangled (MySQL's utf8 is utf8mb3: BMP characters only)",
  int32: 'Integer columns are 32-bit INT, what "max 11 digits" (INT(11)) usually means in a database schema',
  'number-syntax': 'number validation refuses leading zeros or a sign on zero (PHP FILTER_VALIDATE_INT refuses "007")',
  'decimal-digits': '"8 digits, 2 decimals" counts 8 digits in all, as SQL DECIMAL(8,2) (observation limits.decimalDigits)',
  'timestamp-range': 'DateTime columns are MySQL TIMESTAMP: 1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC',
  'text-bytes': 'long text columns count bytes, not characters (MySQL TEXT holds 65535 bytes)',
  'list-duplicates': 'a list property keeps or merges duplicate items (the spec does not say)',
  'guid-version': 'GUIDs are validated as version-4 UUIDs, so the max UUID (no version) is refused',
} as const;
export type ReadingId = keyof typeof READINGS;

// ------------------------------------------------------------------ classes

export interface ValueClass {
  /** stable: `<kind>.<name>` (reports, docs and tests compare by it) */
  name: string;
  kind: ValueKind;
  /** the values it holds */
  title: string;
  /** where implementations go wrong with it */
  why: string;
  /** the technique or documented default it comes from, with a reference */
  source: string;
  /** the honest reading its values depend on for this target (none: valid and judged alike under every reading) */
  reading?(t: ClassTarget): ReadingId | undefined;
  /** why it cannot apply to this target (undefined: it applies) */
  notFor?(t: ClassTarget): string | undefined;
  /** is `v` a value of this class for the target? (generated and designed values are tested with it; a list class takes arrays) */
  has(v: unknown, t: ClassTarget): boolean;
}

/** A class of scalar values: its membership test takes strings (lists are not its values). */
type Scalar = Omit<ValueClass, 'has'> & { has(v: string, t: ClassTarget): boolean };
const scalar = (c: Scalar): ValueClass => ({ ...c, has: (v, t) => typeof v === 'string' && c.has(v, t) });
const chars = (s: string) => Array.from(s);
const len = (s: string) => chars(s).length;
const UNIQUE = 'a unique property (name, slug, sku, code) starts with the run tag: it can never hold this value';
const notUnique = (t: ClassTarget) => (t.unique ? UNIQUE : undefined);
/** the code points past the run tag and token of a unique value */
const body = (v: string, t: ClassTarget) => (t.unique ? v.replace(/^sc[0-9a-f]{8}-[0-9a-z]{8}/, '') : v);
const BMP_ONLY = /^[\u0000-\uFFFF]*$/u;

export const BVA = 'boundary-value analysis (values at and next to a limit; ISTQB Foundation syllabus, test techniques)';
export const EP = 'equivalence partitioning (one value stands for its class; ISTQB Foundation syllabus, test techniques)';

const STRING: Scalar[] = [
  {
    name: 'string.one-char', kind: 'string', title: 'a string of one character',
    why: 'the shortest non-empty value: off-by-one in length checks, columns or substring matching',
    source: BVA, notFor: notUnique,
    has: (v) => len(v) === 1,
  },
  {
    name: 'string.at-limit', kind: 'string', title: 'a string of exactly maxLength characters (BMP only)',
    why: 'the longest valid value: a column one short, a length check with < instead of ≤, a limit counted in UTF-16 units',
    source: BVA,
    reading: (t) => ((t.maxLength ?? 0) > TEXT_MAX_LENGTH ? 'text-bytes' : undefined),
    has: (v, t) => len(v) === t.maxLength && BMP_ONLY.test(v),
  },
  {
    name: 'string.below-limit', kind: 'string', title: 'a string of maxLength − 1 characters',
    why: 'one below the limit: the neighbour a wrong comparison (≤ max − 1) still accepts while it refuses the limit',
    source: BVA,
    reading: (t) => ((t.maxLength ?? 0) > TEXT_MAX_LENGTH ? 'text-bytes' : undefined),
    has: (v, t) => t.maxLength !== undefined && len(v) === t.maxLength - 1 && BMP_ONLY.test(v),
  },
  {
    name: 'string.multibyte', kind: 'string', title: 'characters of two and three UTF-8 bytes (accents, CJK), at most maxLength of them',
    why: 'a limit counted in bytes instead of characters, a column in a single-byte character set, mojibake',
    source: 'UTF-8 (RFC 3629): BMP characters take 1 to 3 bytes; MySQL VARCHAR(n) counts characters, TEXT counts bytes',
    reading: (t) => ((t.maxLength ?? 0) > TEXT_MAX_LENGTH ? 'text-bytes' : undefined),
    has: (v) => BMP_ONLY.test(v) && /[^\u0000-\u007F]/u.test(v),
  },
  {
    name: 'string.falsy-zero', kind: 'string', title: 'the string "0"',
    why: 'PHP converts "0" to false: empty("0") is true and array_filter() drops it, so a filter or an update holding "0" loses it',
    source: 'PHP manual, Booleans: "the empty string, and the string \\"0\\"" convert to false; array_filter(): without a callback all empty entries are removed',
    notFor: notUnique, has: (v) => v === '0',
  },
  {
    name: 'string.falsy-false', kind: 'string', title: 'the string "false"',
    why: 'boolean parsing of text (filter_var FILTER_VALIDATE_BOOLEAN, YAML, lenient casts) reads it as false; truthiness checks read it as true',
    source: 'PHP manual, Booleans ((bool) "false" is true) and filter_var FILTER_VALIDATE_BOOLEAN ("false" is false); MDN, Truthy',
    notFor: notUnique, has: (v) => v === 'false',
  },
  {
    name: 'string.null-word', kind: 'string', title: 'the string "null"',
    why: 'a string taken for SQL NULL or JSON null by a careless serializer or query builder',
    source: EP + '; the text "null" and the value null are distinct (RFC 8259 §3: null is a literal name, "null" a string)',
    notFor: notUnique, has: (v) => v.toLowerCase() === 'null',
  },
  {
    name: 'string.numeric-looking', kind: 'string', title: 'a string that reads as a number ("1e3", beside "1000")',
    why: 'PHP compares numeric strings as numbers with ==: "1e3" == "1000" holds, so a loose comparison matches the wrong record',
    source: 'PHP manual, Comparison Operators ("10" == "1e1" is true); PHP RFC Saner string to number comparisons',
    notFor: notUnique, has: (v) => /^[0-9]+(e[0-9]+)?$/i.test(v),
  },
  {
    name: 'string.like-wildcards', kind: 'string', title: 'a string holding the LIKE wildcards % and _ (beside a value they would match)',
    why: 'an equality filter written with LIKE matches every value the wildcards stand for',
    source: 'MySQL Reference Manual, String Comparison Functions: LIKE, "%" matches any number of characters, "_" exactly one',
    has: (v, t) => /%/.test(body(v, t)) && /_/.test(body(v, t)),
  },
  {
    name: 'string.quotes-backslash', kind: 'string', title: "quotes and a backslash (O'Hara \"q\" back\\slash)",
    why: 'SQL built by string concatenation, MySQL backslash escapes, JSON escaping done twice or not at all',
    source: "MySQL Reference Manual, String Literals (backslash escape sequences, '' inside '); OWASP SQL Injection Prevention Cheat Sheet",
    has: (v, t) => /'/.test(body(v, t)) && /"/.test(body(v, t)) && /\\/.test(body(v, t)),
  },
  {
    name: 'string.html-special', kind: 'string', title: 'HTML-special characters (<b>&amp;</b>)',
    why: 'output encoding applied on input: the value comes back as &lt;b&gt;&amp;amp;…',
    source: 'OWASP Cross Site Scripting Prevention Cheat Sheet (encode on output, for the context); ' + EP,
    has: (v, t) => /[<>&]/.test(body(v, t)),
  },
  {
    name: 'string.empty', kind: 'string', title: 'the empty string',
    why: "'' versus NULL: Oracle stores '' as NULL, frameworks turn it into null, PHP's empty('') is true",
    source: "Oracle SQL Language Reference, Nulls (\"a character value with a length of zero\" is treated as null); Microsoft Learn, RequiredAttribute.AllowEmptyStrings (default false)",
    reading: () => 'empty-as-null', notFor: notUnique, has: (v) => v === '',
  },
  {
    name: 'string.whitespace-only', kind: 'string', title: 'spaces only',
    why: 'trimmed to the empty string, then to null, or refused as blank',
    source: 'Laravel, Requests: input trimming and normalization (TrimStrings, ConvertEmptyStringsToNull)',
    reading: () => 'trimming', notFor: notUnique, has: (v) => v.length > 0 && v.trim() === '',
  },
  {
    name: 'string.edge-whitespace', kind: 'string', title: 'leading and trailing spaces',
    why: "trimmed on input, or compared equal to the trimmed value ('a' = 'a ' under PAD SPACE)",
    source: 'MySQL Reference Manual, Trailing Space Handling in Comparisons (PAD SPACE collations); Laravel TrimStrings',
    reading: () => 'trimming', has: (v) => /^\s|\s$/.test(v) && v.trim() !== '',
  },
  {
    name: 'string.case-twin', kind: 'string', title: 'two values equal but for letter case',
    why: 'equal under a case-insensitive collation: an exact filter returns both',
    source: 'MySQL Reference Manual, Character Sets and Collations (_ci: case-insensitive, the default collations)',
    reading: () => 'case-insensitive', has: (v) => v.toLowerCase() !== v.toUpperCase(),
  },
  {
    name: 'string.combining', kind: 'string', title: 'a combining character (e + U+0301)',
    why: 'equal to the precomposed é under Unicode normalization or an accent-insensitive collation; stored normalized by some stacks',
    source: 'Unicode Standard Annex #15, Unicode Normalization Forms (canonical equivalence)',
    reading: () => 'normalization', has: (v) => /\p{M}/u.test(v),
  },
  {
    name: 'string.astral', kind: 'string', title: 'a 4-byte character (an emoji, U+1F600)',
    why: "refused or turned into '?' by a utf8mb3 column; two UTF-16 units counted as two characters",
    source: 'MySQL Reference Manual, The utf8mb3 Character Set ("supports BMP characters only")',
    reading: () => 'utf8mb3', has: (v) => /[\u{10000}-\u{10FFFF}]/u.test(v),
  },
];

/** The largest integer every reading of the digit limit holds: 10^digits − 1, or the INT maximum below it. */
export const INT32_MAX = 2147483647n;
export function largestIntegerOfEveryReading(digits: number): bigint {
  const byDigits = 10n ** BigInt(digits) - 1n;
  return byDigits < INT32_MAX ? byDigits : INT32_MAX;
}
const asInteger = (v: string) => (/^-?[0-9]+$/.test(v) ? BigInt(v) : undefined);
const digitsOf = (t: ClassTarget) => t.integerDigits ?? 0;

const INTEGER: Scalar[] = [
  {
    name: 'integer.zero', kind: 'integer', title: '0',
    why: 'zero is falsy in PHP and JavaScript: `if ($min)` drops a bound of 0, an update to 0 is skipped, a count of 0 is read as "no answer"',
    source: BVA + '; PHP manual, Booleans (0 converts to false)', has: (v) => asInteger(v) === 0n && v === '0',
  },
  {
    name: 'integer.one', kind: 'integer', title: '1', why: 'the smallest positive value, and the one 1/0 boolean confusion turns into true',
    source: BVA, has: (v) => v === '1',
  },
  {
    name: 'integer.length-change', kind: 'integer', title: 'values whose written length changes (9, 10, 99, 100)',
    why: 'compared or sorted as text, 10 comes before 9 and 100 before 99',
    source: 'MDN, Array.prototype.sort (default order compares strings: "80" before "9"); ' + BVA,
    has: (v) => /^(9+|10+)$/.test(v),
  },
  {
    name: 'integer.int32-max', kind: 'integer', title: 'the largest value every reading holds: 2147483647 (or 10^digits − 1 when smaller)',
    why: 'the top of a signed 32-bit column: one more overflows an INT; the largest value a store must keep whatever it reads "11 digits" as',
    source: 'MySQL Reference Manual, Integer Types (INT: 4 bytes, maximum 2147483647); ' + BVA,
    has: (v, t) => asInteger(v) === largestIntegerOfEveryReading(digitsOf(t)),
  },
  {
    name: 'integer.beyond-int32', kind: 'integer', title: '2147483648, one past the signed 32-bit maximum',
    why: 'wraps to a negative number or is refused by an INT column',
    source: 'MySQL Reference Manual, Integer Types; ' + BVA, reading: () => 'int32',
    notFor: (t) => (digitsOf(t) < 10 ? `${digitsOf(t)} digits stay below 2^31` : undefined),
    has: (v) => asInteger(v) === INT32_MAX + 1n,
  },
  {
    name: 'integer.at-digit-limit', kind: 'integer', title: '10^digits − 1 (99999999999 for 11 digits)',
    why: 'the spec\'s own limit: beyond 32 bits for 11 digits, so an INT column refuses it',
    source: BVA, reading: (t) => (10n ** BigInt(digitsOf(t)) - 1n > INT32_MAX ? 'int32' : undefined),
    has: (v, t) => asInteger(v) === 10n ** BigInt(digitsOf(t)) - 1n,
  },
  {
    name: 'integer.beyond-53-bits', kind: 'integer', title: '2^53 + 1 (9007199254740993)',
    why: 'the first integer a JavaScript number or a double cannot hold: parsed as a float it becomes 2^53',
    source: 'MDN, Number.MAX_SAFE_INTEGER (2^53 − 1)',
    notFor: (t) => (digitsOf(t) < 16 ? `${digitsOf(t)} digits stay below 2^53: a double holds every value` : undefined),
    has: (v) => asInteger(v) === 2n ** 53n + 1n,
  },
  {
    name: 'integer.leading-zeros', kind: 'integer', title: 'leading zeros (010)',
    why: 'read as octal, compared as text, or refused by strict integer validation',
    source: 'PHP manual, Validate filters (FILTER_VALIDATE_INT refuses leading zeros unless FILTER_FLAG_ALLOW_OCTAL)',
    reading: () => 'number-syntax', has: (v) => /^0[0-9]+$/.test(v),
  },
  {
    name: 'integer.negative-zero', kind: 'integer', title: '-0',
    why: 'a sign on zero: kept as text, refused, or normalised to 0',
    source: BVA + '; IEEE 754 signed zero', reading: () => 'number-syntax', has: (v) => /^-0+$/.test(v),
  },
];

/** A decimal within a limit, as units of its scale (undefined when not a dot decimal within the scale). */
function units(v: string, scale: number): bigint | undefined {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(v);
  if (!m || (m[3] ?? '').length > scale) return undefined;
  const u = BigInt(m[2] + (m[3] ?? '').padEnd(scale, '0'));
  return m[1] ? -u : u;
}
const scaleOf = (t: ClassTarget) => t.decimal?.scale ?? 0;
/** the largest units every reading of "digits, scale" holds (SQL's DECIMAL(digits, scale) and digits before the point alike) */
export function largestDecimalUnitsOfEveryReading(limit: DecimalLimit): bigint {
  const every = decimalLimitOfEveryReading(limit);
  return 10n ** BigInt(every.digits + every.scale) - 1n;
}
/**
 * Can binary floating point not hold v exactly? A decimal u / 10^scale is a
 * binary fraction only when 5^scale divides u (0.25, 0.5); 0.1, 0.29 and 1.005
 * are not, so a FLOAT or double column, or arithmetic in floats (0.29 × 100 =
 * 28.999…), changes them.
 */
export function floatUnrepresentable(v: string, scale: number): boolean {
  const u = units(v, scale);
  return u !== undefined && u % 5n ** BigInt(scale) !== 0n;
}

const DECIMAL: Scalar[] = [
  {
    name: 'decimal.zero', kind: 'decimal', title: '0 and 0.00',
    why: 'zero is falsy: a bound or an update of 0 is dropped; "0.00" and "0" must be one value',
    source: BVA + '; PHP manual, Booleans (0.0 converts to false)', has: (v, t) => units(v, scaleOf(t)) === 0n && !v.startsWith('-'),
  },
  {
    name: 'decimal.smallest-positive', kind: 'decimal', title: 'one unit of the last decimal (0.01)',
    why: 'the smallest positive value: rounded away by a column of fewer decimals, read as 0 by an integer cast',
    source: BVA, notFor: (t) => (scaleOf(t) === 0 ? 'no decimals' : undefined), has: (v, t) => units(v, scaleOf(t)) === 1n,
  },
  {
    name: 'decimal.trailing-zeros', kind: 'decimal', title: 'trailing zeros written out (10.50, 7.00)',
    why: 'compared as text, "10.50" differs from "10.5"; parsers that keep the written scale treat them apart',
    source: EP + '; the meaning of a decimal does not depend on trailing zeros (§4: "a client tolerates both forms")',
    notFor: (t) => (scaleOf(t) === 0 ? 'no decimals' : undefined),
    has: (v) => /\.[0-9]*0$/.test(v) && !/^0+(\.0+)?$/.test(v),
  },
  {
    name: 'decimal.length-change', kind: 'decimal', title: 'values whose written length changes (9.99, 10.00, 99.99, 100.00)',
    why: 'compared or sorted as text, 10.00 comes before 9.99',
    source: 'MDN, Array.prototype.sort (string order is not numeric order); ' + BVA,
    notFor: (t) => (t.decimal && largestDecimalUnitsOfEveryReading(t.decimal) < 10n * 10n ** BigInt(scaleOf(t)) ? 'no value of 10 or more fits every reading of its digits (DECIMAL with no integer digit)' : undefined),
    has: (v) => /^(9+\.9*|10+(\.0*)?|9+)$/.test(v),
  },
  {
    name: 'decimal.float-unrepresentable', kind: 'decimal', title: 'values binary floating point cannot hold exactly (0.29, 1.15, 1.005)',
    why: 'stored in a FLOAT/double or scaled with floats: 0.29 × 100 = 28.999…, cast to 28 (0.28)',
    source: 'Python documentation, Floating Point Arithmetic: Issues and Limitations (round(2.675, 2) gives 2.67)',
    notFor: (t) => (scaleOf(t) === 0 ? 'no decimals' : undefined), has: (v, t) => floatUnrepresentable(v, scaleOf(t)),
  },
  {
    name: 'decimal.largest', kind: 'decimal', title: 'the largest value every reading of the digits holds (999999.99 for 8 digits, 2 decimals)',
    why: 'the top of the column: one more overflows DECIMAL(8,2); the largest value a store must keep whatever it reads "8 digits" as',
    source: BVA + '; MySQL Reference Manual, Fixed-Point Types (DECIMAL(M,D): M digits in all, D of them decimals)',
    has: (v, t) => t.decimal !== undefined && units(v, scaleOf(t)) === largestDecimalUnitsOfEveryReading(t.decimal),
  },
  {
    name: 'decimal.at-digit-limit', kind: 'decimal', title: 'the limit read as digits before the point (99999999.99)',
    why: 'the spec\'s limit under its other reading: beyond DECIMAL(8,2)',
    source: BVA, reading: () => 'decimal-digits',
    has: (v, t) => t.decimal !== undefined && units(v, scaleOf(t)) === 10n ** BigInt(t.decimal.digits + t.decimal.scale) - 1n,
  },
];

const BOOLEAN: Scalar[] = [
  { name: 'boolean.true', kind: 'boolean', title: "'true'", why: 'one of the two values', source: EP, has: (v) => v === 'true' },
  {
    name: 'boolean.false', kind: 'boolean', title: "'false'",
    why: "the falsy one: 'false' is a truthy string, a parsed false is dropped by `if (value)`",
    source: EP + '; MDN, Truthy ("false" as a string is truthy); PHP manual, Booleans', has: (v) => v === 'false',
  },
];

const TIME = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?: ([0-9]{2}):([0-9]{2}):([0-9]{2}))?$/;
const parts = (v: string) => TIME.exec(v)?.slice(1).map(Number);
const monthEnd = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

const dateClasses = (kind: 'datetime' | 'date'): Scalar[] => [
  {
    name: `${kind}.leap-day`, kind, title: 'February 29 of a leap year',
    why: 'a day that exists one year in four: date arithmetic by hand, "+1 year" and day-of-year tables break on it',
    source: BVA + '; RFC 3339 Appendix C (leap years)', has: (v) => { const p = parts(v); return !!p && p[1] === 2 && p[2] === 29; },
  },
  {
    name: `${kind}.month-end`, kind, title: 'the last day of a month (April 30, December 31)',
    why: 'a bound or a "next day" computed as day + 1 without carrying the month',
    source: BVA, has: (v) => { const p = parts(v); return !!p && p[2] === monthEnd(p[0], p[1]); },
  },
  ...(kind === 'datetime' ? [
    {
      name: 'datetime.midnight', kind, title: '00:00:00, the first second of a day',
      why: 'a date-only value reads as midnight: a bound on it keeps or loses the whole day',
      source: BVA + '; §2: a request DateTime is a date or a date with time', has: (v: string) => / 00:00:00$/.test(v),
    },
    {
      name: 'datetime.last-second', kind, title: '23:59:59, the last second of a day',
      why: 'the end of a day: a "< next day" bound and a "≤ day 23:59" bound differ on it; a day computed in another time zone moves it',
      source: BVA, has: (v: string) => / 23:59:59$/.test(v),
    },
  ] as Scalar[] : []),
  {
    name: `${kind}.before-1970`, kind, title: 'before the Unix epoch (1969-12-31)',
    why: 'a negative timestamp: refused by a TIMESTAMP column, shown as 0 or 1970 by epoch arithmetic',
    source: 'MySQL Reference Manual, The DATE, DATETIME, and TIMESTAMP Types (TIMESTAMP from 1970-01-01 00:00:01 UTC)',
    reading: () => (kind === 'datetime' ? 'timestamp-range' : undefined),
    has: (v) => { const p = parts(v); return !!p && p[0] < 1970; },
  },
  {
    name: `${kind}.after-2038`, kind, title: 'after 2038-01-19 03:14:07 UTC',
    why: 'past the signed 32-bit second counter: a TIMESTAMP column refuses it, 32-bit time_t wraps',
    source: 'MySQL Reference Manual, The DATE, DATETIME, and TIMESTAMP Types (TIMESTAMP to 2038-01-19 03:14:07 UTC)',
    reading: () => (kind === 'datetime' ? 'timestamp-range' : undefined),
    has: (v) => v > '2038-01-19 03:14:07',
  },
];

const GUID: Scalar[] = [
  { name: 'guid.lower-case', kind: 'guid', title: 'a GUID in lower case', why: 'the canonical form', source: 'RFC 9562 §4 (UUIDs are output in lower case)', has: (v) => v === v.toLowerCase() && v !== ZERO_GUID },
  {
    name: 'guid.upper-case', kind: 'guid', title: 'a GUID in upper case',
    why: 'matched as text, an upper-case id finds nothing; SQL Server shows uniqueidentifiers in upper case',
    source: 'RFC 9562 §4 / RFC 4122 §3 (hexadecimal digits are case-insensitive on input)',
    notFor: (t) => (t.use === 'stored' ? 'ids are given by the target, never sent to be stored' : undefined), has: (v) => v === v.toUpperCase() && /[A-F]/.test(v),
  },
  {
    name: 'guid.zero', kind: 'guid', title: 'the all-zero GUID',
    why: 'what an unset reference holds (§2): read as "no filter" or as null, it returns everything or nothing',
    source: '§2 Conventions; RFC 9562 §5.9 (the Nil UUID)', has: (v) => v === ZERO_GUID,
  },
  {
    name: 'guid.max', kind: 'guid', title: 'the max GUID (all f)',
    why: 'the largest value, with no version: refused by a validator that wants version 4',
    source: 'RFC 9562 §5.10 (the Max UUID)', reading: () => 'guid-version', has: (v) => /^[fF-]+$/.test(v),
  },
];

/**
 * How many items "many" means: a list property (tags) of this many items; an
 * array filter of more values than the common limits of IN lists and bound
 * parameters (Oracle 1000 expressions, SQL Server 2100 parameters, SQLite 999).
 */
export const MANY_STORED_ITEMS = 50;
/** the common limits of one IN list or one statement's bound parameters (the sources of list.many) */
export const IN_LIST_LIMITS = Object.freeze({ sqlite: 999, oracle: 1000, sqlServer: 2100 });
export const MANY_FILTER_VALUES = Math.max(...Object.values(IN_LIST_LIMITS)) + 1;
const isList = (v: unknown): v is unknown[] => Array.isArray(v);
const LIST: ValueClass[] = [
  {
    name: 'list.empty', kind: 'list', title: 'an empty list',
    why: 'no items: a join that drops the record, an IN () that is a syntax error, [] serialized as {} or null',
    source: BVA,
    notFor: (t) => (t.use !== 'stored' ? 'an array filter holds at least one value (minItems 1 in the schema)' : undefined),
    has: (v) => isList(v) && v.length === 0,
  },
  {
    name: 'list.one', kind: 'list', title: 'one item', why: 'a list of one: serialized as a scalar by some encoders, the loop that runs once',
    source: BVA, has: (v) => isList(v) && v.length === 1,
  },
  {
    name: 'list.many', kind: 'list', title: `many items: ${MANY_STORED_ITEMS} in a list property, more than 2100 values in a filter`,
    why: 'past the limits of IN lists and bound parameters, a list cut at a page or chunk size, an index column that overflows',
    source: 'Oracle Database error ORA-01795 (at most 1000 expressions in a list); Microsoft Learn, Maximum capacity specifications for SQL Server (2100 parameters per call); SQLite, Limits In SQLite (SQLITE_MAX_VARIABLE_NUMBER: 999, 32766 since 3.32.0); ' + BVA,
    notFor: (t) => (t.use === 'stored' && t.itemKind === 'guid' ? 'references name the few records the run made to reference' : undefined),
    has: (v, t) => isList(v) && v.length >= (t.use === 'stored' ? MANY_STORED_ITEMS : MANY_FILTER_VALUES),
  },
  {
    name: 'list.duplicates', kind: 'list', title: 'one item listed twice',
    why: 'counted twice (a count that sums per listed value), kept twice where a set is meant, or a unique-key error',
    source: EP, reading: (t) => (t.use === 'stored' ? 'list-duplicates' : undefined),
    has: (v) => isList(v) && new Set(v.map((x) => String(x).toLowerCase())).size < v.length,
  },
];

/** Every class, in catalogue order (kinds in VALUE_KINDS order). */
export const VALUE_CLASSES: readonly ValueClass[] = Object.freeze([
  ...[...STRING, ...INTEGER, ...DECIMAL, ...BOOLEAN, ...dateClasses('datetime'), ...dateClasses('date'), ...GUID].map(scalar), ...LIST,
]);

const byName = new Map(VALUE_CLASSES.map((c) => [c.name, c]));

export function valueClass(name: string): ValueClass {
  const c = byName.get(name);
  if (!c) throw new Error(`no value class ${name} (src/schema/value-classes.ts)`);
  return c;
}

export function classesOf(kind: ValueKind): ValueClass[] {
  return VALUE_CLASSES.filter((c) => c.kind === kind);
}

/** The kind of values a scalar model kind takes classes of (a Predefined takes none: only its known values are valid). */
function valueKindOf(kind: string): ValueKind | undefined {
  return (VALUE_KINDS as readonly string[]).includes(kind) && kind !== 'list' ? (kind as ValueKind) : undefined;
}

/** A payload property as a class target (undefined: a Predefined, a reference or a safe value take no class). */
export function payloadTarget(p: PayloadPropModel): ClassTarget | undefined {
  if (p.safeValue !== undefined) return undefined;
  if (p.references && p.kind !== 'list') return undefined;
  if (p.kind === 'list') return { kind: 'list', use: 'stored', itemKind: valueKindOf(p.itemKind ?? 'string'), maxLength: p.maxLength };
  const kind = valueKindOf(p.kind);
  if (!kind) return undefined;
  return { kind, use: 'stored', maxLength: p.maxLength, integerDigits: p.integerDigits, decimal: p.decimal, unique: p.unique === true };
}

/** A filter key as a class target: an array filter's values are matched, a range filter's bound compared. */
export function filterTarget(f: FilterModel, fieldKind: string = f.valueKind): ClassTarget | undefined {
  const kind = valueKindOf(fieldKind);
  if (!kind) return undefined;
  return { kind, use: f.filter === 'range' ? 'bound' : 'matched', maxLength: f.maxLength, integerDigits: f.integerDigits, decimal: f.decimal };
}

/** Why a class cannot apply to a target, or undefined when it does (kind first, then the class's own rule). */
export function notApplicable(c: ValueClass, t: ClassTarget): string | undefined {
  if (c.kind !== t.kind) return `a ${c.kind} class on a ${t.kind} value`;
  return c.notFor?.(t);
}

/** The honest reading a class's values depend on for this target (undefined: none). */
export function readingOf(c: ValueClass, t: ClassTarget): ReadingId | undefined {
  return c.reading?.(t);
}

/**
 * The classes a check judges on a target: those that apply and depend on no
 * reading, or on one the check judges under (`underReadings`, e.g. the decimal
 * digits the limits check observes); the others with why they are not judged.
 */
export function classesFor(t: ClassTarget, underReadings: readonly ReadingId[] = []): { judged: ValueClass[]; notJudged: Array<{ cls: ValueClass; reason: string }> } {
  const judged: ValueClass[] = [];
  const notJudged: Array<{ cls: ValueClass; reason: string }> = [];
  for (const c of classesOf(t.kind)) {
    const na = notApplicable(c, t);
    if (na) {
      notJudged.push({ cls: c, reason: `cannot apply: ${na}` });
      continue;
    }
    const reading = readingOf(c, t);
    if (reading && !underReadings.includes(reading)) notJudged.push({ cls: c, reason: `depends on an honest reading this check does not judge under: ${READINGS[reading]}` });
    else judged.push(c);
  }
  return { judged, notJudged };
}
