/**
 * The order vitest hands the check files to its workers: each file of long
 * chains beside one of the costliest others, then the costliest.
 *
 * A worker runs one file at a time and takes the next as it frees up, so the
 * checks phase lasts as long as its longest lane (the files one worker ran).
 *
 * - **Long chains early, each beside bulk work.** A file whose checks wait on
 *   answer after answer (a model sequence of ~40 round trips, a history of 11
 *   updates, the page walks of a delete) lasts at least its chain's round trips
 *   × the target's latency, using little CPU and few slots meanwhile. Started
 *   last, it ends the run alone with most slots idle (measured at 30 ms: the
 *   checks phase 7 % shorter with them first, in alternated pairs); started
 *   all together, they leave a third of the slots idle for the first seconds
 *   (the gate's slots sampled every 2 ms: 0.8 s of all 24 slots idle in the
 *   first quarter of the checks phase). So they go early, each followed by
 *   one of the costliest other files, whose requests fill the slots the chains
 *   leave; the chains' own requests take a freed slot first (SharedGate.acquire,
 *   `urgent`), so their steps do not queue behind the bulk work beside them
 *   (0.4-0.5 s of the slots idle in that quarter then). A chain is long when it
 *   has at least half the round trips of the longest file chain of the run
 *   (src/items/shard.ts longChainChecks: the same measure per check).
 * - **Then the costliest** (the longest-processing-time rule): the long files
 *   go before the short ones, which fill the gaps so the lanes end together. A
 *   file's cost is the measured duration of the checks it registers that the
 *   run selects (their sum: its checks run side by side and share the CPU).
 *
 * Both figures come from src/items/check-weights.json (a standard run: each
 * check's duration and round trips, a check it does not know counting its
 * rule's) — known before the run, the same on every machine, unlike vitest's
 * own order (the durations its cache kept from whatever ran last there, or the
 * files' sizes in a fresh clone or an installed package).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { checksOfFile } from '../items/plan.js';
import { onlySelects } from '../items/select.js';
import { checkWeights, longestChain } from '../items/shard.js';

/** What the order of a file depends on: its estimated cost (ms) and its longest chain (round trips). */
export interface FileEstimate {
  cost: number;
  chain: number;
}

/** The estimates of the suite file at `file`, over the checks the run selects. */
export function fileEstimate(file: string, only?: string): FileEstimate {
  const selects = onlySelects(only);
  const checks = checksOfFile(file).filter((c) => selects(c.id));
  let cost = 0;
  for (const w of checkWeights(checks).values()) cost += w;
  return { cost, chain: longestChain(checks) };
}

/** The estimated cost of the suite file at `file`: its selected checks' weights added up (ms). */
export function fileCost(file: string, only?: string): number {
  return fileEstimate(file, only).cost;
}

/**
 * Files in the order they go to the workers: each long chain (longest first)
 * followed by one of the costliest other files, then the rest costliest first;
 * ties by path, so every run orders them alike.
 */
export function handOutOrder<T>(files: readonly T[], pathOf: (f: T) => string, estimateOf: (path: string) => FileEstimate): T[] {
  const est = new Map(files.map((f) => [f, estimateOf(pathOf(f))]));
  const longest = Math.max(0, ...[...est.values()].map((e) => e.chain));
  const isLong = (f: T) => longest > 0 && est.get(f)!.chain * 2 >= longest;
  const byPath = (a: T, b: T) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0);
  const long = files.filter(isLong).sort((a, b) => est.get(b)!.chain - est.get(a)!.chain || byPath(a, b));
  const rest = files.filter((f) => !isLong(f)).sort((a, b) => est.get(b)!.cost - est.get(a)!.cost || byPath(a, b));
  const order: T[] = [];
  for (let i = 0; i < Math.max(long.length, rest.length); i++) order.push(...long.slice(i, i + 1), ...rest.slice(i, i + 1));
  return order;
}

/** The sequencer class vitest instantiates (`sequence.sequencer`) for a run under `--only`. */
export function costSequencer(only?: string): typeof BaseSequencer {
  return class CostSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      return handOutOrder(files, (f) => f.moduleId, (path) => fileEstimate(path, only));
    }
  };
}
