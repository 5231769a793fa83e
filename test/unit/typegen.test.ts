/**
 * The committed generators/types/ match what `npm run typegen` produces from schemas/ now.
 * When this fails, run `npm run typegen` and commit the result.
 */
import { describe, expect, it } from 'vitest';
import { generateTypes, staleTypes } from '../../scripts/typegen.js';

describe('typegen', () => {
  it('committed generators/types are up to date (npm run typegen -- --check)', async () => {
    expect(await staleTypes(), 'stale files in generators/types; run `npm run typegen`').toEqual([]);
  });

  it('is deterministic and declares every type once', async () => {
    const a = await generateTypes();
    const b = await generateTypes();
    expect([...a.entries()]).toEqual([...b.entries()]);
    const names = new Map<string, string>();
    for (const [file, ts] of a) {
      for (const m of ts.matchAll(/^export (?:type|interface) ([A-Za-z0-9_$]+)/gm)) {
        expect(names.get(m[1]), `${m[1]} declared in ${file} and ${names.get(m[1])}`).toBeUndefined();
        names.set(m[1], file);
      }
    }
    for (const t of ['ProductRecord', 'OrderItem', 'OrderPayment', 'ShippingRealtime', 'StoreRecord', 'Guid', 'PageUpdatePayload']) {
      expect(names.has(t), t).toBe(true);
    }
  });
});
