/**
 * `storecheck compare` takes report folders as `merge` does (issue 22, item 10: it said EISDIR), and
 * its --out is a folder storecheck made, a new or an empty one.
 */
import { copyFileSync, mkdtempSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runMain as quiet } from '../helpers/main-in-process.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/reports/two-causes.json', import.meta.url));


describe('compare', () => {
  it('takes two report folders (their report.json) and writes into a new --out', async () => {
    const base = mkdtempSync(join(tmpdir(), 'sc-cmp-'));
    for (const d of ['a', 'b']) {
      mkdirSync(join(base, d));
      copyFileSync(FIXTURE, join(base, d, 'report.json'));
    }
    const r = await quiet(['compare', join(base, 'a'), join(base, 'b'), '--out', join(base, 'out')]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).not.toMatch(/EISDIR/);
    expect(readdirSync(join(base, 'out')).sort()).toEqual(['.storecheck', 'compare.html', 'compare.md']);
  });

  it('refuses an --out holding another tool\'s files', async () => {
    const base = mkdtempSync(join(tmpdir(), 'sc-cmp-'));
    mkdirSync(join(base, 'out'));
    writeFileSync(join(base, 'out', 'compare.md'), 'theirs');
    const r = await quiet(['compare', FIXTURE, FIXTURE, '--out', join(base, 'out')]);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/--out .*already holds files storecheck did not write \(compare\.md\)/);
  });
});
