/**
 * Flag checks made before a run starts (src/cli/validate.ts): --only must
 * select a check, --report-dir must be usable; nothing is created.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOnly, checkReportDir, closestIds, editDistance } from '../../src/cli/validate.js';
import { claimReportDir, clearAllureResults, makeDirs, pseudoFileSystem, REPORT_DIR_MARKER, reportDirState } from '../../src/files.js';

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

  it('a misspelt glob gets the glob it meant, not one id (issue 22, item 10)', () => {
    expect(() => checkOnly('produkt.*')).toThrow(/closest ids: product\.\*,/);
    expect(() => checkOnly('*.filter.range.*')).toThrow(/closest ids: \*\.filters\.range\.\*/);
    expect(closestIds('prodcut.filters.id', ['product.filters.id', 'product.filters.name'])).toEqual(['product.filters.id', 'product.filters.name']);
  });

  it('edit distance and closest ids', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(closestIds('b*c', ['abc', 'bc', 'xyz'], 2)).toEqual(['bc', 'abc']);
  });
});

describe('--report-dir', () => {
  const base = mkdtempSync(join(tmpdir(), 'sc-rd-'));
  writeFileSync(join(base, 'file'), 'x');

  it('an existing (empty) or creatable folder is fine, and nothing is created', () => {
    expect(() => checkReportDir(mkdtempSync(join(tmpdir(), 'sc-rd-empty-')))).not.toThrow();
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

describe('--report-dir: only a folder storecheck made, or a new or empty one (issue 22, defect 7)', () => {
  it('an existing folder holding another tool\'s files is refused, naming the folder and what is in it', () => {
    const other = mkdtempSync(join(tmpdir(), 'sc-foreign-'));
    writeFileSync(join(other, 'report.md'), 'another tool\'s report');
    mkdirSync(join(other, 'allure-results'));
    expect(reportDirState(other)).toBe('foreign');
    expect(() => checkReportDir(other)).toThrow(new RegExp(`the folder ${other} already holds files storecheck did not write \\(allure-results, report.md\\)`));
  });

  it('an empty folder, a new one and one storecheck made (its marker) are fine; claiming marks it', () => {
    const empty = mkdtempSync(join(tmpdir(), 'sc-empty-'));
    expect(reportDirState(empty)).toBe('empty');
    expect(() => checkReportDir(empty)).not.toThrow();
    expect(reportDirState(join(empty, 'new'))).toBe('missing');
    claimReportDir(join(empty, 'new', 'deeper'));
    expect(readdirSync(join(empty, 'new', 'deeper'))).toEqual([REPORT_DIR_MARKER]);
    writeFileSync(join(empty, 'new', 'deeper', 'report.json'), '{}');
    expect(reportDirState(join(empty, 'new', 'deeper'))).toBe('ours');
    expect(() => checkReportDir(join(empty, 'new', 'deeper'))).not.toThrow();
  });

  it('an empty --report-dir is refused, not taken as the working folder', async () => {
    const { resolveConfig } = await import('../../src/cli.js');
    await expect(resolveConfig({ 'report-dir': '' })).rejects.toThrow(/--report-dir is empty/);
    expect(() => checkReportDir('')).toThrow(/--report-dir is empty/);
    expect(() => checkReportDir('  ', '--out')).toThrow(/--out is empty/);
  });

  it('clearing allure-results removes only the files allure-js names, never another tool\'s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sc-allure-'));
    const ours = ['0eed3f36-c48f-41f2-91d6-2c654e8d9eab-result.json', '12cafca0-56c4-4926-96cd-f9b18bde3952-container.json', '219609d7-3782-4ea6-bc7d-36805f584d12-attachment.json', '26f1005f-22be-479b-961f-e0000696ee65-attachment.txt'];
    const theirs = ['environment.properties', 'categories.json', 'other-tool-result.json', 'notes.txt'];
    for (const f of [...ours, ...theirs]) writeFileSync(join(dir, f), 'x');
    expect(clearAllureResults(dir)).toBe(4);
    expect(readdirSync(dir).sort()).toEqual([...theirs].sort());
    expect(clearAllureResults(join(dir, 'missing'))).toBe(0);
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
