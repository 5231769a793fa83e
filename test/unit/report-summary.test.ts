import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/report/summary.js';
import { check } from '../fixtures/reports/build.js';

describe('summarize: verdicts', () => {
  it('any failed check makes the run non-conformant, naming the failures', () => {
    const s = summarize([
      check({ id: 'product.filter.price.range', status: 'failed' }),
      check({ id: 'product.filter.visible', status: 'failed' }),
      check({ id: 'a.b', status: 'passed' }),
      check({ id: 'c.d', status: 'error' }),
    ], []);
    expect(s.verdict).toBe('non-conformant');
    expect(s.reason).toMatch(/^2 checks failed: product\.filter\.price\.range, product\.filter\.visible/);
    expect(s).toMatchObject({ total: 4, passed: 1, failed: 2, errors: 1, skipped: 0, expectedFail: 0, unexpectedPass: 0 });
  });

  it('lists at most five ids in the reason', () => {
    const checks = Array.from({ length: 8 }, (_, i) => check({ id: `x.c${i}`, status: 'failed' }));
    const s = summarize(checks, []);
    expect(s.reason).toBe('8 checks failed: x.c0, x.c1, x.c2, x.c3, x.c4, … and 3 more');
  });

  it('an error check without failures gives no verdict, mentioning target errors', () => {
    const s = summarize([check({ id: 'a.ok' }), check({ id: 'a.err', status: 'error' })], [{ message: 'ECONNRESET', count: 4 }]);
    expect(s.verdict).toBe('no-verdict');
    expect(s.reason).toContain('a.err');
    expect(s.reason).toContain('ECONNRESET');
  });

  it('no check judged at all gives no verdict', () => {
    expect(summarize([], []).verdict).toBe('no-verdict');
    expect(summarize([], []).reason).toBe('no check ran');
    const s = summarize([check({ id: 'a', status: 'skipped' }), check({ id: 'b', status: 'skipped' })], []);
    expect(s.verdict).toBe('no-verdict');
    expect(s.reason).toBe('no check was judged (2 skipped)');
  });

  it('every judged check failed as expected (--expect covers every failure): conformant, exit 0 as the README says (issue 22, defect 8)', () => {
    const s = summarize([check({ id: 'a', status: 'skipped' }), check({ id: 'b', status: 'expected-fail' }), check({ id: 'c', status: 'expected-fail' })], []);
    expect(s.verdict).toBe('conformant');
    expect(s.reason).toBe('all 2 judged checks failed as expected (--expect) (1 skipped)');
    expect(summarize([check({ id: 'b', status: 'expected-fail' })], []).reason).toBe('the only judged check failed as expected (--expect)');
  });

  it('expected-fail and unexpected-pass do not fail the run', () => {
    const s = summarize([
      check({ id: 'a', status: 'passed' }),
      check({ id: 'b', status: 'expected-fail' }),
      check({ id: 'c', status: 'unexpected-pass' }),
      check({ id: 'd', status: 'skipped' }),
    ], []);
    expect(s.verdict).toBe('conformant');
    expect(s).toMatchObject({ passed: 1, expectedFail: 1, unexpectedPass: 1, skipped: 1, failed: 0, errors: 0, total: 4 });
    expect(s.reason).toBe('all 2 judged checks passed (1 expected to fail, 1 passed unexpectedly, 1 skipped)');
  });

  it('an unexpected pass alone counts as something passing', () => {
    expect(summarize([check({ id: 'c', status: 'unexpected-pass' })], []).verdict).toBe('conformant');
  });
});
