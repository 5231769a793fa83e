/**
 * `storecheck merge` (src/cli/merge.ts): one whole set of shards of one run,
 * or a usage error naming what is wrong; items and coverage merged too.
 */
import { describe, expect, it } from 'vitest';
import { checkShardSet, mergeReports } from '../../src/cli/merge.js';
import type { ItemResult, Report } from '../../src/report/types.js';
import { check, makeReport } from '../fixtures/reports/build.js';

const item = (id: string, status: ItemResult['status']): ItemResult => ({ id, check: id.split('#')[0], rule: 'filters.id', resource: 'product', kind: 'filter', status }) as ItemResult;

function shard(spec: string | undefined, id: string, extra: Partial<Report['run']> = {}): Report {
  const r = makeReport([check({ id, status: 'passed' })], { items: [item(`${id}#one`, 'passed'), item(`${id}#two`, 'not-judged')] });
  r.run = { ...r.run, ...(spec ? { shard: spec } : {}), ...extra };
  return r;
}

describe('merge: the shard set', () => {
  it('a whole set merges, items and coverage with it', () => {
    const m = mergeReports([shard('1/2', 'product.filters.id'), shard('2/2', 'tax.filters.id')]);
    expect(m.checks.map((c) => c.id).sort()).toEqual(['product.filters.id', 'tax.filters.id']);
    expect(m.items).toHaveLength(4);
    expect(m.coverage).toMatchObject({ total: 4, judged: 2 });
  });

  it('keeps no shard\'s slots, workers, phases or critical path: each had its own', () => {
    const path = (roundTrips: number) => ({ roundTrips, ms: 1000, byPhase: { preflight: 1, probes: 7, checks: roundTrips - 8, cleanup: 0 }, lanes: 3, longestChecks: [], writes: { count: 9, ms: 400 } });
    const phasesMs = { startup: 800, preflight: 60, probes: 700, checks: 9000, cleanup: 30 };
    const m = mergeReports([
      shard('1/2', 'product.filters.id', { slots: { heldS: 100, meanHeldMs: 40, used: 0.8 }, workers: { count: 3, by: 'default' }, criticalPath: path(100), phasesMs }),
      shard('2/2', 'tax.filters.id', { slots: { heldS: 50, meanHeldMs: 60, used: 0.5 }, workers: { count: 2, by: 'given' }, criticalPath: path(120), phasesMs }),
    ]);
    expect(m.run.slots).toBeUndefined();
    expect(m.run.workers).toBeUndefined();
    expect(m.run.criticalPath).toBeUndefined();
    expect(m.run.phasesMs).toBeUndefined();
  });

  it('refuses a missing, a duplicated or a foreign shard', () => {
    expect(() => checkShardSet([shard('1/3', 'a.x'), shard('3/3', 'b.x')])).toThrow(/incomplete shard set: 2\/3 missing/);
    expect(() => checkShardSet([shard('1/2', 'a.x'), shard('1/2', 'b.x'), shard('2/2', 'c.x')])).toThrow(/shard 1\/2 given more than once/);
    expect(() => checkShardSet([shard('1/2', 'a.x'), shard('2/3', 'b.x')])).toThrow(/different splits/);
    expect(() => checkShardSet([shard('1/2', 'a.x'), shard(undefined, 'b.x')])).toThrow(/not made with --shard/);
    expect(() => checkShardSet([shard('1/2', 'a.x', { only: 'product.*' }), shard('2/2', 'b.x')])).toThrow(/different --only/);
  });

  it('one unsharded report is accepted as it is', () => {
    expect(() => checkShardSet([shard(undefined, 'a.x')])).not.toThrow();
  });
});
