/**
 * The reference server's side of the readings of stack defaults
 * (Behaviour.stringCase … jsonEscapes, docs/stack-defaults.md): how a store
 * built on MySQL, SQL Server or PostgreSQL under PHP, .NET or Node answers
 * where the spec is silent. Written apart from src/values/readings.ts on
 * purpose: the server must not borrow the suite's comparisons, or a mistake
 * in one would hide in the other.
 */
import type { Behaviour } from './behaviour.js';
import { TEXT_MAX_LENGTH, ZERO_GUID } from '../src/schema/model.js';

/** A String as the store's collation compares it; undefined when the collation is exact (binary). */
export function collationKey(b: Behaviour): ((s: string) => string) | undefined {
  if (b.stringCase === 'sensitive' && b.stringAccents === 'sensitive' && b.trailingSpaces === 'significant' && b.normalization === 'none') return undefined;
  return (s) => {
    let x = b.trailingSpaces === 'ignored' ? s.replace(/ +$/, '') : s;
    // canonical equivalents one value: a filter value normalized on input meets records stored normalized
    if (b.normalization !== 'none') x = x.normalize('NFC');
    if (b.collationWeights === 'general') x = Array.from(x, (ch) => generalWeight(b, ch)).join('');
    else if (b.stringAccents === 'insensitive') x = x.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    return b.stringCase === 'insensitive' ? x.toLowerCase() : x;
  };
}

/**
 * One character as MySQL's *_general_ci weighs it: alone (no expansion, no contraction: ß is s, not ss), a
 * precomposed letter as its base letter where accents are ignored, a combining mark as itself (not ignorable).
 */
function generalWeight(b: Behaviour, ch: string): string {
  if (/^[\u0300-\u036f]$/.test(ch)) return ch;
  if (ch === '\u00df') return 's';
  return b.stringAccents === 'insensitive' ? ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : ch;
}

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

export type Column = { value: string } | { refused: string };

/** An Integer value as its column stores it: itself, clamped to the 32-bit edge, or refused. */
export function integerColumn(b: Behaviour, v: string): Column {
  if (b.integerWidth === 'digits' || !/^-?[0-9]+$/.test(v)) return { value: v };
  const n = BigInt(v);
  if (n >= INT32_MIN && n <= INT32_MAX) return { value: v };
  if (b.integerWidth === '32-bit refused') return { refused: `Out of range value: ${v} is not a 32-bit integer` };
  return { value: String(n > INT32_MAX ? INT32_MAX : INT32_MIN) };
}

/**
 * A Decimal with more decimals than its column's scale, rewritten as the
 * column stores it (rounded half away from zero, or truncated) before it is
 * validated; unchanged when it fits, or when excess scale is refused (the
 * schema's x-decimal then refuses it).
 */
export function decimalScaleColumn(b: Behaviour, v: string, scale: number): string {
  const m = /^(-?)([0-9]+)(?:[.,]([0-9]*))?$/.exec(v);
  if (!m || b.decimalScale === 'refused' || (m[3] ?? '').length <= scale) return v;
  const digits = m[2] + m[3].slice(0, scale);
  let units = BigInt(digits);
  if (b.decimalScale === 'rounded' && Number(m[3][scale]) >= 5) units += 1n;
  const text = units.toString().padStart(scale + 1, '0');
  const out = scale > 0 ? `${text.slice(0, -scale)}.${text.slice(-scale)}` : text;
  return units === 0n ? out : `${m[1]}${out}`;
}

const ASTRAL = /[\u{10000}-\u{10FFFF}]/gu;

/** A String as its column stores it: itself, each 4-byte character as '?' (utf8mb3 through a conversion), or refused (utf8mb3, strict). */
export function astralColumn(b: Behaviour, v: string): Column {
  if (b.astral === 'kept' || !/[\u{10000}-\u{10FFFF}]/u.test(v)) return { value: v };
  if (b.astral === 'refused') return { refused: `Incorrect string value: a 4-byte character in ${JSON.stringify(v.slice(0, 40))}` };
  return { value: v.replace(ASTRAL, '?') };
}

/**
 * Why a long String is refused by a column counting bytes (a MySQL TEXT column
 * holds 65535 bytes: "Data too long for column" in strict mode), or undefined:
 * only Strings whose limit is above the common one (page content) are such columns.
 */
export function textBytesRefusal(b: Behaviour, maxLength: number | undefined, v: string): string | undefined {
  if (b.longTextUnit !== 'bytes' || maxLength === undefined || maxLength <= TEXT_MAX_LENGTH) return undefined;
  const bytes = Buffer.byteLength(v, 'utf8');
  return bytes > maxLength ? `data too long for column: ${bytes} bytes of UTF-8 (a TEXT column holds ${maxLength})` : undefined;
}

/**
 * A long String as a column counting bytes outside strict mode stores it (MySQL's TEXT: the longest start within
 * 65535 bytes, whole characters, with a "Data truncated" warning), else as sent.
 */
export function longTextColumn(b: Behaviour, maxLength: number | undefined, v: string): string {
  if (b.longTextUnit !== 'bytes cut' || maxLength === undefined || maxLength <= TEXT_MAX_LENGTH) return v;
  return utf8Cut(v, maxLength);
}

/**
 * The longest start of `v` within `bytes` UTF-8 bytes, whole characters only (what a column counting bytes keeps when
 * it cuts); `v` when it fits. Written apart from the checks' own cut (generators/text.ts cutToBytes) on purpose: a
 * store and the oracle judging it sharing one mistake would agree on it; test/unit/text-bytes.test.ts holds them equal.
 */
