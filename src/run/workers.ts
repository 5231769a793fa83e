/**
 * How many check files run at once (vitest workers), decided when vitest has
 * planned the files.
 *
 * A near target (the embedded server, a store on this machine) makes the run
 * CPU-bound: every worker is a V8 isolate that loads the suite again, so the
 * default is cores + 1 (src/cli/options.ts defaultWorkers). More workers for a
 * far target were measured and did not pay on 2 cores: they keep the slots of
 * --concurrency full to the end of the lanes, but each isolate costs what that
 * wins (docs/speed.md). `--workers` given by the user is always obeyed.
 */
import type { RunConfig } from '../config.js';
import type { Report } from '../report/types.js';

export type WorkersChoice = NonNullable<Report['run']['workers']>;

/**
 * The workers of this run: the flag's when given, else the default. Never more
 * than the files that hold a selected check (`files`): a worker without one
 * would load the suite for nothing (a run under --only of two files takes two).
 */
export function chooseWorkers(config: Pick<RunConfig, 'workers' | 'workersGiven'>, files: number): WorkersChoice {
  return { count: Math.max(1, Math.min(config.workers, files)), by: config.workersGiven ? 'given' : 'default' };
}
