/**
 * Readings: how a store built on a common stack answers where the spec is
 * silent or reads two ways — how strings compare in a filter (the database's
 * collation), how wide an Integer column is (INT(11) is a 32-bit column), what
 * a decimal with too many decimals or a 4-byte character becomes, what a
 * date-only bound means, in which zone createdon is written, in which letter
 * case ids are. docs/stack-defaults.md holds the research and its sources.
 *
 * Each reading is observed by a probe (src/observe) under a key of
 * src/observe/registry.ts; checks judge under the observed reading with the
 * functions here (the kit re-exports them), and generators keep ordinary
 * values inside what every reading accepts. These are facts of stacks, not of
 * the spec: the spec's own limits stay in the schema model.
 */
import { decimalParts, parseDateTime, scaledToDecimal } from './normalize.js';

// ---------------------------------------------------------------- string comparison (collation)

/** Letter case in a comparison: MySQL's *_ci and SQL Server's CI collations ignore it, PostgreSQL's default does not. */
export type CaseReading = 'sensitive' | 'insensitive';
/** Accents: MySQL's utf8mb4_0900_ai_ci and *_general_ci ignore them, SQL Server's *_AS collations do not. */
export type AccentReading = 'sensitive' | 'insensitive';
/** Trailing spaces: PAD SPACE collations (MySQL *_general_ci, *_bin; SQL Server, by SQL-92) ignore them in '='. */
export type TrailingSpaceReading = 'significant' | 'ignored';
/**
 * Canonically equivalent strings (e + U+0301 and the precomposed é, UAX #15):
 * equal under a UCA collation that ignores marks or follows canonical
 * equivalence (MySQL's utf8mb4_unicode_ci and utf8mb4_0900_ai_ci, PostgreSQL's
 * nondeterministic ICU collations), or where the store normalizes what it is
 * sent; told apart by binary collations, PostgreSQL's deterministic ones and
 * MySQL's *_general_ci, which weighs one character at a time.
 */
export type NormalizationCompareReading = 'sensitive' | 'insensitive';
/** A String holding a combining sequence, in data: stored as sent, or NFC-normalized (a stack that normalizes its input). */
export type NormalizationStoreReading = 'kept' | 'nfc';

/** How a store compares strings in an array filter; null: not known (pairs that differ there are not judged). */
export interface Collation {
  case: CaseReading | null;
  accents: AccentReading | null;
  trailingSpaces: TrailingSpaceReading | null;
  /** canonically equivalent strings (observation collation.normalization); absent or null: not known */
  normalization?: NormalizationCompareReading | null;
}

/** Exact comparison: code point for code point (a binary collation, PostgreSQL's deterministic default). */
export const EXACT_COLLATION: Readonly<Collation> = Object.freeze({ case: 'sensitive', accents: 'sensitive', trailingSpaces: 'significant', normalization: 'sensitive' });

const MARKS = /\p{M}/gu;
const TRAILING_SPACES = / +$/;
const ASCII = /^[\x00-\x7f]*$/;

const MARK = /^\p{M}$/u;

/** Each precomposed character's accents dropped (é → e), a combining mark standing alone kept: a collation weighing one character at a time (MySQL's *_general_ci). */
const unaccentEach = (s: string): string => Array.from(s, (ch) => (MARK.test(ch) ? ch : ch.normalize('NFD').replace(MARKS, ''))).join('');

interface KnownCollation { case: CaseReading; accents: AccentReading; trailingSpaces: TrailingSpaceReading; normalization: NormalizationCompareReading }

/** Fold one string under a collation whose every part is known. */
function fold(s: string, c: KnownCollation): string {
  let x = c.trailingSpaces === 'ignored' ? s.replace(TRAILING_SPACES, '') : s;
  if (c.normalization === 'insensitive') x = x.normalize('NFC');
  // accents ignored: every mark where canonical equivalents are one value (UCA: marks weigh nothing at the first level), else those of precomposed letters only
  if (c.accents === 'insensitive') x = c.normalization === 'insensitive' ? x.normalize('NFD').replace(MARKS, '').normalize('NFC') : unaccentEach(x);
  if (c.case === 'insensitive') x = x.toLowerCase();
  return x;
}

