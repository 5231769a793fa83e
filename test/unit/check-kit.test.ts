/**
 * The suite kit's judgement of items (src/check/items.ts, property.ts) and the
 * coverage built from them (src/report/coverage.ts, summary.ts): outcomes keep
 * the worst, properties shrink on item failures and never on target errors,
 * coverage counts what was judged and says why the rest was not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckFailure, TargetError } from '../../src/check/failure.js';
import { ItemBook } from '../../src/check/items.js';
import { currentRun, runItemProperty } from '../../src/check/property.js';
import { checkDef } from '../../src/items/index.js';
import { computeCoverage, coverageLine } from '../../src/report/coverage.js';
import { summarize } from '../../src/report/summary.js';
import type { CheckResult, ItemResult } from '../../src/report/types.js';

const def = checkDef('product.filters.range.price_min');

describe('ItemBook', () => {
  it('keeps the worst outcome: a failure is never overwritten by a later pass or error', () => {
    const b = new ItemBook(def);
    b.pass('bound');
    b.fail('bound', { message: 'first' });
    b.pass('bound');
    b.error('bound', 'no answer');
    expect(b.get('bound')).toMatchObject({ status: 'failed', message: 'first' });
    b.fail('bound', { message: 'shrunk' }, true);
    expect(b.get('bound')?.message).toBe('shrunk');
  });

  it('not judged yields to any judgement; settle fills only the items not recorded', () => {
    const b = new ItemBook(def);
    b.notJudged('equal', 'nothing to judge');
    b.pass('equal');
    b.settle('ended early', () => true);
    expect(b.get('equal')?.status).toBe('passed');
    expect(b.get('bound')).toEqual({ status: 'not-judged', reason: 'ended early' });
  });

  it('rejects a case the catalogue does not list (a suite typo, not a verdict)', () => {
    expect(() => new ItemBook(def).pass('nope')).toThrow(/judges no item "nope"/);
  });
});

describe('runItemProperty', () => {
  const opts = { seed: 42, runs: 20, shrink: true, shrinkMs: 60_000 };

  it('a run failing an item fails the property; the shrunk counterexample is reported per item', async () => {
    const out = await runItemProperty(fc.integer({ min: 0, max: 1000 }), async (n) => {
      if (n >= 10) currentRun()!.failures.set('bound', { message: `too big: ${n}` });
    }, opts);
    const f = out.failures.get('bound');
    expect(f?.message).toMatch(/^too big: 10 \(property failed after/);
    expect(f?.counterexample).toBe(10);
    expect(typeof f?.seed).toBe('number');
  });

  it('a target error stops the property without shrinking and surfaces as a TargetError', async () => {
    let calls = 0;
    await expect(runItemProperty(fc.integer(), async () => {
      calls++;
      throw new TargetError('503');
    }, opts)).rejects.toBeInstanceOf(TargetError);
    expect(calls).toBe(1);
  });

  it('a check-level failure keeps its replay data; a bug of the suite is rethrown as is', async () => {
    await expect(runItemProperty(fc.constant(1), async () => { throw new CheckFailure({ message: 'broken' }); }, opts))
      .rejects.toMatchObject({ detail: { message: expect.stringMatching(/^broken \(property failed/), seed: expect.any(Number) } });
    await expect(runItemProperty(fc.constant(1), async () => { throw new TypeError('bug'); }, opts)).rejects.toBeInstanceOf(TypeError);
  });

  it('a run slower than the shrink limit is judged whole: passing, it passes; failing, it fails (none abandoned in flight)', async () => {
    const slow = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // the first run outlasts the limit: it was abandoned, and the property "failed" with a null error
    await expect(runItemProperty(fc.constant(1), async () => { await slow(60); }, { ...opts, runs: 1, shrinkMs: 20 })).resolves.toEqual({ failures: new Map() });
    // a later run fails after the limit: it went unjudged, and the property passed
    let calls = 0;
    const out = await runItemProperty(fc.integer({ min: 0, max: 1000 }), async () => {
      if (++calls === 3) {
        await slow(60);
        currentRun()!.failures.set('bound', { message: 'late' });
      }
    }, { ...opts, runs: 5, shrinkMs: 20 });
    expect(out.failures.get('bound')?.message).toMatch(/^late \(property failed after 3 run/);
  });

  it('shrinking stops once the first failure is older than the limit: the smallest failing case so far stands', async () => {
    let shrinkRuns = 0;
    const started = performance.now();
    const out = await runItemProperty(fc.array(fc.integer(), { minLength: 200, maxLength: 200 }), async (xs) => {
      shrinkRuns++;
      await new Promise((r) => setTimeout(r, 5));
      if (xs.length >= 1) currentRun()!.failures.set('bound', { message: `length ${xs.length}` });
    }, { ...opts, runs: 1, shrinkMs: 100 });
    expect(out.failures.get('bound')?.message).toMatch(/^length \d+/);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(shrinkRuns).toBeLessThan(200);
  });

  it('replays one case from a seed and path', async () => {
    const seen: number[] = [];
    const out = await runItemProperty(fc.integer({ min: 0, max: 1000 }), async (n) => {
      if (n >= 10) currentRun()!.failures.set('bound', { message: 'x' });
    }, opts);
    const { seed, path } = out.failures.get('bound')!;
    await runItemProperty(fc.integer({ min: 0, max: 1000 }), async (n) => { seen.push(n); }, { ...opts, seed: seed!, replay: { seed: seed!, path: path! } });
    expect(seen).toEqual([10]);
  });
});

const item = (id: string, status: ItemResult['status'], extra: Partial<ItemResult> = {}): ItemResult => ({
  id, check: id.split('#')[0], rule: 'filters.range', resource: id.split('.')[0], kind: 'filter', status, ...extra,
});

describe('coverage', () => {
  const items = [
    item('product.a#x', 'passed'), item('product.a#y', 'failed'), item('order.b#x', 'not-judged', { reason: 'no orders on the target' }),
    item('order.b#y', 'not-judged', { reason: 'no orders on the target' }), item('tax.c#x', 'error', { message: 'HTTP 503' }), item('tax.c#y', 'expected-fail'),
  ];

  it('counts judged items (passed, failed, expected) and groups the others by reason', () => {
    const c = computeCoverage(items);
    expect(c).toMatchObject({ total: 6, judged: 3, notJudged: 3, percent: 50 });
    expect(c.reasons[0]).toEqual({ reason: 'no orders on the target', count: 2, items: ['order.b#x', 'order.b#y'] });
    expect(c.reasons[1].reason).toMatch(/did not answer: HTTP 503/);
    expect(c.matrix).toContainEqual({ resource: 'product', kind: 'filter', total: 2, judged: 2, failed: 1 });
  });

  it('says it in one line', () => {
    expect(coverageLine(computeCoverage(items))).toBe('3 of 6 spec items judged; 3 not judged: no orders on the target (+1 other reason)');
    expect(coverageLine({ total: 1960, judged: 1912, notJudged: 48, percent: 97.55, reasons: [{ reason: 'no orders on the target', count: 48, items: [] }], matrix: [] }))
      .toBe('1 912 of 1 960 spec items judged; 48 not judged: no orders on the target');
  });

  it('the verdict names what was not judged, and --min-coverage turns a shortfall into no verdict', () => {
    const checks = [{ id: 'x', title: 'x', resource: 'product', rule: 'filters.range', group: 'filters', section: '§4', level: 'must', status: 'passed' }] as CheckResult[];
    const coverage = computeCoverage([item('product.a#x', 'passed'), item('order.b#x', 'not-judged', { reason: 'no orders on the target' })]);
    const s = summarize(checks, [], { coverage });
    expect(s.verdict).toBe('conformant');
    expect(s.reason).toMatch(/^conformant on what could be judged: .*1 of 2 spec items judged; 1 not judged: no orders on the target$/);
    const low = summarize(checks, [], { coverage, minCoverage: 80 });
    expect(low.verdict).toBe('no-verdict');
    expect(low.reason).toMatch(/coverage 50 % is below --min-coverage 80 %/);
  });
});

describe('CheckFailure', () => {
  it('gives the test runner a long text by its ends and size (its character diff of two long texts takes minutes); the detail keeps it whole', () => {
    const expected = 'é'.repeat(65535);
    const actual = `${'é'.repeat(30000)}${'e'.repeat(35535)}`;
    const f = new CheckFailure({ message: 'cut', expected, actual });
    expect(f.detail.expected).toBe(expected);
    expect(f.detail.actual).toBe(actual);
    for (const shown of [f.expected, f.actual]) {
      expect(typeof shown).toBe('string');
      expect((shown as string).length).toBeLessThan(600);
      expect(shown).toMatch(/65535 UTF-16 units, \d+ UTF-8 bytes in all/);
    }
    expect(String(f.expected).startsWith('é'.repeat(200))).toBe(true);
    expect(String(f.actual).endsWith('e'.repeat(200))).toBe(true);
  });

  it('gives short texts and other values as they are', () => {
    const f = new CheckFailure({ message: 'x', expected: 'abc', actual: { n: 1 } });
    expect(f.expected).toBe('abc');
    expect(f.actual).toEqual({ n: 1 });
  });
});
