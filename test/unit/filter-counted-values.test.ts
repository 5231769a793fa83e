/**
 * Which values of a filter case have their count asked (DepthProfile.countedValues):
 * the get check asks every value of the depth, the count beside the first ones
 * only; the count check walks just those, so both share one pair of requests.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { valuesOf } from '../../suites/filters/register.js';
import { DEPTHS, type DepthProfile } from '../../src/config.js';
import type { ItemContext } from '../../src/check/index.js';
import type { CaseValues } from '../../suites/filters/cases.js';

/** An item context that runs a property `runs` times on fresh samples of its arbitrary. */
function itemAt(depth: DepthProfile): ItemContext {
  let seed = 1;
  return {
    depth,
    async property(arb: fc.Arbitrary<unknown>, predicate: (v: unknown) => Promise<void>, opts: { runs?: number } = {}) {
      for (const v of fc.sample(arb, { numRuns: opts.runs ?? depth.values, seed: seed++ })) await predicate(v);
    },
  } as unknown as ItemContext;
}

async function asked(depth: DepthProfile, spec: CaseValues<unknown>, countedOnly = false): Promise<Array<[unknown, boolean]>> {
  const out: Array<[unknown, boolean]> = [];
  await valuesOf(itemAt(depth), spec, 'label', async (v, counted) => { out.push([v, counted]); }, countedOnly);
  return out;
}

const spec: CaseValues<unknown> = { designed: fc.constant('designed'), generated: fc.constant('generated'), terms: () => [] };

describe('filter case values and their counts', () => {
  it('standard: the designed value is counted, the generated one judged on get alone', async () => {
    expect(await asked(DEPTHS.standard, spec)).toEqual([['designed', true], ['generated', false]]);
    expect(await asked(DEPTHS.standard, spec, true)).toEqual([['designed', true]]);
  });

  it('a case with no designed value counts its first generated one', async () => {
    const { designed: _, ...generatedOnly } = spec;
    expect(await asked(DEPTHS.standard, generatedOnly)).toEqual([['generated', true], ['generated', false]]);
    expect(await asked(DEPTHS.standard, generatedOnly, true)).toEqual([['generated', true]]);
  });

  it('deep counts every value; quick has one value, counted', async () => {
    const deep = await asked(DEPTHS.deep, spec);
    expect(deep).toHaveLength(DEPTHS.deep.values);
    expect(deep.every(([, counted]) => counted)).toBe(true);
    expect(await asked(DEPTHS.deep, spec, true)).toHaveLength(DEPTHS.deep.values);
    expect(await asked(DEPTHS.quick, spec)).toEqual([['designed', true]]);
  });

  it('the values every run judges (a class case) are each counted', async () => {
    const all = { ...spec, all: ['a', 'b', 'c'] };
    expect(await asked(DEPTHS.standard, all)).toEqual([['a', true], ['b', true], ['c', true]]);
  });
});
