import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TEXT_MAX_LENGTH, resources, resource, validator, type FilterModel } from '../../src/schema/model.js';
import { decimalWithin, integerWithin } from '../../src/schema/ajv.js';
import { codePointLength, parseDateTime, normalizeDecimal, normalizeInteger, compareScalar, clearOfDstGaps, INT32_MAX } from '../../src/values/index.js';
import {
  textArb, fixedText, looseKey, CHARACTER_CLASSES, decimalArb, integerArb, maxDecimal, maxInteger,
  dateTimeArb, dateArb, requestDateTimeArb, payloadArb, batchArb, updateArb, boundaryPayloads, overLimitPayloads,
  dateRangePairs, ZERO_GUID, TOKEN_LENGTH, MAX_LIST_ITEMS, arrayFilterValuesArb, rangeBoundArb,
  booleanFilterArb, newRunTag, isRunTagged, RUN_TAG_RE, type Payload, type PayloadContext,
} from '../../generators/index.js';

const SEED = Number(process.env.STORECHECK_SEED ?? 20261122);
const TAG = newRunTag(SEED);
const WRITABLE = resources().filter((r) => r.writable);
const guid = (i: number) => `${String(i).padStart(8, '0')}-1111-4111-8111-${String(i).padStart(12, '0')}`;
/** every resource any payload references, with a few ids each */
const REFERENCED = [...new Set(WRITABLE.flatMap((r) => r.payload.map((p) => p.references).filter((x): x is string => !!x)))];
const WITH_REFS: PayloadContext = { tag: TAG, refs: Object.fromEntries(REFERENCED.map((name, k) => [name, [1, 2, 3].map((i) => guid(k * 10 + i))])) };
const NO_REFS: PayloadContext = { tag: TAG };
const CONTEXTS: Array<[string, PayloadContext]> = [['with refs', WITH_REFS], ['without refs', NO_REFS], ['boundary', { ...WITH_REFS, boundary: true }]];

const sample = <T>(arb: fc.Arbitrary<T>, numRuns: number, seed = SEED): T[] => fc.sample(arb, { seed, numRuns });
const uniqueProps = (name: string) => resource(name).payload.filter((p) => p.unique);
const CONTROL = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}]/u;
const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;
const intDigits = (v: string) => normalizeInteger(v.split('.')[0])!.replace('-', '').length;
const fracDigits = (v: string) => (v.split('.')[1] ?? '').length;

