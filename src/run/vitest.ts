/**
 * Runs the conformance project (suites/**) through vitest's Node API with the
 * resolved config provided to every worker, and collects CheckResults.
 */
import { join } from 'node:path';
import { createVitest } from 'vitest/node';
import type { RunConfig } from '../config.js';
import { CheckCollector, type Progress } from './collector.js';
import { AllureReporter } from './allure-reporter.js';
import { planKitChecks, planRun, planShard } from '../items/plan.js';
import { onlyPattern } from '../items/select.js';
import { costSequencer } from './sequencer.js';

import { PROJECT_ROOT } from '../version.js';
import { cacheRoot } from '../files.js';

export { PROJECT_ROOT, cacheRoot };

export interface VitestRun {
  collector: CheckCollector;
}

/** A vitest instance made ahead of time (it loads while the preflight and probes talk to the target). */
export interface PreparedVitest {
  /** what the run will judge: its checks and items, known before the first check */
  plan: { total: number; items: number; files: number };
  /**
   * provides the config to the workers (their run state comes later: src/run/checks.ts), runs the
   * checks in `workers` files at once (default: config.workers)
   */
  run(shouldStop?: () => string | undefined, workers?: number): Promise<VitestRun>;
  /** closes the instance without running (a run that ends before its checks) */
  close(): Promise<void>;
}

/**
 * The workers of a run decided after vitest was made (src/run/workers.ts: by
 * the preflight's round trip, while vitest loaded beside it). Vitest reads
 * maxWorkers when a run starts (each project's resolved config first, then the
 * root's), so setting both before start() takes effect; the conformance run's
 * lanes (report.run.criticalPath.lanes) show the count used.
 */
function setMaxWorkers(vitest: { config: { maxWorkers?: number }; projects: Array<{ config: { maxWorkers?: number } }> }, workers: number): void {
  vitest.config.maxWorkers = workers;
  for (const p of vitest.projects) p.config.maxWorkers = workers;
}

/**
 * Creates the vitest instance of the conformance project; run() provides the
 * config to the workers and starts them.
 */
export async function prepareVitest(
  config: RunConfig,
  opts: { onProgress?: (p: Progress) => void; allureDir?: string; redact?: (text: string) => string } = {},
): Promise<PreparedVitest> {
  const collector = new CheckCollector(opts.onProgress, config);
  const reporters: any[] = [collector];
  if (opts.allureDir) reporters.push(new AllureReporter({ resultsDir: opts.allureDir, redact: opts.redact }));
  const ours = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const cache = cacheRoot();
  const vitest = await createVitest(
    'test',
    {
      root: PROJECT_ROOT,
      project: ['conformance'],
      watch: false,
      reporters,
      maxWorkers: config.workers,
      fileParallelism: true,
      // checks of a file run concurrently (set here too: the project setting alone is not applied);
      // the files of long chains go to the workers first, then the costliest, so the lanes end together (src/run/sequencer.ts)
      sequence: { concurrent: true, sequencer: costSequencer(config.only) },
      maxConcurrency: 16,
      passWithNoTests: true,
      experimental: { fsModuleCache: true, ...(cache ? { fsModuleCachePath: join(cache, 'modules') } : {}) },
      // vitest.config.ts loaded in memory: the default loader writes a bundled copy beside it (or in
      // node_modules/.vite-temp), which an installed, read-only package cannot take
      configLoader: 'runner',
      ...(config.only ? { testNamePattern: onlyPattern(config.only) } : {}),
    } as any,
    { logLevel: 'silent', ...(cache ? { cacheDir: join(cache, 'vite') } : {}) } as any,
  );
  // vitest's logger exits the process on SIGINT/SIGTERM: the run handles them itself (stop, clean up,
  // report), so the listeners vitest just added go
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    for (const l of process.listeners(sig)) if (!ours[sig].includes(l)) process.off(sig, l);
  }
  // the total, before the first check: the suite files of this run (of this shard, as vitest's own
  // sequencer splits them) and the checks each declares it registers (src/items/plan.ts), under --only
  // (a shard: its checks, split from the whole selection by estimated cost, and the files that hold them)
  const specs = (await vitest.globTestSpecifications()).map((f: { moduleId: string }) => f.moduleId);
  const shard = config.shard ? planShard(specs, config.only, config.shard) : undefined;
  const plan = shard?.plan ?? planRun(specs, config.only);
  if (shard) (vitest as any).setGlobalTestNamePattern(shard.pattern);
  // and the checks the kit judges on every answer (the invariants): no file registers them, every shard judges them
  const kit = planKitChecks(config.only);
  collector.setPlan(plan, kit.total);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await vitest.close();
  };
  return {
    // files: those holding a selected check (more workers than these would only load the suite for nothing)
    plan: { total: plan.total + kit.total, items: plan.items + kit.items, files: [...plan.byFile.values()].filter((ids) => ids.length > 0).length },
    close,
    async run(shouldStop, workers) {
      // structured-cloned to every worker when the files start
      (vitest as any).provide('storecheck', config);
      if (workers !== undefined) setMaxWorkers(vitest, workers);
      // a signal or the deadline cancels the run; cleanup then runs in the caller
      const poll = setInterval(() => {
        if (shouldStop?.()) {
          clearInterval(poll);
          void vitest.cancelCurrentRun('keyboard-input');
        }
      }, 200);
      try {
        await vitest.start(shard?.files);
      } finally {
        clearInterval(poll);
        await close();
      }
      return { collector };
    },
  };
}
