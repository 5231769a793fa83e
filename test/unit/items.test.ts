/**
 * The spec-item catalogue (src/items): derived from the schema model, stable
 * ids, every rule of the rules table judged by at least one item, every
 * filter key, payload property and form leaf of every resource present.
 */
import { describe, expect, it, vi } from 'vitest';
import { allItems, buildCatalogue, catalogue, checkDef, ITEM_KINDS, type CheckDraft } from '../../src/items/index.js';
import { RULES } from '../../src/rules.js';
import { resources } from '../../src/schema/model.js';

describe('the item catalogue', () => {
  const checks = catalogue();
  const items = allItems();

  it('has item ids of the form <check>#<case> and check ids <resource|all>.<rule>[.<subject>]', () => {
    for (const i of items) expect(i.id).toBe(`${i.check}#${i.case}`);
    for (const c of checks) {
      expect(c.id).toMatch(/^[a-z-]+\.[a-z0-9.-]+(\.[A-Za-z0-9_.-]+)?$/);
      expect(c.id).toBe([c.resource === '*' ? 'all' : c.resource, c.rule, c.subject].filter(Boolean).join('.'));
    }
  });

  it('refuses drafts that would give two checks or two items one id, or a check no item', () => {
    const draft = (over: Partial<CheckDraft> = {}): CheckDraft => ({
      rule: 'filters.range', resource: 'product', subject: 'price', writes: false, kind: 'filter', cases: [['equal', 'a bound equal to a value']], ...over,
    });
    expect(buildCatalogue([draft(), draft({ subject: 'weight' })]).checks.map((c) => c.id)).toEqual(['product.filters.range.price', 'product.filters.range.weight']);
    expect(() => buildCatalogue([draft(), draft({ cases: [['other', 'another case']] })])).toThrow('item catalogue: two checks with the id product.filters.range.price');
    expect(() => buildCatalogue([draft({ cases: [['equal', 'one'], ['equal', 'the same case again']] })])).toThrow('item catalogue: two items with the id product.filters.range.price#equal');
    expect(() => buildCatalogue([draft({ cases: [] })])).toThrow('item catalogue: check product.filters.range.price judges no item');
  });

  it('judges every rule of src/rules.ts, with a known kind', () => {
    const judged = new Set<string>(items.map((i) => i.rule));
    expect(Object.keys(RULES).filter((r) => !judged.has(r))).toEqual([]);
    for (const i of items) expect(ITEM_KINDS).toContain(i.kind);
  });

  it('has an item per filter key and case, and a count item beside each, on every list resource', () => {
    for (const r of resources().filter((x) => !x.single)) {
      for (const f of r.filters) {
        const get = f.key === 'id' ? checkDef(`${r.name}.filters.id`) : checkDef(`${r.name}.filters.${f.filter}.${f.key}`);
        const count = checkDef(`${r.name}.filters.count-agrees.${f.key}`);
        for (const it of get.items) expect(count.items.map((x) => x.case), `${count.id} lacks ${it.case}`).toContain(it.case);
      }
    }
  });

  it('has an item per payload property and operation on every writable resource', () => {
    for (const r of resources().filter((x) => x.writable)) {
      const changes = checkDef(`${r.name}.lifecycle.update.changes`).items.map((i) => i.case);
      const created = checkDef(`${r.name}.lifecycle.create.round-trip`).items.map((i) => i.case);
      for (const p of r.payload) {
        if (p.name === 'fileid') continue; // shows as no record field (§4: sent by the samples only)
        expect(changes, `${r.name} update ${p.name}`).toContain(p.name);
        expect(created, `${r.name} create ${p.name}`).toContain(p.name);
      }
    }
  });

  it('counts about two thousand items over the 15 resources', () => {
    expect(new Set(items.map((i) => i.resource)).size).toBeGreaterThanOrEqual(15);
    expect(items.length).toBeGreaterThan(1500);
  });

  it('is built the same every time (ids are stable: reports, baselines and --only compare by them)', async () => {
    vi.resetModules();
    const fresh = await import('../../src/items/index.js');
    const rebuilt = fresh.catalogue();
    expect(rebuilt, 'a second, independent build').not.toBe(checks);
    expect(rebuilt.map((c) => c.id)).toEqual(checks.map((c) => c.id));
    expect(fresh.allItems().map((i) => i.id)).toEqual(items.map((i) => i.id));
  });

  it('lists the checks in report order: resource by resource in the schema model\'s order, then the checks about every resource', () => {
    const runs = checks.map((c) => c.resource).filter((r, i, all) => i === 0 || all[i - 1] !== r);
    expect(runs).toEqual([...resources().map((r) => r.name).filter((n) => checks.some((c) => c.resource === n)), '*']);
  });
});
