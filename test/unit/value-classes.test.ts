/**
 * The value-class catalogue (src/schema/value-classes.ts) and its values
 * (generators/classes.ts): every class named once, with a source and a reason;
 * every class of a scalar kind has designed values and a generator; on every
 * payload property and filter of the schemas, the designed values and the
 * generated ones are members of their class (the class's own test), valid
 * against the schema, and — for a class that depends on no reading — valid
 * under every honest reading (BMP text without edge spaces, 32-bit integers,
 * decimals within DECIMAL(8,2), instants between 1970 and 2038).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INT32_MAX, READINGS, VALUE_CLASSES, VALUE_KINDS, classesFor, classesOf, filterTarget, largestDecimalUnitsOfEveryReading, notApplicable, payloadTarget,
  readingOf, valueClass, type ClassTarget,
} from '../../src/schema/value-classes.js';
import { resources, validator, decimalLimitOfEveryReading, DATETIME_PATTERN, DATE_PATTERN, type PayloadPropModel } from '../../src/schema/model.js';
import { decimalWithin } from '../../src/schema/ajv.js';
import { decimalToScaled } from '../../src/values/normalize.js';
import { SCALAR_CLASS_NAMES, boundaryPayloads, classArb, classValues, designedValues, listClassValue, newRunTag, uniquePrefix, tokenOf } from '../../generators/index.js';

const SEED = 20261125;
const TAG = newRunTag(SEED);
const PREFIX = uniquePrefix(TAG, tokenOf('cls', 1));
const draw = <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { seed: SEED, numRuns: 1 })[0];

describe('the catalogue', () => {
  it('is documented in docs/value-classes.md: every class and every reading, and no name that is not one', () => {
    const doc = readFileSync(new URL('../../docs/value-classes.md', import.meta.url), 'utf8');
    for (const c of VALUE_CLASSES) expect(doc, c.name).toContain(`| \`${c.name}\` |`);
    for (const r of Object.keys(READINGS)) expect(doc, r).toContain(`\`${r}\``);
    const named = [...doc.matchAll(/^\| `([a-z0-9-]+\.[a-z0-9-]+)` \|/gm)].map((m) => m[1]);
    expect(named.filter((n) => !VALUE_CLASSES.some((c) => c.name === n))).toEqual([]);
  });

  it('names every class once, <kind>.<name>, with a title, a reason and a source', () => {
    const names = VALUE_CLASSES.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of VALUE_CLASSES) {
      expect(c.name).toMatch(new RegExp(`^${c.kind}\\.[a-z0-9-]+$`));
      expect(c.title.length, c.name).toBeGreaterThan(0);
      expect(c.why.length, c.name).toBeGreaterThan(10);
      expect(c.source.length, c.name).toBeGreaterThan(10);
    }
  });

  it('has classes for every kind, and at least the ones the issue names', () => {
    for (const k of VALUE_KINDS) expect(classesOf(k).length, k).toBeGreaterThanOrEqual(2);
    for (const n of ['string.empty', 'string.falsy-zero', 'string.like-wildcards', 'string.quotes-backslash', 'string.whitespace-only', 'string.combining', 'string.astral',
      'string.at-limit', 'string.below-limit', 'integer.zero', 'integer.length-change', 'integer.beyond-int32', 'integer.beyond-53-bits', 'integer.leading-zeros',
      'decimal.trailing-zeros', 'decimal.float-unrepresentable', 'datetime.leap-day', 'datetime.month-end', 'datetime.midnight', 'datetime.last-second',
      'datetime.before-1970', 'datetime.after-2038', 'guid.upper-case', 'guid.zero', 'list.empty', 'list.one', 'list.many', 'list.duplicates']) {
      expect(() => valueClass(n)).not.toThrow();
    }
    expect(() => valueClass('string.nope')).toThrow(/no value class/);
  });

  it('gives every scalar class designed values and a generator, and every list class a list', () => {
    const scalars = VALUE_CLASSES.filter((c) => c.kind !== 'list').map((c) => c.name).sort();
    expect([...SCALAR_CLASS_NAMES].sort()).toEqual(scalars);
    const fill = (i: number) => `item ${i}`;
    for (const c of classesOf('list')) {
      for (const use of ['stored', 'matched'] as const) {
        const t: ClassTarget = { kind: 'list', use, itemKind: 'string' };
        if (notApplicable(c, t)) continue;
        expect(c.has(listClassValue(c, ['a', 'b'], fill, use), t), `${c.name} (${use})`).toBe(true);
      }
    }
  });

  it('each reading a class names is described', () => {
    for (const c of VALUE_CLASSES) {
      for (const t of [{ kind: c.kind, use: 'stored', maxLength: 65535, integerDigits: 11 }, { kind: c.kind, use: 'bound', integerDigits: 11 }] as ClassTarget[]) {
        const r = readingOf(c, t);
        if (r) expect(READINGS, c.name).toHaveProperty([r]);
      }
    }
  });

  it('membership tests tell members from other values', () => {
    const t: ClassTarget = { kind: 'string', use: 'stored', maxLength: 255 };
    expect(valueClass('string.falsy-zero').has('0', t)).toBe(true);
    expect(valueClass('string.falsy-zero').has('00', t)).toBe(false);
    expect(valueClass('string.like-wildcards').has('a%b_c', t)).toBe(true);
    expect(valueClass('string.like-wildcards').has('aZZbYc', t)).toBe(false);
    const d: ClassTarget = { kind: 'decimal', use: 'bound', decimal: { digits: 8, scale: 2 } };
    expect(valueClass('decimal.float-unrepresentable').has('0.29', d)).toBe(true);
    expect(valueClass('decimal.float-unrepresentable').has('0.25', d)).toBe(false);
    expect(valueClass('decimal.length-change').has('10.00', d)).toBe(true);
    expect(valueClass('decimal.length-change').has('12.00', d)).toBe(false);
    expect(valueClass('integer.length-change').has('100', { kind: 'integer', use: 'bound', integerDigits: 11 })).toBe(true);
    expect(valueClass('datetime.leap-day').has('2023-02-28 10:00:00', { kind: 'datetime', use: 'bound' })).toBe(false);
    expect(valueClass('list.duplicates').has(['a', 'A'], { kind: 'list', use: 'matched' })).toBe(true);
  });

  it('keeps classes that depend on a reading out, naming the reading, unless the check judges under it', () => {
    const t: ClassTarget = { kind: 'integer', use: 'stored', integerDigits: 11 };
    const { judged, notJudged } = classesFor(t);
    expect(judged.map((c) => c.name)).toContain('integer.zero');
    expect(judged.map((c) => c.name)).not.toContain('integer.beyond-int32');
    const beyond = notJudged.find((x) => x.cls.name === 'integer.beyond-int32')!;
    expect(beyond.reason).toMatch(/32-bit INT/);
    expect(notJudged.find((x) => x.cls.name === 'integer.beyond-53-bits')!.reason).toMatch(/cannot apply: 11 digits stay below 2\^53/);
    expect(classesFor(t, ['int32']).judged.map((c) => c.name)).toContain('integer.beyond-int32');
    expect(judged.length + notJudged.length).toBe(classesOf('integer').length);
  });
});

/** What every honest reading accepts and reads alike (for classes without a reading). */
function validUnderEveryReading(v: string, t: ClassTarget): string | undefined {
  switch (t.kind) {
    case 'string':
      if (/[\u{10000}-\u{10FFFF}]/u.test(v)) return 'a 4-byte character';
      if (v === '' || v.trim() !== v) return 'empty or edge whitespace';
      if (/\p{M}/u.test(v)) return 'a combining mark';
      return undefined;
    case 'integer': return BigInt(v) > INT32_MAX || /^-|^0[0-9]/.test(v) ? 'beyond 32 bits or not plain digits' : undefined;
    case 'decimal': return t.decimal && (decimalToScaled(v, t.decimal.scale) ?? 0n) > largestDecimalUnitsOfEveryReading(t.decimal) ? `beyond ${JSON.stringify(decimalLimitOfEveryReading(t.decimal))}` : undefined;
    case 'datetime': return v < '1970-01-01 00:00:01' || v > '2038-01-19 03:14:07' ? 'outside TIMESTAMP' : undefined;
    default: return undefined;
  }
}

