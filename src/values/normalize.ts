/**
 * Value semantics: what a scalar string *means*, independent of the form it was
 * written in. §4 "Formatting differs by operation": get shows booleans as
 * 'true'/'false' and decimals with a dot, create/update show '1'/'0' and some
 * decimals with a comma, and "a client tolerates both forms". These functions
 * tolerate both; checks of formatting judge the raw strings separately.
 *
 * Numbers are handled as strings and BigInt, never as floats, so 99999999.99
 * and 0.1 + 0.2 mean exactly what they say.
 */

export type CompareKind = 'integer' | 'decimal' | 'datetime' | 'date' | 'string' | 'predefined' | 'guid' | 'boolean';
export type Ordering = -1 | 0 | 1;

/** Number of code points (what JSON Schema maxLength and §8 "255 characters" count). */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A text's size for messages, in both units a limit may count: '65535 characters (65536 bytes)' (UTF-8). */
export const textSize = (s: string): string => `${codePointLength(s)} characters (${Buffer.byteLength(s, 'utf8')} bytes)`;

/** 'true'/'1' → true, 'false'/'0' → false (§2 requests, §4 get and write forms); anything else → undefined. */
export function normalizeBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return undefined;
}

const DECIMAL_RE = /^(-?)([0-9]+)(?:[.,]([0-9]+))?$/;
const INTEGER_RE = /^(-?)([0-9]+)$/;

/** Turn a JS number into a plain (non-exponent) string, or undefined when it cannot be one. */
function numberToPlain(v: number): string | undefined {
  if (!Number.isFinite(v)) return undefined;
  const s = String(v);
  return /e/i.test(s) ? undefined : s;
}

interface DecimalParts { negative: boolean; int: string; frac: string }

/** Split a decimal written with a dot or a comma into canonical parts (no leading/trailing zeros). */
export function decimalParts(v: unknown): DecimalParts | undefined {
  const s = typeof v === 'number' ? numberToPlain(v) : typeof v === 'string' ? v : undefined;
  if (s === undefined) return undefined;
  const m = DECIMAL_RE.exec(s);
  if (!m) return undefined;
  const int = m[2].replace(/^0+(?=[0-9])/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const zero = int === '0' && frac === '';
  return { negative: m[1] === '-' && !zero, int, frac };
}

/**
 * A decimal written with a dot or a comma → canonical dot form without
 * superfluous zeros: '0012,50' → '12.5', '-0.00' → '0', '7.000' → '7'.
 * undefined when the value is not a decimal.
 */
export function normalizeDecimal(v: unknown): string | undefined {
  const p = decimalParts(v);
  if (!p) return undefined;
  return `${p.negative ? '-' : ''}${p.int}${p.frac ? '.' + p.frac : ''}`;
}

/** A decimal as an exact scaled integer: value × 10^scale, truncating nothing (scale must cover the fraction). */
export function decimalToScaled(v: unknown, scale: number): bigint | undefined {
  const p = decimalParts(v);
  if (!p || p.frac.length > scale) return undefined;
  const units = BigInt(p.int + p.frac.padEnd(scale, '0'));
  return p.negative ? -units : units;
}

/** An exact scaled integer back to a dot-form decimal with exactly `scale` decimals ('1250', 2 → '12.50'). */
export function scaledToDecimal(units: bigint, scale: number): string {
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale);
  return `${neg ? '-' : ''}${int}${scale > 0 ? '.' + frac : ''}`;
}

/** The largest decimal of `digits` digits before the point and `scale` after, as text ({8, 2} → '99999999.99'). */
export function largestDecimal(limit: { digits: number; scale: number }): string {
  return scaledToDecimal(10n ** BigInt(limit.digits + limit.scale) - 1n, limit.scale);
}

/** An integer string → canonical digits ('007' → '7', '-0' → '0'); undefined when not an integer. */
export function normalizeInteger(v: unknown): string | undefined {
  const s = typeof v === 'number' ? (Number.isSafeInteger(v) ? String(v) : undefined) : typeof v === 'string' ? v : undefined;
  if (s === undefined) return undefined;
  const m = INTEGER_RE.exec(s);
  if (!m) return undefined;
  const digits = m[2].replace(/^0+(?=[0-9])/, '');
  return digits === '0' ? '0' : `${m[1]}${digits}`;
}

