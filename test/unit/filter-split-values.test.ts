/**
 * The values a filter fixture writes to split every filter (suites/filters/fixture.ts
 * splitValue) are derived from a generated value by cutting it. Generated text never
 * has white-space at its edges (a store may trim it or refuse it: edgeSpaces), and a
 * derived value must not have any either: at seed 2029 the unique values of the
 * category fixture were cut to 253 characters ending in two spaces, the store refusing
 * edge spaces refused the create and 15 category filter checks failed on an honest store.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxLengthOf } from '../../src/check/index.js';
import { resources } from '../../src/schema/model.js';
import { payloadArb } from '../../generators/index.js';
import { splitValue } from '../../suites/filters/fixture.js';

/** What a store trims or refuses at a String's edges: JavaScript's white-space and what SQL's TRIM takes (NUL, vertical tab). */
const EDGE = /^[\s\0\x0B]|[\s\0\x0B]$/u;
/** the values written per property: v, v+d, v+dd for a unique one, six for the others */
const splits = (p: { unique?: boolean }) => (p.unique ? 3 : 6);
const writable = resources().filter((r) => r.writable);
const textProps = (r: (typeof writable)[number]) => {
  const filtered = new Set(r.filters.map((f) => f.field));
  return r.payload.filter((p) => p.kind === 'string' && !p.references && p.safeValue === undefined && filtered.has(p.recordField ?? p.name));
};

describe('filter fixture split values', () => {
  it('have no white-space at their edges when the cut falls on a space', () => {
    let judged = 0;
    for (const r of writable) {
      for (const p of textProps(r)) {
        const max = maxLengthOf(p);
        // a space where the unique cut (max - 2) and the plain cut (40) end, and two before them
        const first = Array.from({ length: max }, (_, i) => ([max - 4, max - 3, 38, 39].includes(i) ? ' ' : 'a')).join('');
        for (let i = 0; i < splits(p); i++) {
          const v = splitValue(p, i, 0, first, false)!;
          expect(v, `${r.name}.${p.name} #${i}`).not.toMatch(EDGE);
          expect(Array.from(v).length, `${r.name}.${p.name} #${i}`).toBeLessThanOrEqual(max);
          judged++;
        }
      }
    }
    expect(judged).toBeGreaterThan(40);
  });

  it('keep the unique values nested and distinct (v, v+d, v+dd)', () => {
    const r = writable.find((x) => textProps(x).some((p) => p.unique))!;
    const p = textProps(r).find((x) => x.unique)!;
    const first = 'x'.repeat(maxLengthOf(p) - 3) + ' y';
    const [a, b, c] = [0, 1, 2].map((i) => splitValue(p, i, 0, first, false)!);
    expect(b).toBe(`${a}d`);
    expect(c).toBe(`${a}dd`);
  });

  it('have no white-space at their edges for generated values of every writable resource (fixed seed)', () => {
    for (const r of writable) {
      const payloads = fc.sample(payloadArb(r.name, { tag: 'sc0123456789' }), { seed: 2029, numRuns: 60 });
      for (const first of payloads) {
        for (const p of textProps(r)) {
          for (let i = 0; i < splits(p); i++) expect(splitValue(p, i, 0, String(first[p.name] ?? ''), false), `${r.name}.${p.name} #${i}`).not.toMatch(EDGE);
        }
      }
    }
  });
});