/**
 * The loosest identity any collation of the stacks gives a string: case,
 * accents, compatibility forms and trailing spaces folded, and the usual
 * expansions (ß = ss, æ = ae, œ = oe). Two strings whose loose keys differ are
 * different under every reading.
 */
export function looseText(s: string): string {
  // most values are ASCII: no decomposition, no mark, no expansion to undo (the oracle folds every compared value)
  if (ASCII.test(s)) return s.toLowerCase().replace(TRAILING_SPACES, '');
  return s.normalize('NFKD').replace(MARKS, '').toLowerCase()
    .replace(/ß/g, 'ss').replace(/æ/g, 'ae').replace(/œ/g, 'oe').replace(/ø/g, 'o').replace(TRAILING_SPACES, '');
}

const LATIN_RANGE = /[\u00c0-\u024f]/;
const ASCII_PRINTABLE = /^[\x20-\x7e]$/;
const ASCII_LETTER = /^[A-Za-z]$/;
const COMBINING = /^[\u0300-\u036f]+$/;
const modelledMemo = new Map<string, boolean>();

/**
 * Is a character one whose comparison every modelled reading agrees on with
 * the stacks? ASCII; a Latin letter that is an ASCII letter with combining
 * accents (é = e + ́) and a one-to-one letter case; a character of another
 * script with a one-to-one letter case (or none) and no decomposition. Not:
 * ß, æ, œ, ø, ı, İ (expansions and special casings that collations treat
 * apart from Unicode's simple mappings), compatibility forms (™, …).
 */
export function modelledChar(ch: string): boolean {
  let known = modelledMemo.get(ch);
  if (known !== undefined) return known;
  const simpleCase = ch.toLowerCase().length === ch.length && ch.toUpperCase().length === ch.length
    && ch.toLowerCase().toUpperCase() === ch.toUpperCase() && ch.toUpperCase().toLowerCase() === ch.toLowerCase();
  const nfd = ch.normalize('NFD');
  if (ASCII_PRINTABLE.test(ch)) known = true;
  else if (nfd !== ch) known = simpleCase && ASCII_LETTER.test(nfd[0]) && COMBINING.test(nfd.slice(1));
  else known = !LATIN_RANGE.test(ch) && simpleCase && ch.normalize('NFKC') === ch;
  if (modelledMemo.size > 10_000) modelledMemo.clear();
  modelledMemo.set(ch, known);
  return known;
}

export function modelledText(s: string): boolean {
  for (const ch of s) if (!modelledChar(ch)) return false;
  return true;
}

const CASES: CaseReading[] = ['sensitive', 'insensitive'];
const ACCENTS: AccentReading[] = ['sensitive', 'insensitive'];
const SPACES: TrailingSpaceReading[] = ['significant', 'ignored'];
const NORMS: NormalizationCompareReading[] = ['sensitive', 'insensitive'];

/**
 * Do two strings differ only in characters the readings model? Position by
 * position when they are as long (the characters both hold alike can be
 * anything: a collation compares them alike), else in what is left once
 * their common start and end are set aside.
 */
function modelledDifference(a: string, b: string): boolean {
  const x = Array.from(a);
  const y = Array.from(b);
  if (x.length === y.length) return x.every((ch, i) => ch === y[i] || (modelledChar(ch) && modelledChar(y[i])));
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let end = 0;
  while (end < x.length - start && end < y.length - start && x[x.length - 1 - end] === y[y.length - 1 - end]) end++;
  return [...x.slice(start, x.length - end), ...y.slice(start, y.length - end)].every(modelledChar);
}

