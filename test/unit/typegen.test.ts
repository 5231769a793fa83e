/**
 * The generated types the code imports (the report's, the config file's) match what
 * `npm run typegen` produces from schemas/ now. When this fails, run `npm run typegen` and commit
 * the result. The resource schemas get no types (scripts/typegen.ts says why).
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, TYPED_SCHEMAS, generateTypes, staleTypes } from '../../scripts/typegen.js';

describe('typegen', () => {
  it('the committed generated types are up to date (npm run typegen -- --check)', async () => {
    expect(await staleTypes(), 'stale generated types; run `npm run typegen`').toEqual([]);
  });

  it('is deterministic, declares every type once, and writes only types the code imports', async () => {
    const a = await generateTypes();
    const b = await generateTypes();
    expect([...a.entries()]).toEqual([...b.entries()]);
    expect([...a.keys()].sort()).toEqual(Object.values(TYPED_SCHEMAS).sort());
    const names = new Map<string, string>();
    for (const [file, ts] of a) {
      for (const m of ts.matchAll(/^export (?:type|interface) ([A-Za-z0-9_$]+)/gm)) {
        expect(names.get(m[1]), `${m[1]} declared in ${file} and ${names.get(m[1])}`).toBeUndefined();
        names.set(m[1], file);
      }
    }
    for (const t of ['Report', 'CheckResult', 'ItemResult', 'Coverage']) expect(names.get(t), t).toBe('src/report/types.generated.ts');
    expect(existsSync(`${ROOT}generators/types`), 'per-resource types are not generated').toBe(false);
  });
});
