/**
 * Payload values that make every property's item visible at every depth:
 * - `undefaulted`: a create whose values no plausible default equals ('', '0',
 *   'false', the epoch, an empty list, the all-zero GUID), so a create that
 *   drops a property shows on that property;
 * - `changeEvery`: an update giving every property a value different from the
 *   one it had, so an update that ignores a property shows on that property.
 * A property that cannot take another value (a Predefined with one known
 * value, a property the run may only send one value of) is named, so its
 * update item is reported not judged rather than passed on nothing.
 */
import {
  maxLengthOf, integerDigitsOf, decimalLimitOf, largestIntegerOfEveryWidth,
  decimalLimitOfEveryReading, decimalToScaled, normalizeInteger, parseDateTime, formatDateTime, sameStoredValue,
  scaledToDecimal, type PayloadPropModel, type ResourceModel,
} from '../../src/check/index.js';
import type fc from 'fast-check';
import { dateRangePairs, updateArb, ZERO_GUID, type Payload, type PayloadContext } from '../../generators/index.js';
import { fitUtf16 } from './writes.js';

const DAY = 86400;
const EPOCH_YEARS = new Set(['0000', '0001', '1970']);

const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';

/** A value of the property no plausible default equals (undefined: keep the one given). */
function undefaultedValue(p: PayloadPropModel, v: unknown, ctx: PayloadContext): unknown {
  if (p.safeValue !== undefined) return undefined;
  const refs = p.references ? ctx.refs?.[p.references] ?? [] : [];
  if (p.kind === 'list') {
    if (Array.isArray(v) && v.length) return undefined;
    if (p.references) return refs.length ? [refs[0]] : undefined;
    return [`${ctx.tag}-t`.slice(0, maxLengthOf(p))];
  }
  if (p.references) return v === ZERO_GUID && refs.length ? refs[0] : undefined;
  switch (p.kind) {
    case 'string': return blank(v) ? 'x' : undefined;
    case 'integer': return normalizeInteger(v) === '0' ? '7' : undefined;
    case 'decimal': {
      const scale = decimalLimitOf(p).scale;
      // small enough for every reading of the limit (product weight: 0.99 at most in SQL's)
      return decimalToScaled(v, scale) === 0n ? scaledToDecimal(5n, scale) : undefined;
    }
    case 'boolean': return 'true';
    case 'datetime': case 'date': return typeof v === 'string' && EPOCH_YEARS.has(v.slice(0, 4)) ? '2024-03-04 05:06:07'.slice(0, p.kind === 'date' ? 10 : 19) : undefined;
    default: return undefined;
  }
}

export function undefaulted(r: ResourceModel, payload: Payload, ctx: PayloadContext): Payload {
  const out: Payload = { ...payload };
  for (const p of r.payload) {
    if (!(p.name in out)) continue;
    const v = undefaultedValue(p, out[p.name], ctx);
    if (v !== undefined) out[p.name] = v as Payload[string];
  }
  return ordered(r, out);
}

/** Start ≤ end for the date pairs (visibledate/visibledateend, startdate/enddate). */
function ordered(r: ResourceModel, payload: Payload): Payload {
  for (const [s, e] of dateRangePairs(r.name)) {
    const a = parseDateTime(payload[s]);
    const b = parseDateTime(payload[e]);
    if (a !== undefined && b !== undefined && a > b) [payload[s], payload[e]] = [payload[e], payload[s]];
  }
  return payload;
}

/** Does the property hold the same value (by meaning) in both? Lists as sets. */
function same(p: PayloadPropModel, a: unknown, b: unknown): boolean {
  if (p.kind === 'list') {
    const x = Array.isArray(a) ? a.map((v) => String(v).toLowerCase()).sort() : [];
    const y = Array.isArray(b) ? b.map((v) => String(v).toLowerCase()).sort() : [];
    return x.length === y.length && x.every((v, i) => v === y[i]);
  }
  return sameStoredValue(p.kind, a, b);
}

