/**
 * The coverage section of report.md and report.html (issue 13): the verdict's
 * coverage line, a resources × item kinds grid of judged / total, and the
 * reasons items were not judged.
 */
import { describe, expect, it } from 'vitest';
import { computeCoverage } from '../../src/report/coverage.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { ItemResult, Report } from '../../src/report/types.js';
import { nonConformantReport } from '../fixtures/reports/build.js';

const item = (id: string, resource: string, kind: ItemResult['kind'], status: ItemResult['status'], reason?: string): ItemResult =>
  ({ id, check: id.split('#')[0], rule: 'filters.array', resource, kind, status, ...(reason ? { reason } : {}) }) as ItemResult;

function withCoverage(): Report {
  const items = [
    item('product.filters.array.name#one', 'product', 'filter', 'passed'),
    item('product.filters.array.name#exact', 'product', 'filter', 'failed'),
    item('order.filters.array.phone#exact', 'order', 'filter', 'not-judged', 'no phone value has letters'),
    item('order.pagination.cap-1000#default-get', 'order', 'pagination', 'not-judged', 'no more than 1000 <records>'),
    item('order.pagination.partition#walk', 'order', 'pagination', 'passed'),
  ];
  return { ...nonConformantReport(), items, coverage: computeCoverage(items) };
}

describe('coverage in the views', () => {
  it('report.md: the line, the grid (judged/total, failed) and the reasons', () => {
    const md = renderMarkdown(withCoverage());
    expect(md).toContain('## Coverage');
    expect(md).toContain('3 of 5 spec items judged; 2 not judged');
    const header = md.split('\n').find((l) => l.startsWith('| resource | filter'))!;
    expect(header).toBe('| resource | filter | pagination |');
    expect(md.split('\n').find((l) => l.startsWith('| **product** | ✗'))).toBe('| **product** | ✗ 2/2, 1 failed | · |');
    expect(md.split('\n').find((l) => l.startsWith('| **order** | ◐'))).toBe('| **order** | ◐ 0/1 | ◐ 1/2 |');
    expect(md).toContain('1 × no phone value has letters: `order.filters.array.phone#exact`');
  });

  it('report.html: a coverage section in the table of contents, escaped reasons', () => {
    const html = renderHtml(withCoverage());
    expect(html).toContain('<section id="coverage">');
    expect(html).toContain('href="#coverage"');
    expect(html).toContain('title="product × filter: 2 of 2 items judged, 1 failed"');
    expect(html).toContain('no more than 1000 &lt;records&gt;');
    expect(html).not.toContain('1000 <records>');
  });

  it('a report without items has no coverage section', () => {
    expect(renderMarkdown(nonConformantReport())).not.toContain('## Coverage');
    expect(renderHtml(nonConformantReport())).not.toContain('id="coverage"');
  });
});
