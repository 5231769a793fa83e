import { describe, expect, it } from 'vitest';
import { renderJUnit, xmlEscape } from '../../src/report/junit.js';
import { HOSTILE, check, hostileReport, makeReport, nonConformantReport } from '../fixtures/reports/build.js';
import { findAll, parseXml } from '../fixtures/reports/xml.js';

describe('renderJUnit', () => {
  const report = nonConformantReport();
  const xml = renderJUnit(report);
  const root = parseXml(xml);

  it('is well-formed XML with one testsuite per resource', () => {
    expect(root.name).toBe('testsuites');
    const suites = findAll(root, 'testsuite').map((s) => s.attrs.name);
    // the fixture's baseline regression adds a suite of its own
    expect(suites).toEqual(['blogpost', 'coupon', 'order', 'product', 'store', 'cross-resource', 'baseline']);
  });

  it('counts match the report (checks, and one failed testcase per baseline regression)', () => {
    const s = report.summary;
    const regressions = report.baseline!.newFailures.length + report.baseline!.changedObservations.length;
    expect(regressions).toBeGreaterThan(0);
    expect(Number(root.attrs.tests)).toBe(s.total + regressions);
    expect(Number(root.attrs.failures)).toBe(s.failed + regressions);
    expect(Number(root.attrs.errors)).toBe(s.errors);
    expect(Number(root.attrs.skipped)).toBe(s.skipped + s.expectedFail);
    expect(findAll(root, 'testcase')).toHaveLength(s.total + regressions);
    expect(findAll(root, 'failure')).toHaveLength(s.failed + regressions);
    expect(findAll(root, 'error')).toHaveLength(s.errors);
    expect(findAll(root, 'skipped')).toHaveLength(s.skipped + s.expectedFail);
    for (const suite of findAll(root, 'testsuite')) {
      const cases = findAll(suite, 'testcase');
      expect(Number(suite.attrs.tests)).toBe(cases.length);
      expect(Number(suite.attrs.failures)).toBe(findAll(suite, 'failure').length);
    }
  });

  it('names testcases storecheck.<resource>.<group> / "<id>: <title>" and explains failures', () => {
    const tc = findAll(root, 'testcase').find((t) => t.attrs.name.startsWith('product.filter.price.range:'))!;
    expect(tc.attrs.classname).toBe('storecheck.product.filters');
    expect(tc.attrs.name).toBe('product.filter.price.range: price_min / price_max bound price');
    const failure = tc.children[0];
    expect(failure.name).toBe('failure');
    expect(failure.attrs.message).toBe('price_max=10.00 returned a record with price 12.50');
    expect(failure.text).toContain('spec: §4 Filter naming');
    expect(failure.text).toContain('expected:\n{\n  "filter"');
    expect(failure.text).toContain('actual:');
    expect(failure.text).toContain('seed: 424242');
    expect(failure.text).toContain("curl -sS -X POST 'https://store.example.test/api/v1/product/get'");
    const xf = findAll(root, 'testcase').find((t) => t.attrs.name.startsWith('product.create.size-quirk'))!;
    expect(xf.children[0].name).toBe('skipped');
    expect(xf.children[0].attrs.message).toContain('expected failure: vendor ticket STORE-118');
  });

  it('carries seed, target and verdict as properties', () => {
    const props = Object.fromEntries(findAll(findAll(root, 'testsuite')[0], 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props).toMatchObject({ seed: '424242', target: 'https://store.example.test', verdict: 'non-conformant' });
  });

  it('stays valid with hostile text and strips characters XML 1.0 forbids', () => {
    const h = renderJUnit(hostileReport());
    const doc = parseXml(h); // throws if not well-formed
    const failure = findAll(doc, 'failure')[0];
    expect(failure.attrs.message).toContain(HOSTILE);
    expect(failure.attrs.message).not.toMatch(/[\u0000\u0007\uFFFE]/);
    expect(findAll(doc, 'testsuite').map((s) => s.attrs.name)).toContain('prod"uct<b>');
    expect(xmlEscape('a\u0000b\u0008c\uD800d\u{1F600}]]>')).toBe('abcd\u{1F600}]]&gt;');
  });

  it('keeps line breaks of attribute values as character references', () => {
    const r = nonConformantReport();
    r.checks[2].message = 'line one\nline two';
    const tc = findAll(parseXml(renderJUnit(r)), 'failure')[0];
    expect(tc.attrs.message).toBe('line one line two');
    const props = findAll(parseXml(renderJUnit(r)), 'property').find((p) => p.attrs.name === 'reason')!;
    expect(props.attrs.value).toContain('product.filter.price.range');
  });
});

describe('renderJUnit: the run itself (issue 15, CI artefacts agree with the exit code)', () => {
  it('a run stopped before its checks is one errored testcase naming why', () => {
    const stopped = makeReport([], { summary: { total: 0, passed: 0, failed: 0, expectedFail: 0, unexpectedPass: 0, errors: 0, skipped: 0, verdict: 'no-verdict', reason: 'stopped at the preflight: cannot reach https://x: ECONNREFUSED' }, targetErrors: [{ message: 'cannot reach https://x: ECONNREFUSED', count: 1 }] });
    const root = parseXml(renderJUnit(stopped));
    expect(root.attrs.errors).toBe('1');
    const cases = findAll(root, 'testcase');
    expect(cases.map((c) => c.attrs.name)).toEqual(['the run reaches a verdict']);
    expect(findAll(cases[0], 'error')[0].attrs.message).toMatch(/stopped at the preflight: cannot reach/);
  });

  it('a conformant run has no run testcase; a baseline regression is a failed testcase per new failure and changed observation', () => {
    const base = makeReport([check({ id: 'product.filters.id', status: 'passed' })]);
    expect(findAll(parseXml(renderJUnit(base)), 'testcase').map((c) => c.attrs.name)).not.toContain('the run reaches a verdict');
    const regressed = makeReport([check({ id: 'product.filters.id', status: 'failed' })], {
      baseline: { baselineFile: 'base.json', newFailures: ['product.filters.id'], fixed: [], newChecks: [], missingChecks: [], changedObservations: [{ key: 'order.default', before: 'id asc', after: 'unordered' }], regression: true },
    });
    const root = parseXml(renderJUnit(regressed));
    const suite = findAll(root, 'testsuite').find((s) => s.attrs.name === 'baseline')!;
    expect(suite.attrs.failures).toBe('2');
    const messages = findAll(suite, 'failure').map((f) => f.attrs.message);
    expect(messages[0]).toMatch(/product\.filters\.id passed in the baseline \(base\.json\) and fails now/);
    expect(messages[1]).toMatch(/observation order\.default changed: "id asc" → "unordered"/);
    expect(Number(root.attrs.failures)).toBe(3);
  });
});
