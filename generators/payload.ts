/**
 * Create and update items for every writable resource, derived from the
 * schema model (`resource(name).payload`): no field is listed here by hand.
 *
 * - Properties marked unique (x-unique: name, slug, sku, code...) start with
 *   `${tag}-${token}`: the run tag, so the run finds its own records, then an
 *   8-character lowercase base-36 token, distinct within a batch. The token
 *   does not shrink: a shrunk case keeps its unique values, so replaying or
 *   shrinking a case re-sends the same unique values (checks that create
 *   records per case should delete them per case).
 * - Properties that reference other records (x-references) draw from
 *   `ctx.refs[resource]`; with none available a required list is empty, a
 *   required single reference holds the all-zero GUID (§2: "Reference fields
 *   that are unset can hold the all-zero GUID") and an optional one is left out.
 * - Predefined values come from the known values of the spec's enumeration table.
 * - DateTime pairs that read as a period (the Payload's x-date-pairs: coupon
 *   startdate/enddate, blog post visibledate/visibledateend) satisfy start ≤
 *   end, compared by meaning across both request forms.
 */
import fc from 'fast-check';
import {
  TEXT_MAX_LENGTH, ZERO_GUID, decimalLimitOf, decimalLimitOfEveryReading, decimalLimitUnder, integerDigitsOf, knownValuesOf, maxLengthOf, resource,
  type DecimalReading, type PayloadPropModel, type ResourceModel } from '../src/schema/model.js';
import { parseDateTime, formatDate, formatDateTime, scaledToDecimal } from '../src/values/normalize.js';
import { largestIntegerUnder, type IntegerWidth } from '../src/values/readings.js';
import { textArb, fixedText, looseKey, type FixedTextStyle } from './text.js';
import { decimalArb, integerArb, maxDecimal, maxInteger } from './numbers.js';
import { dateArb, requestDateTimeArb, MAX_INSTANT, MIN_INSTANT } from './dates.js';

export interface PayloadContext {
  /** the run tag (newRunTag()); starts every unique property */
  tag: string;
  /** ids of existing records by resource name (category, collection, file) for reference properties */
  refs?: Partial<Record<string, string[]>>;
  /** favour boundary values (maximum lengths, largest numbers) much more */
  boundary?: boolean;
  /**
   * How the limits of boundaryPayloads and overLimitPayloads count decimal
   * digits (observation limits.decimalDigits; default 'integer digits').
   * Generated values stay within every reading whatever this says.
   */
  decimalReading?: DecimalReading;
  /**
   * How wide the Integer columns are (observation limits.integerWidth; default
   * 'digits'): boundaryPayloads hold the largest integer of that width.
   * Generated values stay within every width whatever this says.
   */
  integerWidth?: IntegerWidth;
}

export type PayloadValue = string | string[];
export type Payload = Record<string, PayloadValue>;

/** §2: an unset reference holds the all-zero GUID (the schema model's, re-exported for the checks). */
export { ZERO_GUID };
export const TOKEN_LENGTH = 8;
/** at most this many items in one batch (distinct 2-character base-36 indexes) */
export const MAX_BATCH = 36 * 36;
/** list properties of text (tags) hold 0..MAX_LIST_ITEMS items */
export const MAX_LIST_ITEMS = 5;

const PLACEHOLDER_TOKEN = 'z'.repeat(TOKEN_LENGTH);

/** The start of a unique property's value: run tag, dash, token. */
export function uniquePrefix(tag: string, token: string): string {
  if (token.length !== TOKEN_LENGTH) throw new RangeError(`token must have ${TOKEN_LENGTH} characters: ${token}`);
  return tag ? `${tag}-${token}` : token;
}

const base36 = (n: bigint | number, width: number) => n.toString(36).padStart(width, '0');

