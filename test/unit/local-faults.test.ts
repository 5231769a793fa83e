/**
 * The generated local-fault catalogue and its proof plumbing
 * (reference/faults-generated.ts, reference/prove-local.ts), without a server:
 * every fault names items the catalogue has, batches never put two faults on
 * one field (or a resource-wide fault beside another on its resource), and a
 * failing item is credited only to the fault it names.
 */
import { describe, expect, it } from 'vitest';
import { FAMILIES, findLocalFault, globRe, localFaults, observableOnReference, unobservableReason, type LocalFault } from '../../reference/faults-generated.js';
import { attribute, onlyResources, planBatches, sampleFaults } from '../../reference/prove-local.js';
import { DATE_ONLY_FIELDS } from '../../src/observe/date-only.js';
import { allItems } from '../../src/items/index.js';
import type { ItemResult } from '../../src/report/types.js';

const ITEM_IDS = allItems().map((i) => i.id);
const RESOURCE_OF = new Map(allItems().map((i) => [i.id, i.resource]));

describe('the generated local-fault catalogue', () => {
  const faults = localFaults();

  it('has every family, hundreds of faults, unique stable names', () => {
    expect(faults.length).toBeGreaterThan(500);
    expect(new Set(faults.map((f) => f.family))).toEqual(new Set(FAMILIES));
    expect(new Set(faults.map((f) => f.name)).size).toBe(faults.length);
    for (const f of faults) expect(f.name).toBe(`${f.family}:${f.resource}.${f.subject}`);
  });

  it('every fault names catalogue items of its own resource only', () => {
    const dangling: string[] = [];
    const foreign: string[] = [];
    for (const f of faults) {
      // items of a check start with its resource: only those can match a glob of the fault's own resource
      const own = ITEM_IDS.filter((id) => id.startsWith(`${f.resource}.`) || id.startsWith('all.'));
      for (const g of f.expects) {
        const re = globRe(g);
        const hits = own.filter((id) => re.test(id));
        if (!hits.length) dangling.push(`${f.name}: ${g}`);
        foreign.push(...hits.filter((id) => RESOURCE_OF.get(id) !== f.resource).map((id) => `${f.name} → ${id}`));
      }
    }
    expect(foreign).toEqual([]);
    expect(dangling).toEqual([]);
  });

  it('a property the run only ever sends as one value: an update ignoring it, or a create storing the default it is, cannot show', () => {
    const named = (n: string) => findLocalFault(n)!;
    // page homepage: only 'false' is sent (x-safe-value), the default a dropped Boolean leaves
    expect(unobservableReason(named('create-drops-property:page.homepage'))).toMatch(/only ever sends homepage false/);
    expect(unobservableReason(named('update-ignores-property:page.homepage'))).toMatch(/cannot change it/);
    // product type: one known value (PHYSICAL), which is not the default a dropped property leaves: a create dropping it shows
    expect(unobservableReason(named('update-ignores-property:product.type'))).toMatch(/PHYSICAL/);
    expect(observableOnReference(named('create-drops-property:product.type'))).toBe(true);
    // coupon type: two known values, an update can change it
    expect(observableOnReference(named('update-ignores-property:coupon.type'))).toBe(true);
    expect(observableOnReference(named('create-drops-property:page.secured'))).toBe(true);
    const unshowable = faults.filter((f) => (f.family === 'create-drops-property' || f.family === 'update-ignores-property') && !observableOnReference(f)).map((f) => f.name);
    expect(unshowable.sort()).toEqual(['create-drops-property:page.homepage', 'update-ignores-property:page.homepage', 'update-ignores-property:product.type']);
  });

  it('the cap families are observable on the reference data only where more than 1000 records can be', () => {
    const cap = faults.filter((f) => f.family === 'count-capped-1000');
    expect(cap.filter((f) => observableOnReference(f)).map((f) => f.resource)).toContain('file');
    expect(cap.filter((f) => !observableOnReference(f)).map((f) => f.resource)).toContain('order');
  });
});

