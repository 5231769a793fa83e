/**
 * One conformance run, end to end:
 *   config → (embedded server) → preflight → observations → checks → cleanup → report → verdict
 * Exit codes: 0 conformant, 1 non-conformant, 2 usage/configuration, 3 no verdict.
 */
import { existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { StoreClient } from '../client/api.js';
import { readObservation } from '../observe/registry.js';
import { DEFAULT_ANSWER_BUDGET, SharedGate } from '../client/gate.js';
import type { Exchange } from '../client/http.js';
import { Ledger } from '../client/ledger.js';
import { runChannelName, stopChannelName, type RunConfig, type RunState } from '../config.js';
import { probeObservations } from '../observe/index.js';
import { diffBaseline } from '../report/baseline.js';
import { applyExpectations, expectationsInfo, loadExpectations } from '../report/expectations.js';
import { computeCoverage } from '../report/coverage.js';
import { summarize } from '../report/summary.js';
import type { CheckResult, ItemResult, Observation, Report } from '../report/types.js';
import { catalogue } from '../items/index.js';
import { writeReports } from '../report/write.js';
import { toEvidence } from '../check/evidence.js';
import { shellQuote } from '../check/reproducer.js';
import { cleanupLedger } from './cleanup.js';
import { CheckCollector } from './collector.js';
import { Terminal } from './terminal.js';
import { prepareVitest, type PreparedVitest, type VitestRun } from './vitest.js';
import { ConfigError, EXIT } from '../exit.js';
import { TOOL_VERSION } from '../version.js';
import { makeDirs } from '../files.js';


export interface RunInputs {
  config: RunConfig;
  expectFile?: string;
  baselineFile?: string;
  quiet?: boolean;
  /** extra secrets to keep out of outputs (e.g. the embedded server's key) */
  stopEmbedded?: () => Promise<void>;
}

export interface RunOutcome {
  exitCode: number;
  report?: Report;
  reason: string;
}

export async function runConformance(inputs: RunInputs): Promise<RunOutcome> {
  const { config } = inputs;
  const term = new Terminal(inputs.quiet === true, [config.apiKey]);
  const started = Date.now();
  // wall time per phase, for report.run.phasesMs (startup: process start → this point)
  const phases = { startup: Math.round(performance.now()), preflight: 0, probes: 0, checks: 0, cleanup: 0 };
  let lap = performance.now();
  const endPhase = (name: keyof typeof phases) => {
    const now = performance.now();
    phases[name] = Math.round(now - lap);
    lap = now;
  };
  makeDirs(config.reportDir);
  // files given by the user are read before anything touches the target: a bad file is a usage error
  let expectations: ReturnType<typeof loadExpectations> | undefined;
  try {
    expectations = inputs.expectFile ? loadExpectations(inputs.expectFile) : undefined;
  } catch (e) {
    throw new ConfigError(`--expect: ${(e as Error).message}`);
  }
  const baselineReport = inputs.baselineFile ? readBaseline(inputs.baselineFile) : undefined;

  // --concurrency: one bound on requests in flight for this process and every worker together
  // …and one budget of answer bytes buffered at once (at least two of the largest answers read)
  const gate = SharedGate.create(config.concurrency, Math.max(DEFAULT_ANSWER_BUDGET, 2 * (config.maxAnswerBytes ?? 0)));
  const client = new StoreClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    ...(config.maxAnswerBytes ? { maxBodyBytes: config.maxAnswerBytes } : {}),
    connections: Math.min(config.concurrency, 8),
    gate,
    maxRps: config.maxRps,
    insecure: config.insecure,
    readOnly: config.readOnly,
    ledger: new Ledger(config.ledgerFile, config.runTag),
    retries: 3,
  });
  term.redactor = client.redactor;

  // A signal or the deadline stops the run: requests in flight are abandoned (here and, through the
  // stop channel, in the workers), no new phase starts, and cleanup + report still happen.
  let interrupted: string | undefined;
  const stopChannel = new BroadcastChannel(stopChannelName(config.runTag));
  const stop = (why: string) => {
    if (interrupted) return;
    interrupted = why;
    term.line(`\n${interrupted}: stopping and cleaning up what this run created…`);
    client.http.cancel(why);
    stopChannel.postMessage(why);
  };
  const sigint = () => stop('interrupted by SIGINT');
  const sigterm = () => stop('interrupted by SIGTERM');
  process.on('SIGINT', sigint);
  process.on('SIGTERM', sigterm);
  // the deadline covers cleanup too: checks stop early enough to leave it a share of the time
  const deadlineS = Math.round(config.deadlineMs / 1000);
  const reserveMs = Math.min(60_000, Math.max(2_000, config.deadlineMs * 0.2));
  const deadline = setTimeout(() => stop(`stopped by the deadline (--deadline-s ${deadlineS}; the last ${Math.round(reserveMs / 1000)} s are kept for cleanup)`), config.deadlineMs - reserveMs);
  deadline.unref();

  // vitest loads (vite server, project config) while the preflight talks to the target; its workers
  // load their modules while the probes run, then wait for the run state (observations, gate)
  const allureDir = join(config.reportDir, 'allure-results');
  // a reused report folder: results of an earlier run would be merged into this run's Allure report
  rmSync(allureDir, { recursive: true, force: true });
  const preparing: Promise<PreparedVitest | Error> = prepareVitest(config, { allureDir, redact: (t) => client.redactor.text(t), onProgress: (p) => term.progress(p) }).catch((e: Error) => e);
  let runState: RunState | undefined;
  const stateChannel = new BroadcastChannel(runChannelName(config.runTag));
  stateChannel.onmessage = (m) => {
    if ((m as { data?: unknown }).data === 'want' && runState) stateChannel.postMessage(runState);
  };
  const publishState = (observations: Record<string, unknown>) => {
    runState = { observations, gate: gate.buffer, ...(interrupted ? { stopped: interrupted } : {}) };
    stateChannel.postMessage(runState);
  };

  try {
    term.line(`storecheck ${TOOL_VERSION} → ${config.baseUrl}${config.embedded ? ' (embedded reference server)' : ''}`);
    term.line(`seed ${config.seed} · depth ${config.depth} · run tag ${config.runTag}${config.readOnly ? ' · read-only' : ''}${config.shard ? ` · shard ${config.shard}` : ''}`);

    // preflight: can we reach the target, and does it take the key?
    lap = performance.now();
    const pre = await client.store();
    endPhase('preflight');
    if (!interrupted) {
      // a run stopped here still leaves report.json and junit.xml saying why (CI artefacts agree with the exit code)
      const stop = (exitCode: number, reason: string) => stoppedAtPreflight(config, started, client, pre.exchange, exitCode, reason);
      if (pre.exchange.transportError) {
        const { code, message } = pre.exchange.transportError;
        return stop(EXIT.noVerdict, `cannot reach ${config.baseUrl}: ${message} (${code})`);
      }
      const status = pre.exchange.response!.status;
      if (status === 401 || status === 403) {
        // a wrong key, or a target that reads the key from a header instead of the body (§5.1)?
        const headerOnly = await keyAcceptedFromHeader(client);
        if (headerOnly) return headerOnlyVerdict(config, started, client, pre.exchange, headerOnly, term);
        return stop(EXIT.usage, `the target rejected the API key (HTTP ${status} on ${config.baseUrl}/api/v1/store/get): check --api-key / STORE_API_KEY`);
      }
      if (status >= 500) return stop(EXIT.noVerdict, `the target fails: HTTP ${status} on store get (after ${pre.exchange.attempts} attempt(s))`);
      // asked again before stopping: a flaky target answers an HTML error page now and then, a wrong one always
      let wrong = notTheApi(config.baseUrl, pre.exchange);
      for (let again = 0; wrong && again < 2; again++) {
        const retry = await client.store();
        wrong = retry.exchange.transportError ? wrong : notTheApi(config.baseUrl, retry.exchange);
      }
      if (wrong) return stop(EXIT.noVerdict, wrong);
    }

    // the checks start now; their workers wait for the observations before the first check
    const checksRun: Promise<VitestRun | Error | undefined> = preparing
      .then(async (prepared): Promise<VitestRun | Error | undefined> => {
        if (prepared instanceof Error) return prepared;
        return interrupted ? undefined : prepared.run(config, () => interrupted);
      })
      .catch((e: Error) => e);
    let observations: Record<string, Observation> = {};
    if (!interrupted) {
      term.line('probing behaviours the spec leaves open…');
      observations = await probeObservations(client, config);
    }
    const observed = Object.fromEntries(Object.entries(observations).map(([k, o]) => [k, o.value]));
    // how many checks will finish, said before the first starts (the progress total does not grow)
    const prepared = await preparing;
    if (!interrupted && !(prepared instanceof Error)) term.plan(prepared.plan);
    publishState(observed);
    endPhase('probes');

    const ran = await checksRun;
    if (ran instanceof Error) throw ran;
    const run = ran ?? { collector: new CheckCollector() };
    term.endProgress();
    endPhase('checks');
    for (const m of run.collector.planMismatches) term.line(`storecheck: the run's plan (src/run/plan.ts) is out of date: ${m}`);

    let checks: CheckResult[] = run.collector.results;
    const applied = expectations ? applyExpectations(checks, expectations) : undefined;
    if (applied) checks = applied.checks;
    const items = itemsUnderExpectations(run.collector.items, checks);
    const unregistered = interrupted || config.only || config.shard ? [] : missingChecks(checks);
    if (unregistered.length) run.collector.engineErrors.push(`${unregistered.length} check(s) of the item catalogue were registered by no suite: ${unregistered.slice(0, 5).join(', ')}`);
    const coverage = computeCoverage(items);

    // --keep-data: no cleanup; the ledger keeps what the run created, for sweep
    const kept = config.keepData ? keptRecords(config) : undefined;
    if (!kept) term.line('cleaning up…');
    // a store whose reads lag its writes shows a deletion a little later: read back until the deadline
    const lagged = readObservation(observed, 'consistency.readAfterWriteMs') > 0;
    const cleanup = kept ?? (await cleanupLedger({ ...config, settleMs: lagged ? config.visibilityTimeoutMs : 0 }, [config.ledgerFile]));
    endPhase('cleanup');
    if (interrupted) {
      interrupted += kept
        ? `; ${kept.kept} record(s) kept (--keep-data): ${kept.sweep}`
        : `; cleanup deleted ${cleanup.deleted} record(s)${cleanup.leftBehind.length ? `, ${cleanup.leftBehind.length} left behind (storecheck sweep --ledger ${config.ledgerFile})` : ', none left behind'}`;
    }
    const targetErrors = [
      ...run.collector.engineErrors.map((message) => ({ message: `storecheck: ${message}`, count: 1 })),
      ...(interrupted ? [{ message: interrupted, count: 1 }] : []),
    ];
    const summary = summarize(checks, targetErrors, { coverage, minCoverage: config.minCoverage });
    if (run.collector.engineErrors.length || interrupted) {
      if (summary.verdict !== 'non-conformant') {
        summary.verdict = 'no-verdict';
        summary.reason = interrupted ?? `the suite itself failed: ${run.collector.engineErrors[0]}`;
      }
    }
    const report: Report = {
      reportVersion: 1,
      tool: { name: 'storecheck', version: TOOL_VERSION },
      target: targetOf(config),
      run: {
        runTag: config.runTag,
        seed: config.seed,
        depth: config.depth,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        requestCount: client.http.stats.requests + workerRequests(config.reportDir) + cleanup.requests,
        readOnly: config.readOnly,
        concurrency: config.concurrency,
        phasesMs: phases,
        ...(config.only ? { only: config.only } : {}),
        ...(config.shard ? { shard: config.shard } : {}),
      },
      summary,
      checks,
      items,
      coverage,
      observations,
      targetErrors,
      cleanup: {
        created: cleanup.created, deleted: cleanup.deleted, leftBehind: cleanup.leftBehind,
        ...(kept ? { kept: kept.kept, sweep: kept.sweep } : cleanup.leftBehind.length && !config.embedded ? { sweep: sweepCommand(config) } : {}),
      },
    };
    if (applied) report.expectations = expectationsInfo(inputs.expectFile!, applied);
    if (baselineReport) {
      report.baseline = diffBaseline(report, baselineReport, inputs.baselineFile!);
      if (report.baseline.regression && report.summary.verdict === 'conformant') {
        report.summary.verdict = 'non-conformant';
        report.summary.reason = `regression against ${inputs.baselineFile}: ${[...report.baseline.newFailures, ...report.baseline.changedObservations.map((c) => `observation ${c.key}`)].slice(0, 5).join(', ')}`;
      }
    }
    const written = writeReports(config.reportDir, report, client.redactor.list());
    linkLatest(config.reportDir);
    term.summary(report, written);
    const exitCode = report.summary.verdict === 'conformant' ? EXIT.conformant : report.summary.verdict === 'non-conformant' ? EXIT.nonConformant : EXIT.noVerdict;
    return { exitCode, report, reason: report.summary.reason };
  } finally {
    // a run that ended before its checks (unreachable target, bad key, interruption) closes it unused
    await preparing.then((v) => (v instanceof Error ? undefined : v.close())).catch(() => undefined);
    stateChannel.close();
    clearTimeout(deadline);
    stopChannel.close();
    process.off('SIGINT', sigint);
    process.off('SIGTERM', sigterm);
    await client.close();
  }
}

