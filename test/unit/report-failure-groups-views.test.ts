/**
 * Failures grouped by rule in report.md and report.html (issue 17): a run with
 * 46 failures from two root causes shows both causes, the largest first, right
 * after the verdict and summary, before the observations; each group opens to
 * its checks; everything a target controls stays escaped.
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { writeReports } from '../../src/report/write.js';
import { rule } from '../../src/rules.js';
import type { Report } from '../../src/report/types.js';
import { HOSTILE, check, makeReport, nonConformantReport, twoCausesReport } from '../fixtures/reports/build.js';
import { htmlTagProblems } from '../fixtures/reports/xml.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RANGE = rule('filters.range').title;
const COUNT = rule('filters.count-agrees').title;

/** The positions of `needles` in `text`, each found (not -1). */
function positions(text: string, needles: string[]): number[] {
  return needles.map((n) => {
    const i = text.indexOf(n);
    expect(i, `"${n}" not found`).toBeGreaterThanOrEqual(0);
    return i;
  });
}

const isAscending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1] < x);

describe('report.md: failures grouped by rule', () => {
  const md = renderMarkdown(twoCausesReport());

  it('shows both groups, the larger first, with counts and resource counts, between the summary and the observations', () => {
    const rangeHead = `### ❌ \`filters.range\` ×34 on 9 resources — ${RANGE.replace(/_/g, '\\_')} (§4 Filter naming)`;
    const countHead = `### ❌ \`filters.count-agrees\` ×12 on 3 resources — ${COUNT} (§4 Filters per resource)`;
    expect(isAscending(positions(md, ['## Summary', '## Failures (46)', rangeHead, countHead, '## Matrix', '## Observations']))).toBe(true);
    expect(md).toContain('2 rules broken.');
    expect(md).toContain('**Resources:** product (6), blog-post (4), coupon (4), page (4), collection (3), category (3), order (4), customer (3), shipping-method (3)');
    expect(md).toContain('**Resources:** product (4), order (4), customer (4) · **12 new since the baseline**');
  });

  it('puts every failed check under its group heading, with expected, actual and reproducer', () => {
    const [range, count] = md.slice(md.indexOf('## Failures')).split(/\n### ❌ /).slice(1);
    const ids = (part: string) => [...part.matchAll(/^#### ❌ `([^`]+)`/gm)].map((m) => m[1]);
    expect(ids(range)).toHaveLength(34);
    expect(ids(range).every((id) => id.includes('.filters.range.'))).toBe(true);
    expect(ids(range)[0]).toBe('product.filters.range.createdon_max');
    expect(ids(range).at(-1)).toBe('shipping-method.filters.range.id_min');
    const countPart = count.slice(0, count.indexOf('\n## '));
    expect(ids(countPart)).toHaveLength(12);
    expect(ids(countPart).every((id) => id.includes('.filters.count-agrees.'))).toBe(true);
    expect(countPart).toContain('#### ❌ `order.filters.count-agrees.name`: count agrees with get for name (new since the baseline)');
    expect(countPart).toContain('**Expected**\n\n```json\n3\n```');
    expect(countPart).toContain('**Actual**\n\n```json\n0\n```');
    expect(countPart).toContain('- Command: `npx storecheck run --only customer.filters.count-agrees.visible --seed 424242`');
    // range checks carry evidence
    expect(range).toContain('**Evidence** (1 exchange)');
    expect(range).not.toContain('new since the baseline');
  });

  it('keeps expected failures, unexpected passes and the baseline regression', () => {
    expect(md).toContain('## Expected failures and unexpected passes (2)');
    expect(md).toContain('🟡 expected fail | `product.format.write.product-size-zero`');
    expect(md).toContain('🔵 unexpected pass | `coupon.filters.boolean.active`');
    expect(md).toContain('❌ **regression**');
    // expected failures and unexpected passes are not failures
    expect(md).not.toMatch(/^#### .*(product-size-zero|filters\.boolean\.active)/m);
  });

  it('a run without failures says so, and has no group', () => {
    const ok = renderMarkdown(makeReport([check({ id: 'product.x' })]));
    expect(ok).toContain('## Failures (0)\n\nNo check failed.');
    expect(ok).not.toContain('rules broken');
  });
});

describe('report.html: failures grouped by rule', () => {
  const html = renderHtml(twoCausesReport());
  const section = html.slice(html.indexOf('<section id="failures">'), html.indexOf('</section>', html.indexOf('<section id="failures">')));
  const groups = [...section.matchAll(/<details class="group" id="([^"]+)"( open)?>\n<summary>([\s\S]*?)<\/summary>([\s\S]*?)<\/details>\n?(?=<details class="group"|$)/g)];

  it('shows both groups, the larger first, right after the banner and before the matrix and observations', () => {
    expect(isAscending(positions(html, ['id="summary"', '<section id="failures">', '<code class="rule">filters.<wbr>range</code>', '<code class="rule">filters.<wbr>count-agrees</code>', '<section id="matrix">', '<section id="observations">']))).toBe(true);
    expect(groups).toHaveLength(2);
    const text = (s: string) => s.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&');
    expect(text(groups[0][3])).toBe(`failed filters.range ×34 on 9 resources — ${RANGE} (§4 Filter naming)`);
    expect(text(groups[1][3])).toBe(`failed filters.count-agrees ×12 on 3 resources — ${COUNT} (§4 Filters per resource) 12 new since the baseline`);
    // the table of contents leads with the failures
    const toc = html.slice(html.indexOf('<nav class="toc">'), html.indexOf('</nav>'));
    expect(toc.indexOf('href="#failures"')).toBeLessThan(toc.indexOf('href="#observations"'));
    expect(toc).toContain('Failures (46 in 2 rules)');
  });

  it('each group is a <details> opening to its checks\' cards, closed when there are many failures', () => {
    const cards = (body: string) => [...body.matchAll(/<article class="card s-failed" id="f-([^"]+)">/g)].map((m) => m[1]);
    expect(cards(groups[0][4])).toHaveLength(34);
    expect(cards(groups[0][4]).every((id) => id.includes('.filters.range.'))).toBe(true);
    expect(cards(groups[1][4])).toHaveLength(12);
    expect(groups[0][4]).toContain('<b>product</b> (6), <b>blog-post</b> (4)');
    expect(groups[1][4]).toContain('new since the baseline</span> <code>product.filters.count-agrees.createdon_min</code>');
    expect(groups.map((g) => g[2])).toEqual([undefined, undefined]); // 46 failures: closed
    // a small run opens its groups
    const small = renderHtml(nonConformantReport());
    expect([...small.matchAll(/<details class="group" id="[^"]+"( open)?>/g)].map((m) => m[1])).toEqual([' open', ' open']);
    // every link to a failure card still lands on an element of the page
    const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    for (const m of html.matchAll(/href="#([^"]+)"/g)) expect(ids.has(m[1]), m[1]).toBe(true);
  });

  it('keeps expected failures, unexpected passes and the baseline regression; balanced tags', () => {
    expect(html).toContain('<section id="expected">');
    expect(html).toMatch(/<span class="badge s-expected-fail">expected fail<\/span><\/td><td class="id"><a href="#c-product\.format\.write/);
    expect(html).toMatch(/<span class="badge s-unexpected-pass">unexpected pass<\/span><\/td><td class="id"><a href="#c-coupon\.filters\.boolean/);
    expect(html).toContain('<span class="bad">regression</span>');
    expect(section).not.toContain('product-size-zero');
    expect(htmlTagProblems(html)).toEqual([]);
  });
});

describe('grouped failures stay safe', () => {
  /** A failure whose rule, section, title and resource a hostile report.json controls (an unknown rule takes its check's title). */
  function hostile(): Report {
    return makeReport([
      check({
        id: `product.evil.${HOSTILE}`, rule: `evil.${HOSTILE}`, resource: `prod"uct${HOSTILE}`, title: `title ${HOSTILE}`,
        section: `§${HOSTILE}`, level: 'must', status: 'failed', message: HOSTILE, expected: HOSTILE, actual: HOSTILE,
      }),
      check({ id: 'product.filters.range.x', rule: 'filters.range', status: 'failed', message: 'apiKey sk_live_SECRET9 in the answer' }),
    ], { baseline: { baselineFile: HOSTILE, newFailures: [`product.evil.${HOSTILE}`], fixed: [], newChecks: [], missingChecks: [], changedObservations: [], regression: true } });
  }

  it('report.html: no target string unescaped in the groups; safe anchors; balanced tags', () => {
    const h = renderHtml(hostile());
    expect(h.match(/<script/g)).toHaveLength(1); // ours
    expect(h).not.toContain('<img');
    // no event-handler attribute in any tag (quoted attribute values, escaped, may hold the text "onerror=")
    for (const tag of h.matchAll(/<[a-zA-Z][^>]*>/g)) expect(tag[0].replace(/"[^"]*"/g, '""')).not.toMatch(/\son[a-z]+\s*=/i);
    const summaries = [...h.matchAll(/<summary>([\s\S]*?)<\/summary>/g)].map((m) => m[1]).join('\n');
    expect(summaries).toContain('evil.<wbr>&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
    expect(summaries).toContain('(§&lt;script&gt;');
    for (const m of h.matchAll(/<details class="group" id="([^"]*)"/g)) expect(m[1]).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(htmlTagProblems(h)).toEqual([]);
  });

  it('report.md: group headings hold no raw HTML and stay one line', () => {
    const md = renderMarkdown(hostile());
    const heads = md.split('\n').filter((l) => l.startsWith('### ❌') || l.startsWith('- ❌') || l.startsWith('**Level:**'));
    expect(heads).toHaveLength(6); // per group: the index line, the heading, the level/resources line
    const outsideCode = heads.join('\n').replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, '');
    expect(outsideCode).not.toContain('<script');
    expect(outsideCode).not.toContain('<img');
    expect(outsideCode).toContain('&lt;script&gt;');
  });

  it('the key never appears in the written report.md and report.html', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storecheck-groups-'));
    const paths = writeReports(dir, hostile(), ['sk_live_SECRET9']);
    for (const file of [paths.markdown, paths.html]) {
      const text = readFileSync(file, 'utf8');
      expect(text).not.toMatch(/SECRET9/);
      expect(text).toMatch(/\$STORE\\?_API\\?_KEY in the answer/);
    }
  });
});
