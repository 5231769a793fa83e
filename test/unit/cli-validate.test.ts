/**
 * Flag checks made before a run starts (src/cli/validate.ts): --only must
 * select a check, --report-dir must be usable; nothing is created.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOnly, checkReportDir, closestIds, editDistance } from '../../src/cli/validate.js';

describe('--only', () => {
  it('accepts globs, check ids and item ids that exist', () => {
    expect(() => checkOnly('product.*')).not.toThrow();
    expect(() => checkOnly('*.filters.range.*,nothing.*')).not.toThrow();
    expect(() => checkOnly('product.filters.range.price_min#equal')).not.toThrow();
  });

  it('refuses a selection of nothing, naming the closest ids', () => {
    expect(() => checkOnly('prodcut.filters.id')).toThrow(/matches no check.*closest ids: product\.filters\.id/);
    expect(() => checkOnly('product.filters.range.price_min#nosuchcase')).toThrow(/matches no check.*product\.filters\.range\.price_min#/);
    expect(() => checkOnly(' , ')).toThrow(/--only is empty/);
  });

  it('edit distance and closest ids', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(closestIds('b*c', ['abc', 'bc', 'xyz'], 2)).toEqual(['bc', 'abc']);
  });
});

describe('--report-dir', () => {
  const base = mkdtempSync(join(tmpdir(), 'sc-rd-'));
  writeFileSync(join(base, 'file'), 'x');

  it('an existing or creatable folder is fine, and nothing is created', () => {
    expect(() => checkReportDir(base)).not.toThrow();
    expect(() => checkReportDir(join(base, 'new', 'deeper'))).not.toThrow();
    expect(existsSync(join(base, 'new'))).toBe(false);
  });

  it('a file, or a path through a file, is refused in plain words', () => {
    expect(() => checkReportDir(join(base, 'file'))).toThrow(/is a file, not a folder/);
    expect(() => checkReportDir(join(base, 'file', 'sub'))).toThrow(/a part of the path is a file/);
  });

  it.skipIf(process.getuid?.() === 0)('a folder without write permission is refused', () => {
    const ro = join(base, 'ro');
    mkdirSync(ro);
    chmodSync(ro, 0o500);
    expect(() => checkReportDir(join(ro, 'x'))).toThrow(/not writable/);
  });
});
