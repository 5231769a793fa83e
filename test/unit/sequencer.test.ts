/**
 * The order the run hands its check files to the workers (src/run/sequencer.ts): each file with long
 * chains of round trips early (their waits overlap the other files' work instead of ending the run
 * alone), longest first, followed by one of the costliest others (whose requests fill the slots the
 * chains leave); then costliest first by the measured weights of the checks each registers, so the
 * short files fill the lanes' gaps and the lanes end together. And which checks' requests take a freed
 * slot first (src/items/shard.ts longChainChecks).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { costSequencer, fileCost, fileEstimate, handOutOrder, type FileEstimate } from '../../src/run/sequencer.js';
import { checksOfFile } from '../../src/items/plan.js';
import { checkWeights, longChainChecks, longestChain } from '../../src/items/shard.js';

const SUITES = fileURLToPath(new URL('../../suites/', import.meta.url));
const files = readdirSync(SUITES).filter((f) => f.endsWith('.check.ts')).sort().map((f) => join(SUITES, f));

describe('a check file\'s estimates', () => {
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

  it('a file\'s chain is the longest of its selected checks\' measured round trips', () => {
    const file = files.find((f) => f.endsWith('model.check.ts'))!;
    const checks = checksOfFile(file);
    expect(fileEstimate(file).chain).toBe(longestChain(checks));
    expect(fileEstimate(file).chain).toBeGreaterThan(10);
    expect(fileEstimate(file, 'no-such-check').chain).toBe(0);
  });

  it('a check the table does not know counts the longest of its rule\'s measured checks among those asked about (as the weights do), else none', () => {
    const known = { 'a.model.sequence': 40, 'b.model.sequence': 30, 'a.filters.id': 5 };
    expect(longestChain([{ id: 'c.model.sequence', rule: 'model.sequence' }, { id: 'a.model.sequence', rule: 'model.sequence' }], known)).toBe(40);
    expect(longestChain([{ id: 'c.model.sequence', rule: 'model.sequence' }, { id: 'b.model.sequence', rule: 'model.sequence' }], known)).toBe(30);
    expect(longestChain([{ id: 'c.versions.append', rule: 'versions.append' }], known)).toBe(0);
    expect(longestChain([], known)).toBe(0);
  });
});

describe('the checks of long chains (their requests take a freed slot first)', () => {
  it('are those measured with at least half the round trips of the longest', () => {
    expect(longChainChecks({ a: 40, b: 20, c: 19, d: 0 })).toEqual(new Set(['a', 'b']));
    expect(longChainChecks({})).toEqual(new Set());
  });

  it('in the weights table: the model sequences among them, no check of one or two round trips', () => {
    const long = longChainChecks();
    expect([...long].filter((id) => id.endsWith('.model.sequence')).length).toBeGreaterThan(3);
    const table = JSON.parse(readFileSync(new URL('../../src/items/check-weights.json', import.meta.url), 'utf8')) as { roundTrips: Record<string, number> };
    const short = Object.entries(table.roundTrips).filter(([, n]) => n <= 2).map(([id]) => id);
    expect(short.length).toBeGreaterThan(100);
    expect(short.filter((id) => long.has(id))).toEqual([]);
  });
});

describe('the order files go to the workers', () => {
  it('each long chain (at least half the longest; longest first) followed by one of the costliest others; then the rest, costliest first; ties by path', () => {
    const est: Record<string, FileEstimate> = {
      a: { chain: 40, cost: 1 },
      b: { chain: 10, cost: 100 },
      c: { chain: 25, cost: 5 },
      d: { chain: 20, cost: 50 },
      e: { chain: 19, cost: 60 },
      f: { chain: 19, cost: 60 },
      g: { chain: 25, cost: 7 },
    };
    expect(handOutOrder(['b', 'f', 'e', 'd', 'c', 'a', 'g'], (x) => x, (x) => est[x])).toEqual(['a', 'b', 'c', 'e', 'g', 'f', 'd']);
  });

  it('with no chains measured, costliest first', () => {
    const cost: Record<string, number> = { a: 5, b: 9, c: 5, d: 1 };
    expect(handOutOrder(['d', 'c', 'a', 'b'], (f) => f, (f) => ({ cost: cost[f], chain: 0 }))).toEqual(['b', 'a', 'c', 'd']);
  });

  it('the sequencer vitest gets sorts the suite files so', async () => {
    const Sequencer = costSequencer();
    const specs = files.map((moduleId) => ({ moduleId }));
    const sorted = (await new Sequencer({} as never).sort(specs as never)) as unknown as Array<{ moduleId: string }>;
    expect(new Set(sorted.map((s) => s.moduleId))).toEqual(new Set(files));
    const est = sorted.map((s) => fileEstimate(s.moduleId));
    const longest = Math.max(...est.map((e) => e.chain));
    const isLong = (e: FileEstimate) => e.chain * 2 >= longest;
    const long = est.filter(isLong);
    const rest = est.filter((e) => !isLong(e));
    // the suite has files of long chains (model sequences, histories of updates) and more other files:
    // a long chain, then one of the costliest others, by turns, until the long chains are handed out
    expect(long.length).toBeGreaterThan(1);
    expect(rest.length).toBeGreaterThan(long.length);
    expect(est.slice(0, 2 * long.length).map(isLong)).toEqual(long.flatMap(() => [true, false]));
    expect(long.map((e) => e.chain)).toEqual([...long.map((e) => e.chain)].sort((a, b) => b - a));
    expect(rest.map((e) => e.cost)).toEqual([...rest.map((e) => e.cost)].sort((a, b) => b - a));
  });
});
