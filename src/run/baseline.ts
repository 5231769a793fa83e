/**
 * --baseline: the run's report against an earlier one. New failures and
 * changed observations are a regression, and a regression fails a run that
 * would otherwise be conformant (src/report/baseline.ts finds them).
 */
import { diffBaseline } from '../report/baseline.js';
import type { Report } from '../report/types.js';
import type { GivenFiles } from './given.js';

export function applyBaseline(report: Report, given: GivenFiles['baseline']): Report {
  if (!given) return report;
  const baseline = diffBaseline(report, given.report, given.file);
  if (!baseline.regression || report.summary.verdict !== 'conformant') return { ...report, baseline };
  const what = [...baseline.newFailures, ...baseline.changedObservations.map((c) => `observation ${c.key}`)].slice(0, 5).join(', ');
  return { ...report, summary: { ...report.summary, verdict: 'non-conformant', reason: `regression against ${given.file}: ${what}` }, baseline };
}
