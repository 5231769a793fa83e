/**
 * The order vitest hands the check files to its workers: the costliest first.
 *
 * A worker runs one file at a time and takes the next as it frees up, so the
 * checks phase lasts as long as its longest lane (the files one worker ran).
 * Handing out the longest files first (the longest-processing-time rule) lets
 * the short ones fill the gaps and the lanes end together. A file's cost is the
 * measured duration of the checks it registers that the run selects (their sum:
 * its checks run side by side and share the CPU; src/items/check-weights.json,
 * measured from a standard run, a check it does not know weighing its rule's
 * median) — known before the run, the same on every machine, unlike vitest's
 * own order (the durations its cache kept from whatever ran last there, or the
 * files' sizes in a fresh clone or an installed package).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { checksOfFile } from '../items/plan.js';
import { onlySelects } from '../items/select.js';
import { checkWeights } from '../items/shard.js';

/** The estimated cost of the suite file at `file`: its selected checks' weights added up (ms). */
export function fileCost(file: string, only?: string): number {
  const selects = onlySelects(only);
  let sum = 0;
  for (const w of checkWeights(checksOfFile(file).filter((c) => selects(c.id))).values()) sum += w;
  return sum;
}

/** Files ordered costliest first; equal costs by path, so every run orders them alike. */
export function costliestFirst<T>(files: readonly T[], pathOf: (f: T) => string, costOf: (path: string) => number): T[] {
  const cost = new Map(files.map((f) => [f, costOf(pathOf(f))]));
  return [...files].sort((a, b) => cost.get(b)! - cost.get(a)! || (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0));
}

/** The sequencer class vitest instantiates (`sequence.sequencer`) for a run under `--only`. */
export function costSequencer(only?: string): typeof BaseSequencer {
  return class CostSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      return costliestFirst(files, (f) => f.moduleId, (path) => fileCost(path, only));
    }
  };
}
