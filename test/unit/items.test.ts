/**
 * The spec-item catalogue (src/items): derived from the schema model, stable
 * ids, every rule of the rules table judged by at least one item, every
 * filter key, payload property and form leaf of every resource present.
 */
import { describe, expect, it } from 'vitest';
import { allItems, catalogue, checkDef, ITEM_KINDS } from '../../src/items/index.js';
import { RULES } from '../../src/rules.js';
import { resources } from '../../src/schema/model.js';

describe('the item catalogue', () => {
  const checks = catalogue();
  const items = allItems();

  it('has unique check ids and item ids of the form <check>#<case>', () => {
    expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    for (const i of items) expect(i.id).toBe(`${i.check}#${i.case}`);
    for (const c of checks) expect(c.id).toMatch(/^[a-z-]+\.[a-z0-9.-]+(\.[A-Za-z0-9_.-]+)?$/);
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

  it('is the same on every call (stable order)', () => {
    expect(catalogue().map((c) => c.id)).toEqual(checks.map((c) => c.id));
  });
});
