/**
 * The machinery of `npm run mutation:engine` (scripts/mutation-engine*.ts), without running it:
 * the scope still resolves against today's code (a function renamed or moved is an error here,
 * not a silently smaller scope), the report joins Stryker's statuses with the runner's outcomes
 * and the triage as documented, and the committed triage is well-formed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../reference/cli-process.js';
import { mutatePatterns, resolveEntry, SCOPE } from '../../scripts/mutation-engine-scope.js';
import { joinResults, keyOf, loadTriage, sampleOf, totalsOf, type Triage } from '../../scripts/mutation-engine-report.js';
import type { MutantRecord } from '../../scripts/mutation-engine-run.js';
import { deferred, recordedExit, sampled } from '../../scripts/mutation-engine-gate.mjs';
import { wilson } from '../../scripts/mutation-engine-report.js';
import { filesOf } from '../../scripts/mutation-engine-list.js';

describe('mutation:engine scope', () => {
  it('resolves every entry to existing files and line ranges of today\'s code', () => {
    const patterns = mutatePatterns(ROOT);
    for (const e of SCOPE) expect(patterns.some((p) => p === e.file || p.startsWith(`${e.file}:`)), e.file).toBe(true);
    for (const p of patterns) {
      const [file, range] = p.split(':');
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n').length;
      if (!range) continue;
      const [a, b] = range.split('-').map(Number);
      expect(a, p).toBeGreaterThanOrEqual(1);
      expect(b, p).toBeGreaterThanOrEqual(a);
      expect(b, p).toBeLessThanOrEqual(lines);
    }
  });

  it('never mutates the fault switches, the variants, the seed data or the proof harness', () => {
    const files = new Set(SCOPE.map((e) => e.file));
    for (const f of ['reference/faults.ts', 'reference/faults-generated.ts', 'reference/variants.ts', 'reference/seed.ts', 'reference/prove.ts', 'reference/prove-local.ts', 'reference/cli-process.ts', 'reference/main.ts']) {
      expect(files.has(f), f).toBe(false);
    }
  });

  it('names what it cannot find', () => {
    expect(() => resolveEntry(ROOT, { file: 'reference/server.ts', functions: ['noSuchFunction'], why: '' })).toThrow(/noSuchFunction/);
    expect(() => resolveEntry(ROOT, { file: 'reference/server.ts', statements: { in: 'handle', startingWith: ['no such statement'] }, why: '' })).toThrow(/no such statement/);
  });
});

describe('mutation:engine report', () => {
  const source = [
    'export function f(a: number): boolean {',
    '  return a > 1;',
    '}',
    'export const g = (s: string) => s.trim();',
    '',
  ].join('\n');
  const mutant = (id: string, mutatorName: string, line: number, column: number, endColumn: number, replacement: string, status: string) =>
    ({ id, mutatorName, replacement, status, location: { start: { line, column }, end: { line, column: endColumn } } });
  const stryker = {
    files: {
      'x.ts': {
        source,
        mutants: [
          mutant('1', 'EqualityOperator', 2, 10, 15, 'a >= 1', 'Survived'),
          mutant('2', 'ConditionalExpression', 2, 10, 15, 'true', 'Killed'),
          mutant('3', 'ConditionalExpression', 2, 10, 15, 'false', 'Killed'),
          mutant('4', 'MethodExpression', 4, 33, 41, 's', 'Survived'),
          mutant('5', 'BooleanLiteral', 2, 10, 15, 'x', 'Timeout'),
          mutant('6', 'StringLiteral', 2, 10, 15, '""', 'Ignored'),
          mutant('7', 'ConditionalExpression', 2, 10, 15, 'a', 'Survived'),
          mutant('8', 'EqualityOperator', 2, 10, 15, 'a < 1', 'Survived'),
        ],
      },
    },
  };
  const run = (exit: number, failed: string[]) => ({ configuration: 'default', exit, ms: 1, hits: 3, failedChecks: failed, failedCheckCount: failed.length, failedItems: [], failedItemCount: 0, errorChecks: [], errorCheckCount: 0, changedObservations: [] });
  const records = new Map<string, MutantRecord>([
    ['1', { id: '1', at: '', outcome: 'survived', flaky: { configuration: 'default', failedChecks: ['c.check'] }, reachedBy: ['default'], runs: [run(1, ['c.check']), { ...run(0, []), confirms: 'only' }, { ...run(0, []), confirms: 'again' }] }],
    ['2', { id: '2', at: '', outcome: 'killed', confirmed: 'only', reachedBy: ['default'], runs: [run(1, ['a.check', 'b.check']), { ...run(1, ['b.check']), confirms: 'only' }] }],
    ['3', { id: '3', at: '', outcome: 'no-verdict', reachedBy: ['default'], runs: [{ ...run(3, []), reason: 'the target failed' }] }],
    ['4', { id: '4', at: '', outcome: 'unreached', reachedBy: [], runs: [] }],
    ['7', { id: '7', at: '', outcome: 'harness-error', reachedBy: [], runs: [], problem: 'boom' }],
    ['8', { id: '8', at: '', outcome: 'not-sampled', reachedBy: [], runs: [] }],
  ]);

  it('joins statuses, names mutants by text and scope, and scores detected ÷ (run − equivalents)', () => {
    const empty: Triage = { equivalents: [], gaps: [] };
    const { mutants } = joinResults(stryker as never, records, empty);
    const byId = Object.fromEntries(mutants.map((m) => [m.id, m]));
    expect(byId['1']).toMatchObject({ status: 'survived', scope: 'f', original: 'a > 1', replacement: 'a >= 1', line: 'return a > 1;', lineOffset: 7, hits: 3, tried: ['default'], flaky: { configuration: 'default', failedChecks: ['c.check'] } });
    expect(byId['2']).toMatchObject({ status: 'killed', by: ['a.check', 'b.check'], configuration: 'default', confirmed: 'only', reproducedBy: ['b.check'] });
    expect(byId['3']).toMatchObject({ status: 'no-verdict', reason: 'the target failed' });
    expect(byId['4']).toMatchObject({ status: 'unreached', scope: 'g', original: 's.trim()' });
    expect(byId['5'].status).toBe('timeout');
    expect(byId['6'].status).toBe('ignored');
    expect(byId['7'].status).toBe('harness-error');
    // a sampled run's other mutants: Stryker says survived (the gate exits 0), the report says not sampled and leaves them out
    expect(byId['8'].status).toBe('not-sampled');
    expect(byId['1'].diff).toEqual(['-   return a > 1;', '+   return a >= 1;']);
    const t = totalsOf(mutants);
    expect(t).toMatchObject({ mutants: 8, notSampled: 1, ignored: 1, valid: 6, killed: 1, noVerdict: 1, timeout: 1, detected: 3, survived: 1, unreached: 1, harnessErrors: 1, untriaged: 2, flaky: 1, confirmed: 1 });
    expect(sampleOf(mutants).map((m) => m.id)).toEqual(['2']);
    expect(t.score).toBeCloseTo(3 / 6);
    expect(t.interval![0]).toBeLessThan(0.5);
    expect(t.interval![1]).toBeGreaterThan(0.5);
  });

  it('matches triage entries by key, leaves the equivalents out of the score and lists stale entries', () => {
    const first = joinResults(stryker as never, records, { equivalents: [], gaps: [] }).mutants;
    const survivor = first.find((m) => m.id === '1')!;
    const unreached = first.find((m) => m.id === '4')!;
    const triage: Triage = {
      equivalents: [
        { ...keyOf(survivor), reason: 'the same to a client' }, { ...keyOf(survivor), line: 'moved away', reason: 'stale' },
        // names a mutant of the code this run detected: kept for a later run, not stale
        { ...keyOf(first.find((m) => m.id === '2')!), reason: 'kept' },
      ],
      gaps: [{ ...keyOf(unreached), theme: 'values', kill: 'a check of trimming' }],
    };
    const { mutants, staleTriage } = joinResults(stryker as never, records, triage);
    expect(mutants.find((m) => m.id === '1')!.triage).toEqual({ kind: 'equivalent', reason: 'the same to a client' });
    expect(mutants.find((m) => m.id === '4')!.triage).toEqual({ kind: 'gap', theme: 'values', kill: 'a check of trimming' });
    expect(staleTriage.map((s) => s.line)).toEqual(['moved away']);
    const t = totalsOf(mutants);
    expect(t).toMatchObject({ equivalents: 1, gaps: 1, untriaged: 0 });
    expect(t.score).toBeCloseTo(3 / 5);
  });

  it('a sampled run tests the picked ids only; without a sample, every mutant', () => {
    const ids = Array.from({ length: 100 }, (_, i) => String(i));
    const picked = new Set(['6', '26', '46', '66', '86']);
    expect(ids.filter((id) => sampled(id, picked))).toEqual(['6', '26', '46', '66', '86']);
    expect(ids.filter((id) => sampled(id, undefined))).toHaveLength(100);
  });

  it('--sample-from leaves the sampled mutants below it for a later resume; the report counts one without a record as not run', () => {
    const ids = Array.from({ length: 100 }, (_, i) => String(i));
    const picked = new Set(['6', '26', '46', '66', '86']);
    expect(ids.filter((id) => deferred(id, picked, 50))).toEqual(['6', '26', '46']);
    expect(ids.filter((id) => deferred(id, picked, 0))).toEqual([]);
    expect(ids.filter((id) => deferred(id, undefined, 3))).toEqual(['0', '1', '2']);
    // the gate exits 0 for it (Stryker says survived) and records nothing: not a survivor, not in the score
    const { mutants } = joinResults(stryker as never, new Map([...records].filter(([id]) => id !== '1')), { equivalents: [], gaps: [] });
    expect(mutants.find((m) => m.id === '1')!.status).toBe('not-run');
    expect(totalsOf(mutants)).toMatchObject({ notRun: 1, survived: 0 });
  });

  it('a resumed run answers recorded mutants from their last record: 1 detected, 0 not, nothing to trust otherwise', () => {
    const jsonl = [
      { id: '1', outcome: 'survived' }, { id: '1', outcome: 'killed' }, { id: '2', outcome: 'no-verdict' }, { id: '3', outcome: 'unreached' },
      { id: '4', outcome: 'harness-error' }, { id: '5', outcome: 'not-sampled' },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n{"id":"6","outc';
    expect(['1', '2', '3', '4', '5', '6', '7'].map((id) => recordedExit(jsonl, id))).toEqual([1, 1, 0, undefined, undefined, undefined, undefined]);
  });

  it('a run that ended early is listed again over the same files, in Stryker\'s order, with its ranges (0-based lines)', () => {
    expect(filesOf(['reference/server.ts:10-12', 'reference/engine.ts', 'reference/server.ts:20-20', 'reference/behaviour.ts:5-9'])).toEqual([
      { name: 'reference/behaviour.ts', mutate: [{ start: { line: 4, column: 0 }, end: { line: 8, column: Number.MAX_SAFE_INTEGER } }] },
      { name: 'reference/engine.ts', mutate: true },
      { name: 'reference/server.ts', mutate: [{ start: { line: 9, column: 0 }, end: { line: 11, column: Number.MAX_SAFE_INTEGER } }, { start: { line: 19, column: 0 }, end: { line: 19, column: Number.MAX_SAFE_INTEGER } }] },
    ]);
  });

  it('the score of a sample comes with its 95 % Wilson interval', () => {
    const [lo, hi] = wilson(9, 10);
    expect(lo).toBeCloseTo(0.596, 3);
    expect(hi).toBeCloseTo(0.982, 3);
    expect(wilson(10, 10)[1]).toBe(1);
    expect(wilson(0, 10)[0]).toBe(0);
  });

  it('the committed triage is well-formed: every entry names its mutant and says why', () => {
    const triage = loadTriage(join(ROOT, 'reports', 'mutation-engine'));
    for (const e of [...triage.equivalents, ...triage.gaps]) {
      for (const k of ['file', 'scope', 'mutator', 'original', 'replacement', 'line'] as const) expect(typeof e[k], `${JSON.stringify(e)}: ${k}`).toBe('string');
    }
    for (const e of triage.equivalents) expect(e.reason.length, JSON.stringify(e)).toBeGreaterThan(20);
    for (const g of triage.gaps) {
      expect(g.theme.length, JSON.stringify(g)).toBeGreaterThan(3);
      expect(g.kill.length, JSON.stringify(g)).toBeGreaterThan(20);
    }
  });
});