export function utf8Cut(v: string, bytes: number): string {
  if (Buffer.byteLength(v, 'utf8') <= bytes) return v;
  const kept = Buffer.from(v, 'utf8').subarray(0, bytes);
  // a character cut in two at the end is dropped: back up to the start of its UTF-8 sequence
  let end = kept.length;
  while (end > 0 && (kept[end - 1] & 0xc0) === 0x80) end--;
  const lead = end > 0 ? kept[end - 1] : 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return kept.subarray(0, kept.length - (end - 1) >= need ? kept.length : end - 1).toString('utf8');
}

/** A String in data as a store normalizing its input stores it (NFC), else as sent. */
export const normalizedColumn = (b: Behaviour, v: string): string => (b.normalization === 'nfc-input' ? v.normalize('NFC') : v);

/**
 * A String in data as a store that trims its input (Laravel's TrimStrings:
 * PHP's trim(), " \t\n\r\0\x0B") or takes no blank value (ASP.NET's
 * [Required]: empty or white-space only) stores it: itself, trimmed, or refused.
 */
export function edgeSpaceColumn(b: Behaviour, v: string): Column {
  const trimmed = v.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');
  if (b.blankStrings === 'refused' && v !== '' && trimmed === '') return { refused: 'must not be blank (white-space only)' };
  if (b.edgeSpaces === 'kept' || trimmed === v) return { value: v };
  if (b.edgeSpaces === 'refused') return { refused: `must not begin or end with white-space: ${JSON.stringify(v.slice(0, 40))}` };
  return { value: trimmed };
}

/** Why an empty String is refused in a property (mandatory or not), or undefined when the store takes it. */
export function emptyRefusal(b: Behaviour, v: unknown, mandatory: boolean): string | undefined {
  if (v !== '' || (mandatory ? b.emptyRequired : b.emptyOptional) === 'kept') return undefined;
  return mandatory ? 'is required: an empty string is no value' : 'must not be empty when present';
}

/** Why an Integer in data is refused for how it is written ('007', '-0'), or undefined when the store takes it. */
export function integerSyntaxRefusal(b: Behaviour, v: string): string | undefined {
  if (b.integerSyntax === 'lenient') return undefined;
  if (/^[-+]?0[0-9]/.test(v)) return `${JSON.stringify(v)} is not an integer (leading zeros)`;
  if (b.integerSyntax === 'canonical' && /^-0+$/.test(v)) return `${JSON.stringify(v)} is not an integer (a sign on zero)`;
  return undefined;
}

/**
 * Why a GUID is refused for its version (a validator wanting version 4:
 * class-validator's IsUUID('4'), Joi's uuidv4), or undefined when the store
 * takes it. §2's all-zero GUID (an unset reference) is taken.
 */
export function guidVersionRefusal(b: Behaviour, v: unknown): string | undefined {
  if (b.guidVersion === 'any' || typeof v !== 'string' || v === ZERO_GUID) return undefined;
  return /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(v) ? undefined : `${JSON.stringify(v)} is not a version-4 UUID`;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `zone` at an instant, 'YYYY-MM-DD HH:MM:SS'. */
function wallAt(zone: string, ms: number): string {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

const asUtcMs = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`);

/** Now, on the store's wall clock (UTC, or its zone's local time: PHP's date() under date.timezone, SQL Server's GETDATE()). */
export function storeNow(b: Behaviour, d = new Date()): string {
  return b.timeZone === 'UTC' ? d.toISOString().slice(0, 19).replace('T', ' ') : wallAt(b.timeZone, d.getTime());
}

/**
 * A request DateTime taken through the store's zone and written back (as
 * PHP's date('Y-m-d H:i:s', strtotime($v)) does): unchanged, but a wall time
 * inside a spring-forward gap, which does not exist there, moves forward by
 * the gap.
 */
export function throughZone(b: Behaviour, wall: string): string {
  if (b.timeZone === 'UTC') return wall;
  const asUtc = asUtcMs(wall);
  if (Number.isNaN(asUtc)) return wall;
  const offset = (ms: number) => asUtcMs(wallAt(b.timeZone, ms)) - ms;
  let instant = asUtc - offset(asUtc);
  const second = offset(instant);
  if (asUtc - second !== instant) instant = asUtc - second;
  return wallAt(b.timeZone, instant);
}

/** A MySQL TIMESTAMP column's range, as instants (ms): 1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC. */
const TIMESTAMP_RANGE_MS = [Date.UTC(1970, 0, 1, 0, 0, 1), Date.UTC(2038, 0, 19, 3, 14, 7)] as const;

/**
 * Why a DateTime in data is refused by a TIMESTAMP column (MySQL in strict
 * mode: "Incorrect datetime value"), or undefined when the store takes it:
 * the wall time sent, read in the store's zone, is an instant outside the range.
 */
export function timestampRefusal(b: Behaviour, v: unknown): string | undefined {
  if (b.dateTimeRange === 'full' || typeof v !== 'string') return undefined;
  const asUtc = asUtcMs(v.length === 10 ? `${v} 00:00:00` : v);
  if (Number.isNaN(asUtc)) return undefined;
  const instant = b.timeZone === 'UTC' ? asUtc : asUtc - (asUtcMs(wallAt(b.timeZone, asUtc)) - asUtc);
  return instant < TIMESTAMP_RANGE_MS[0] || instant > TIMESTAMP_RANGE_MS[1] ? `incorrect datetime value ${JSON.stringify(v)} (a TIMESTAMP column holds 1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC)` : undefined;
}

/** JSON text as the store's serialiser writes it: non-ASCII as \uXXXX (System.Text.Json, PHP json_encode) and '/' as '\/' (PHP). */
export function jsonText(b: Behaviour, text: string): string {
  if (b.jsonEscapes === 'none') return text;
  const escaped = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return b.jsonEscapes === 'non-ascii and slash' ? escaped.replace(/\//g, '\\/') : escaped;
}