describe.each(WRITABLE.map((r) => r.name))('%s payloads', (name) => {
  const r = resource(name);
  const validate = validator(name, 'Payload');

  it.each(CONTEXTS)('300 generated payloads validate against Payload (%s)', (_label, ctx) => {
    fc.assert(
      fc.property(payloadArb(name, ctx), (p) => {
        const res = validate(p);
        expect(res.errors).toEqual([]);
        for (const q of r.payload.filter((q) => q.required)) expect(p).toHaveProperty(q.name);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('unique properties start with the run tag and a token', () => {
    for (const p of sample(payloadArb(name, WITH_REFS), 100)) {
      for (const q of uniqueProps(name)) {
        expect(isRunTagged(p[q.name], TAG)).toBe(true);
        expect(p[q.name] as string).toMatch(new RegExp(`^${TAG}-[0-9a-z]{${TOKEN_LENGTH}}`));
      }
    }
  });

  it('reference properties draw from ctx.refs; with none, required lists are empty, required ids zero, optional ones absent', () => {
    const refProps = r.payload.filter((q) => q.references);
    for (const p of sample(payloadArb(name, WITH_REFS), 100)) {
      for (const q of refProps) {
        const pool = WITH_REFS.refs![q.references!]!;
        const v = p[q.name];
        if (v === undefined) { expect(q.required).toBe(false); continue; }
        for (const id of Array.isArray(v) ? v : [v]) expect(pool).toContain(id);
        if (Array.isArray(v)) expect(new Set(v).size).toBe(v.length);
      }
    }
    for (const p of sample(payloadArb(name, NO_REFS), 50)) {
      for (const q of refProps) {
        if (!q.required) expect(p).not.toHaveProperty(q.name);
        else expect(p[q.name]).toEqual(q.kind === 'list' ? [] : ZERO_GUID);
      }
    }
  });

  it('Predefined properties take known values; text lists hold 0–5 loosely distinct items', () => {
    for (const p of sample(payloadArb(name, WITH_REFS), 200)) {
      for (const q of r.payload) {
        const v = p[q.name];
        if (q.kind === 'predefined') expect(q.knownValues).toContain(v);
        if (q.kind === 'list' && q.itemKind === 'string') {
          expect(Array.isArray(v)).toBe(true);
          const items = v as string[];
          expect(items.length).toBeLessThanOrEqual(MAX_LIST_ITEMS);
          expect(new Set(items.map(looseKey)).size).toBe(items.length);
        }
      }
    }
  });

  it('start/end DateTime pairs hold start ≤ end', () => {
    const pairs = dateRangePairs(name);
    for (const p of sample(payloadArb(name, WITH_REFS), 300)) {
      for (const [s, e] of pairs) expect(compareScalar('datetime', p[s], p[e])).toBeLessThanOrEqual(0);
    }
  });

  it('batches have distinct unique properties (also ignoring case and accents)', () => {
    fc.assert(
      fc.property(batchArb(name, WITH_REFS, { minLength: 1, maxLength: 30 }), (batch) => {
        expect(batch.length).toBeGreaterThanOrEqual(1);
        expect(batch.length).toBeLessThanOrEqual(30);
        for (const p of batch) expect(validate(p).errors).toEqual([]);
        for (const q of uniqueProps(name)) {
          const values = batch.map((p) => p[q.name] as string);
          expect(new Set(values.map(looseKey)).size).toBe(values.length);
          for (const v of values) expect(isRunTagged(v, TAG)).toBe(true);
        }
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('full updates hold every available property and validate (with an id, against UpdatePayload)', () => {
    const vu = validator(name, 'UpdatePayload');
    for (const [, ctx] of CONTEXTS.slice(0, 2)) {
      for (const p of sample(updateArb(name, ctx, { mode: 'full' }), 100)) {
        expect(p).not.toHaveProperty('id');
        const expected = r.payload.filter((q) => !(q.references && !ctx.refs?.[q.references]?.length && !q.required)).map((q) => q.name);
        expect(Object.keys(p).sort()).toEqual(expected.sort());
        expect(validate(p).errors).toEqual([]);
        expect(vu({ ...p, id: guid(99) }).errors).toEqual([]);
      }
    }
  });

  it('partial updates hold a non-empty subset, keep start/end pairs together, and each value is valid', () => {
    const [base] = boundaryPayloads(name, WITH_REFS).slice(-1);
    const pairs = dateRangePairs(name);
    const sizes = new Set<number>();
    for (const p of sample(updateArb(name, WITH_REFS, { mode: 'partial' }), 200)) {
      const keys = Object.keys(p);
      sizes.add(keys.length);
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) expect(r.payload.map((q) => q.name)).toContain(k);
      for (const [s, e] of pairs) expect(keys.includes(s)).toBe(keys.includes(e));
      expect(validate({ ...base, ...p }).errors).toEqual([]);
    }
    expect(sizes.size).toBeGreaterThan(2);
  });

  it('boundary payloads validate and hit every limit exactly', () => {
    const list = boundaryPayloads(name, WITH_REFS);
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(boundaryPayloads(name, WITH_REFS)).toEqual(list); // deterministic
    const maxes = list.slice(0, -1);
    const min = list[list.length - 1];
    for (const p of list) expect(validate(p).errors).toEqual([]);
    for (const p of maxes) {
      for (const q of r.payload) {
        const v = p[q.name];
        if (q.references) {
          const pool = WITH_REFS.refs![q.references]!;
          expect(q.kind === 'list' ? v : [v]).toEqual(q.kind === 'list' ? pool : [pool[pool.length - 1]]);
          continue;
        }
        // a long text of multi-byte characters hits its limit in UTF-8 bytes (a column counting bytes holds it: text-bytes)
        const bytes = q.kind === 'string' && q.maxLength! > TEXT_MAX_LENGTH && /[^\x00-\x7f]/.test(v as string);
        if (q.kind === 'string' && !bytes) expect(codePointLength(v as string)).toBe(q.maxLength);
        if (bytes) expect(Buffer.byteLength(v as string, 'utf8')).toBeLessThanOrEqual(q.maxLength!);
        if (bytes) expect(Buffer.byteLength(v as string, 'utf8')).toBeGreaterThan(q.maxLength! - 4);
        if (q.kind === 'string' && q.unique) expect(isRunTagged(v, TAG)).toBe(true);
        if (q.kind === 'string') expect(v as string).not.toMatch(ASTRAL);
        if (q.kind === 'list' && q.itemKind === 'string') {
          expect((v as string[]).length).toBe(MAX_LIST_ITEMS);
          for (const item of v as string[]) expect(codePointLength(item)).toBe(q.maxLength);
        }
        if (q.kind === 'integer') {
          expect(v).toBe('9'.repeat(q.integerDigits!));
          expect(intDigits(v as string)).toBe(q.integerDigits);
        }
        if (q.kind === 'decimal') {
          expect(intDigits(v as string)).toBe(q.decimal!.digits);
          expect(fracDigits(v as string)).toBe(q.decimal!.scale);
          expect(v).toBe(`${'9'.repeat(q.decimal!.digits)}.${'9'.repeat(q.decimal!.scale)}`);
        }
      }
    }
    // the two maximum payloads differ in their text (ASCII, then multi-byte)
    for (const q of r.payload.filter((x) => x.kind === 'string')) {
      const [ascii, multi] = [maxes[0][q.name] as string, maxes[1][q.name] as string];
      expect(ascii).toMatch(/^[\x20-\x7e]+$/);
      // a long text: multi-byte up to its limit in bytes, so fewer characters (2 and 3 bytes each)
      if (q.maxLength! > TEXT_MAX_LENGTH) expect(codePointLength(multi)).toBeLessThan(q.maxLength! / 1.5);
      else expect(Buffer.byteLength(multi)).toBeGreaterThan(q.maxLength! * 1.5);
    }
    for (const q of r.payload) {
      const v = min[q.name];
      if (!q.required) { expect(min).not.toHaveProperty(q.name); continue; }
      if (q.references) continue;
      if (q.kind === 'string' && q.unique) expect(v).toMatch(new RegExp(`^${TAG}-[0-9a-z]{${TOKEN_LENGTH}}$`));
      if (q.kind === 'string' && !q.unique) expect(codePointLength(v as string)).toBe(1);
      if (q.kind === 'string' && q.unique) expect(codePointLength(v as string)).toBe(TAG.length + 1 + TOKEN_LENGTH);
      if (q.kind === 'integer') expect(v).toBe('0');
      if (q.kind === 'decimal') expect(v).toBe(`0.${'0'.repeat(q.decimal!.scale)}`);
      if (q.kind === 'list') expect(v).toEqual([]);
    }
    // unique values differ between the boundary payloads
    for (const q of uniqueProps(name)) expect(new Set(list.map((p) => looseKey(p[q.name] as string))).size).toBe(list.length);
  });

  it('over-limit payloads each exceed exactly one limit by one and fail validation on that property only', () => {
    const list = overLimitPayloads(name, WITH_REFS);
    const [min] = boundaryPayloads(name, WITH_REFS).slice(-1);
    // every limited property is probed (Predefined excepted: see overLimitPayloads)
    const limited = r.payload.filter((q) => !q.references && q.kind !== 'predefined' && (q.maxLength !== undefined || q.kind === 'integer' || q.kind === 'decimal'));
    expect(new Set(list.map((o) => o.prop))).toEqual(new Set(limited.map((q) => q.name)));
    for (const o of list) {
      const q = r.payload.find((x) => x.name === o.prop)!;
      const res = validate(o.payload);
      expect(res.ok, `${o.prop} ${o.limit}`).toBe(false);
      for (const e of res.errors) expect(e, `${o.prop}: ${e}`).toMatch(new RegExp(`^/${o.prop}(/| )`));
      expect(o.payload[o.prop]).toEqual(o.value);
      // the rest of the payload is valid: put the property back at its minimum
      const fixed: Payload = { ...o.payload };
      if (min[o.prop] !== undefined) fixed[o.prop] = min[o.prop]; else delete fixed[o.prop];
      expect(validate(fixed).errors).toEqual([]);
      const v = o.value;
      switch (o.limit) {
        case 'length':
          if (Array.isArray(v)) expect(v.map(codePointLength)).toEqual([q.maxLength! + 1]);
          else expect(codePointLength(v)).toBe(q.maxLength! + 1);
          break;
        case 'integer-digits':
          expect(intDigits(v as string)).toBe(q.integerDigits! + 1);
          expect(BigInt(v as string)).toBe(BigInt(maxInteger(q.integerDigits!)) + 1n);
          break;
        case 'decimal-digits':
          expect(intDigits(v as string)).toBe(q.decimal!.digits + 1);
          expect(fracDigits(v as string)).toBeLessThanOrEqual(q.decimal!.scale);
          expect(compareScalar('decimal', v, maxDecimal(q.decimal!))).toBe(1);
          break;
        case 'decimal-scale':
          expect(fracDigits(v as string)).toBe(q.decimal!.scale + 1);
          expect(intDigits(v as string)).toBeLessThanOrEqual(q.decimal!.digits);
          break;
      }
      if (q.unique && typeof v === 'string') expect(isRunTagged(v, TAG)).toBe(true);
    }
    // each probe is a separate record: unique values differ
    for (const q of uniqueProps(name)) expect(new Set(list.map((o) => o.payload[q.name])).size).toBe(list.length);
  });
});

it('page content reaches 65535 code points at the boundary and 65536 over it (derived from the model)', () => {
  const content = resource('page').payload.find((p) => p.name === 'content')!;
  expect(content.maxLength).toBe(65535);
  expect(codePointLength(boundaryPayloads('page', WITH_REFS)[0].content as string)).toBe(65535);
  expect(codePointLength(overLimitPayloads('page', WITH_REFS).find((o) => o.prop === 'content')!.value as string)).toBe(65536);
});

it('start/end pairs are found from the model', () => {
  expect(dateRangePairs('coupon')).toEqual([['startdate', 'enddate']]);
  expect(dateRangePairs('blog-post')).toEqual([['visibledate', 'visibledateend']]);
  expect(dateRangePairs('product')).toEqual([]);
});

it('generation is deterministic under a seed', () => {
  for (const r of WRITABLE) {
    expect(sample(payloadArb(r.name, WITH_REFS), 20, 7)).toEqual(sample(payloadArb(r.name, WITH_REFS), 20, 7));
    expect(sample(batchArb(r.name, WITH_REFS), 5, 7)).toEqual(sample(batchArb(r.name, WITH_REFS), 5, 7));
  }
});

it('payloads shrink, keeping their unique tokens', () => {
  const res = fc.check(
    fc.property(payloadArb('coupon', WITH_REFS), (p) => BigInt(p.limittotal as string) < 1000n || (p.name as string).length < 30),
    { seed: SEED, numRuns: 500 },
  );
  expect(res.failed).toBe(true);
  expect(res.numShrinks).toBeGreaterThan(0);
  const ce = res.counterexample![0];
  expect(isRunTagged(ce.name, TAG)).toBe(true);
  expect(isRunTagged(ce.code, TAG)).toBe(true);
});

it('an unknown or read-only resource is refused', () => {
  expect(() => payloadArb('order', WITH_REFS)).toThrow(/no create payload/);
  expect(() => payloadArb('nope', WITH_REFS)).toThrow(/unknown resource/);
});

describe('textArb', () => {
  const texts = sample(textArb({ maxLength: 255 }), 3000);

  it('respects code-point lengths and never yields control, format or lone-surrogate characters or edge whitespace', () => {
    for (const s of texts) {
      const n = codePointLength(s);
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(255);
      expect(s).not.toMatch(CONTROL);
      expect(s).toBe(s.trim());
      expect(s).toBe(s.normalize('NFC'));
      expect((s as any).isWellFormed()).toBe(true);
    }
  });

  it('covers accents, other scripts, quotes, backslashes and <>& across a sample; 4-byte characters only when asked', () => {
    const all = texts.join('');
    for (const ch of ['é', 'è', 'ê', 'à', 'ç', 'ô', 'Œ', '«', '»', "'", '"', '\\', '<', '>', '&', ' ']) expect(all).toContain(ch);
    expect(CHARACTER_CLASSES.scripts.some((e) => all.includes(e))).toBe(true);
    // valid under every reading of text.astral: a utf8mb3 store refuses or replaces them
    expect(all).not.toMatch(ASTRAL);
    const astral = sample(textArb({ maxLength: 255, astral: true }), 2000);
    expect(astral.join('')).toMatch(ASTRAL);
    expect(CHARACTER_CLASSES.emoji.some((e) => astral.join('').includes(e))).toBe(true);
    expect(astral.some((s) => s.length !== codePointLength(s))).toBe(true);
  });

  it('weights in boundary lengths (max, max − 1, 1), which use BMP characters only', () => {
    const lengths = texts.map(codePointLength);
    for (const n of [255, 254, 1]) expect(lengths.filter((l) => l === n).length).toBeGreaterThan(50);
    for (const s of sample(textArb({ maxLength: 255, astral: true }), 3000).filter((t) => codePointLength(t) >= 254)) expect(s).not.toMatch(ASTRAL);
    expect(lengths.filter((l) => l > 1 && l < 254).length).toBeGreaterThan(1500);
    expect(new Set(lengths).size).toBeGreaterThan(100);
  });

  it('puts the prefix first and counts it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 11, max: 300 }), fc.integer({ min: 0, max: 12 }), (max, minWanted) => {
        const min = Math.min(max, minWanted);
        for (const s of sample(textArb({ maxLength: max, minLength: min, prefix: TAG }), 20, max)) {
          expect(s.startsWith(TAG)).toBe(true);
          expect(codePointLength(s)).toBeLessThanOrEqual(max);
          expect(codePointLength(s)).toBeGreaterThanOrEqual(Math.max(min, TAG.length));
          expect(s).toBe(s.trimEnd());
        }
        expect(sample(textArb({ maxLength: max, prefix: TAG }), 300, max).some((s) => codePointLength(s) === max)).toBe(true);
      }),
      { seed: SEED, numRuns: 30 },
    );
  });

  it('handles tiny limits and refuses impossible ones', () => {
    expect(new Set(sample(textArb({ maxLength: 1 }), 200).map(codePointLength))).toEqual(new Set([1]));
    expect(sample(textArb({ maxLength: 2, minLength: 0 }), 300).some((s) => s === '')).toBe(true);
    expect(sample(textArb({ maxLength: TAG.length, prefix: TAG }), 10)).toEqual(Array(10).fill(TAG));
    expect(() => textArb({ maxLength: 3, prefix: TAG })).toThrow(/prefix/);
    expect(() => textArb({ maxLength: 3, minLength: 4 })).toThrow(/minLength/);
  });

  it('fixedText is deterministic, exact and BMP-only', () => {
    for (const style of ['ascii', 'multibyte'] as const) {
      for (const n of [1, 2, 254, 255, 256, 65535]) {
        const s = fixedText(n, { style, prefix: n > 20 ? TAG : undefined });
        expect(codePointLength(s)).toBe(n);
        expect(s.length).toBe(n);
        expect(s).toBe(s.trim());
        expect(s).toBe(fixedText(n, { style, prefix: n > 20 ? TAG : undefined }));
        expect(s).toBe(s.normalize('NFC'));
        expect(s).not.toMatch(CONTROL);
      }
    }
  });
});

describe('long text within as many UTF-8 bytes as characters (text-bytes: a MySQL TEXT column holds 65535 bytes)', () => {
  it('textArb with maxBytes, and every generated page content, stays within the bytes; without it, multi-byte text at the limit goes beyond', () => {
    const page = resource('page');
    const content = page.payload.find((p) => p.kind === 'string' && p.maxLength! > TEXT_MAX_LENGTH)!;
    const n = content.maxLength!;
    fc.assert(fc.property(textArb({ maxLength: n, maxBytes: n, boundary: true }), (v) => Buffer.byteLength(v, 'utf8') <= n && codePointLength(v) <= n), { seed: SEED, numRuns: 60 });
    fc.assert(fc.property(payloadArb(page.name, NO_REFS), (x) => typeof x.content !== 'string' || Buffer.byteLength(x.content, 'utf8') <= n), { seed: SEED, numRuns: 60 });
    // the limit counted in characters alone lets 2- and 3-byte text past the bytes: what the option is for
    expect(Buffer.byteLength(fixedText(n, { style: 'multibyte' }), 'utf8')).toBeGreaterThan(n);
    expect(Buffer.byteLength(fixedText(n, { style: 'multibyte', maxBytes: n }), 'utf8')).toBeLessThanOrEqual(n);
  });
});

describe('decimalArb and integerArb', () => {
  const LIMITS = [{ digits: 8, scale: 2 }, { digits: 2, scale: 2 }, { digits: 3, scale: 3 }, { digits: 1, scale: 0 }];

  it.each(LIMITS)('decimals never exceed $digits digits and $scale decimals, and hit the boundaries', (limit) => {
    const values = sample(decimalArb(limit), 2000);
    for (const v of values) {
      expect(v).toMatch(/^[0-9]+(\.[0-9]+)?$/);
      expect(decimalWithin(v, limit)).toBe(true);
      expect(normalizeDecimal(v)).toBeDefined();
    }
    const norm = new Set(values.map((v) => normalizeDecimal(v)));
    expect(values).toContain(maxDecimal(limit));
    expect(norm).toContain('0');
    if (limit.scale > 0) {
      expect(norm).toContain(`0.${'0'.repeat(limit.scale - 1)}1`);
      expect(values.some((v) => !v.includes('.'))).toBe(true); // whole numbers
      expect(values.some((v) => fracDigits(v) === 1)).toBe(true); // one decimal
      expect(values.some((v) => fracDigits(v) === limit.scale)).toBe(true);
    }
    expect(norm.size).toBeGreaterThan(Math.min(200, 10 ** (limit.digits + limit.scale) / 2));
    // every magnitude shows up
    expect(new Set(values.map(intDigits)).size).toBe(limit.digits);
  });

  it('the largest decimals are exact (no float error)', () => {
    expect(maxDecimal({ digits: 8, scale: 2 })).toBe('99999999.99');
    expect(maxDecimal({ digits: 2, scale: 2 })).toBe('99.99');
    expect(maxDecimal({ digits: 3, scale: 3 })).toBe('999.999');
  });

  it('integers: up to 11 digits, non-negative, no leading zeros, 0 and 99999999999 included when wide', () => {
    const values = sample(integerArb({ digits: 11, wide: true }), 2000);
    for (const v of values) {
      expect(v).toMatch(/^(0|[1-9][0-9]*)$/);
      expect(integerWithin(v, { digits: 11 })).toBe(true);
    }
    expect(values).toContain('99999999999');
    expect(values).toContain('0');
    expect(new Set(values.map((v) => v.length)).size).toBe(11);
    // by default within every width of limits.integerWidth: an INT(11) column holds 2147483647 at most
    const narrow = sample(integerArb({ digits: 11 }), 2000);
    expect(narrow.every((v) => BigInt(v) <= INT32_MAX)).toBe(true);
    expect(narrow).toContain(INT32_MAX.toString());
    expect(new Set(narrow.map((v) => v.length)).size).toBe(10);
    expect(sample(integerArb({ digits: 2 }), 300).every((v) => Number(v) <= 99)).toBe(true);
    expect(maxInteger(11)).toBe('99999999999');
  });
});

describe('dates', () => {
  it('dateTimeArb: valid calendar date-times, years 2001–2035', () => {
    const values = sample(dateTimeArb(), 2000);
    for (const v of values) {
      expect(v).toMatch(/^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$/);
      expect(parseDateTime(v)).toBeDefined();
      const y = Number(v.slice(0, 4));
      expect(y).toBeGreaterThanOrEqual(2001);
      expect(y).toBeLessThanOrEqual(2035);
    }
    expect(values.some((v) => v.includes('-02-29'))).toBe(true);
    expect(values.some((v) => v.endsWith('23:59:59'))).toBe(true);
    expect(values.some((v) => v.endsWith('00:00:00'))).toBe(true);
    // valid under every reading of the time zone: no wall time where a common zone springs forward
    expect(values.every((v) => clearOfDstGaps(parseDateTime(v)!))).toBe(true);
    expect(sample(requestDateTimeArb(), 2000).every((v) => clearOfDstGaps(parseDateTime(v)!))).toBe(true);
  });

  it('dateArb: valid calendar dates; requestDateTimeArb: both forms', () => {
    for (const v of sample(dateArb(), 500)) {
      expect(v).toMatch(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/);
      expect(parseDateTime(v)).toBeDefined();
    }
    const req = sample(requestDateTimeArb(), 500);
    expect(req.some((v) => v.length === 10)).toBe(true);
    expect(req.some((v) => v.length === 19)).toBe(true);
    for (const v of req) expect(parseDateTime(v)).toBeDefined();
  });
});

describe('filter values', () => {
  const ALL = resources();
  /** pool of existing values of the filter's kind, in the forms a get returns (and a few write forms) */
  function poolFor(f: FilterModel): string[] {
    switch (f.valueKind) {
      case 'guid': return sample(fc.uuid(), 6, 3).concat(sample(fc.uuid(), 2, 4).map((g) => g.toUpperCase()));
      case 'string': return sample(textArb({ maxLength: f.maxLength ?? 255 }), 6, 3);
      case 'predefined': return ['PHYSICAL', 'COMPLETED', 'EVERYWHERE'];
      case 'integer': return ['0', '5', '17', '99999999999'];
      case 'decimal': return ['0.00', '12,50', '12.51', '99.99', f.decimal ? maxDecimal(f.decimal) : '1000'];
      case 'datetime': return ['2024-02-29 10:11:12', '2024-02-29 10:11:14', '2030-01-01 00:00:00', '1990-05-06'];
      case 'date': return ['1990-05-06', '2001-01-01'];
      default: return [];
    }
  }
  const cases = ALL.flatMap((r) => r.filters.map((f) => [`${r.name}.${f.key}`, r.name, f] as const));

  it.each(cases.filter(([, , f]) => f.filter === 'array'))('%s: 1–4 distinct values, from the pool and absent from it, valid', (_l, name, f) => {
    const validate = validator(name, 'Filters');
    const pool = poolFor(f);
    const id = (v: string) => (f.valueKind === 'guid' ? v.toLowerCase() : f.valueKind === 'string' ? looseKey(v) : v);
    const poolIds = new Set(pool.map(id));
    let hits = 0;
    let misses = 0;
    let mixed = 0;
    for (const values of sample(arrayFilterValuesArb(f, pool), 150)) {
      expect(values.length).toBeGreaterThanOrEqual(1);
      expect(values.length).toBeLessThanOrEqual(4);
      expect(new Set(values.map(id)).size).toBe(values.length);
      expect(validate({ [f.key]: values }).errors).toEqual([]);
      const inPool = values.filter((v) => pool.includes(v)).length;
      const absent = values.filter((v) => !poolIds.has(id(v))).length;
      expect(inPool + absent).toBe(values.length);
      if (inPool > 0) hits++;
      if (absent > 0) misses++;
      if (inPool > 0 && absent > 0) mixed++;
    }
    expect(hits).toBeGreaterThan(10);
    expect(misses).toBeGreaterThan(10);
    expect(mixed).toBeGreaterThan(5);
    // an empty pool: only absent values
    for (const values of sample(arrayFilterValuesArb(f, []), 20)) expect(values.length).toBeGreaterThanOrEqual(1);
  });

  it.each(cases.filter(([, , f]) => f.filter === 'range'))('%s: bounds valid, equal to, next to and between pool values', (_l, name, f) => {
    const validate = validator(name, 'Filters');
    const pool = poolFor(f);
    const bounds = sample(rangeBoundArb(f, pool), 400);
    const kind = f.valueKind === 'date' ? 'date' : f.valueKind;
    for (const b of bounds) {
      expect(validate({ [f.key]: b }).errors).toEqual([]);
      if (f.acceptsArray) expect(validate({ [f.key]: [b] }).errors).toEqual([]);
    }
    const valid = pool.filter((p) => (kind === 'decimal' ? decimalWithin(p, f.decimal!) : kind === 'integer' ? integerWithin(p, { digits: f.integerDigits! }) : true));
    const equalHits = bounds.filter((b) => valid.some((p) => compareScalar(kind as any, b, p) === 0));
    expect(equalHits.length).toBeGreaterThan(40);
    const sorted = [...valid].sort((a, b) => compareScalar(kind as any, a, b));
    const strictlyBetween = bounds.filter((b) => sorted.some((p, i) => i + 1 < sorted.length && compareScalar(kind as any, p, b) < 0 && compareScalar(kind as any, b, sorted[i + 1]) < 0));
    expect(strictlyBetween.length).toBeGreaterThan(20);
    if (kind === 'datetime') {
      expect(bounds.some((b) => b.length === 10 && pool.some((p) => p.startsWith(b)))).toBe(true);
      expect(bounds.some((b) => b.length === 19 && pool.includes(b))).toBe(true);
    }
    if (kind === 'decimal') for (const b of bounds) expect(b).not.toContain(',');
    // no pool: still valid bounds
    for (const b of sample(rangeBoundArb(f, []), 50)) expect(validate({ [f.key]: b }).errors).toEqual([]);
  });

  it.each(cases.filter(([, , f]) => f.filter === 'boolean'))('%s: boolean filter values are valid', (_l, name, f) => {
    const values = sample(booleanFilterArb(), 50);
    expect(new Set(values)).toEqual(new Set(['true', 'false']));
    for (const v of values) expect(validator(name, 'Filters')({ [f.key]: v }).errors).toEqual([]);
  });
});

describe('run tag', () => {
  it("is 'sc' + 8 lowercase hex, random without a seed and stable with one", () => {
    const tags = Array.from({ length: 50 }, () => newRunTag());
    for (const t of tags) expect(t).toMatch(RUN_TAG_RE);
    expect(new Set(tags).size).toBe(50);
    expect(newRunTag(42)).toBe(newRunTag(42));
    expect(newRunTag('run-1')).toMatch(/^sc[0-9a-f]{8}$/);
    expect(new Set(Array.from({ length: 200 }, (_, i) => newRunTag(i))).size).toBe(200);
  });
  it('isRunTagged looks at the start of strings only', () => {
    expect(isRunTagged(`${TAG}-abc`, TAG)).toBe(true);
    expect(isRunTagged(`x${TAG}`, TAG)).toBe(false);
    expect(isRunTagged(undefined, TAG)).toBe(false);
    expect(isRunTagged([TAG], TAG)).toBe(false);
    expect(isRunTagged('anything', '')).toBe(false);
  });
});
