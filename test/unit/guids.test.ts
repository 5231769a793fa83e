/** generators/guids.ts: many version-4 GUIDs from one seed (the id filter's long list of absent ids). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guidsFrom } from '../../generators/index.js';
import { GUID_PATTERN } from '../../src/check/index.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('guidsFrom', () => {
  it('gives valid, distinct version-4 GUIDs, the same for the same seed', () => {
    fc.assert(fc.property(fc.integer(), (seed) => {
      const ids = guidsFrom(seed, 2200);
      expect(ids).toHaveLength(2200);
      for (const id of ids) {
        expect(id).toMatch(V4);
        expect(id).toMatch(new RegExp(GUID_PATTERN));
      }
      expect(new Set(ids).size).toBe(ids.length);
      expect(guidsFrom(seed, 2200)).toEqual(ids);
      expect(guidsFrom(seed + 1, 3)).not.toEqual(ids.slice(0, 3));
    }), { numRuns: 20 });
  });
});
