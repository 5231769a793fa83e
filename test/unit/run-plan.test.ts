/**
 * The run's plan (src/run/plan.ts): the total printed before the first check
 * must be the number of checks that will finish. It rests on knowing which
 * checks each suite file registers — proven here by loading every suite file
 * with `check()` recording instead of registering a test — and on the same
 * --only matching as vitest's test-name pattern.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogue, checkIdOf } from '../../src/items/index.js';
import { checksOfFile, itemSelector, planRun, selectChecks, selectItems } from '../../src/run/plan.js';
import { onlyPattern } from '../../src/run/vitest.js';
import { PROJECT_ROOT as ROOT } from '../../src/version.js';

const seen = vi.hoisted(() => ({ ids: [] as string[] }));

vi.mock('../../src/check/check.js', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../../src/check/check.js')>();
  // a suite file's registrations, recorded (no vitest test is made)
  const check = (spec: { id?: string; items?: unknown; rule: string; resource: string; subject?: string }) => {
    seen.ids.push(spec.items && spec.id ? spec.id : checkIdOf(spec as Parameters<typeof checkIdOf>[0]));
  };
  return { ...orig, check };
});
vi.mock('../../src/check/fixture.js', () => ({
  fixture: () => ({ get: () => Promise.reject(new Error('fixtures are built in a run only')) }),
}));

const SUITES = join(ROOT, 'suites');
const files = readdirSync(SUITES).filter((f) => f.endsWith('.check.ts')).sort();
const all = files.map((f) => join(SUITES, f));

/** What each suite file registers when loaded (the test ids a run would have). */
const registered = new Map<string, string[]>();
beforeAll(async () => {
  for (const file of files) {
    seen.ids = [];
    await import(join(SUITES, file));
    registered.set(file, [...seen.ids]);
  }
});

describe('which checks each suite file registers', () => {
  it.each(files)('%s registers exactly the checks the plan gives it', (file) => {
    expect([...registered.get(file)!].sort()).toEqual(checksOfFile(file).map((c) => c.id).sort());
  });

  it('no check is given to two files', () => {
    const planned = files.flatMap((f) => checksOfFile(f).map((c) => c.id));
    expect(planned.length).toBe(new Set(planned).size);
  });
});

describe('the plan of a run', () => {
  const ids = () => [...registered.values()].flat();

  it('every registered check without --only; the shards of the files sum to the whole', () => {
    expect(planRun(all).total).toBe(ids().length);
    expect(planRun(all).items).toBe(ids().reduce((n, id) => n + catalogue().find((c) => c.id === id)!.items.length, 0));
    const halves = [all.filter((_, i) => i % 2 === 0), all.filter((_, i) => i % 2 === 1)];
    expect(halves.map((h) => planRun(h, '*.filters.*').total).reduce((a, b) => a + b)).toBe(planRun(all, '*.filters.*').total);
  });

  it("--only selects what vitest's test-name pattern selects", () => {
    for (const only of ['product.*', '*.filters.range.*,coupon.lifecycle.*', 'store.store.apikey-field', 'all.observe.*']) {
      const re = onlyPattern(only);
      const byVitest = ids().filter((id) => re.test(`${id} — ${catalogue().find((c) => c.id === id)!.title ?? 'title'}`));
      expect(byVitest.length).toBeGreaterThan(0);
      expect(planRun(all, only).total).toBe(byVitest.length);
      expect(selectChecks(only).map((c) => c.id).filter((id) => byVitest.includes(id))).toEqual(selectChecks(only).map((c) => c.id).filter((id) => ids().includes(id)));
    }
  });

  it('an item pattern selects its check, and only the matching items of it', () => {
    const only = 'product.filters.range.price_min#equal';
    expect(planRun(all, only)).toMatchObject({ total: 1, items: 1 });
    expect(selectItems(only).map((i) => i.id)).toEqual([only]);
    const def = catalogue().find((c) => c.id === 'product.filters.range.price_min')!;
    expect(def.items.map((i) => i.case).filter(itemSelector(only, def))).toEqual(['equal']);
    // a check selected whole keeps every item, whatever else names items
    expect(def.items.filter((i) => itemSelector(`${def.id},x#y`, def)(i.case))).toHaveLength(def.items.length);
  });
});
