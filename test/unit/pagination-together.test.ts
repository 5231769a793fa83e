/**
 * A walk over a set of known size (suites/pagination/walk.ts): the pages the
 * set fills are read side by side, the walk ends at the first short page, and
 * pages past the expected ones are read one at a time while every page is full.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LONG_WALK_MAX_PAGES } from '../../suites/pagination/long-walk.js';
import { MAX_PAGES_TOGETHER, pagesTogether, walkKnownSet } from '../../suites/pagination/walk.js';

/** A store holding `stored` records, pages of `per`: page `i` holds what is left; reads are logged with how many were in flight. */
function store(stored: number, per: number) {
  const log: Array<{ index: number; inFlight: number }> = [];
  let inFlight = 0;
  const read = async (index: number) => {
    inFlight++;
    log.push({ index, inFlight });
    await new Promise((r) => setTimeout(r, 1));
    inFlight--;
    return { records: Array.from({ length: Math.max(0, Math.min(per, stored - index * per)) }, (_, k) => index * per + k) };
  };
  return { log, read };
}

describe('pages of a set of known size, read together', () => {
  it('reads the pages a conformant store needs, side by side (at most MAX_PAGES_TOGETHER at once), and no other', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 12 }), async (held, per) => {
      const maxPages = Math.ceil(held / per) + 1;
      const s = store(held, per);
      const { pages, ended } = await walkKnownSet(held, per, maxPages, s.read);
      // what a walk one page at a time reads: up to and including the first short page
      const oneByOne = Math.floor(held / per) + 1;
      expect(ended).toBe(true);
      expect(pages.length).toBe(oneByOne);
      expect(s.log.map((l) => l.index)).toEqual(Array.from({ length: oneByOne }, (_, i) => i));
      expect(Math.max(...s.log.map((l) => l.inFlight)), 'sent side by side').toBe(Math.min(oneByOne, MAX_PAGES_TOGETHER));
      expect(pages.flatMap((p) => p.records)).toEqual(Array.from({ length: held }, (_, i) => i));
    }), { numRuns: 60 });
  });

  it('goes on one page at a time while a store holding more keeps filling them, up to maxPages', async () => {
    const s = store(100, 3);
    const { pages, ended } = await walkKnownSet(7, 3, 6, s.read);
    expect(ended).toBe(false);
    expect(pages.length).toBe(6);
    expect(s.log.map((l) => l.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(s.log.slice(3).every((l) => l.inFlight === 1), 'past the expected pages: one at a time').toBe(true);
  });

  it('stops at a short page before the expected end (what follows it is not taken)', async () => {
    const s = store(4, 3);
    const { pages, ended } = await walkKnownSet(9, 3, 4, s.read);
    expect(ended).toBe(true);
    expect(pages.map((p) => p.records.length)).toEqual([3, 1]);
  });

  it('reads at least one page and never more than maxPages together', () => {
    expect(pagesTogether(0, 5, 3)).toBe(1);
    expect(pagesTogether(10, 5, 3)).toBe(3);
    expect(pagesTogether(1001, 91, 12)).toBe(12);
    expect(pagesTogether(1001, 91, 5)).toBe(5);
    expect(pagesTogether(7, 0, 4)).toBe(4);
  });

  it('a set a target inflated (an id filter answered with records not asked for) is not read all at once', async () => {
    expect(MAX_PAGES_TOGETHER, 'the long walk fits').toBeGreaterThan(LONG_WALK_MAX_PAGES);
    const s = store(10_000, 2);
    const { pages, ended } = await walkKnownSet(10_000, 2, 201, s.read);
    // past the first MAX_PAGES_TOGETHER, one at a time; the pages do not end here: bounded by maxPages only
    expect(ended).toBe(false);
    expect(pages.length).toBe(201);
    expect(Math.max(...s.log.map((l) => l.inFlight))).toBe(MAX_PAGES_TOGETHER);
  });

  it('rejects when a read does', async () => {
    await expect(walkKnownSet(6, 2, 4, async (i) => {
      if (i === 1) throw new Error('no answer');
      return { records: [1, 2] };
    })).rejects.toThrow('no answer');
  });
});