const DATETIME_RE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?: ([0-9]{2}):([0-9]{2}):([0-9]{2}))?$/;

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil); valid for any year. */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Inverse of daysFromCivil. */
export function civilFromDays(z: number): { y: number; m: number; d: number } {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

export function daysInMonth(y: number, m: number): number {
  return daysFromCivil(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1, 1) - daysFromCivil(y, m, 1);
}

/**
 * 'YYYY-MM-DD HH:MM:SS' or 'YYYY-MM-DD' (= midnight) → epoch seconds, read as
 * UTC (the spec gives no time zone; both sides of a comparison are read alike).
 * undefined when malformed or not a calendar date (2023-02-29, 24:00:00...).
 */
export function parseDateTime(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  // filter checks read the same few hundred values against many bounds: parse each once
  if (parsedDateTimes.has(v)) return parsedDateTimes.get(v);
  const t = parseDateTimeText(v);
  if (parsedDateTimes.size >= PARSED_DATETIMES_MAX) parsedDateTimes.clear();
  parsedDateTimes.set(v, t);
  return t;
}

const PARSED_DATETIMES_MAX = 50_000;
const parsedDateTimes = new Map<string, number | undefined>();

function parseDateTimeText(v: string): number | undefined {
  const m = DATETIME_RE.exec(v);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [h, mi, s] = m[4] === undefined ? [0, 0, 0] : [Number(m[4]), Number(m[5]), Number(m[6])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Epoch seconds → 'YYYY-MM-DD HH:MM:SS' (UTC), the response form of §2. */
export function formatDateTime(epochSeconds: number): string {
  const days = Math.floor(epochSeconds / 86400);
  const rest = epochSeconds - days * 86400;
  return `${formatDate(epochSeconds)} ${pad(Math.floor(rest / 3600))}:${pad(Math.floor((rest % 3600) / 60))}:${pad(rest % 60)}`;
}

/** Epoch seconds → 'YYYY-MM-DD' (UTC) of the day holding that instant. */
export function formatDate(epochSeconds: number): string {
  const { y, m, d } = civilFromDays(Math.floor(epochSeconds / 86400));
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

const sign = (n: number | bigint): Ordering => (n > 0 ? 1 : n < 0 ? -1 : 0);

/** Exact comparison of two decimals (dot or comma form), by BigInt; throws when either is not a decimal. */
export function compareDecimal(a: unknown, b: unknown): Ordering {
  const pa = decimalParts(a);
  const pb = decimalParts(b);
  if (!pa) throw new TypeError(`not a decimal: ${JSON.stringify(a)}`);
  if (!pb) throw new TypeError(`not a decimal: ${JSON.stringify(b)}`);
  const scale = Math.max(pa.frac.length, pb.frac.length);
  return sign(decimalToScaled(a, scale)! - decimalToScaled(b, scale)!);
}

/** Code-point order (not a server collation: the spec names none). */
function compareCodePoints(a: string, b: string): Ordering {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return sign(d);
  }
}

function need<T>(v: T | undefined, kind: string, raw: unknown): T {
  if (v === undefined) throw new TypeError(`not a ${kind}: ${JSON.stringify(raw)}`);
  return v;
}

/**
 * -1 / 0 / 1 ordering of two values of one kind, tolerating both forms:
 * integer and decimal numerically (exact), datetime and date by instant
 * (a date is its midnight), string and predefined by code point, guid
 * case-insensitively, boolean false < true. Throws on a malformed value.
 */
export function compareScalar(kind: CompareKind, a: unknown, b: unknown): Ordering {
  switch (kind) {
    case 'integer':
      return sign(BigInt(need(normalizeInteger(a), kind, a)) - BigInt(need(normalizeInteger(b), kind, b)));
    case 'decimal':
      return compareDecimal(a, b);
    case 'datetime':
    case 'date':
      return sign(need(parseDateTime(a), kind, a) - need(parseDateTime(b), kind, b));
    case 'boolean':
      return sign(Number(need(normalizeBoolean(a), kind, a)) - Number(need(normalizeBoolean(b), kind, b)));
    case 'guid':
      if (typeof a !== 'string' || typeof b !== 'string') throw new TypeError(`not a guid: ${JSON.stringify(typeof a === 'string' ? b : a)}`);
      return compareCodePoints(a.toLowerCase(), b.toLowerCase());
    case 'string':
    case 'predefined':
      if (typeof a !== 'string' || typeof b !== 'string') throw new TypeError(`not a string: ${JSON.stringify(typeof a === 'string' ? b : a)}`);
      return compareCodePoints(a, b);
    default:
      throw new TypeError(`compareScalar: unsupported kind ${String(kind)}`);
  }
}