/**
 * Is the target the API at all? A redirect is never followed (the key would
 * travel to another URL); an HTML page, a body that is not JSON or a 404 to
 * the store get means --base-url is not the API root: no verdict, and a hint,
 * instead of hundreds of failures. JSON of the wrong shape is the API
 * answering wrongly, and is judged by the checks.
 */
export function notTheApi(baseUrl: string, ex: Exchange): string | undefined {
  const status = ex.response?.status ?? 0;
  const type = String(ex.response?.headers['content-type'] ?? '');
  const at = `${baseUrl}/api/v1/store/get`;
  if (status >= 300 && status < 400) {
    const to = ex.response?.headers.location;
    return `${at} answered a redirect (HTTP ${status}${to ? ` to ${to}` : ''}); storecheck never follows one (the key would travel with it): give the final API root as --base-url`;
  }
  if (status === 404) return `${at} answered 404: is --base-url the API root (the URL before /api/v1)?`;
  // JSON of another shape is the API answering wrongly: the checks judge it (store.single-object)
  if (status >= 200 && status < 300 && (ex.parseError || /html/i.test(type)) && ex.json === undefined) {
    const what = /html/i.test(type) ? 'an HTML page' : `a body that is not JSON (${type || 'no content type'})`;
    return `${at} answered ${what}: is --base-url the API root? it answered ${type || 'no content type'}`;
  }
  return undefined;
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

/** What every report of a run that ended before its checks starts with. */
function reportHead(config: RunConfig, started: number, client: StoreClient): Pick<Report, 'reportVersion' | 'tool' | 'target' | 'run'> {
  return {
    reportVersion: 1,
    tool: { name: 'storecheck', version: TOOL_VERSION },
    target: targetOf(config),
    run: { runTag: config.runTag, seed: config.seed, depth: config.depth, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, requestCount: client.http.stats.requests, readOnly: config.readOnly, concurrency: config.concurrency },
  };
}

/**
 * A run that stopped at the preflight (unreachable target, rejected key, 5xx):
 * no check ran, and report.json, report.md, report.html and junit.xml say why
 * (junit: one errored testcase), so a CI job's artefacts agree with its exit code.
 */
function stoppedAtPreflight(config: RunConfig, started: number, client: StoreClient, exchange: Exchange, exitCode: number, reason: string): RunOutcome {
  const report: Report = {
    ...reportHead(config, started, client),
    summary: { ...summarize([], []), verdict: 'no-verdict', reason: `stopped at the preflight: ${reason}` },
    checks: [],
    observations: {},
    targetErrors: [{ message: reason, count: 1, sample: toEvidence(exchange) }],
  };
  try {
    writeReports(config.reportDir, report, client.redactor.list());
  } catch {
    // the reason still reaches stderr and the exit code; an unwritable folder cannot hide it
  }
  return { exitCode, report, reason };
}

/** The header (if any) through which the target accepts the key it refused in the body. */
async function keyAcceptedFromHeader(client: StoreClient): Promise<{ header: string; exchange: Exchange } | undefined> {
  const key = client.apiKeyForHeaders();
  for (const [header, value] of [['authorization', `Bearer ${key}`], ['x-api-key', key]] as const) {
    const ex = await client.raw('/api/v1/store/get', {}, { retryable: true, headers: { [header]: value } });
    const status = ex.response?.status ?? 0;
    if (status >= 200 && status < 300 && ex.json && typeof ex.json === 'object' && !Array.isArray(ex.json)) return { header, exchange: ex };
  }
  return undefined;
}

/**
 * The key works in a header but not in the body: every operation of the spec fails for a
 * conformant client, so the verdict is non-conformant (exit 1), with the two exchanges as evidence.
 */
function headerOnlyVerdict(config: RunConfig, started: number, client: StoreClient, body: Exchange, found: { header: string; exchange: Exchange }, term: Terminal): RunOutcome {
  const evidence = [body, found.exchange].map((ex) => ({
    request: { method: ex.request.method, url: ex.request.url, body: ex.request.body },
    response: ex.response && { status: ex.response.status, headers: ex.response.headers, body: ex.response.text.slice(0, 4000) },
  }));
  const checks: CheckResult[] = [{
    id: 'all.auth.key-in-body', title: 'the key travels in the JSON body as authentication.apiKey', resource: '*', rule: 'auth.key-in-body',
    group: 'auth', section: '§5 Authentication', level: 'must', status: 'failed',
    message: `the target refused the key in the body (HTTP ${body.response?.status}) but accepted it in the ${found.header} header: §5.1 says the key travels in the JSON body and no header carries it; no other check can run`,
    expected: 'the key accepted as authentication.apiKey in the body', actual: `accepted only in the ${found.header} header`, evidence,
  }];
  const summary = summarize(checks, []);
  const report: Report = {
    ...reportHead(config, started, client),
    summary, checks, observations: {}, targetErrors: [],
  };
  const written = writeReports(config.reportDir, report, client.redactor.list());
  term.summary(report, written);
  return { exitCode: EXIT.nonConformant, report, reason: summary.reason };
}

/**
 * --keep-data: what the run leaves on the target, from its ledger lines — the
 * records created and not deleted (and creates never answered, which sweep
 * looks up) — and the command that removes them later.
 */
function keptRecords(config: RunConfig): { created: number; deleted: number; leftBehind: string[]; requests: number; kept: number; sweep: string } {
  const ledger = Ledger.load([config.ledgerFile], 'sweep', config.runTag);
  const kept = [...ledger.outstanding().values()].reduce((n, ids) => n + ids.length, 0);
  return { created: ledger.createdCount(), deleted: 0, leftBehind: [], requests: 0, kept, sweep: sweepCommand(config) };
}

/** The command that removes what the run left on the target (the key from STORE_API_KEY). */
function sweepCommand(config: RunConfig): string {
  const arg = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s));
  return `storecheck sweep --ledger ${arg(config.ledgerFile)} --base-url ${arg(config.baseUrl)}`;
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

