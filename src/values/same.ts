/**
 * "Is the value read back the value sent?" — the question every round-trip
 * check asks. Meaning, not form: §4 lets a response write a decimal with a
 * comma, a boolean as '1', and a DateTime sent as 'YYYY-MM-DD' comes back as
 * 'YYYY-MM-DD 00:00:00' (§2). Strings are compared exactly, code point for
 * code point: no trimming, no case folding, no Unicode normalization.
 */
import type { ScalarKind } from '../schema/model.js';
import {
  codePointLength, normalizeBoolean, normalizeDecimal, normalizeInteger, parseDateTime,
} from './normalize.js';

export function sameStoredValue(kind: ScalarKind, sent: unknown, got: unknown): boolean {
  switch (kind) {
    case 'string':
    case 'predefined':
      return typeof sent === 'string' && typeof got === 'string' && sent === got;
    case 'guid':
      return typeof sent === 'string' && typeof got === 'string' && sent.toLowerCase() === got.toLowerCase();
    case 'decimal':
      return same(normalizeDecimal(sent), normalizeDecimal(got));
    case 'integer':
      return same(normalizeInteger(sent), normalizeInteger(got));
    case 'boolean':
      return same(normalizeBoolean(sent), normalizeBoolean(got));
    case 'datetime':
    case 'date':
      return same(parseDateTime(sent), parseDateTime(got));
    default:
      throw new TypeError(`sameStoredValue: unsupported kind ${String(kind)}`);
  }
}

/** Equal and both meaningful: two malformed values are not "the same value". */
function same<T>(a: T | undefined, b: T | undefined): boolean {
  return a !== undefined && b !== undefined && a === b;
}

const HEAD = 40;
const TAIL = 12;

/**
 * A value for a message: JSON-quoted so whitespace, quotes and escapes are
 * visible; long strings cut in the middle with their length in code points
 * (the unit of §8); absent values said as such.
 */
export function describeValue(v: unknown): string {
  if (v === undefined) return '(absent)';
  if (typeof v === 'string') {
    const cps = Array.from(v);
    const n = cps.length;
    if (n <= HEAD + TAIL + 1) {
      const nonAscii = /[^\x20-\x7e]/.test(v);
      return nonAscii ? `${JSON.stringify(v)} (${n} code points)` : JSON.stringify(v);
    }
    const cut = `${cps.slice(0, HEAD).join('')}…${cps.slice(n - TAIL).join('')}`;
    return `${JSON.stringify(cut)} (${n} code points)`;
  }
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return codePointLength(s) > 200 ? `${Array.from(s).slice(0, 200).join('')}… (${codePointLength(s)} chars of JSON)` : s;
}