describe('batches', () => {
  const faults = localFaults();
  const fieldOf = (f: LocalFault) => f.subject.replace(/_(min|max)$/, '').split('.')[0];
  const wide = new Set(['pages-overlap', 'page-one-too-many', 'default-get-uncapped', 'count-capped-1000', 'count-plus-one-filtered', 'delete-first-id-only', 'delete-first-filter-only', 'auth-ignored', 'version-stale']);

  it('field sharing: never two faults on one field, never a resource-wide fault beside another of its resource', () => {
    const batches = planBatches(faults, 24, 'field');
    expect(batches.flat().length).toBe(faults.length);
    for (const b of batches) {
      expect(b.length).toBeLessThanOrEqual(24);
      for (const f of b) {
        const same = b.filter((g) => g !== f && g.resource === f.resource);
        if (wide.has(f.family)) expect(same.map((g) => g.name), f.name).toEqual([]);
        else expect(same.filter((g) => !wide.has(g.family) && fieldOf(g) === fieldOf(f)).map((g) => g.name), f.name).toEqual([]);
      }
    }
  });

  it('at most a minority of the DateTime fields the date-only probe asks depart in one run (else the run is a store taking their reading)', () => {
    for (const sharing of ['field', 'resource'] as const) {
      for (const b of planBatches(faults, 24, sharing)) expect(b.filter((f) => f.family === 'date-only-whole-day').length * 2, sharing).toBeLessThan(DATE_ONLY_FIELDS);
    }
  });

  it('resource sharing: one fault per resource per run', () => {
    for (const b of planBatches(faults.slice(0, 200), 24, 'resource')) expect(new Set(b.map((f) => f.resource)).size).toBe(b.length);
  });

  it('a scoped run holds the checks of its faults\' resources and those about all resources', () => {
    const [a, b] = [faults.find((f) => f.resource === 'product')!, faults.find((f) => f.resource === 'tax')!];
    expect(onlyResources([a, b])).toBe('product.*,tax.*,all.*');
  });
});

describe('the sample of npm test', () => {
  it('three faults per family on three resources, deterministic', () => {
    const s = sampleFaults(localFaults(), 3);
    for (const family of FAMILIES) expect(s.filter((f) => f.family === family).length, family).toBe(Math.min(3, localFaults().filter((f) => f.family === family).length));
    expect(sampleFaults(localFaults(), 3)).toEqual(s);
  });

  it('keeps to the eligible faults', () => {
    const s = sampleFaults(localFaults(), 3, (f) => f.resource !== 'product');
    expect(s.some((f) => f.resource === 'product')).toBe(false);
  });
});

describe('attribution', () => {
  const [product1, product2] = localFaults().filter((f) => f.resource === 'product' && f.family === 'filter-ignored');
  const tax = localFaults().find((f) => f.resource === 'tax' && f.family === 'filter-ignored')!;
  const it_ = (id: string, status: ItemResult['status'], resource = id.split('.')[0]) => ({ id, status, resource }) as ItemResult;
  const expectedItem = (f: LocalFault) => ITEM_IDS.find((id) => f.expects.some((g) => globRe(g).test(id)))!;

  it('a failing item the fault names catches it; exit 1 is needed', () => {
    const report = { items: [it_(expectedItem(product1), 'failed')] };
    expect(attribute([product1], report, 1).verdicts.get(product1.name)!.verdict).toBe('caught');
    expect(attribute([product1], report, 0).verdicts.get(product1.name)!.verdict).toBe('escaped');
  });

  it('another fault\'s failing item never catches it; its own items passing is an escape, not judged is unobservable', () => {
    const report = { items: [it_(expectedItem(product2), 'failed'), it_(expectedItem(product1), 'passed')] };
    expect(attribute([product1, product2], report, 1).verdicts.get(product1.name)!.verdict).toBe('escaped');
    const none = { items: [it_(expectedItem(product1), 'not-judged')] };
    expect(attribute([product1], none, 1).verdicts.get(product1.name)!.verdict).toBe('unobservable');
    expect(attribute([product1], undefined, null).verdicts.get(product1.name)!.verdict).toBe('broken');
  });

  it('a fault the reference server cannot show is unobservable when its items pass, still caught when one fails', () => {
    const homepage = findLocalFault('create-drops-property:page.homepage')!;
    const item = expectedItem(homepage);
    expect(attribute([homepage], { items: [it_(item, 'passed')] }, 0).verdicts.get(homepage.name)!.verdict).toBe('unobservable');
    expect(attribute([homepage], { items: [it_(item, 'failed')] }, 1).verdicts.get(homepage.name)!.verdict).toBe('caught');
  });

  it('failures on a resource no fault of the run touches are unexplained', () => {
    const report = { items: [it_('order.filters.array.status#one', 'failed'), it_('product.conventions.record-schema#get', 'failed')] };
    expect(attribute([product1, tax], report, 1).unexplained).toEqual(['order.filters.array.status#one']);
  });
});