/**
 * Are two strings one value under this collation? true / false, or undefined
 * when it cannot be told: a part of the collation that decides it is not
 * known, or a character outside what the readings model (modelledChar) is
 * where they differ. Strings equal code point for code point are always one
 * value; strings whose loose identities differ (looseText) never are.
 */
export function sameUnderCollation(a: string, b: string, c: Collation): boolean | undefined {
  if (a === b) return true;
  if (looseText(a) !== looseText(b)) return false;
  if (!modelledDifference(a, b)) return undefined;
  const results = new Set<boolean>();
  for (const cs of c.case ? [c.case] : CASES) {
    for (const ac of c.accents ? [c.accents] : ACCENTS) {
      for (const sp of c.trailingSpaces ? [c.trailingSpaces] : SPACES) {
        for (const nf of c.normalization ? [c.normalization] : NORMS) {
          const known = { case: cs, accents: ac, trailingSpaces: sp, normalization: nf };
          results.add(fold(a, known) === fold(b, known));
        }
      }
    }
  }
  return results.size === 1 ? [...results][0] : undefined;
}

/** The collation as words, for messages: 'case-insensitive, accent-sensitive, trailing spaces ignored'. */
export function describeCollation(c: Collation): string {
  const part = (v: string | null, what: string, yes: string, no: string) => (v === null ? `${what} not observed` : v === yes ? `${what}-insensitive` : v === no ? `${what}-sensitive` : `${what} ${v}`);
  return [
    part(c.case, 'case', 'insensitive', 'sensitive'),
    part(c.accents, 'accent', 'insensitive', 'sensitive'),
    c.trailingSpaces === null ? 'trailing spaces not observed' : `trailing spaces ${c.trailingSpaces}`,
    ...(c.normalization ? [`canonical equivalents (e + U+0301, é) ${c.normalization === 'insensitive' ? 'equal' : 'apart'}`] : []),
  ].join(', ');
}

/** The string with its ASCII letters in the other case; undefined when it has none. */
export function flipAsciiCase(s: string): string | undefined {
  const out = s.replace(/[A-Za-z]/g, (ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()));
  return out === s ? undefined : out;
}

const ACUTE: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', A: 'Á', E: 'É', I: 'Í', O: 'Ó', U: 'Ú' };

/**
 * The string with one accent changed: its first accented Latin letter
 * unaccented (é → e), else its first ASCII vowel given an acute (e → é);
 * undefined when it has neither. Equal to the original under an
 * accent-insensitive collation only.
 */
export function changeAccent(s: string): string | undefined {
  const chars = Array.from(s);
  const accented = chars.findIndex((ch) => ch.normalize('NFD') !== ch && modelledChar(ch));
  if (accented >= 0) {
    chars[accented] = chars[accented].normalize('NFD')[0];
    return chars.join('');
  }
  const vowel = chars.findIndex((ch) => ch in ACUTE);
  if (vowel < 0) return undefined;
  chars[vowel] = ACUTE[chars[vowel]];
  return chars.join('');
}

/** The string with a trailing space: equal to it under a PAD SPACE collation only. */
export const padRight = (s: string): string => `${s} `;

/**
 * The string in its other normalization form: NFC where it holds a combining
 * sequence that composes (e + U+0301 → é), else NFD where it holds a
 * precomposed letter (é → e + U+0301); undefined when both forms are itself.
 * Canonically equivalent to it: one value where canonical equivalents are.
 */
export function otherNormalForm(s: string): string | undefined {
  const nfc = s.normalize('NFC');
  if (nfc !== s) return nfc;
  const nfd = s.normalize('NFD');
  return nfd !== s ? nfd : undefined;
}

/** What a store of this reading stores for a String sent: itself, or its NFC form. */
export const textUnderNormalization = (reading: NormalizationStoreReading, s: string): string => (reading === 'nfc' ? s.normalize('NFC') : s);

// ---------------------------------------------------------------- integer width

