import { describe, expect, it } from 'vitest';
import { compareReports, renderCompareHtml, renderCompareMarkdown } from '../../src/report/compare.js';
import { check, hostileReport, makeReport } from '../fixtures/reports/build.js';
import { htmlTagProblems } from '../fixtures/reports/xml.js';

const a = makeReport([
  check({ id: 'product.same', status: 'passed' }),
  check({ id: 'product.flip', status: 'passed' }),
  check({ id: 'order.only-a', status: 'failed' }),
], { observations: { 'page.default': { value: 50 }, 'same.obs': { value: ['x'] }, 'only.a': { value: true } } });
const b = makeReport([
  check({ id: 'product.same', status: 'passed' }),
  check({ id: 'product.flip', status: 'failed', message: 'price 12.50 above max' }),
  check({ id: 'store.only-b', status: 'skipped' }),
], { observations: { 'page.default': { value: 100 }, 'same.obs': { value: ['x'] } } });
b.target.baseUrl = 'https://other.example.test';

describe('compareReports', () => {
  const cmp = compareReports(a, b, ['vendor 1', 'vendor 2']);

  it('compares check by check, differing first', () => {
    expect(cmp.differingChecks).toBe(3);
    expect(cmp.checks.map((c) => [c.id, c.a, c.b, c.differs])).toEqual([
      ['order.only-a', 'failed', undefined, true],
      ['product.flip', 'passed', 'failed', true],
      ['store.only-b', undefined, 'skipped', true],
      ['product.same', 'passed', 'passed', false],
    ]);
  });

  it('compares observation by observation (deep)', () => {
    expect(cmp.differingObservations).toBe(2);
    expect(cmp.observations.map((o) => [o.key, o.differs])).toEqual([['only.a', true], ['page.default', true], ['same.obs', false]]);
    expect(cmp.observations[1]).toMatchObject({ a: 50, b: 100 });
  });

  it('Markdown lists the differing checks, marked', () => {
    const md = renderCompareMarkdown(cmp);
    expect(md).toContain('# storecheck compare: vendor 1 vs vendor 2');
    expect(md).toContain('| ≠ | `product.flip` | product | conventions | §2 Conventions | ✅ passed | ❌ failed |');
    expect(md).toContain('| ≠ | `order.only-a` | order | conventions | §2 Conventions | ❌ failed | (absent) |');
    expect(md).toContain('<summary>1 check with the same status in both</summary>');
    expect(md.indexOf('|  | `product.same` |')).toBeGreaterThan(md.indexOf('<details>'));
    expect(md).toContain('| ≠ | `page.default` | `50` | `100` |');
    expect(md).toContain('`https://other.example.test`');
  });

  it('HTML lists the differing checks, marked, and is self-contained', () => {
    const html = renderCompareHtml(cmp);
    expect(html).toMatch(/<tr id="c-product\.flip-[a-z0-9]+" class="differs"><td class="mark">≠<\/td><td class="id"><code>product\.<wbr>flip<\/code>/);
    expect(html).toMatch(/<tr id="c-product\.same-[a-z0-9]+" class=""><td class="mark"><\/td>/);
    expect(html).toContain('price 12.50 above max');
    expect(html.indexOf('id="c-product.same-')).toBeGreaterThan(html.indexOf('<summary>1 check with the same status in both</summary>'));
    expect(html).not.toMatch(/\s(src|href)="(?!#)/);
    expect(html).not.toMatch(/<link|<script/i);
    expect(htmlTagProblems(html)).toEqual([]);
  });

  it('escapes hostile reports', () => {
    const html = renderCompareHtml(compareReports(hostileReport(), a, ['<b>A</b>', 'B']));
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>A</b>');
    expect(htmlTagProblems(html)).toEqual([]);
  });
});
