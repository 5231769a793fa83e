/**
 * Latency figures (issue 22): the target's answer times per operation and per endpoint (count, median,
 * p95, max) from the exchanges' round trips, and the slowest checks — in report.json (its schema), report.md,
 * report.html and the terminal's summary, each view a function of report.json alone.
 */
import { readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { latencyFigures, mergeTables, recordLatency, type LatencyTable } from '../../src/client/latency.js';
import { latencySection } from '../../src/report/latency.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderHtml } from '../../src/report/html.js';
import { summaryLines } from '../../src/run/terminal.js';
import { check, makeReport } from '../fixtures/reports/build.js';

const Ajv2020 = (Ajv2020Module as any).default ?? Ajv2020Module;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;

/** A deterministic spread of durations (a pseudo-random generator of its own: the test must not depend on a seed elsewhere). */
function durations(n: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return 0.2 + (x / 2 ** 31) ** 3 * 900;
  });
}

const exact = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.max(1, Math.ceil(q * xs.length)) - 1];

describe('latency histogram', () => {
  it('median and p95 within 2 % above the exact nearest-rank value, max exact, count exact', () => {
    for (const seed of [1, 7, 2026]) {
      const xs = durations(5000, seed);
      const t: LatencyTable = {};
      for (const x of xs) recordLatency(t, '/api/v1/products/get', x);
      const f = latencyFigures(t['/api/v1/products/get']);
      expect(f.count).toBe(5000);
      expect(f.maxMs).toBeCloseTo(Math.max(...xs), 1);
      for (const [got, q] of [[f.medianMs, 0.5], [f.p95Ms, 0.95]] as const) {
        const want = exact(xs, q);
        expect(got, `q=${q}`).toBeGreaterThanOrEqual(Math.floor(want * 10) / 10);
        expect(got, `q=${q}`).toBeLessThanOrEqual(want * 1.02 + 0.1);
      }
      // a few hundred buckets at most, whatever the count
      expect(Object.keys(t['/api/v1/products/get'].buckets).length).toBeLessThan(600);
    }
  });

  it('tables of several processes add up to the table of all their answers', () => {
    const xs = durations(3000, 3);
    const whole: LatencyTable = {};
    const parts: LatencyTable[] = [{}, {}, {}];
    xs.forEach((x, i) => {
      const path = i % 2 ? '/api/v1/products/count' : '/api/v1/pages/get';
      recordLatency(whole, path, x);
      recordLatency(parts[i % 3], path, x);
    });
    expect(mergeTables(parts)).toEqual(whole);
  });
});

describe('report.json latency and its views', () => {
  const table: LatencyTable = {};
  const paths = ['/api/v1/products/get', '/api/v1/products/delete', '/api/v1/pages/get', '/api/v1/products/count', '/api/v1/products/create', '/api/v1/store/get', '/api/v1/coupons/update'];
  durations(700, 11).forEach((x, i) => recordLatency(table, paths[i % paths.length], x));
  const checks = Array.from({ length: 14 }, (_, i) => check({ id: `product.c${i}`, durationMs: (i * 37) % 14 * 100 + 5 }));
  const latency = latencySection(table, checks);
  const report = makeReport(checks, { latency });

  it('per operation in the order get, count, create, update, delete, every resource together; per endpoint; the 10 slowest checks', () => {
    expect(Object.keys(latency.byOperation)).toEqual(['get', 'count', 'create', 'update', 'delete']);
    expect(latency.byOperation.get.count).toBe(table['/api/v1/products/get'].count + table['/api/v1/pages/get'].count + table['/api/v1/store/get'].count);
    expect(Object.keys(latency.byEndpoint)).toEqual([...paths].sort());
    expect(latency.slowestChecks).toHaveLength(10);
    const ds = latency.slowestChecks.map((c) => c.durationMs);
    expect(ds).toEqual([...ds].sort((a, b) => b - a));
    expect(ds[0]).toBe(Math.max(...checks.map((c) => c.durationMs!)));
  });

  it('is valid against schemas/report.schema.json', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8')));
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('report.md, report.html and the terminal show it', () => {
    const get = latency.byOperation.get;
    const md = renderMarkdown(report);
    expect(md).toContain('## Latency');
    expect(md).toMatch(new RegExp(`\\| get \\| ${get.count} \\| `));
    expect(md).toContain('### Slowest checks');
    expect(md).toContain('`/api/v1/products/delete`');
    const html = renderHtml(report);
    expect(html).toContain('<section id="latency">');
    expect(html).toContain('<a href="#latency">Latency</a>');
    expect(html).toContain(`<td>get</td><td class="num">${get.count}</td>`);
    const lines = summaryLines(report, ['/r/report.json']);
    expect(lines.find((l) => l.startsWith('latency (median / p95 / max, answers): get '))).toContain(`(${get.count})`);
    expect(lines.find((l) => l.startsWith('slowest checks: '))).toContain(latency.slowestChecks[0].id);
  });

  it('a report without latency (a merged one, or one from before) shows none of it', () => {
    const plain = makeReport(checks);
    expect(renderMarkdown(plain)).not.toContain('## Latency');
    expect(renderHtml(plain)).not.toContain('id="latency"');
    expect(summaryLines(plain, []).some((l) => l.startsWith('latency'))).toBe(false);
  });
});
