/**
 * report.json, assembled in one place (assembleReport) from the parts each way
 * a run ends brings: a run that reached its checks (finished, or stopped on
 * the way: runReport), and a run that ended at its preflight (preflightReport).
 * The verdict is src/report/summary.ts's, with three overrides made here: a
 * suite that broke, a run that was stopped, or a probe answered in a way no
 * honest reading explains (a 5xx, as a check's would be) gives no verdict
 * unless a failure already decides it. (--baseline may override it too: src/run/baseline.ts.)
 */
import type { LatencyTable } from '../client/latency.js';
import { toEvidence } from '../report/evidence.js';
import { latencySection } from '../report/latency.js';
import type { RunConfig } from '../config.js';
import { expectationsInfo } from '../report/expectations.js';
import { summarize } from '../report/summary.js';
import { sendingMs, slotsOf } from '../report/slots.js';
import { throughputOf } from '../report/throughput.js';
import type { CheckResult, Coverage, ExpectationsInfo, ItemResult, Observation, Report, Summary } from '../report/types.js';
import { TOOL_VERSION } from '../version.js';
import { isNoReading } from '../observe/types.js';
import { afterStop, sweepCommand, unverifiedCount as unverifiedCountOf, type RunCleanup } from './cleanup.js';
import type { PhaseClock } from './clock.js';
import type { CriticalPath } from './critical-path.js';
import type { PreflightEnd } from './preflight.js';
import type { Probed } from './probe.js';
import type { CheckOutcome } from './results.js';
import type { RunSession } from './session.js';

export interface ReportParts {
  summary: Summary;
  checks: CheckResult[];
  observations: Record<string, Observation>;
  targetErrors: Report['targetErrors'];
  requestCount: number;
  /** a run that reached its checks: each phase's time, the items and their coverage, the cleanup */
  ran?: { phasesMs: PhaseClock['phasesMs']; items: ItemResult[]; coverage: Coverage; cleanup: NonNullable<Report['cleanup']>; criticalPath?: CriticalPath; workers?: Report['run']['workers']; invariants?: Report['run']['invariants']; visibilityWaits?: Report['run']['visibilityWaits']; slotsHeld?: { ms: number; requests: number } };
  expectations?: ExpectationsInfo;
  /** the target's answer times, per API path (a run that reached its checks) */
  latency?: LatencyTable;
}

/** The one place a run's report is put together. */
export function assembleReport(config: RunConfig, clock: PhaseClock, parts: ReportParts): Report {
  const { ran } = parts;
  const durationMs = clock.elapsed();
  return {
    reportVersion: 1,
    tool: { name: 'storecheck', version: TOOL_VERSION },
    target: targetOf(config),
    run: {
      runTag: config.runTag,
      seed: config.seed,
      depth: config.depth,
      startedAt: new Date(clock.started).toISOString(),
      durationMs,
      requestCount: parts.requestCount,
      readOnly: config.readOnly,
      concurrency: config.concurrency,
      ...(ran ? { phasesMs: { ...ran.phasesMs }, ...(ran.workers ? { workers: ran.workers } : {}), ...(ran.criticalPath ? { criticalPath: ran.criticalPath } : {}), ...(config.only ? { only: config.only } : {}), ...(config.shard ? { shard: config.shard } : {}) } : {}),
      ...(ran?.invariants ? { invariants: ran.invariants } : {}),
      ...(ran?.visibilityWaits ? { visibilityWaits: ran.visibilityWaits } : {}),
      ...(ran ? { throughput: throughputOf(ran.coverage.judged, parts.requestCount, durationMs) } : {}),
      ...(ran?.slotsHeld ? { slots: slotsOf(ran.slotsHeld, config.concurrency, sendingMs(ran.phasesMs)) } : {}),
    },
    summary: parts.summary,
    checks: parts.checks,
    ...(ran ? { items: ran.items, coverage: ran.coverage } : {}),
    observations: parts.observations,
    targetErrors: parts.targetErrors,
    ...(ran ? { cleanup: ran.cleanup } : {}),
    ...(parts.expectations ? { expectations: parts.expectations } : {}),
    ...(parts.latency ? { latency: latencySection(parts.latency, parts.checks) } : {}),
  };
}