/** Not shrunk, not biased: a token must stay put while the rest of a case shrinks. */
const tokenArb: fc.Arbitrary<string> = fc.noShrink(
  fc.noBias(fc.bigInt({ min: 0n, max: 36n ** BigInt(TOKEN_LENGTH) - 1n })).map((n) => base36(n, TOKEN_LENGTH)),
);
const nonceArb: fc.Arbitrary<string> = fc.noShrink(
  fc.noBias(fc.bigInt({ min: 0n, max: 36n ** BigInt(TOKEN_LENGTH - 2) - 1n })).map((n) => base36(n, TOKEN_LENGTH - 2)),
);
const batchToken = (nonce: string, i: number) => nonce + base36(i, 2);

function writableResource(name: string): ResourceModel {
  const r = resource(name);
  if (!r.writable || r.payload.length === 0) throw new Error(`resource "${name}" has no create payload`);
  return r;
}

/** Start/end DateTime pairs of a resource's payload, as its schema declares them (x-date-pairs). */
export function dateRangePairs(resourceName: string): Array<[start: string, end: string]> {
  return writableResource(resourceName).datePairs;
}

/** Put start ≤ end for every pair present, swapping the two strings when needed. */
function orderPairs(pairs: Array<[string, string]>, payload: Payload): Payload {
  for (const [s, e] of pairs) {
    const a = payload[s];
    const b = payload[e];
    if (typeof a !== 'string' || typeof b !== 'string') continue;
    if ((parseDateTime(a) ?? 0) > (parseDateTime(b) ?? 0)) {
      payload[s] = b;
      payload[e] = a;
    }
  }
  return payload;
}

function refsOf(p: PayloadPropModel, ctx: PayloadContext): string[] {
  return p.references ? [...new Set(ctx.refs?.[p.references] ?? [])] : [];
}

/** A long text (a limit above the common one: page content) within as many UTF-8 bytes as characters: valid where its column counts bytes (text-bytes). */
const bytesOf = (p: PayloadPropModel): { maxBytes?: number } => (maxLengthOf(p) > TEXT_MAX_LENGTH ? { maxBytes: maxLengthOf(p) } : {});

/** A scalar of one kind (also list items). */
function scalarArb(p: PayloadPropModel, kind: string, ctx: PayloadContext, prefix?: string): fc.Arbitrary<string> {
  const boundary = ctx.boundary === true;
  if (p.safeValue !== undefined) return fc.constant(p.safeValue);
  switch (kind) {
    case 'string': return textArb({ maxLength: maxLengthOf(p), prefix, boundary, ...bytesOf(p) });
    case 'predefined': return fc.constantFrom(...knownValuesOf(p));
    case 'integer': return integerArb({ digits: integerDigitsOf(p), boundary });
    case 'decimal': return decimalArb({ ...decimalLimitOfEveryReading(decimalLimitOf(p)), boundary });
    case 'boolean': return fc.constantFrom('true', 'false');
    case 'datetime': return requestDateTimeArb();
    case 'date': return dateArb();
    case 'guid': return fc.uuid({ version: 4 });
    default: throw new Error(`payload property ${p.name}: no generator for kind ${kind}`);
  }
}

/**
 * The value arbitrary of one property, or undefined when no value can be
 * given (an optional reference with nothing to reference). Unique strings
 * carry the placeholder prefix, replaced by `assemble`.
 */
function propArb(p: PayloadPropModel, ctx: PayloadContext): fc.Arbitrary<PayloadValue> | undefined {
  if (p.references) {
    const refs = refsOf(p, ctx);
    if (p.kind === 'list') {
      if (refs.length > 0) return fc.subarray(refs);
      return p.required ? fc.constant([]) : undefined;
    }
    if (refs.length > 0) return fc.constantFrom(...refs);
    return p.required ? fc.constant(ZERO_GUID) : undefined;
  }
  if (p.kind === 'list') {
    const itemKind = p.itemKind ?? 'string';
    return fc.uniqueArray(scalarArb(p, itemKind, ctx), {
      maxLength: MAX_LIST_ITEMS,
      // two tags equal but for case or accents might be one tag to the server
      selector: (v) => (itemKind === 'string' ? looseKey(v) : v.toLowerCase()),
    });
  }
  const prefix = p.unique && p.kind === 'string' ? uniquePrefix(ctx.tag, PLACEHOLDER_TOKEN) : undefined;
  return scalarArb(p, p.kind, ctx, prefix);
}