/**
 * How wide an Integer column is: as many digits as §8 says ('digits': a
 * 64-bit column, BIGINT), or the 32-bit signed column "INT(11)" usually
 * means (11 is the display width of -2147483648), which refuses a value
 * beyond it (MySQL strict mode, SQL Server, PostgreSQL) or clamps it to the
 * edge (MySQL without strict mode).
 */
export type IntegerWidth = 'digits' | '32-bit refused' | '32-bit clamped';
export const INT32_MAX = 2147483647n;
export const INT32_MIN = -2147483648n;

/** The largest integer of `digits` digits a column of this width holds. */
export function largestIntegerUnder(width: IntegerWidth, digits: number): string {
  const byDigits = 10n ** BigInt(digits) - 1n;
  return (width === 'digits' || byDigits < INT32_MAX ? byDigits : INT32_MAX).toString();
}

/** The largest integer of `digits` digits every width holds: where ordinary generated values stay. */
export const largestIntegerOfEveryWidth = (digits: number): string => largestIntegerUnder('32-bit refused', digits);

/** What a column of this width stores for an integer string: the value, the clamped edge, or 'refused'. */
export function integerUnder(width: IntegerWidth, value: string): string | 'refused' {
  if (width === 'digits' || !/^-?[0-9]+$/.test(value)) return value;
  const n = BigInt(value);
  if (n >= INT32_MIN && n <= INT32_MAX) return value;
  if (width === '32-bit refused') return 'refused';
  return (n > INT32_MAX ? INT32_MAX : INT32_MIN).toString();
}

// ---------------------------------------------------------------- decimal scale

/**
 * A decimal with more decimals than its column's scale: refused (a strict
 * validator, the reference's default), rounded half away from zero (MySQL,
 * SQL Server, PostgreSQL when the value reaches the column), or truncated
 * (SqlClient before 2.0 when the parameter's scale is set).
 */
export type DecimalScaleReading = 'refused' | 'rounded' | 'truncated';

/** What a column of `scale` decimals stores for a decimal string under the reading; the value when it fits. */
export function decimalUnderScale(value: string, scale: number, reading: DecimalScaleReading): string | 'refused' | undefined {
  const p = decimalParts(value);
  if (!p) return undefined;
  if (p.frac.length <= scale) return value;
  if (reading === 'refused') return 'refused';
  const kept = BigInt(p.int + p.frac.slice(0, scale).padEnd(scale, '0'));
  const up = reading === 'rounded' && Number(p.frac[scale]) >= 5 ? 1n : 0n;
  const units = kept + up;
  return scaledToDecimal(p.negative && units !== 0n ? -units : units, scale);
}

// ---------------------------------------------------------------- 4-byte characters

/**
 * A character outside the Basic Multilingual Plane (4 bytes in UTF-8: emoji,
 * 𝄞): kept (utf8mb4, nvarchar, PostgreSQL), refused (MySQL utf8mb3 in strict
 * mode: "Incorrect string value"), or replaced by '?' (utf8mb3 reached
 * through a character set conversion).
 */
export type AstralReading = 'kept' | 'refused' | 'replaced';
export const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;
const ASTRAL_ALL = /[\u{10000}-\u{10FFFF}]/gu;

export const hasAstral = (s: string): boolean => ASTRAL.test(s);

/** What a column of this reading stores for a string: itself, each 4-byte character as '?', or 'refused'. */
export function astralUnder(reading: AstralReading, s: string): string | 'refused' {
  if (!hasAstral(s) || reading === 'kept') return s;
  return reading === 'refused' ? 'refused' : s.replace(ASTRAL_ALL, '?');
}

// ---------------------------------------------------------------- time

/**
 * What a date-only bound ('YYYY-MM-DD') of a DateTime range filter means:
 * that day's midnight (a SQL database comparing a DATETIME column with a
 * date literal: MySQL, SQL Server, PostgreSQL), or the whole day (a store
 * comparing DATE(column) with it).
 */
export type DateOnlyBoundReading = 'midnight' | 'whole day';

const DAY = 86400;

