/**
 * The run's plan (src/items/plan.ts): the total printed before the first check
 * must be the number of checks that will finish. It rests on knowing which
 * checks each suite file registers — each file declares it (`REGISTERS`), the
 * plan reads the declaration from the file's text, and this test loads every
 * suite file with `check()` recording instead of registering a test and
 * compares — and on the same --only matching as vitest's test-name pattern.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogue, isInvariantRule } from '../../src/items/index.js';
import { checksOfFile, parseSuiteDeclaration, planRun, suiteDeclaration } from '../../src/items/plan.js';
import { itemSelector, onlyPattern, selectChecks, selectItems } from '../../src/items/select.js';
import { PROJECT_ROOT as ROOT } from '../../src/version.js';

const seen = vi.hoisted(() => ({ ids: [] as string[] }));

vi.mock('../../src/check/check.js', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../../src/check/check.js')>();
  // a suite file's registrations, recorded (no vitest test is made)
  const check = (def: { id: string }) => {
    seen.ids.push(def.id);
  };
  return { ...orig, check };
});
vi.mock('../../src/check/fixture.js', () => ({
  fixture: () => ({ get: () => Promise.reject(new Error('fixtures are built in a run only')) }),
}));

const SUITES = join(ROOT, 'suites');
const files = readdirSync(SUITES).filter((f) => f.endsWith('.check.ts')).sort();
const all = files.map((f) => join(SUITES, f));

/** What each suite file registers when loaded (the test ids a run would have), and what it exports as REGISTERS. */
const registered = new Map<string, string[]>();
const exported = new Map<string, unknown>();
beforeAll(async () => {
  for (const file of files) {
    seen.ids = [];
    const mod = await import(join(SUITES, file));
    registered.set(file, [...seen.ids]);
    exported.set(file, mod.REGISTERS);
  }
});

describe('which checks each suite file registers', () => {
  it.each(files)('%s registers exactly the checks it declares', (file) => {
    expect(registered.get(file)!.length, `${file} registers checks`).toBeGreaterThan(0);
    expect([...registered.get(file)!].sort()).toEqual(checksOfFile(join(SUITES, file)).map((c) => c.id).sort());
  });

  it.each(files)('%s: the declaration the plan reads from its text is the one the module exports', (file) => {
    expect(suiteDeclaration(join(SUITES, file))).toEqual(exported.get(file));
  });

  it('every check of the catalogue is declared by exactly one file, but the invariants the kit judges on every answer (by none)', () => {
    const planned = files.flatMap((f) => checksOfFile(join(SUITES, f)).map((c) => c.id));
    expect(planned.length).toBe(new Set(planned).size);
    expect([...planned].sort()).toEqual(catalogue().filter((c) => !isInvariantRule(c.rule)).map((c) => c.id).sort());
    expect(catalogue().filter((c) => isInvariantRule(c.rule)).length).toBeGreaterThan(0);
  });
});

describe('reading a declaration', () => {
  const read = (text: string) => parseSuiteDeclaration(text, 'suites/x.check.ts');

  it('reads rules and the resource class, on one line or several, comments aside', () => {
    expect(read("import x from 'y';\nexport const REGISTERS: SuiteDeclaration = { rules: ['store.single-object', 'store.apikey-field'] };\n"))
      .toEqual({ rules: ['store.single-object', 'store.apikey-field'] });
    expect(read("export const REGISTERS: SuiteDeclaration = {\n  // the writable ones\n  rules: [\n    'filters.id',\n    'filters.range',\n  ],\n  resources: 'read-only',\n};\n"))
      .toEqual({ rules: ['filters.id', 'filters.range'], resources: 'read-only' });
  });

  it('refuses a file without one, with two, or with what the plan cannot read, naming the file', () => {
    expect(() => read("check(checkOf('store.single-object', 'store'), fn);")).toThrow(/suites\/x\.check\.ts: no REGISTERS declaration/);
    const one = "export const REGISTERS: SuiteDeclaration = { rules: ['store.single-object'] };\n";
    expect(() => read(one + one)).toThrow(/more than once/);
    expect(() => read("export const REGISTERS: SuiteDeclaration = { rules: ['store.no-such-rule'] };")).toThrow(/no rule of src\/rules\.ts/);
    expect(() => read("export const REGISTERS: SuiteDeclaration = { rules: [] };")).toThrow(/empty/);
    expect(() => read("export const REGISTERS: SuiteDeclaration = { rules: RULES_OF_STORE };")).toThrow(/no rules array/);
    expect(() => read("export const REGISTERS: SuiteDeclaration = { rules: ['store.single-object', ...MORE] };")).toThrow(/quoted rule ids only/);
    expect(() => read("export const REGISTERS: SuiteDeclaration = { rules: ['store.single-object'], resources: 'some' };")).toThrow(/none of writable, read-only/);
    expect(() => read("export const REGISTERS: SuiteDeclaration = { rules: ['store.single-object'], subjects: ['x'] };")).toThrow(/besides rules and resources/);
  });

  it('is what every suite file starts with: an exported, typed constant', () => {
    for (const f of files) expect(readFileSync(join(SUITES, f), 'utf8'), f).toMatch(/^export const REGISTERS: SuiteDeclaration = \{/m);
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
