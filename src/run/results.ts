/**
 * The checks' results as the report gives them: known deviations (--expect)
 * applied to checks and to their items, the catalogue's checks no suite
 * registered (a problem of the suite itself), and the item coverage.
 */
import { catalogue } from '../items/index.js';
import { computeCoverage } from '../report/coverage.js';
import { applyExpectations, type AppliedExpectations, type Expectation } from '../report/expectations.js';
import type { CheckResult, Coverage, ItemResult } from '../report/types.js';
import type { RunConfig } from '../config.js';
import type { CheckCollector } from './collector.js';
import type { InvariantTally } from '../check/invariants/tally.js';
import { invariantResults } from './invariants.js';
import type { ReproducerConfig } from './reproduce.js';

export interface CheckOutcome {
  checks: CheckResult[];
  items: ItemResult[];
  coverage: Coverage;
  /** problems of the suite itself: a file that did not load, catalogue checks nobody registered */
  engineErrors: string[];
  /** --expect, applied */
  applied?: AppliedExpectations;
  /** the invariants' figures: answers judged, judgements made, time spent judging (report.json run.invariants) */
  invariants: { answers: number; judgements: number; ms: number };
  /** the checks' waits for a write to show that reached the visibility deadline (report.json run.visibilityWaits) */
  visibilityWaits: { atDeadline: number; checks: string[] };
}

/**
 * `mainAnswers`: the invariants' tally of the preflight's and probes' answers
 * (src/run/invariants.ts), added to the checks' own: the invariant checks'
 * results join the others' before --expect applies to them.
 */
export function checkOutcome(
  collector: CheckCollector, expectations: readonly Expectation[] | undefined, config: Pick<RunConfig, 'only' | 'shard'> & ReproducerConfig, stopped: boolean, mainAnswers?: InvariantTally,
): CheckOutcome {
  if (mainAnswers) collector.invariants.add(mainAnswers.toJSON());
  // a run stopped before its checks ran judged no answer worth a verdict of its own
  const invariants = stopped && !collector.results.length ? { checks: [], items: [] } : invariantResults(collector.invariants, config);
  const all = [...collector.results, ...invariants.checks];
  const applied = expectations ? applyExpectations(all, expectations) : undefined;
  const checks = applied?.checks ?? all;
  const items = itemsUnderExpectations([...collector.items, ...invariants.items], checks);
  // a run of the whole catalogue reports every one of its checks
  const unregistered = stopped || config.only || config.shard ? [] : missingChecks(checks);
  const engineErrors = [...collector.engineErrors];
  if (unregistered.length) engineErrors.push(`${unregistered.length} check(s) of the item catalogue were registered by no suite: ${unregistered.slice(0, 5).join(', ')}`);
  const tally = collector.invariants.toJSON();
  const judgements = Object.values(tally.items).reduce((n, o) => n + o.judged, 0);
  return {
    checks, items, coverage: computeCoverage(items), engineErrors, ...(applied ? { applied } : {}),
    invariants: { answers: tally.answers, judgements, ms: Math.round(tally.ms) },
    visibilityWaits: { atDeadline: [...collector.waitsAtDeadline.values()].reduce((n, k) => n + k, 0), checks: [...collector.waitsAtDeadline.keys()].sort() },
  };
}

/** Items of checks listed in --expect take their check's standing: failed items expected, passes unexpected. */
function itemsUnderExpectations(items: ItemResult[], checks: CheckResult[]): ItemResult[] {
  const status = new Map(checks.map((c) => [c.id, c.status]));
  return items.map((i) => {
    const s = status.get(i.check);
    if (s === 'expected-fail' && i.status === 'failed') return { ...i, status: 'expected-fail' };
    if (s === 'unexpected-pass' && i.status === 'passed') return { ...i, status: 'unexpected-pass' };
    return i;
  });
}

/** Catalogue checks no suite registered. */
function missingChecks(checks: CheckResult[]): string[] {
  const seen = new Set(checks.map((c) => c.id));
  return catalogue().map((c) => c.id).filter((id) => !seen.has(id));
}
