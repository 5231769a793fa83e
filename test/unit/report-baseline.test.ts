import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deepEqual, diffBaseline, loadReport } from '../../src/report/baseline.js';
import { check, makeReport } from '../fixtures/reports/build.js';

const before = makeReport([
  check({ id: 'a.passes', status: 'passed' }),
  check({ id: 'a.breaks', status: 'passed' }),
  check({ id: 'a.fixed', status: 'failed' }),
  check({ id: 'a.known', status: 'failed' }),
  check({ id: 'a.gone', status: 'passed' }),
], { observations: { 'pagination.default': { value: { size: 100, order: ['id', 'name'] } }, 'only.before': { value: 1 } } });

describe('diffBaseline', () => {
  it('lists new failures, fixes, new and missing checks; a new failure is a regression', () => {
    const now = makeReport([
      check({ id: 'a.passes', status: 'passed' }),
      check({ id: 'a.breaks', status: 'failed' }),
      check({ id: 'a.fixed', status: 'passed' }),
      check({ id: 'a.known', status: 'failed' }),
      check({ id: 'a.new', status: 'failed' }),
    ], { observations: { 'pagination.default': { value: { order: ['id', 'name'], size: 100 } }, 'only.now': { value: 2 } } });
    const d = diffBaseline(now, before, 'base.json');
    expect(d).toEqual({
      baselineFile: 'base.json',
      newFailures: ['a.breaks', 'a.new'],
      fixed: ['a.fixed'],
      newChecks: ['a.new'],
      missingChecks: ['a.gone'],
      changedObservations: [],
      regression: true,
    });
  });

  it('a changed observation is a regression, even when every check passes', () => {
    const now = makeReport(before.checks.map((c) => ({ ...c, status: 'passed' as const })), {
      observations: { 'pagination.default': { value: { size: 50, order: ['id', 'name'] } } },
    });
    const d = diffBaseline(now, before, 'base.json');
    expect(d.newFailures).toEqual([]);
    expect(d.fixed).toEqual(['a.fixed', 'a.known']);
    expect(d.changedObservations).toEqual([{ key: 'pagination.default', before: { size: 100, order: ['id', 'name'] }, after: { size: 50, order: ['id', 'name'] } }]);
    expect(d.regression).toBe(true);
  });

  it('the same report against itself: nothing changed, no regression', () => {
    const d = diffBaseline(before, before, 'base.json');
    expect(d.regression).toBe(false);
    expect([d.newFailures, d.fixed, d.newChecks, d.missingChecks, d.changedObservations]).toEqual([[], [], [], [], []]);
  });

  it('a failure the baseline already expected is not new', () => {
    const base = makeReport([check({ id: 'x', status: 'expected-fail' })]);
    const now = makeReport([check({ id: 'x', status: 'failed' })]);
    expect(diffBaseline(now, base, 'b').newFailures).toEqual([]);
  });

  it('deepEqual ignores key order and compares arrays in order', () => {
    expect(deepEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(deepEqual('1', 1)).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
  });
});

describe('loadReport', () => {
  const dir = mkdtempSync(join(tmpdir(), 'storecheck-base-'));
  it('reads a report and names the file when it is not one', () => {
    const ok = join(dir, 'ok.json');
    writeFileSync(ok, JSON.stringify(before));
    expect(loadReport(ok).checks).toHaveLength(5);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ reportVersion: 2, checks: [] }));
    expect(() => loadReport(bad)).toThrowError(/bad\.json: unsupported reportVersion 2/);
    expect(() => loadReport(join(dir, 'missing.json'))).toThrowError(/missing\.json/);
  });
});
