/**
 * The oracle's term plans (src/check/oracle.ts expectTerm): what a term needs
 * of itself is worked out once per term, and the String comparison takes
 * sameUnderCollation's first steps with the loose identities computed once.
 * The answer must stay the one every listed value compared whole gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectTerm, fieldKind, type Expect, type Term } from '../../src/check/oracle.js';
import { observeFrom } from '../../src/check/observed.js';
import { resources } from '../../src/schema/model.js';
import { normalizeInteger, sameUnderCollation, type Collation } from '../../src/values/index.js';

const arrayFilters = resources().flatMap((r) => r.filters.filter((f) => f.filter === 'array').map((f) => ({ r, f, kind: fieldKind(r, f) })));
const stringFilter = arrayFilters.find((x) => x.kind === 'string')!;
const integerFilter = arrayFilters.find((x) => x.kind === 'integer')!;

/** The answer of an array term as the oracle gave it before plans: every listed value compared whole. */
function whole(values: string[], raw: string, c: Collation, same: (w: string, raw: string, c: Collation) => boolean | undefined): Expect {
  const results = values.map((w) => same(w, raw, c));
  if (results.some((x) => x === true)) return 'in';
  return results.some((x) => x === undefined) ? 'unknown' : 'out';
}

const text = fc.oneof(
  fc.constantFrom('Alpha', 'alpha', 'alpha ', 'ALPHA  ', 'Älpha', 'alphá', 'straße', 'STRASSE', 'œuvre', 'Oeuvre', 'ı', 'I', 'i', '', ' '),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);
const reading = <T>(...v: T[]) => fc.constantFrom<T | null>(null, ...v);
const collations = fc.record({ case: reading('sensitive', 'insensitive'), accents: reading('sensitive', 'insensitive'), trailingSpaces: reading('significant', 'ignored') }) as fc.Arbitrary<Collation>;

describe('expectTerm with term plans', () => {
  it('a String array filter answers what comparing every listed value whole under the collation answers', () => {
    fc.assert(fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), text, collations, (values, raw, c) => {
      observeFrom(() => ({ 'collation.case': c.case, 'collation.accents': c.accents, 'collation.trailingSpaces': c.trailingSpaces }));
      const t: Term = { f: stringFilter.f, value: values };
      const rec = { [stringFilter.f.field]: raw };
      // asked twice: the second answer comes from the term's plan
      expect(expectTerm(stringFilter.r, t, rec, true)).toBe(whole(values, raw, c, sameUnderCollation));
      expect(expectTerm(stringFilter.r, t, rec, true)).toBe(whole(values, raw, c, sameUnderCollation));
    }), { numRuns: 400 });
  });

  it('an Integer array filter compares numbers, and a term whose value is replaced is planned again', () => {
    const t: Term = { f: integerFilter.f, value: ['7', '007'] };
    const rec = { [integerFilter.f.field]: '7' };
    const c = { case: null, accents: null, trailingSpaces: null };
    const eq = (w: string, raw: string) => (normalizeInteger(w) === undefined || normalizeInteger(raw) === undefined ? undefined : normalizeInteger(w) === normalizeInteger(raw));
    expect(expectTerm(integerFilter.r, t, rec, true)).toBe(whole(['7', '007'], '7', c, eq));
    t.value = ['8'];
    expect(expectTerm(integerFilter.r, t, rec, true)).toBe('out');
    t.value = 'x7';
    expect(expectTerm(integerFilter.r, t, rec, true)).toBe(whole(['x7'], '7', c, eq));
  });
});