interface Case { where: string; t: ClassTarget; valid: (v: string) => string[] }

/** Every payload property of every writable resource: a value is valid when the smallest payload with it validates. */
function payloadCases(): Case[] {
  return resources().filter((r) => r.writable).flatMap((r) => {
    const base = boundaryPayloads(r.name, { tag: TAG })[2];
    const validate = validator(r.name, 'Payload');
    return r.payload.map((p: PayloadPropModel) => ({ p, t: payloadTarget(p) }))
      .filter((x): x is { p: PayloadPropModel; t: ClassTarget } => !!x.t && x.t.kind !== 'list')
      .map(({ p, t }) => ({ where: `${r.name} payload ${p.name}`, t, valid: (v: string) => validate({ ...base, [p.name]: v }).errors }));
  });
}

/** Every filter key of every resource: a value is valid when the filters object with it validates. */
function filterCases(): Case[] {
  return resources().filter((r) => r.filters.length).flatMap((r) => {
    const validate = validator(r.name, 'Filters');
    return r.filters.map((f) => ({ f, t: filterTarget(f) })).filter((x): x is { f: (typeof r.filters)[number]; t: ClassTarget } => !!x.t)
      .map(({ f, t }) => ({
        where: `${r.name} filter ${f.key}`, t,
        valid: (v: string) => validate({ [f.key]: f.filter === 'array' ? [v] : v }).errors,
      }));
  });
}

