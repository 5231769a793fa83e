/**
 * Flag checks made before a run starts (src/cli/validate.ts): --only must
 * select a check, --report-dir must be usable; nothing is created.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOnly, checkReportDir, closestIds, editDistance } from '../../src/cli/validate.js';
import { makeDirs, pseudoFileSystem } from '../../src/files.js';

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

describe.skipIf(process.platform !== 'linux')('--report-dir on a pseudo file system', () => {
  it('/proc and /sys are refused in plain words, before anything is started (Node\'s recursive mkdir would hang on /proc)', () => {
    expect(() => checkReportDir('/proc/storecheck-reports')).toThrow(/on the proc file system/);
    expect(() => checkReportDir('/sys/storecheck-reports')).toThrow(/on the sysfs file system/);
  });

  it('makeDirs makes nested folders one level at a time, and fails (never hangs) on /proc', () => {
    const base = mkdtempSync(join(tmpdir(), 'sc-mkdirs-'));
    makeDirs(join(base, 'a', 'b', 'c'));
    expect(existsSync(join(base, 'a', 'b', 'c'))).toBe(true);
    makeDirs(join(base, 'a', 'b', 'c'));
    expect(() => makeDirs('/proc/storecheck-reports/x')).toThrow(/ENOENT/);
    expect(pseudoFileSystem('/proc')).toBe('proc');
    expect(pseudoFileSystem(base)).toBeUndefined();
  });
});
