/**
 * What a run prints and records for a user (issue 17): colour by NO_COLOR /
 * FORCE_COLOR / terminal; failures grouped by rule in the closing summary;
 * --keep-data said with its sweep command; the progress total known before
 * the first check (the collector's plan); and reproducer commands carrying the
 * run's seed, depth, target and replayed case.
 */
import { describe, expect, it } from 'vitest';
import { colourEnabled, paint } from '../../src/run/colour.js';
import { CheckCollector, type Progress } from '../../src/run/collector.js';
import { reproducerCommand, type ReproducerConfig } from '../../src/run/reproduce.js';
import { failureLines, summaryLines } from '../../src/run/terminal.js';
import type { CheckResult } from '../../src/report/types.js';
import { check, makeReport } from '../fixtures/reports/build.js';

describe('colour', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };

  it('on a terminal by default; NO_COLOR (any non-empty value) turns it off; never on a pipe by itself', () => {
    expect(colourEnabled(tty, {})).toBe(true);
    expect(colourEnabled(pipe, {})).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: 'false' })).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '' })).toBe(true);
    expect(colourEnabled(tty, { TERM: 'dumb' })).toBe(false);
  });

  it('FORCE_COLOR turns it on without a terminal (and over NO_COLOR); FORCE_COLOR=0 turns it off', () => {
    expect(colourEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled(pipe, { FORCE_COLOR: '' })).toBe(true);
    expect(colourEnabled(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(colourEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourEnabled(tty, { FORCE_COLOR: 'false' })).toBe(false);
  });

  it('paints with ANSI when on, leaves text alone when off', () => {
    expect(paint(true).red('x')).toBe('\x1b[31mx\x1b[39m');
    expect(paint(false).red('x')).toBe('x');
  });
});

function failed(id: string, rule: string, resource: string, extra: Partial<CheckResult> = {}): CheckResult {
  return check({ id, rule, resource, status: 'failed', section: '§4 Filter naming', message: `${id} broke it\nsecond line`, ...extra });
}

describe('the closing summary', () => {
  const checks = [
    ...['product', 'category', 'coupon'].flatMap((r) => [1, 2].map((n) => failed(`${r}.filters.range.f${n}`, 'filters.range', r))),
    failed('order.filters.array.status', 'filters.array', 'order', { reproducer: { command: 'npm run conformance -- --only x' } }),
    check({ id: 'product.ok' }),
  ];

  it('groups failures by rule, largest first: count, resources, section, the first message, the next ids', () => {
    const lines = failureLines(checks);
    expect(lines[0]).toBe('failures by rule (2 rules, 7 checks):');
    expect(lines[1]).toMatch(/^ {2}✗ filters\.range ×6 on 3 resources \(§4 Filter naming, must\) — /);
    expect(lines[2]).toBe('      product.filters.range.f1: product.filters.range.f1 broke it');
    expect(lines[3]).toMatch(/^ {6}also product\.filters\.range\.f2, \w+\.filters\.range\.f1, \w+\.filters\.range\.f2 … \(\+2 more\)$/);
    expect(lines[4]).toMatch(/^ {2}✗ filters\.array ×1 on 1 resource /);
    expect(lines[6]).toBe('      rerun: npm run conformance -- --only x');
    expect(failureLines([check({ id: 'a.b' })])).toEqual([]);
  });

  it('shows at most 8 rules and says how many more', () => {
    const many = Array.from({ length: 10 }, (_, i) => failed(`x.r${i}`, `rule${i}`, 'x'));
    const lines = failureLines(many);
    expect(lines.filter((l) => l.includes('✗'))).toHaveLength(8);
    expect(lines.at(-1)).toBe('  … and 2 more rule(s) with 2 failed check(s) (see the report)');
  });

  it('--keep-data: how many records were kept and the sweep command that removes them', () => {
    const report = makeReport([check({ id: 'a.b' })], { cleanup: { created: 12, deleted: 0, leftBehind: [], kept: 12, sweep: 'storecheck sweep --ledger /r/ledger.jsonl --base-url https://s' } });
    const lines = summaryLines(report, ['/r/report.json']);
    expect(lines).toContain('kept: 12 record(s) the run created are still on the target (--keep-data); remove them later with:');
    expect(lines).toContain('  storecheck sweep --ledger /r/ledger.jsonl --base-url https://s');
  });

  it('tells records left behind (read back) from records it could not verify, with the sweep that retries both, --base-url included', () => {
    const cleanup = {
      created: 20, deleted: 15, leftBehind: ['collection:0b9c8a36-1111-4a4a-9c9c-000000000001 (the target answered success, yet it is still there when read back)'],
      unverified: [{ resource: 'page', reason: 'the read-back got no answer (TIMEOUT: no complete answer within 1000 ms)', ids: ['a', 'b', 'c', 'd'] }],
      unverifiedCount: 4, sweep: 'storecheck sweep --ledger /r/ledger.jsonl --base-url https://s',
    };
    const lines = summaryLines(makeReport([check({ id: 'a.b' })], { cleanup }), ['/r/report.json']);
    expect(lines).toContain('cleanup: 15 of the 20 record(s) the run created are gone (read back)');
    expect(lines).toContain('cleanup: 1 record(s) LEFT BEHIND on the target (still there when read back)');
    expect(lines).toContain('cleanup: could not verify 4 record(s): no usable read-back (they may be gone or still there)');
    expect(lines).toContain('  could not verify 4 page: the read-back got no answer (TIMEOUT: no complete answer within 1000 ms)');
    expect(lines).toContain('  retry with: storecheck sweep --ledger /r/ledger.jsonl --base-url https://s');
    // nothing proven to remain: no LEFT BEHIND line at all
    const unsure = summaryLines(makeReport([check({ id: 'a.b' })], { cleanup: { ...cleanup, deleted: 16, leftBehind: [] } }), ['/r/report.json']);
    expect(unsure.join('\n')).not.toContain('LEFT BEHIND');
    expect(unsure).toContain('cleanup: could not verify 4 record(s): no usable read-back (they may be gone or still there)');
  });

  it('colours the verdict when asked', () => {
    const lines = summaryLines(makeReport([failed('a.b', 'filters.range', 'a')]), [], paint(true));
    expect(lines[1]).toContain('\x1b[31mNON-CONFORMANT\x1b[39m');
    expect(summaryLines(makeReport([failed('a.b', 'filters.range', 'a')]), [])[1]).toMatch(/^verdict: NON-CONFORMANT — /);
  });
});

