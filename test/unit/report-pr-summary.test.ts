/**
 * summary.md (issue 22): a summary sized for a pull request — verdict, counts, coverage, what
 * changed against the baseline, failures by rule with one example each — always under 60 KB,
 * also appended to $GITHUB_STEP_SUMMARY.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MAX_SUMMARY_BYTES, renderSummary } from '../../src/report/pr-summary.js';
import type { CheckResult } from '../../src/report/types.js';
import { writeReports } from '../../src/report/write.js';
import { HOSTILE, LONG_VALUE, check, conformantReport, hostileReport, makeReport, nonConformantReport, twoCausesReport } from '../fixtures/reports/build.js';

const size = (s: string) => Buffer.byteLength(s, 'utf8');

describe('summary.md', () => {
  it('says the verdict, the counts, what changed against the baseline, each failed rule with one example, errors and cleanup', () => {
    const md = renderSummary(nonConformantReport());
    expect(md).toMatch(/^## ❌ storecheck: NON-CONFORMANT\n\n`https:\/\/store\.example\.test` · seed `424242` · depth standard · 1 312 requests in 1 min 23 s · storecheck 0\.1\.0\n/);
    expect(md).toContain('> 2 checks failed: product.filter.price.range, product.filter.visible; 1 check could not be judged');
    expect(md).toContain('| total | passed | failed | errors | expected fail | unexpected pass | skipped |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n| 20 | 14 | 2 | 1 | 1 | 1 | 1 |');
    expect(md).toContain('### Against the baseline: ❌ regression');
    expect(md).toContain('- new failures (1): `product.filter.visible`');
    expect(md).toContain('  - `pagination.defaultPageSize`: `100` → `50`');
    expect(md).toContain('### Failures by rule (2 rules, 2 checks)');
    expect(md).toContain("- ❌ **`filters.boolean`** ×1 on 1 resource — a boolean filter matches records whose field has that value (§4 Filters per resource, must) · **1 new since the baseline**\n  - e.g. `product.filter.visible` (product): filter visible='false' returned 3 visible products\n  - rerun: `npx storecheck run --only product.filter.visible`");
    expect(md).toContain('- `blogpost.create.roundtrip`: POST /api/v1/blogpost/create: HTTP 503 Service Unavailable (3 attempts)');
    expect(md).toContain('**Cleanup:** 1 record(s) left behind on the target; retry with `storecheck sweep --ledger reports/run/ledger.jsonl --base-url https://store.example.test`.');
    expect(size(md)).toBeLessThan(4000);
  });

  it('a conformant run: no failure section, coverage, and that no baseline was given', () => {
    const md = renderSummary(conformantReport());
    expect(md).toMatch(/^## ✅ storecheck: CONFORMANT/);
    expect(md).not.toContain('Failures by rule');
    expect(md).toContain('**Against a baseline:** none given');
  });

  it('groups the failures by rule, the largest first, naming the others of a group', () => {
    const md = renderSummary(twoCausesReport());
    expect(md.indexOf('**`filters.range`** ×34 on 9 resources')).toBeLessThan(md.indexOf('**`filters.count-agrees`** ×12 on 3 resources'));
    expect(md).toContain('**`filters.count-agrees`** ×12 on 3 resources — count agrees with get for the same filters (§4 Filters per resource, must) · **12 new since the baseline**');
    expect(md).toContain('  - also `product.filters.range.createdon_min`, `product.filters.range.id_max`, `product.filters.range.id_min` … (+30 more)');
  });

  it('shortens long generated values in the example line', () => {
    const r = makeReport([check({ id: 'coupon.filters.count-agrees.code', rule: 'filters.count-agrees', status: 'failed', message: `count with code=[${JSON.stringify(LONG_VALUE)}] answered 0` })]);
    expect(renderSummary(r)).toContain('count with code=\\["sc7f3a9c01-9dhe1m03V…Éw\\#3KFRôz«" (72 chars)\\] answered 0');
  });

  it('thousands of failures in thousands of rules: under 60 KB, the rules that fit listed, the rest counted', () => {
    const checks: CheckResult[] = [];
    for (let i = 0; i < 6000; i++) {
      checks.push(check({
        id: `product.filters.rule${i % 2500}.key${i}`, rule: `filters.generated${i % 2500}`, status: 'failed', section: '§4 Filter naming',
        title: `generated rule ${i % 2500} ${'with a long title '.repeat(10)}`,
        message: `key${i}=${JSON.stringify(LONG_VALUE.repeat(20))} returned a record outside the bound ${'and a long explanation '.repeat(40)}`,
        reproducer: { command: `npm run conformance -- --only 'product.filters.rule${i}.key${i}' --seed 1 --replay 1:${'0:'.repeat(300)}0` },
      }));
    }
    const ids = checks.map((c) => c.id);
    const r = makeReport(checks, {
      baseline: { baselineFile: 'b/report.json', newFailures: ids, fixed: ids.slice(0, 3000), newChecks: ids, missingChecks: [], changedObservations: ids.slice(0, 500).map((key) => ({ key, before: LONG_VALUE.repeat(50), after: 1 })), regression: true },
    });
    const md = renderSummary(r);
    expect(size(md)).toBeLessThan(MAX_SUMMARY_BYTES);
    expect(size(md)).toBeGreaterThan(MAX_SUMMARY_BYTES - 8 * 1024); // it uses the room it has
    expect(md).toMatch(/- … and \d+ more rules with \d+ failed check\(s\), not listed: this summary stays under 60 KB for a pull request \(report\.md has them all\)/);
    expect(md).toContain('- new failures (6000): `product.filters.rule0.key0`');
    expect(md).toContain(', … and 5990 more');
    expect(md).toContain('| 6000 | 0 | 6000 | 0 | 0 | 0 | 0 |');
    expect(md.trimEnd().endsWith('</sub>')).toBe(true); // the footer survives
  });

  it('a report.json holding anything (huge ids, titles, messages, URL): still under 60 KB', () => {
    const huge = 'x'.repeat(200_000);
    const r = makeReport([check({ id: huge, rule: huge, title: huge, section: huge, level: huge as CheckResult['level'], status: 'failed', message: huge, reproducer: { command: huge } })], {
      target: { baseUrl: huge, embedded: false },
      baseline: { baselineFile: huge, newFailures: [huge], fixed: [], newChecks: [], missingChecks: [], changedObservations: [{ key: huge, before: huge, after: huge }], regression: true },
      cleanup: { created: 1, deleted: 0, leftBehind: [huge], sweep: huge },
    });
    r.summary.reason = huge;
    expect(size(renderSummary(r))).toBeLessThan(MAX_SUMMARY_BYTES);
  });

  it('escapes a hostile target: no raw HTML outside code spans, one line per list item', () => {
    const md = renderSummary(hostileReport());
    // code spans are shown literally by every renderer; the rest must hold no raw HTML
    const outsideCode = md.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, '');
    expect(outsideCode).not.toContain('<script');
    expect(outsideCode).not.toContain('<img');
    expect(md).toContain('title &lt;script&gt;alert("pwned")&lt;/script&gt;');
    const items = md.split('\n').filter((l) => /^ *- /.test(l));
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(md).toContain(`\`product.evil.${HOSTILE}\``);
  });
});

describe('writing summary.md', () => {
  it('is written beside the other files and appended to $GITHUB_STEP_SUMMARY', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storecheck-summary-'));
    const step = join(dir, 'step-summary.md');
    writeFileSync(step, '# earlier step\n');
    const paths = writeReports(join(dir, 'a'), nonConformantReport(), [], step);
    writeReports(join(dir, 'b'), conformantReport(), [], step);
    const summary = readFileSync(paths.summary, 'utf8');
    expect(paths.summary).toBe(join(dir, 'a', 'summary.md'));
    expect(summary).toBe(renderSummary(nonConformantReport()));
    const appended = readFileSync(step, 'utf8');
    expect(appended.startsWith(`# earlier step\n${summary}\n## ✅ storecheck: CONFORMANT`)).toBe(true);
  });

  it('without $GITHUB_STEP_SUMMARY nothing else is written; an unwritable one costs the job summary only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storecheck-summary-'));
    writeReports(join(dir, 'a'), conformantReport(), [], '');
    expect(existsSync(join(dir, 'a', 'summary.md'))).toBe(true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const paths = writeReports(join(dir, 'b'), conformantReport(), [], join(dir, 'no-such-dir', 'step.md'));
      expect(existsSync(paths.summary)).toBe(true);
      expect(String(stderr.mock.calls[0]?.[0])).toMatch(/could not append the summary to \$GITHUB_STEP_SUMMARY .*ENOENT/);
    } finally {
      stderr.mockRestore();
    }
  });
});
