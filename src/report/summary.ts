/**
 * The run's summary and verdict.
 *
 * - any `failed` check                        → non-conformant
 * - else any `error` check, or nothing judged → no-verdict (the target could not be judged)
 * - else                                      → conformant
 *
 * `expected-fail` and `unexpected-pass` never fail the run; both were judged:
 * a run whose every judged check failed as expected is conformant (exit 0).
 */
import { coverageLine } from './coverage.js';
import type { CheckResult, Coverage, Report, Summary } from './types.js';

/** How many ids a reason line names before "… and N more". */
const REASON_IDS = 5;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function listIds(checks: readonly CheckResult[]): string {
  const ids = checks.slice(0, REASON_IDS).map((c) => c.id);
  const more = checks.length - ids.length;
  return ids.join(', ') + (more > 0 ? `, … and ${more} more` : '');
}

function targetErrorNote(targetErrors: Report['targetErrors']): string {
  if (!targetErrors?.length) return '';
  const total = targetErrors.reduce((n, e) => n + (Number.isFinite(e.count) ? e.count : 0), 0);
  const top = [...targetErrors].sort((a, b) => b.count - a.count)[0];
  return ` (target errors: ${plural(total, 'request')} failed, most often: ${top.message})`;
}

export interface SummaryOptions {
  /** the run's item coverage: stated in the verdict line */
  coverage?: Coverage;
  /** --min-coverage PERCENT: a run judging fewer items gives no verdict */
  minCoverage?: number;
}

export function summarize(checks: readonly CheckResult[], targetErrors: Report['targetErrors'] = [], opts: SummaryOptions = {}): Summary {
  const { coverage, minCoverage } = opts;
  const line = coverage ? `; ${coverageLine(coverage)}` : '';
  const by = (status: CheckResult['status']) => checks.filter((c) => c.status === status);
  const failed = by('failed');
  const errors = by('error');
  const passed = by('passed');
  const skipped = by('skipped');
  const expectedFail = by('expected-fail');
  const unexpectedPass = by('unexpected-pass');

  const base = {
    total: checks.length,
    passed: passed.length,
    failed: failed.length,
    skipped: skipped.length,
    expectedFail: expectedFail.length,
    unexpectedPass: unexpectedPass.length,
    errors: errors.length,
  };

  if (failed.length > 0) {
    const extra = errors.length ? `; ${plural(errors.length, 'check')} could not be judged` : '';
    return { ...base, verdict: 'non-conformant', reason: `${plural(failed.length, 'check')} failed: ${listIds(failed)}${extra}${line}` };
  }
  if (errors.length > 0) {
    return {
      ...base,
      verdict: 'no-verdict',
      reason: `${plural(errors.length, 'check')} could not be judged: ${listIds(errors)}${targetErrorNote(targetErrors)}`,
    };
  }
  // a check that failed as expected was judged: a run of only those is conformant (README: exit 0)
  if (passed.length + unexpectedPass.length + expectedFail.length === 0) {
    const why = checks.length === 0 ? 'no check ran' : `no check was judged (${skipped.length} skipped)`;
    return { ...base, verdict: 'no-verdict', reason: why + targetErrorNote(targetErrors) };
  }
  const notes = [
    expectedFail.length ? `${expectedFail.length} expected to fail` : '',
    unexpectedPass.length ? `${unexpectedPass.length} passed unexpectedly` : '',
    skipped.length ? `${skipped.length} skipped` : '',
  ].filter(Boolean);
  if (coverage && minCoverage !== undefined && coverage.percent < minCoverage) {
    return { ...base, verdict: 'no-verdict', reason: `coverage ${coverage.percent} % is below --min-coverage ${minCoverage} %: ${coverageLine(coverage)}` };
  }
  const judged = passed.length + unexpectedPass.length;
  const partly = coverage && coverage.notJudged > 0 ? 'conformant on what could be judged: ' : '';
  const what = judged === 0
    ? `${expectedFail.length === 1 ? 'the only judged check' : `all ${expectedFail.length} judged checks`} failed as expected (--expect)${skipped.length ? ` (${skipped.length} skipped)` : ''}`
    : `${judged === 1 ? 'the only judged check' : `all ${judged} judged checks`} passed${notes.length ? ` (${notes.join(', ')})` : ''}`;
  return { ...base, verdict: 'conformant', reason: `${partly}${what}${line}` };
}
