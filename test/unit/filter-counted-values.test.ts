/**
 * Which values of a filter case have their count asked (DepthProfile.countedValues):
 * the get check asks every value of the depth, the count beside the first ones
 * only; the count check walks just those, so both share one pair of requests.
 * And both draw a case's values alike (sharedCaseSpec), so they ask the same.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { sharedCaseSpec, valuesOf } from '../../suites/filters/register.js';

// the readings a case's classes depend on come from the run's observations: none here (no run)
vi.mock('../../suites/support/classes.js', async (original) => ({ ...(await original<object>()), observedNotTaken: () => [], numberSyntaxKeptOut: () => new Map() }));
import { DEPTHS, type DepthProfile } from '../../src/config.js';
import { resource, type ItemContext, type Scoped } from '../../src/check/index.js';
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

describe('the get check and the count check of a filter case send the same request', () => {
  const r = resource('product');
  const ids = ['3f2c1a9e-1b2c-4d3e-8f40-0a1b2c3d4e5f', '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d', '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e'];
  /** an item context whose own draws depend on the check (as the kit's do) and whose shared draws on the label only */
  const itemOf = (checkId: string): ItemContext => ({
    ...itemAt(DEPTHS.standard),
    case: 'several',
    observed: () => undefined,
    sample: (arb: fc.Arbitrary<unknown>, label: string) => fc.sample(arb, { numRuns: 1, seed: hash(`${checkId}:${label}`) })[0],
    sampleShared: (arb: fc.Arbitrary<unknown>, label: string) => fc.sample(arb, { numRuns: 1, seed: hash(`shared:${label}`) })[0],
  }) as unknown as ItemContext;

  it('the id case\'s designed list (absent ids drawn beside the scope\'s) is the same for both checks, built once', () => {
    const scope: Scoped = { r, ids, records: ids.map((id) => ({ id })), what: 'the fixture' };
    const get = sharedCaseSpec(itemOf('product.filters.id'), scope, 'id');
    // built once per scope: the count check gets the get check's spec
    expect(sharedCaseSpec(itemOf('product.filters.count-agrees.id'), scope, 'id')).toBe(get);
    // and built again (another scope object with the same records), it draws the same values
    const count = sharedCaseSpec(itemOf('product.filters.count-agrees.id'), { ...scope }, 'id');
    expect(count).not.toBe(get);
    const designed = (spec: typeof get) => ('designed' in spec && spec.designed ? fc.sample(spec.designed, { numRuns: 1, seed: 1 })[0] : undefined);
    expect(designed(get)).toBeDefined();
    expect(designed(count)).toEqual(designed(get));
  });
});

function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}
