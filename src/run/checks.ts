/**
 * The checks: the vitest run of suites/ in worker threads. Vitest loads (vite
 * server, project config) as soon as the run starts, while the preflight talks
 * to the target; its workers load their modules while the probes run, then wait
 * for the run state — the observations' values and the shared gate — which
 * this phase hands them over a BroadcastChannel (the workers ask with 'want';
 * src/check/runtime.ts).
 */
import { join } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { runChannelName, type RunState } from '../config.js';
import { clearAllureResults, storecheckCacheDir } from '../files.js';
import { usePrecompiledValidators } from '../schema/precompiled.js';
import { CheckCollector } from './collector.js';
import type { RunSession } from './session.js';
import { prepareVitest, type PreparedVitest, type VitestRun } from './vitest.js';
import { chooseWorkers, type WorkersChoice } from './workers.js';

export class ChecksPhase {
  private readonly preparing: Promise<PreparedVitest | Error>;
  private readonly channel: BroadcastChannel;
  private state?: RunState;
  private running?: Promise<VitestRun | Error | undefined>;
  /** how many files ran at once, and why (report.run.workers); set once the checks start */
  workers?: WorkersChoice;

  /** Starts loading vitest (nothing is sent to the target yet). */
  constructor(private readonly s: RunSession) {
    const allureDir = join(s.config.reportDir, 'allure-results');
    // a reused report folder: results of an earlier run would be merged into this run's Allure report
    // (only allure-js's own files go: another tool's file there stays)
    clearAllureResults(allureDir);
    this.preparing = prepareVitest(s.config, { allureDir, redact: (t) => s.redactor.text(t), onProgress: (p) => s.term.progress(p) }).catch((e: Error) => e);
    // the schemas' validators, compiled once and kept (src/schema/precompiled.ts): this process and
    // every worker load them instead of compiling each its own; the first run here compiles them
    usePrecompiledValidators(storecheckCacheDir(), { compileIfMissing: true });
    this.channel = new BroadcastChannel(runChannelName(s.config.runTag));
    this.channel.onmessage = (m) => {
      if ((m as { data?: unknown }).data === 'want' && this.state) this.channel.postMessage(this.state);
    };
  }

  /**
   * The checks start once vitest has loaded, as many files at once as src/run/workers.ts says;
   * their workers wait for the run state before the first check.
   */
  start(): void {
    const { stop, config } = this.s;
    this.running = this.preparing
      .then(async (prepared): Promise<VitestRun | Error | undefined> => {
        if (prepared instanceof Error) return prepared;
        if (stop.reason) return undefined;
        this.workers = chooseWorkers(config, prepared.plan.files);
        return prepared.run(() => stop.reason, this.workers.count);
      })
      .catch((e: Error) => e);
  }

  /** How many checks will finish, said before the first starts (the progress total does not grow). */
  async announcePlan(): Promise<void> {
    const prepared = await this.preparing;
    if (!this.s.stop.reason && !(prepared instanceof Error)) this.s.term.plan(prepared.plan);
  }

  /** Hands the workers the run state: the observations' values and the gate (or that the run was stopped). */
  publish(observations: RunState['observations']): void {
    this.state = { observations, gate: this.s.gate.buffer, sharedReads: this.s.reads.kept(), ...(this.s.stop.reason ? { stopped: this.s.stop.reason } : {}) };
    this.channel.postMessage(this.state);
  }

  /** Every check's result, once the workers are done (none when the run was stopped before they started). */
  async results(): Promise<CheckCollector> {
    const ran = await this.running;
    if (ran instanceof Error) throw ran;
    this.s.term.endProgress();
    const collector = ran?.collector ?? new CheckCollector();
    for (const m of collector.planMismatches) this.s.term.line(`storecheck: the run's plan (a suite file's REGISTERS declaration, src/items/plan.ts) is out of date: ${m}`);
    return collector;
  }

  /** A run that ended before its checks (unreachable target, bad key, interruption) closes vitest unused. */
  async close(): Promise<void> {
    await this.preparing.then((v) => (v instanceof Error ? undefined : v.close())).catch(() => undefined);
    this.channel.close();
  }
}
