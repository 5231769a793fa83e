/**
 * One conformance run, top to bottom. Each phase is a module of src/run:
 *
 *   the files the user gave   given.ts      --expect, --baseline: a bad file is exit 2 before the target is touched
 *   what the run works with   session.ts    redactor, terminal, gate, client (src/client/factory.ts), stop.ts
 *   checks, loading           checks.ts     vitest loads while the preflight and probes talk to the target
 *   preflight                 preflight.ts  reachable? the API? the key taken? — or the run ends here
 *   probes                    probe.ts      every "not shown" behaviour, observed
 *   checks, running           checks.ts     workers get the run state (observations, gate), run suites/
 *   results                   results.ts    --expect applied, unregistered checks, coverage
 *   cleanup                   cleanup.ts    delete and read back what the run created (or keep it)
 *   report                    report.ts     report.json, assembled in one place; requests.ts, baseline.ts
 *   views                     views.ts      report.md, report.html, junit.xml, reports/latest, the summary
 *
 * The config is frozen (src/config.ts); what the run learns (observations,
 * results) travels as values from phase to phase. Exit codes: src/exit.ts.
 */
import { join } from 'node:path';
import type { RunConfig } from '../config.js';
import { exitCodeOf, type ExitCode } from '../exit.js';
import { claimReportDir } from '../files.js';
import type { Report } from '../report/types.js';
import { TOOL_VERSION } from '../version.js';
import { applyBaseline } from './baseline.js';
import { ChecksPhase } from './checks.js';
import { cleanupLimitsOf, settleOutstanding } from '../check/file-cleanup.js';
import { cleanUp } from './cleanup.js';
import { PhaseClock } from './clock.js';
import { RunChains, runCriticalPath } from './critical-path.js';
import { readGivenFiles } from './given.js';
import { preflight } from './preflight.js';
import { probe } from './probe.js';
import { preflightReport, runReport } from './report.js';
import { runTally } from './requests.js';
import { MainAnswers } from './invariants.js';
import { writeKitResults } from './allure-reporter.js';
import { isInvariantCheck } from '../report/invariants.js';
import { checkOutcome } from './results.js';
import { closeSession, openSession, type RunSession } from './session.js';
import { writeViews } from './views.js';

export interface RunInputs {
  config: RunConfig;
  expectFile?: string;
  baselineFile?: string;
  quiet?: boolean;
  /** the config file the options were read from (named on the terminal), if one was */
  configFile?: string;
}

export interface RunOutcome {
  exitCode: ExitCode;
  report?: Report;
  reason: string;
}

export async function runConformance(inputs: RunInputs): Promise<RunOutcome> {
  const { config } = inputs;
  const clock = new PhaseClock();
  claimReportDir(config.reportDir);
  const given = readGivenFiles(inputs);
  const s = openSession(config, clock, inputs.quiet === true);
  const checks = new ChecksPhase(s);
  const stopped = () => s.stop.reason !== undefined;
  // the run's critical path: what the main process sends, phase by phase (src/run/critical-path.ts)
  const chains = new RunChains(s.client);
  try {
    announce(s, inputs.configFile);
    // the preflight's and the probes' answers are judged against the invariants too, once the probes are done
    const mainAnswers = new MainAnswers(s.client.http);
    clock.restart();
    chains.during('preflight');
    const early = await preflight(s.client, config, stopped);
    clock.end('preflight');
    if (early) {
      const report = preflightReport(s, early);
      writeViews(s, report, false);
      return { exitCode: early.exitCode, report, reason: early.kind === 'stopped' ? early.reason : report.summary.reason };
    }
    chains.during('probes');
    mainAnswers.probing();
    const probing = probe(s.client, config, s.term, stopped());
    // the checks start once vitest has loaded; their workers wait for the probes' answers (the run state)
    checks.start();
    const probed = await probing;
    await checks.announcePlan();
    checks.publish(probed.values);
    clock.end('probes');
    chains.during('checks');
    // the preflight's and the probes' answers are judged now (the main client's later answers are cleanup's: not judged)
    const judgedMain = mainAnswers.judge(probed.values, config.apiKey);
    // what the probes created is read back (and deleted if there) while the checks run
    const probesSettled = settleOutstanding(s.client, s.client.ledger!, cleanupLimitsOf(probed.values, config.visibilityTimeoutMs), config);
    const outcome = checkOutcome(await checks.results(), given.expect?.expectations, config, stopped(), judgedMain);
    // the invariant checks ran in no vitest test: their Allure results are written here
    writeKitResults(outcome.checks.filter(isInvariantCheck), join(config.reportDir, 'allure-results'), (t) => s.redactor.text(t));
    clock.end('checks');
    await probesSettled;
    const cleanup = await cleanUp(config, probed.values, s.term, s.redactor, s.gate, chains.observer('cleanup'));
    clock.end('cleanup');
    const criticalPath = runCriticalPath(chains, config.reportDir, config.runTag);
    const { requestCount, latency } = runTally(config.reportDir, s.client.http.stats, cleanup.requests);
    const report = applyBaseline(runReport(s, { outcome, probed, cleanup, requestCount, criticalPath, workers: checks.workers, latency, expectFile: given.expect?.file }), given.baseline);
    writeViews(s, report, true);
    return { exitCode: exitCodeOf(report.summary.verdict), report, reason: report.summary.reason };
  } finally {
    await checks.close();
    await closeSession(s);
  }
}

/** The run's first lines: what it runs against, and how to replay it. */
function announce({ term, config }: RunSession, configFile: string | undefined): void {
  term.line(`storecheck ${TOOL_VERSION} → ${config.baseUrl}${config.embedded ? ' (embedded reference server)' : ''}`);
  if (configFile) term.line(`options from ${configFile} (flags and environment variables win over it)`);
  term.line(`seed ${config.seed} · depth ${config.depth} · run tag ${config.runTag}${config.readOnly ? ' · read-only' : ''}${config.shard ? ` · shard ${config.shard}` : ''}`);
}