/**
 * A record's instant against a date-only bound under a reading: -1 / 0 / 1 as
 * the record is before, on, after it ('midnight': the bound is the day's
 * 00:00:00; 'whole day': every instant of the day is on it).
 */
export function compareWithDateOnlyBound(at: number, boundDay: number, reading: DateOnlyBoundReading): -1 | 0 | 1 {
  const start = boundDay * DAY;
  if (reading === 'midnight') return at < start ? -1 : at > start ? 1 : 0;
  return at < start ? -1 : at >= start + DAY ? 1 : 0;
}

/** Minutes east of UTC a written DateTime is, against the client's clock at `nowMs`: a multiple of 15 within 2 minutes, else undefined. */
export function utcOffsetMinutes(written: unknown, nowMs: number): number | undefined {
  const at = parseDateTime(written);
  if (at === undefined) return undefined;
  const minutes = (at - nowMs / 1000) / 60;
  const quarter = Math.round(minutes / 15) * 15;
  // (+ 0: a clock a little ahead gives -0, which is 0)
  return Math.abs(minutes - quarter) <= 2 ? quarter + 0 : undefined;
}

/** '+02:00', '-05:30', 'UTC' */
export function describeOffset(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const m = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/**
 * Is a wall-clock DateTime clear of the spring-forward gaps of the common
 * time zones? In the tz database, the Americas, Europe, Oceania, the Levant
 * and Egypt move their clocks forward between 00:00 and 04:00 local time on a
 * Friday, Saturday or Sunday (test/unit/readings.test.ts measures the gaps of
 * those zones with Intl for 2001–2035). A store that takes a DateTime through
 * its local zone (PHP's strtotime, a timestamptz column) moves a time inside
 * a gap by the gap's length: ordinary generated DateTimes stay out of these
 * windows; a value class about DST crosses them on purpose.
 */
export function clearOfDstGaps(epochSeconds: number): boolean {
  const day = Math.floor(epochSeconds / DAY);
  if (epochSeconds - day * DAY >= DST_WINDOW_END) return true;
  const weekday = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday (4); 0 = Sunday
  return weekday !== 0 && weekday !== 5 && weekday !== 6;
}

/** The end of the window (local seconds of the day) in which clocks go forward. */
export const DST_WINDOW_END = 4 * 3600;

// ---------------------------------------------------------------- ids

/** The letter case ids are written in: lower (RFC 4122, .NET Guid.ToString(), PostgreSQL uuid), upper (SQL Server uniqueidentifier). */
export type IdLetterCase = 'lower' | 'upper' | 'mixed';

/** The letter case of one GUID's hex letters; undefined when it has none (all digits). */
export function letterCaseOf(id: string): 'lower' | 'upper' | 'mixed' | undefined {
  const letters = id.replace(/[^A-Fa-f]/g, '');
  if (!letters) return undefined;
  if (letters === letters.toLowerCase()) return 'lower';
  return letters === letters.toUpperCase() ? 'upper' : 'mixed';
}

// ---------------------------------------------------------------- spaces at the edges of a String

/**
 * A String with spaces at its edges ('  a  '): stored as sent (PostgreSQL,
 * SQL Server and MySQL columns keep them; ASP.NET model binding does not
 * trim), trimmed on input (Laravel's TrimStrings middleware, on by default),
 * or refused (a validator that takes no value with spaces at its ends).
 */
export type TrimmingReading = 'kept' | 'trimmed' | 'refused';

/**
 * A String of spaces only ('   '): stored as sent, emptied (trimmed to '',
 * and '' kept), refused as blank (ASP.NET's [Required] refuses empty and
 * white-space-only strings by default; Laravel's TrimStrings then
 * ConvertEmptyStringsToNull, then `required`), or stored as null.
 */
export type BlankReading = 'kept' | 'emptied' | 'refused' | 'null';

/**
 * An empty String (''): stored and shown as '' (most columns and binders;
 * Oracle keeps NULL but a store showing it as '' reads the same), stored as
 * null (Laravel's ConvertEmptyStringsToNull on a nullable column; Oracle's
 * '' = NULL shown as null), or refused (ASP.NET's [Required] on a mandatory
 * property, Laravel's `required` after ConvertEmptyStringsToNull).
 */
export type EmptyReading = 'kept' | 'null' | 'refused';

/**
 * The characters every trimming stack removes: PHP's trim() (" \t\n\r\0\x0B"),
 * which .NET's Trim() and JavaScript's trim() remove too. Values meant to
 * test trimming use spaces only, where every stack agrees.
 */
const EDGE = /^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g;

/** The string without the whitespace at its edges, as PHP's trim() leaves it. */
export const trimmedText = (s: string): string => s.replace(EDGE, '');

/** Has the string whitespace at an edge that trimming removes? */
export const hasEdgeSpace = (s: string): boolean => s.length > 0 && trimmedText(s) !== s;

/**
 * What a store of this reading stores for a String sent: itself when it has
 * no edge whitespace or the store keeps it, trimmed, or 'refused'.
 */
export function textUnderTrimming(reading: TrimmingReading, s: string): string | 'refused' {
  if (reading === 'kept' || !hasEdgeSpace(s)) return s;
  return reading === 'trimmed' ? trimmedText(s) : 'refused';
}

// ---------------------------------------------------------------- the syntax of an Integer

/**
 * An Integer written unusually — leading zeros ('007'), a sign on zero
 * ('-0'): taken as the number it writes (.NET int.Parse, SQL casts, MySQL's
 * strict mode), or refused (PHP's FILTER_VALIDATE_INT and Laravel's
 * `integer` rule refuse leading zeros; JSON's number grammar has none; a
 * hand-written ^(0|-?[1-9][0-9]*)$ refuses '-0' too).
 */
export type NumberSyntaxReading = 'taken' | 'refused';

// ---------------------------------------------------------------- duplicates in a list property

/**
 * A list property holding one item twice (tags ['a', 'a']): kept as sent (a
 * JSON column, a child table without a unique key), merged into one (a set:
 * a unique key with INSERT IGNORE, Laravel's sync()), or refused (a unique
 * key's error answered as a refusal).
 */
export type ListDuplicatesReading = 'kept' | 'merged' | 'refused';

/** A list as a store of this reading stores it: itself, or without its later duplicates (compared as `key` says). */
export function listUnderDuplicates<T>(reading: ListDuplicatesReading, list: readonly T[], key: (x: T) => string = String): T[] {
  if (reading !== 'merged') return [...list];
  const seen = new Set<string>();
  return list.filter((x) => !seen.has(key(x)) && !!seen.add(key(x)));
}

// ---------------------------------------------------------------- the version of a GUID

/**
 * A GUID of another version than 4 in a filter or a reference: taken ('any':
 * .NET's Guid, PostgreSQL's uuid and SQL Server's uniqueidentifier columns,
 * Laravel's `uuid` rule check the form only), or refused ('version 4': a
 * validator wanting the version nibble, class-validator's IsUUID('4'), Joi's
 * uuidv4). §2 says only "hyphenated 36-character identifier".
 */
export type GuidVersionReading = 'any' | 'version 4';

/** The Max UUID (RFC 9562 §5.10): all bits set, so no version nibble of 4. */
export const MAX_GUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

// ---------------------------------------------------------------- the range of a DateTime column

/**
 * A DateTime in data before 1970 or after 2038-01-19 03:14:07 UTC: stored as
 * sent ('full': DATETIME, datetime2, timestamp(tz) columns), refused (a MySQL
 * TIMESTAMP column in strict mode: "Incorrect datetime value"), or stored
 * otherwise ('changed': TIMESTAMP without strict mode writes 0000-00-00
 * 00:00:00; 32-bit epoch arithmetic wraps).
 */
export type DateTimeRangeReading = 'full' | 'refused' | 'changed';
