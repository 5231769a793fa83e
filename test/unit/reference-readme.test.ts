/**
 * reference/README.md lists every benign variant, every hand-written fault and every family of
 * generated local faults as the registries hold them: its tables are rendered from the registries
 * (scripts/reference-readme.ts) and must be what the registries give now.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README, renderReadme } from '../../scripts/reference-readme.js';
import { FAULTS } from '../../reference/faults.js';
import { FAMILIES } from '../../reference/faults-generated.js';
import { VARIANTS } from '../../reference/variants.js';

describe('reference/README.md', () => {
  const text = readFileSync(README, 'utf8');

  it('its variant and fault tables are those the registries give (npx tsx scripts/reference-readme.ts)', () => {
    expect(renderReadme(text) === text, 'stale tables: run `npx tsx scripts/reference-readme.ts` and commit reference/README.md').toBe(true);
  });

  it('names every variant, every hand-written fault and every family of local faults in a table row', () => {
    const rows = new Set([...text.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]));
    expect(VARIANTS.map((v) => v.name).filter((n) => !rows.has(n))).toEqual([]);
    expect(FAULTS.map((f) => f.name).filter((n) => !rows.has(n))).toEqual([]);
    expect(FAMILIES.filter((n) => !rows.has(n))).toEqual([]);
  });
});