/** Catalogue checks no suite registered (a run of the whole catalogue reports every one of them). */
function missingChecks(checks: CheckResult[]): string[] {
  const seen = new Set(checks.map((c) => c.id));
  return catalogue().map((c) => c.id).filter((id) => !seen.has(id));
}

/** Requests made in the workers: the last (cumulative) figure of each worker, summed. */
function workerRequests(dir: string): number {
  const file = join(dir, 'requests.jsonl');
  if (!existsSync(file)) return 0;
  const last = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const { worker, requests } = JSON.parse(line) as { worker: string; requests: number };
    last.set(worker, Math.max(last.get(worker) ?? 0, requests));
  }
  rmSync(file, { force: true });
  return [...last.values()].reduce((a, b) => a + b, 0);
}

function readBaseline(file: string): Report {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`--baseline ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    const r = JSON.parse(text);
    if (!Array.isArray(r.checks) || typeof r.observations !== 'object') throw new Error('it has no checks[] and observations{}');
    return r as Report;
  } catch (e) {
    throw new ConfigError(`--baseline ${file}: not a storecheck report.json (${(e as Error).message})`);
  }
}

/** reports/latest → the newest run's directory (only for the default ./reports/ location, under the working directory). */
function linkLatest(dir: string): void {
  const reports = resolve('reports');
  const abs = resolve(dir);
  if (resolve(abs, '..') !== reports) return;
  const latest = join(reports, 'latest');
  try {
    rmSync(latest, { force: true, recursive: false });
    symlinkSync(abs.slice(reports.length + 1), latest);
  } catch {
    // a filesystem without symlinks: the report dir is printed anyway
  }
}
