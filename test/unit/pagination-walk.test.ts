/**
 * The page size of the walk past page 10 (suites/pagination/long-walk.ts
 * longWalkPlan): the records a resource holds and the largest page it serves
 * decide the pages. Page 10 must be full (page numbers compared or sorted as
 * text go wrong from 10 on), the walk reads 10 to 25 pages, and a resource
 * too small (or a largest page too small) is not judged, with why. The
 * read-only resources of the reference server hold 20 to 60 records (file:
 * more than one get, bounded to the records of one get): each must be walked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GET_CAP, resources } from '../../src/schema/model.js';
import { DEFAULT_COUNTS, seedData } from '../../reference/seed.js';
import { LONG_WALK_FULL_PAGES, LONG_WALK_MAX_PAGES, longWalkPlan, recordsOnPage } from '../../suites/pagination/long-walk.js';

const readOnly = resources().filter((r) => !r.single && !r.writable && r.operations.includes('get'));

/** What a judged plan must be: page 10 full, 10 to 25 pages, no page over the largest, and no larger size would do. */
function expectSound(held: number, max: number): void {
  const plan = longWalkPlan(held, max);
  if (plan.reason !== undefined) throw new Error(`${held} records, largest page ${max}: not judged (${plan.reason})`);
  const { size, pages } = plan;
  expect(size, `${held}/${max}`).toBeGreaterThanOrEqual(1);
  expect(size).toBeLessThanOrEqual(max);
  expect(pages).toBe(Math.ceil(held / size));
  expect(pages).toBeGreaterThanOrEqual(LONG_WALK_FULL_PAGES);
  expect(pages).toBeLessThanOrEqual(LONG_WALK_MAX_PAGES);
  expect(recordsOnPage(held, size, LONG_WALK_FULL_PAGES - 1), 'page 10 is full').toBe(size);
  // the largest such size: one more would leave page 10 short, or ask more than the largest page
  expect(size === max || recordsOnPage(held, size + 1, LONG_WALK_FULL_PAGES - 1) < size + 1).toBe(true);
  const perPage = Array.from({ length: pages + 1 }, (_, i) => recordsOnPage(held, size, i));
  expect(perPage.reduce((a, b) => a + b, 0), 'the pages hold every record once').toBe(held);
  expect(perPage[pages], 'the page after the last is empty').toBe(0);
}

describe('the walk past page 10: pages for the records held', () => {
  it('walks every read-only resource of the reference server (20 to 60 records; file bounded to one get)', () => {
    const data = seedData(20261122);
    expect(readOnly.length).toBe(8);
    for (const r of readOnly) {
      const held = Math.min(data.records[r.name].length, GET_CAP);
      expect(held, r.name).toBeGreaterThanOrEqual(20);
      expectSound(held, GET_CAP);
    }
    // the former size ceil(n / 11) made 9 pages of tax's 26 records (not walked) and left file's page 10 short (48 in a small store)
    expect(longWalkPlan(DEFAULT_COUNTS.tax, GET_CAP)).toEqual({ size: 2, pages: 13 });
    expect(longWalkPlan(DEFAULT_COUNTS.file, GET_CAP)).toEqual({ size: 4, pages: 12 });
  });

  it('gives the designed sizes', () => {
    expect(longWalkPlan(1001, GET_CAP)).toEqual({ size: 100, pages: 11 }); // the writable big set: page 11 holds the last record
    expect(longWalkPlan(1001, 500)).toEqual({ size: 100, pages: 11 });
    expect(longWalkPlan(1001, 50)).toEqual({ size: 50, pages: 21 });
    expect(longWalkPlan(1000, GET_CAP)).toEqual({ size: 100, pages: 10 });
    expect(longWalkPlan(60, GET_CAP)).toEqual({ size: 6, pages: 10 });
    expect(longWalkPlan(21, GET_CAP)).toEqual({ size: 2, pages: 11 });
    expect(longWalkPlan(10, GET_CAP)).toEqual({ size: 1, pages: 10 });
    expect(longWalkPlan(19, GET_CAP)).toEqual({ size: 1, pages: 19 });
  });

  it('is not judged, with why, on fewer than 10 records or a largest page too small', () => {
    for (const held of [0, 1, 9]) {
      expect(longWalkPlan(held, GET_CAP).size, String(held)).toBeUndefined();
      expect(longWalkPlan(held, GET_CAP).reason).toBe(`${held} record(s) cannot fill 10 pages of one record`);
    }
    const small = longWalkPlan(1001, 40);
    expect(small.size).toBeUndefined();
    expect(small.reason).toBe('1001 records in pages of at most 40 (observation pagination.maxPageSize) make 26 pages, more than the 25 the walk reads');
    expect(longWalkPlan(1000, 40)).toEqual({ size: 40, pages: 25 });
    expect(longWalkPlan(50, 0).reason).toMatch(/cannot fill 10 pages \(largest page 0\)/);
  });

  it('is sound for any records held and largest page', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 30_000 }), fc.integer({ min: 1, max: GET_CAP }), (held, max) => {
      const plan = longWalkPlan(held, max);
      const judgeable = held >= LONG_WALK_FULL_PAGES && Math.ceil(held / Math.min(max, Math.floor(held / LONG_WALK_FULL_PAGES))) <= LONG_WALK_MAX_PAGES;
      expect(plan.reason === undefined, `${held}/${max}: ${plan.reason}`).toBe(judgeable);
      if (judgeable) expectSound(held, max);
    }), { seed: 20261126, numRuns: 2000 });
  });
});