type Include = 'create' | 'all';

/** A payload with placeholder tokens in its unique properties. */
function draftArb(r: ResourceModel, ctx: PayloadContext, include: Include): fc.Arbitrary<Payload> {
  const model: Record<string, fc.Arbitrary<PayloadValue>> = {};
  const requiredKeys: string[] = [];
  for (const p of r.payload) {
    const arb = propArb(p, ctx);
    if (!arb) continue;
    model[p.name] = arb;
    if (p.required || include === 'all') requiredKeys.push(p.name);
  }
  const pairs = dateRangePairs(r.name);
  return fc.record(model, { requiredKeys }).map((rec) => orderPairs(pairs, { ...(rec as Payload) }));
}

/** Replace the placeholder token of every unique property present. */
function assemble(r: ResourceModel, ctx: PayloadContext, draft: Payload, token: string): Payload {
  const placeholder = uniquePrefix(ctx.tag, PLACEHOLDER_TOKEN);
  const real = uniquePrefix(ctx.tag, token);
  const out: Payload = { ...draft };
  for (const p of r.payload) {
    const v = out[p.name];
    if (p.unique && typeof v === 'string' && v.startsWith(placeholder)) out[p.name] = real + v.slice(placeholder.length);
  }
  return out;
}

/** One create item of `resourceName` that validates against its Payload schema. */
export function payloadArb(resourceName: string, ctx: PayloadContext): fc.Arbitrary<Payload> {
  const r = writableResource(resourceName);
  return fc.tuple(draftArb(r, ctx, 'create'), tokenArb).map(([d, t]) => assemble(r, ctx, d, t));
}

/** A create `data` array whose unique properties are distinct within the batch. */
export function batchArb(
  resourceName: string,
  ctx: PayloadContext,
  opts: { minLength?: number; maxLength?: number } = {},
): fc.Arbitrary<Payload[]> {
  const r = writableResource(resourceName);
  const minLength = opts.minLength ?? 1;
  const maxLength = opts.maxLength ?? 10;
  if (maxLength > MAX_BATCH) throw new RangeError(`batchArb: at most ${MAX_BATCH} items`);
  return fc
    .tuple(fc.array(draftArb(r, ctx, 'create'), { minLength, maxLength }), nonceArb)
    .map(([drafts, nonce]) => drafts.map((d, i) => assemble(r, ctx, d, batchToken(nonce, i))));
}

/**
 * An update item without `id` (the caller adds it). 'full': every property
 * that can be given a value; 'partial': a random non-empty subset, keeping
 * start/end pairs together so their order still holds.
 */
export function updateArb(resourceName: string, ctx: PayloadContext, opts: { mode: 'partial' | 'full' }): fc.Arbitrary<Payload> {
  const r = writableResource(resourceName);
  const full = fc.tuple(draftArb(r, ctx, 'all'), tokenArb).map(([d, t]) => assemble(r, ctx, d, t));
  if (opts.mode === 'full') return full;
  const available = r.payload.filter((p) => propArb(p, ctx) !== undefined).map((p) => p.name);
  const pairs = dateRangePairs(resourceName);
  return fc.tuple(full, fc.subarray(available, { minLength: 1 })).map(([payload, chosen]) => {
    const keys = new Set(chosen);
    for (const [s, e] of pairs) {
      if (keys.has(s) || keys.has(e)) {
        keys.add(s);
        keys.add(e);
      }
    }
    return Object.fromEntries(Object.entries(payload).filter(([k]) => keys.has(k)));
  });
}

/**
 * The same payload with `token` in place of the token of its run-tagged unique
 * values (names, slugs, codes): a copy that is a record of its own, with every
 * length unchanged. Used to create many records cheaply (one generated
 * payload, n copies) and to tell the items of one create apart.
 */
