import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyExpectations, expectationsInfo, loadExpectations } from '../../src/report/expectations.js';
import { globToRegExp } from '../../src/items/glob.js';
import { check } from '../fixtures/reports/build.js';

const dir = mkdtempSync(join(tmpdir(), 'storecheck-expect-'));
function file(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe('loadExpectations', () => {
  it('reads a valid file', () => {
    const p = file('ok.json', JSON.stringify({ expectations: [{ id: 'product.filter.*', reason: 'STORE-1' }, { id: 'a.b', reason: 'r', until: '2099-01-01' }] }));
    expect(loadExpectations(p)).toEqual([{ id: 'product.filter.*', reason: 'STORE-1' }, { id: 'a.b', reason: 'r', until: '2099-01-01' }]);
  });

  it.each([
    ['not-json.json', '{ expectations: [', /not valid JSON/],
    ['array.json', '[]', /expected a JSON object/],
    ['no-list.json', '{"expectations": {}}', /"expectations" must be an array/],
    ['no-id.json', '{"expectations": [{"reason": "x"}]}', /expectations\[0\]\.id must be a non-empty string/],
    ['no-reason.json', '{"expectations": [{"id": "a"}]}', /expectations\[0\]\.reason/],
    ['typo.json', '{"expectations": [{"id": "a", "reason": "r", "untill": "x"}]}', /unknown key "untill"/],
    ['dup.json', '{"expectations": [{"id": "a", "reason": "r"}, {"id": "a", "reason": "s"}]}', /listed twice/],
    ['top.json', '{"expectation": []}', /unknown top-level key "expectation"/],
  ])('rejects %s with a message naming the file and the problem', (name, content, problem) => {
    const p = file(name, content);
    expect(() => loadExpectations(p)).toThrowError(problem);
    expect(() => loadExpectations(p)).toThrowError(p);
  });

  it('names a missing file', () => {
    expect(() => loadExpectations(join(dir, 'nope.json'))).toThrowError(/nope\.json: cannot read it/);
  });
});

describe('applyExpectations', () => {
  const checks = [
    check({ id: 'product.filter.price.range', status: 'failed', message: 'boom' }),
    check({ id: 'product.filter.visible', status: 'passed' }),
    check({ id: 'product.filter.name', status: 'error' }),
    check({ id: 'order.get.shape', status: 'failed' }),
    check({ id: 'coupon.x', status: 'passed' }),
  ];

  it('turns matching failures into expected-fail and matching passes into unexpected-pass', () => {
    const r = applyExpectations(checks, [{ id: 'product.filter.*', reason: 'STORE-118' }, { id: 'page.*', reason: 'old' }]);
    const by = Object.fromEntries(r.checks.map((c) => [c.id, c]));
    expect(by['product.filter.price.range']).toMatchObject({ status: 'expected-fail', reason: 'STORE-118', message: 'boom' });
    expect(by['product.filter.visible'].status).toBe('unexpected-pass');
    expect(by['product.filter.visible'].reason).toContain('STORE-118');
    expect(by['product.filter.name'].status).toBe('error');
    expect(by['order.get.shape'].status).toBe('failed');
    expect(by['coupon.x'].status).toBe('passed');
    expect(r.applied).toBe(2);
    expect(r.stale).toEqual(['page.*']);
    expect(expectationsInfo('expect.json', r)).toEqual({ file: 'expect.json', applied: 2, stale: [{ id: 'page.*', reason: 'old' }] });
  });

  it('does not mutate its input', () => {
    applyExpectations(checks, [{ id: 'order.get.shape', reason: 'r' }]);
    expect(checks[3].status).toBe('failed');
  });

  it('prefers an exact id over a glob', () => {
    const r = applyExpectations(checks, [{ id: 'order.*', reason: 'glob' }, { id: 'order.get.shape', reason: 'exact' }]);
    expect(r.checks.find((c) => c.id === 'order.get.shape')!.reason).toBe('exact');
    expect(r.stale).toEqual(['order.*']);
  });

  it('globs: * spans dots, everything else is literal', () => {
    expect(globToRegExp('product.*.range').test('product.filter.price.range')).toBe(true);
    expect(globToRegExp('product.*').test('productXfoo')).toBe(false);
    expect(globToRegExp('*').test('anything.at.all')).toBe(true);
    expect(globToRegExp('a+b(c)').test('a+b(c)')).toBe(true);
  });

  it('an entry past its until date is expired, not applied', () => {
    const r = applyExpectations(checks, [{ id: 'order.get.shape', reason: 'r', until: '2020-01-01' }], { now: new Date('2025-01-01') });
    expect(r.checks.find((c) => c.id === 'order.get.shape')!.status).toBe('failed');
    expect(r.expired.map((e) => e.id)).toEqual(['order.get.shape']);
    expect(r.stale).toEqual([]);
    const live = applyExpectations(checks, [{ id: 'order.get.shape', reason: 'r', until: '2099-01-01' }]);
    expect(live.checks.find((c) => c.id === 'order.get.shape')!.status).toBe('expected-fail');
  });
});