describe.each([['payload properties', payloadCases()], ['filters', filterCases()]] as const)('class values on every %s', (_label, cases) => {
  it('are members of their class, valid against the schema, and valid under every reading unless the class names one', () => {
    let checked = 0;
    for (const { where, t, valid } of cases) {
      for (const c of classesOf(t.kind)) {
        if (notApplicable(c, t)) continue;
        const ctx = { prefix: t.unique ? PREFIX : undefined };
        const values = classValues(c, t, 4, draw, ctx).values;
        const generated = fc.sample(classArb(c, t, ctx), { seed: SEED, numRuns: 8 });
        for (const v of [...values, ...generated]) {
          const at = `${where} ${c.name} ${JSON.stringify(v).slice(0, 60)}`;
          expect(c.has(v, t), `${at}: not a member of its class`).toBe(true);
          if (c.kind === 'decimal' && t.decimal && !readingOf(c, t)) expect(decimalWithin(v, t.decimal), at).toBe(true);
          if (t.kind === 'datetime') expect(DATETIME_PATTERN.test(v) || DATE_PATTERN.test(v), at).toBe(true);
          expect(valid(v), `${at}: refused by the schema`).toEqual([]);
          if (t.unique) expect(v.startsWith(PREFIX), `${at}: a unique value keeps the run tag`).toBe(true);
          if (!readingOf(c, t)) expect(validUnderEveryReading(v, t), at).toBeUndefined();
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('a class without applicable values says why', () => {
    for (const { where, t } of cases) {
      for (const c of classesOf(t.kind)) {
        if (notApplicable(c, t)) continue;
        const ctx = { prefix: t.unique ? PREFIX : undefined };
        expect(designedValues(c, t, ctx).values.length, `${where} ${c.name}: a class that applies has a designed value`).toBeGreaterThan(0);
      }
    }
  });
});
