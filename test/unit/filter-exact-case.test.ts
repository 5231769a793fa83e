/**
 * The #exact case of an array filter (suites/filters/cases.ts exactCase): the
 * values it sends differ from a record's in one part a collation may ignore —
 * letter case, an accent, a trailing space. Where the records hold fewer
 * loosely distinct values than there are parts (an enumeration of one value:
 * product type PHYSICAL), the parts the store was seen to tell apart share
 * one value's record, so a key ignoring any of them (a PAD SPACE column in an
 * exact store) brings that record back; a part the store ignores never shares
 * (its record is expected back and would hide the others).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXACT_COLLATION, sameUnderCollation, type Collation } from '../../src/check/index.js';
import { resources } from '../../src/schema/model.js';
import { exactCase, type CaseValues } from '../../suites/filters/cases.js';
import type { Scoped } from '../../suites/filters/scoped.js';

const product = resources().find((r) => r.name === 'product')!;
const coupon = resources().find((r) => r.name === 'coupon')!;
const keyOf = (r: typeof product, key: string) => r.filters.find((f) => f.key === key)!;

function designedOf(r: typeof product, key: string, values: string[], c: Collation): string[] {
  const f = keyOf(r, key);
  const records = values.map((v, i) => ({ id: `00000000-0000-4000-8000-00000000000${i}`, [f.field]: v }));
  const s: Scoped = { r, records, ids: records.map((x) => x.id), what: 'the fixture' };
  const spec = exactCase(s, f, [...new Set(values)], new Set(values), (vs) => [{ f, value: vs }], c) as CaseValues<string[]>;
  expect(spec).toHaveProperty('designed');
  return fc.sample(spec.designed!, { seed: 1, numRuns: 1 })[0];
}

/** Would a key comparing like `c` but ignoring `part` return a record holding `held` for this list? */
function departing(c: Collation, part: keyof Collation, held: string, list: string[]): boolean {
  const ignoring: Collation = { ...c, [part]: part === 'trailingSpaces' ? 'ignored' : 'insensitive' };
  return list.some((w) => sameUnderCollation(w, held, ignoring) === true);
}

describe('#exact on a key whose records hold one value (an enumeration)', () => {
  it('under an exact store sends the value in the other case, with an accent changed and with a trailing space', () => {
    const got = designedOf(product, 'type', ['PHYSICAL', 'PHYSICAL', 'PHYSICAL'], EXACT_COLLATION);
    expect(got).toHaveLength(3);
    expect(got).toContain('physical');
    expect(got).toContain('PHYSICAL ');
    expect(got.some((v) => v !== 'PHYSICAL' && v.normalize('NFD').replace(/\p{M}/gu, '') === 'PHYSICAL')).toBe(true);
  });

  it('expects the record out under the exact reading, and a key ignoring any one part returns it', () => {
    const got = designedOf(product, 'type', ['PHYSICAL'], EXACT_COLLATION);
    // the oracle compares each listed value with the record's under the observed collation (sameUnderCollation)
    expect(got.map((w) => sameUnderCollation(w, 'PHYSICAL', EXACT_COLLATION))).toEqual([false, false, false]);
    for (const part of ['case', 'accents', 'trailingSpaces'] as const) expect(departing(EXACT_COLLATION, part, 'PHYSICAL', got), part).toBe(true);
  });

  it('never lets a part the store ignores share a value with another: under PAD SPACE only the case and accent changes share', () => {
    const padSpace: Collation = { ...EXACT_COLLATION, trailingSpaces: 'ignored' };
    const got = designedOf(product, 'type', ['PHYSICAL'], padSpace);
    expect(got).not.toContain('PHYSICAL ');
    expect(got).toHaveLength(2);
  });

  it('under a case-insensitive store the first change (case) holds the record alone: nothing joins it', () => {
    const ci: Collation = { ...EXACT_COLLATION, case: 'insensitive' };
    expect(designedOf(product, 'type', ['PHYSICAL'], ci)).toEqual(['physical']);
  });

  it('with a part not observed, nothing shares (as before: one change per distinct value)', () => {
    const unknown: Collation = { case: null, accents: null, trailingSpaces: null };
    expect(designedOf(product, 'type', ['PHYSICAL'], unknown)).toEqual(['physical']);
  });
});

describe('#exact on a key whose records hold two values', () => {
  it('gives each of the first two changes its own value and lets the third share one the store tells apart', () => {
    const got = designedOf(coupon, 'type', ['AMOUNT_ORDER', 'FREE_SHIPPING'], EXACT_COLLATION);
    expect(got).toHaveLength(3);
    expect(got.filter((v) => v.endsWith(' '))).toHaveLength(1);
    expect(got.some((v) => v.toLowerCase() === v && /[a-z]/.test(v))).toBe(true);
  });

  it('with three distinct values, one change each (no sharing needed)', () => {
    const name = keyOf(product, 'name');
    expect(name.valueKind).toBe('string');
    const got = designedOf(product, 'name', ['Alpha', 'Beta', 'Gamma'], EXACT_COLLATION);
    const sources = got.map((v) => v.replace(/ +$/, '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase());
    expect(new Set(sources).size).toBe(3);
  });
});