export function retoken(resourceName: string, payload: Payload, tag: string, token: string): Payload {
  const r = resource(resourceName);
  const at = uniquePrefix(tag, PLACEHOLDER_TOKEN).length - TOKEN_LENGTH;
  const out: Payload = { ...payload };
  for (const p of r.payload) {
    const v = out[p.name];
    if (p.unique && typeof v === 'string' && v.startsWith(`${tag}-`)) out[p.name] = v.slice(0, at) + uniquePrefix(tag, token).slice(at) + v.slice(at + TOKEN_LENGTH);
  }
  return out;
}

/** A token of TOKEN_LENGTH characters: `kind` then `i` in base 36. */
export const tokenOf = (kind: string, i: number) => `${kind}${base36(i, TOKEN_LENGTH - kind.length)}`;

// ---------------------------------------------------------------------------
// Deterministic payloads at the limits (§8)
// ---------------------------------------------------------------------------

const fixedToken = tokenOf;

const MAX_STYLES: FixedTextStyle[] = ['ascii', 'multibyte'];

/** A property's value with every limit at its maximum; undefined when it cannot be given. */
function maxValue(p: PayloadPropModel, ctx: PayloadContext, style: FixedTextStyle, variant: number, token: string): PayloadValue | undefined {
  if (p.safeValue !== undefined) return p.safeValue;
  if (p.references) {
    const refs = refsOf(p, ctx);
    if (p.kind === 'list') return refs.length > 0 || p.required ? refs : undefined;
    return refs.length > 0 ? refs[refs.length - 1] : p.required ? ZERO_GUID : undefined;
  }
  switch (p.kind) {
    case 'string': return fixedText(maxLengthOf(p), { prefix: p.unique ? uniquePrefix(ctx.tag, token) : undefined, style, ...bytesOf(p) });
    case 'predefined': { const k = knownValuesOf(p); return k[variant % k.length]; }
    case 'integer': return largestIntegerUnder(ctx.integerWidth ?? 'digits', integerDigitsOf(p));
    case 'decimal': return maxDecimal(decimalLimitUnder(decimalLimitOf(p), ctx.decimalReading ?? 'integer digits'));
    case 'boolean': return variant % 2 === 0 ? 'true' : 'false';
    case 'datetime': return formatDateTime(MAX_INSTANT);
    case 'date': return formatDate(MAX_INSTANT);
    case 'guid': return 'ffffffff-ffff-4fff-bfff-ffffffffffff';
    case 'list':
      if ((p.itemKind ?? 'string') !== 'string') return [];
      // distinct items: each starts with its own number
      return Array.from({ length: MAX_LIST_ITEMS }, (_, i) => fixedText(maxLengthOf(p), { prefix: String(i + 1), style }));
    default: return undefined;
  }
}

/** A property's value at its minimum; undefined when left out (optional properties are left out). */
function minValue(p: PayloadPropModel, ctx: PayloadContext, token: string): PayloadValue | undefined {
  if (!p.required) return undefined;
  if (p.safeValue !== undefined) return p.safeValue;
  if (p.references) {
    const refs = refsOf(p, ctx);
    return p.kind === 'list' ? [] : refs.length > 0 ? refs[0] : ZERO_GUID;
  }
  switch (p.kind) {
    case 'string': return p.unique ? uniquePrefix(ctx.tag, token) : fixedText(1);
    case 'predefined': return knownValuesOf(p)[0];
    case 'integer': return '0';
    case 'decimal': return scaledToDecimal(0n, decimalLimitOf(p).scale);
    case 'boolean': return 'false';
    case 'datetime': return formatDate(MIN_INSTANT);
    case 'date': return formatDate(MIN_INSTANT);
    case 'guid': return ZERO_GUID;
    case 'list': return [];
    default: return undefined;
  }
}

function build(r: ResourceModel, value: (p: PayloadPropModel) => PayloadValue | undefined): Payload {
  const out: Payload = {};
  for (const p of r.payload) {
    const v = value(p);
    if (v !== undefined) out[p.name] = v;
  }
  return orderPairs(dateRangePairs(r.name), out);
}