describe('reproducer commands', () => {
  const external: ReproducerConfig = { seed: 7, depth: 'quick', baseUrl: 'https://staging.example.com/x', embedded: false, readOnly: false, insecure: false };

  it('carry the run seed, depth and target — never the key — and --replay for a property case', () => {
    expect(reproducerCommand(external, 'product.filters.id', { seed: -5, path: '0:1' })).toBe(
      "npm run conformance -- --only 'product.filters.id' --seed 7 --depth quick --base-url 'https://staging.example.com/x' --replay -5:0:1",
    );
    expect(reproducerCommand(external, 'a.b#c', { seed: 3 })).not.toContain('--replay');
    expect(reproducerCommand({ ...external, readOnly: true, insecure: true, visibilityTimeoutMs: 9000, maxAnswerBytes: 8 * 1024 * 1024 }, 'a.b')).toMatch(/--read-only --insecure --visibility-timeout-ms 9000 --max-answer-mb 8$/);
  });

  it('for the embedded server: its faults and variant instead of a URL', () => {
    const cmd = reproducerCommand({ ...external, embedded: true, baseUrl: 'http://127.0.0.1:4000', referenceFaults: ['a', 'b'], referenceVariant: 'v' }, 'a.b');
    expect(cmd).toBe("npm run conformance -- --only 'a.b' --seed 7 --depth quick --reference-faults 'a,b' --reference-variant 'v'");
  });
});

describe('the collector', () => {
  const module = (moduleId: string, ids: string[]) => ({
    moduleId,
    errors: () => [],
    children: { allTests: () => ids.map((id) => ({ name: `${id} — title`, options: { mode: 'run' } })) },
  });
  const testCase = (meta: Record<string, unknown>, state = 'failed') => ({
    fullName: String(meta.id),
    meta: () => ({ storecheck: meta }),
    result: () => ({ state, errors: [] }),
    diagnostic: () => ({ duration: 3 }),
  });
  const meta = (id: string, failure?: Record<string, unknown>) => ({
    id, title: 't', resource: 'product', rule: 'filters.id', group: 'filters', section: '§4', level: 'must', requests: 1, seed: 99, items: {},
    ...(failure ? { failure } : {}),
  });

  it('starts the progress at the planned total, and names a file that registers other checks than planned', () => {
    const seen: Progress[] = [];
    const c = new CheckCollector((p) => seen.push(p), { ...{ seed: 7, depth: 'quick', baseUrl: 'https://s', embedded: false, readOnly: false, insecure: false }, only: undefined });
    c.setPlan({ total: 3, items: 3, byFile: new Map([['/r/suites/a.check.ts', ['a.x', 'a.y']], ['/r/suites/b.check.ts', ['b.z']]]) });
    expect(c.planned).toBe(3);
    c.onTestModuleCollected(module('/r/suites/a.check.ts', ['a.x', 'a.y']) as never);
    c.onTestCaseResult(testCase(meta('a.x'), 'passed') as never);
    expect(seen.at(-1)).toMatchObject({ done: 1, total: 3 });
    expect(c.planMismatches).toEqual([]);
    c.onTestModuleCollected(module('/r/suites/b.check.ts', ['b.z', 'b.w']) as never);
    expect(c.planned).toBe(4);
    expect(c.planMismatches).toEqual([expect.stringMatching(/b\.check\.ts: registers 2 selected check\(s\), the plan says 1/)]);
  });

  it('writes a reproducer command with the run seed, depth, target and the failed property case', () => {
    const c = new CheckCollector(undefined, { seed: 7, depth: 'quick', baseUrl: 'https://s', embedded: false, readOnly: false, insecure: false });
    c.onTestCaseResult(testCase(meta('product.filters.id', { message: 'm', seed: -12, path: '0:2', curl: 'curl …' })) as never);
    expect(c.results[0].reproducer).toEqual({
      curl: 'curl …', seed: -12, path: '0:2',
      command: "npm run conformance -- --only 'product.filters.id' --seed 7 --depth quick --base-url 'https://s' --replay -12:0:2",
    });
  });
});

describe('how printed commands start', () => {
  it('npm run conformance -- in a clone, npx storecheck where the package is installed', async () => {
    const { invocationFor } = await import('../../src/invocation.js');
    expect(invocationFor('/home/me/storecheck/')).toBe('npm run conformance --');
    expect(invocationFor('/ci/project/node_modules/storecheck/')).toBe('npx storecheck');
  });
});
