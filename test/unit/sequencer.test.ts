/**
 * The order the run hands its check files to the workers (src/run/sequencer.ts): costliest first by
 * the measured weights of the checks each registers, so the short files fill the lanes' gaps and the
 * lanes end together.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { costliestFirst, costSequencer, fileCost } from '../../src/run/sequencer.js';
import { checksOfFile } from '../../src/items/plan.js';
import { checkWeights } from '../../src/items/shard.js';

const SUITES = fileURLToPath(new URL('../../suites/', import.meta.url));
const files = readdirSync(SUITES).filter((f) => f.endsWith('.check.ts')).sort().map((f) => join(SUITES, f));

/** The checks phase's length if `order` is handed out as workers free up (each file taking its cost). */
function longestLane(order: readonly number[], workers: number): number {
  const lanes = Array.from({ length: workers }, () => 0);
  for (const cost of order) lanes[lanes.indexOf(Math.min(...lanes))] += cost;
  return Math.max(...lanes);
}

describe('check files, costliest first', () => {
  it('a file costs its checks\' weights added up; --only counts only what it selects', () => {
    const file = files.find((f) => f.endsWith('pagination.check.ts'))!;
    const checks = checksOfFile(file);
    const sum = [...checkWeights(checks).values()].reduce((a, b) => a + b, 0);
    expect(fileCost(file)).toBe(sum);
    expect(sum).toBeGreaterThan(0);
    const one = checks[0].id;
    expect(fileCost(file, one)).toBe(checkWeights([checks[0]]).get(one));
    expect(fileCost(file, 'no-such-check')).toBe(0);
  });

  it('orders by cost, the costliest first; equal costs by path', () => {
    const cost: Record<string, number> = { a: 5, b: 9, c: 5, d: 1 };
    expect(costliestFirst(['d', 'c', 'a', 'b'], (f) => f, (f) => cost[f])).toEqual(['b', 'a', 'c', 'd']);
  });

  it('the sequencer vitest gets sorts the suite files so; the lanes end no later than in path order', async () => {
    const Sequencer = costSequencer();
    const specs = files.map((moduleId) => ({ moduleId }));
    const sorted = (await new Sequencer({} as never).sort(specs as never)) as unknown as Array<{ moduleId: string }>;
    const costs = sorted.map((s) => fileCost(s.moduleId));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(new Set(sorted.map((s) => s.moduleId))).toEqual(new Set(files));
    for (const workers of [2, 3, 4]) expect(longestLane(costs, workers)).toBeLessThanOrEqual(longestLane(files.map((f) => fileCost(f)), workers));
  });
});