/**
 * Deterministic payloads at the limits, in this order:
 * - every limit at its maximum, ASCII text (quotes, backslashes, <>& included);
 * - every limit at its maximum, multi-byte BMP text (accents, CJK...: 255
 *   characters that are up to 765 bytes in UTF-8);
 * - every value at its minimum: 1-character strings (unique ones: just tag
 *   and token), 0, 0.00, empty lists, earliest date, optional properties left out.
 * "Maximum": strings of maxLength code points (tag included; page content
 * 65535), the largest decimal (99999999.99, 99.99, 999.999), 11-digit integers,
 * MAX_LIST_ITEMS tags of maxLength each, every reference available.
 * Unique values are fixed per tag: calling this twice with one tag yields the
 * same values.
 */
export function boundaryPayloads(resourceName: string, ctx: PayloadContext): Payload[] {
  const r = writableResource(resourceName);
  const max = MAX_STYLES.map((style, vi) => build(r, (p) => maxValue(p, ctx, style, vi, fixedToken('bmx', vi))));
  const min = build(r, (p) => minValue(p, ctx, fixedToken('bmn', 0)));
  return [...max, min];
}

export type LimitKind = 'length' | 'integer-digits' | 'decimal-digits' | 'decimal-scale';

export interface OverLimitPayload {
  /** the one property over its limit */
  prop: string;
  limit: LimitKind;
  /** what the limit is, for messages: 'maxLength 255', '11 digits', '8 digits', '2 decimals' */
  description: string;
  /** the over-limit value (for a list, the list holding one over-limit item) */
  value: PayloadValue;
  payload: Payload;
}

/**
 * Payloads each exceeding exactly one limit by one, the rest at the minimum
 * (so nothing else can be the reason for a rejection): a string one code
 * point too long (256, page content 65536, a tag of 256), an integer of one
 * digit too many (100000000000), a decimal one integer digit too long
 * (100000000.00) and one with one decimal too many (1.001).
 * Predefined properties are not probed: a 256-character value is not a known
 * value either, so a rejection would not be about length.
 */
export function overLimitPayloads(resourceName: string, ctx: PayloadContext): OverLimitPayload[] {
  const r = writableResource(resourceName);
  const out: OverLimitPayload[] = [];
  const add = (p: PayloadPropModel, limit: LimitKind, description: string, value: (token: string) => PayloadValue) => {
    const token = fixedToken('ovr', out.length);
    const base = build(r, (q) => minValue(q, ctx, token));
    const v = value(token);
    out.push({ prop: p.name, limit, description, value: v, payload: { ...base, [p.name]: v } });
  };
  for (const p of r.payload) {
    if (p.references) continue;
    if (p.kind === 'string' && p.maxLength !== undefined) {
      const n = p.maxLength;
      add(p, 'length', `maxLength ${n}`, (t) => fixedText(n + 1, { prefix: p.unique ? uniquePrefix(ctx.tag, t) : undefined }));
    } else if (p.kind === 'list' && (p.itemKind ?? 'string') === 'string' && p.maxLength !== undefined) {
      const n = p.maxLength;
      add(p, 'length', `items of maxLength ${n}`, () => [fixedText(n + 1)]);
    } else if (p.kind === 'integer') {
      const d = integerDigitsOf(p);
      add(p, 'integer-digits', `${d} digits`, () => '1' + '0'.repeat(d));
    } else if (p.kind === 'decimal') {
      const { digits, scale } = decimalLimitUnder(decimalLimitOf(p), ctx.decimalReading ?? 'integer digits');
      add(p, 'decimal-digits', `${digits} digits before the decimal point`, () => scaledToDecimal(10n ** BigInt(digits + scale), scale));
      add(p, 'decimal-scale', `${scale} decimals`, () => `1.${'0'.repeat(scale)}1`);
    }
  }
  return out;
}