/** Another value for a property than `was`, derived from it (undefined: there is none). */
function otherValue(p: PayloadPropModel, was: unknown, ctx: PayloadContext): unknown {
  if (p.safeValue !== undefined) return undefined;
  const refs = p.references ? ctx.refs?.[p.references] ?? [] : [];
  if (p.kind === 'list') {
    const list = Array.isArray(was) ? was.map(String) : [];
    if (p.references) {
      const other = refs.filter((x) => !list.includes(x));
      return other.length ? [other[0]] : list.length > 1 ? list.slice(1) : undefined;
    }
    return [...list.slice(1), `${ctx.tag}-u`.slice(0, maxLengthOf(p))];
  }
  if (p.references) {
    const other = refs.filter((x) => x.toLowerCase() !== String(was).toLowerCase());
    return other.length ? other[0] : undefined;
  }
  switch (p.kind) {
    case 'string': {
      const s = String(was ?? '');
      const max = maxLengthOf(p);
      const last = s.slice(-1);
      return Array.from(s).length < max ? `${s}y` : `${s.slice(0, -1)}${last === 'y' ? 'z' : 'y'}`;
    }
    case 'integer': {
      // within what every reading of the column holds (an INT(11) column is 32 bits: 2147483647 + 1 is refused there)
      const n = BigInt(normalizeInteger(was) ?? '0');
      const max = BigInt(largestIntegerOfEveryWidth(integerDigitsOf(p)));
      return (n + 1n <= max ? n + 1n : n - 1n).toString();
    }
    case 'decimal': {
      const limit = decimalLimitOf(p);
      const scale = limit.scale;
      const u = decimalToScaled(was, scale) ?? 0n;
      const every = decimalLimitOfEveryReading(limit);
      const max = 10n ** BigInt(every.digits + scale) - 1n;
      return scaledToDecimal(u + 1n <= max ? u + 1n : u - 1n, scale);
    }
    case 'boolean': return was === 'true' ? 'false' : 'true';
    case 'datetime': case 'date': {
      const t = parseDateTime(was);
      if (t === undefined) return undefined;
      const s = formatDateTime(t + DAY);
      return p.kind === 'date' ? s.slice(0, 10) : s;
    }
    case 'predefined': {
      const other = (p.knownValues ?? []).filter((k) => k !== was);
      return other.length ? other[0] : undefined;
    }
    default: return undefined;
  }
}

/**
 * An update from `proposal` (a generated full update) in which every property
 * differs from `was` (what the record holds); `unchangeable` names the
 * properties no other value could be given.
 */
export function changeEvery(r: ResourceModel, was: Payload, proposal: Payload, ctx: PayloadContext): { change: Payload; unchangeable: string[] } {
  const change: Payload = {};
  const unchangeable: string[] = [];
  for (const p of r.payload) {
    if (!(p.name in was)) continue;
    const proposed = proposal[p.name];
    if (proposed !== undefined && !same(p, proposed, was[p.name])) {
      change[p.name] = proposed;
      continue;
    }
    const other = otherValue(p, was[p.name], ctx);
    if (other === undefined || same(p, other, was[p.name])) unchangeable.push(p.name);
    else change[p.name] = other as Payload[string];
  }
  ordered(r, change);
  // reordering a date pair may give one of them back its old value: such a property cannot be told apart
  for (const [s, e] of dateRangePairs(r.name)) {
    for (const k of [s, e]) if (k in change && same(r.payload.find((p) => p.name === k)!, change[k], was[k]) && !unchangeable.includes(k)) unchangeable.push(k);
  }
  return { change, unchangeable };
}

/**
 * The designed first create of a property's items: every property given a
 * value (optional ones too), none a default could equal, strings within
 * maxLength however a target counts them.
 */
export function designedPayload(r: ResourceModel, ctx: PayloadContext): fc.Arbitrary<Payload> {
  return updateArb(r.name, ctx, { mode: 'full' }).map((p) => fitUtf16(r, undefaulted(r, p, ctx)));
}

/** Why an update item cannot be judged when its property can take no other value. */
export function unchangeableReason(p: PayloadPropModel): string {
  const why = p.safeValue !== undefined ? `the run only ever sends ${p.safeValue}` : p.knownValues?.length ? `its known values: ${p.knownValues.join(', ')}` : 'nothing else to reference';
  return `${p.name} can take no other value in this run (${why}): an update cannot change it`;
}