/** What a run that reached its checks reports (finished, or stopped on the way). */
export function runReport(s: RunSession, r: { outcome: CheckOutcome; probed: Probed; cleanup: RunCleanup; requestCount: number; criticalPath?: CriticalPath; workers?: Report['run']['workers']; latency?: LatencyTable; expectFile?: string }): Report {
  const { config } = s;
  const { outcome, cleanup } = r;
  const stopped = s.stop.reason === undefined ? undefined : afterStop(s.stop.reason, cleanup, config);
  const unexplained = noReadingErrors(r.probed.observations);
  const targetErrors = [
    ...outcome.engineErrors.map((message) => ({ message: `storecheck: ${message}`, count: 1 })),
    ...(stopped ? [{ message: stopped, count: 1 }] : []),
    ...givenUpErrors(s),
    ...unexplained,
  ];
  const judged = summarize(outcome.checks, targetErrors, { coverage: outcome.coverage, minCoverage: config.minCoverage });
  // the suite broke, the run was stopped, or a probe's answer fits no reading: no verdict, unless a failure already decides it
  const problem = stopped ?? (outcome.engineErrors.length ? `the suite itself failed: ${outcome.engineErrors[0]}` : undefined) ?? unexplainedProblem(unexplained);
  const summary: Summary = problem && judged.verdict !== 'non-conformant' ? { ...judged, verdict: 'no-verdict', reason: problem } : judged;
  return assembleReport(config, s.clock, {
    summary,
    checks: outcome.checks,
    observations: r.probed.observations,
    targetErrors,
    requestCount: r.requestCount,
    ...(r.latency ? { latency: r.latency } : {}),
    ran: { phasesMs: s.clock.phasesMs, slotsHeld: s.gate.slotsHeld, items: outcome.items, coverage: outcome.coverage, cleanup: cleanupSection(cleanup, config), criticalPath: r.criticalPath, workers: r.workers, invariants: outcome.invariants, visibilityWaits: outcome.visibilityWaits },
    ...(outcome.applied && r.expectFile ? { expectations: expectationsInfo(r.expectFile, outcome.applied) } : {}),
  });
}

/**
 * The observations whose probe got an answer no honest reading explains
 * (src/observe/types.ts fitsNoReading), one target error each with the answer
 * as its sample: what the target does there is not known, so the run cannot
 * say it conforms — as when a check's request gets a 5xx.
 */
function noReadingErrors(observations: Record<string, Observation>): Report['targetErrors'] {
  return Object.entries(observations).filter(([, o]) => isNoReading(o)).map(([key, o]) => ({
    message: `observation ${key}: ${o.detail}`,
    count: 1,
    ...(o.evidence?.length ? { sample: o.evidence[o.evidence.length - 1] } : {}),
  }));
}

function unexplainedProblem(errors: Report['targetErrors']): string | undefined {
  if (!errors.length) return undefined;
  const keys = errors.map((e) => e.message.split(':')[0].replace('observation ', ''));
  return `the target's answer to ${errors.length === 1 ? 'a probe' : `${errors.length} probes`} fits no honest reading (${keys.join(', ')}): ${errors[0].message.slice(errors[0].message.indexOf(': ') + 2)}`;
}

/**
 * The endpoints the run gave up after consecutive time-outs (src/client/gate.ts
 * EndpointBreaker), one target error each: the checks and items that needed
 * one are errors (not judged), their messages say so, and this says why.
 */
function givenUpErrors(s: Pick<RunSession, 'gate' | 'config'>): Report['targetErrors'] {
  return s.gate.endpoints.givenUpEndpoints().map((e) => ({
    message: `endpoint ${e.path} given up after ${e.timeouts} consecutive time-outs (no complete answer within ${s.config.timeoutMs} ms each): ${e.refused} request(s) to it not sent; what needed it is not judged`,
    count: e.timeouts + e.refused,
  }));
}

/**
 * What a run that ended at its preflight reports: why no check ran (an
 * errored target error with the store get that showed it, no verdict), or the
 * one failed check that is the verdict (the key taken only from a header).
 */
export function preflightReport(s: Pick<RunSession, 'config' | 'clock' | 'client'>, end: PreflightEnd): Report {
  const requestCount = s.client.http.stats.requests;
  if (end.kind === 'header-only') {
    const checks = [end.check];
    return assembleReport(s.config, s.clock, { summary: summarize(checks, []), checks, observations: {}, targetErrors: [], requestCount });
  }
  return assembleReport(s.config, s.clock, {
    summary: { ...summarize([], []), verdict: 'no-verdict', reason: `stopped at the preflight: ${end.reason}` },
    checks: [],
    observations: {},
    targetErrors: [{ message: end.reason, count: 1, sample: toEvidence(end.exchange) }],
    requestCount,
  });
}

/** report.target: the URL, and for the embedded server the faults and variant it ran with. */
function targetOf(config: RunConfig): Report['target'] {
  return {
    baseUrl: config.baseUrl,
    embedded: config.embedded,
    ...(config.referenceFaults?.length ? { referenceFaults: [...config.referenceFaults] } : {}),
    ...(config.referenceVariant ? { referenceVariant: config.referenceVariant } : {}),
  };
}

/**
 * report.cleanup: what the run created and deleted (read back gone), what a
 * read-back showed left behind, what no read-back could verify (by resource
 * and reason), what was kept, and the sweep that removes it (an external
 * target's: the embedded server's records end with it).
 */
function cleanupSection(c: RunCleanup, config: RunConfig): NonNullable<Report['cleanup']> {
  const unverifiedCount = unverifiedCountOf(c.unverified);
  const sweep = c.kept !== undefined ? { kept: c.kept, sweep: c.sweep } : (c.leftBehind.length || unverifiedCount) && !config.embedded ? { sweep: sweepCommand(config) } : {};
  return { created: c.created, deleted: c.deleted, leftBehind: c.leftBehind, unverified: c.unverified, unverifiedCount, ...sweep };
}
