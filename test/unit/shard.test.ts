/**
 * --shard i/n splits the checks by estimated cost (src/items/shard.ts), not by suite file (issue 22: a
 * file split gave 149 checks in 3.5 s to one shard and 715 in 11.3 s to the other).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planRun, planShard } from '../../src/items/plan.js';
import { checkWeights, splitByCost } from '../../src/items/shard.js';
import { catalogue } from '../../src/items/index.js';

const SUITES = fileURLToPath(new URL('../../suites/', import.meta.url));
const files = readdirSync(SUITES).filter((f) => f.endsWith('.check.ts')).sort().map((f) => join(SUITES, f));

describe('--shard by estimated cost', () => {
  const whole = planRun(files);
  const all = [...whole.byFile.values()].flat();
  const weight = checkWeights(catalogue().filter((c) => all.includes(c.id)));

  it.each([2, 3, 4])('the %i shards of the full standard plan: their union is the plan, no check twice, estimated costs within 25 %', (n) => {
    const shards = Array.from({ length: n }, (_, i) => planShard(files, undefined, `${i + 1}/${n}`));
    const ids = shards.flatMap((s) => [...s.plan.byFile.values()].flat());
    expect(ids.length).toBe(all.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...all].sort());
    expect(shards.reduce((t, s) => t + s.plan.total, 0)).toBe(whole.total);
    const costs = shards.map((s) => [...s.plan.byFile.values()].flat().reduce((t, id) => t + weight.get(id)!, 0));
    expect(Math.max(...costs) / Math.min(...costs), costs.join(' / ')).toBeLessThanOrEqual(1.25);
    // each shard's test-name pattern takes exactly its checks; its files are those holding one
    for (const s of shards) {
      const mine = new Set([...s.plan.byFile.values()].flat());
      for (const id of all) expect(s.pattern.test(`${id} — title`), id).toBe(mine.has(id));
      expect(s.files.every((f) => s.plan.byFile.get(f)!.length > 0)).toBe(true);
    }
  });

  it('under --only, the shards split the selection', () => {
    const only = 'product.*,coupon.*';
    const selected = [...planRun(files, only).byFile.values()].flat();
    const parts = [1, 2].map((i) => [...planShard(files, only, `${i}/2`).plan.byFile.values()].flat());
    expect([...parts[0], ...parts[1]].sort()).toEqual([...selected].sort());
    expect(parts[0].length).toBeGreaterThan(0);
    expect(parts[1].length).toBeGreaterThan(0);
  });

  it('a check the table does not know weighs the median of its rule, else of all; heaviest first to the lightest shard', () => {
    const w = checkWeights([{ id: 'a.x.1', rule: 'filters.id' }, { id: 'a.x.2', rule: 'filters.id' }, { id: 'new.one', rule: 'filters.id' }, { id: 'other', rule: 'format.get.boolean' }], { 'a.x.1': 10, 'a.x.2': 30, 'zzz': 2 });
    expect(Object.fromEntries(w)).toEqual({ 'a.x.1': 10, 'a.x.2': 30, 'new.one': 30, other: 10 });
    expect(splitByCost(new Map([['a', 5], ['b', 4], ['c', 3], ['d', 3]]), 2)).toEqual([['a', 'd'], ['b', 'c']]);
  });
});
