import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReports } from '../../src/report/write.js';
import { nonConformantReport } from '../fixtures/reports/build.js';
import { parseXml } from '../fixtures/reports/xml.js';

describe('writeReports', () => {
  it('writes report.json, report.md, report.html, junit.xml and summary.md, leaving no temp files', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'storecheck-write-')), 'nested', 'run');
    const report = nonConformantReport();
    const paths = writeReports(dir, report, [], '');
    expect(Object.keys(paths).sort()).toEqual(['html', 'json', 'junit', 'markdown', 'summary']);
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md', 'summary.md']);
    expect(JSON.parse(readFileSync(paths.json, 'utf8'))).toEqual(JSON.parse(JSON.stringify(report)));
    expect(readFileSync(paths.json, 'utf8')).toMatch(/^\{\n {2}"reportVersion": 1,/);
    expect(readFileSync(paths.markdown, 'utf8')).toContain('## Failures (2)');
    expect(readFileSync(paths.html, 'utf8')).toContain('id="matrix"');
    expect(() => parseXml(readFileSync(paths.junit, 'utf8'))).not.toThrow();
  });

  it('replaces given secrets everywhere', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storecheck-write-'));
    const report = nonConformantReport();
    report.checks[2].message = 'key sk_live_ABCDEF leaked';
    report.observations['store.apikey'] = { value: 'sk_live_ABCDEF' };
    const paths = writeReports(dir, report, ['sk_live_ABCDEF'], '');
    for (const p of Object.values(paths)) {
      const text = readFileSync(p, 'utf8');
      expect(text, p).not.toContain('sk_live_ABCDEF');
      // Markdown prose escapes the placeholder's underscores
      expect(text.replace(/\\_/g, '_'), p).toContain('$STORE_API_KEY');
    }
    expect(report.checks[2].message).toBe('key sk_live_ABCDEF leaked'); // input untouched
  });
});
