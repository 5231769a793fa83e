/**
 * Adding a resource is a schema plus seed data (src/items/index.ts, schemas/README.md). This test
 * adds a sixteenth, `widget` — test/fixtures/sixteenth/widget.schema.json and widget.seed.ts —
 * and sees everything that derives from the schemas take it in, with no other edit:
 * - the schema model: a sixteenth resource in §1 position 16, its date pair, its reference, the
 *   deletion order (widgets before the categories they reference);
 * - the item catalogue: its checks and items, in every family a writable resource has;
 * - the suites: every check of the catalogue, the widget's included, is registered by a suite file
 *   (the suites iterate the model and the catalogue);
 * - the generated local faults (reference/faults-generated.ts): its faults in every family;
 * - the report: its rows in the coverage matrix and the failure groups, in §1 order;
 * - the reference server holding its seeded records: get, count, filters, create, update and
 *   delete answer as the schema says, and a generated fault of the widget bites.
 *
 * How the schema comes in: the model is built from a list of schema documents that defaults to
 * schemas/ (src/schema/sources.ts, defaultSchemaDocuments). Here that default list is the
 * project's documents plus the fixture — what dropping widget.schema.json into schemas/ would
 * give — through vitest's module mock, in this file only; the product has no switch for it.
 */
import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const registered = vi.hoisted(() => new Set<string>());

vi.mock('../../src/schema/sources.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/schema/sources.js')>();
  const { readFileSync: read } = await import('node:fs');
  const widget = JSON.parse(read(new URL('../fixtures/sixteenth/widget.schema.json', import.meta.url), 'utf8'));
  const docs = Object.freeze([...real.defaultSchemaDocuments(), widget]);
  return { ...real, defaultSchemaDocuments: () => docs, resourceOrder: () => real.resourceOrderOf(docs) };
});

// the suites register their checks through the kit's check(): recorded here instead of becoming vitest tests
vi.mock('../../src/check/check.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/check/check.js')>();
  const { checkDef, checkIdOf } = await import('../../src/items/index.js');
  return {
    ...real,
    check: (spec: Parameters<typeof real.check>[0]) => {
      registered.add('items' in spec ? spec.id : checkDef(checkIdOf(spec)).id);
    },
  };
});

const { resources, resource, deletionOrder, validator } = await import('../../src/schema/model.js');
const { resourceOrder, readSchemaDocuments } = await import('../../src/schema/sources.js');
const { catalogue, allItems, isInvariantRule } = await import('../../src/items/index.js');
const { localFaults, FAMILIES, globRe } = await import('../../reference/faults-generated.js');
const { computeCoverage } = await import('../../src/report/coverage.js');
const { coverageGrid } = await import('../../src/report/common.js');
const { failureGroups } = await import('../../src/report/groups.js');
const { seedData } = await import('../../reference/seed.js');
const { BUILDERS } = await import('../../reference/seed/builders.js');
const { batchArb } = await import('../../generators/index.js');
const { parseDateTime } = await import('../../src/values/index.js');
const { start, call } = await import('./reference-helpers.js');
const { widgetBuilder } = await import('../fixtures/sixteenth/widget.seed.js');
type ReferenceServer = import('../../reference/server.js').ReferenceServer;
type Rec = Record<string, any>;

const W = 'widget';
const widgetChecks = () => catalogue().filter((c) => c.resource === W);

describe('a sixteenth resource from a schema and its seed data', () => {
  it('the schema model holds it, in §1 position 16, with its date pair and reference', () => {
    expect(readSchemaDocuments().some((d) => d.$id === 'widget.schema.json'), 'schemas/ itself is untouched').toBe(false);
    expect(resources()).toHaveLength(16);
    expect(resources().at(-1)!.name).toBe(W);
    expect(resourceOrder().at(-1)).toBe(W);
    const w = resource(W);
    expect(w.writable).toBe(true);
    expect(w.datePairs).toEqual([['availablefrom', 'availableuntil']]);
    expect(w.references).toEqual(['category']);
    // deleted before the categories it references (and after the fifteen's order, otherwise unchanged)
    expect(deletionOrder()).toEqual(['product', 'blog-post', 'coupon', 'page', 'collection', W, 'category']);
  });

  it('the item catalogue has its checks and items, in every family of a writable resource', () => {
    const rules = (name: string) => new Set(catalogue().filter((c) => c.resource === name).map((c) => c.rule));
    const own = rules(W);
    // every rule a writable resource without versions has (coupon: comma decimals in its write form, as
    // the widget's price), and the references rule (product's)
    for (const rule of rules('coupon')) expect(own.has(rule), rule).toBe(true);
    expect(own.has('lifecycle.create.references')).toBe(true);
    expect(own.has('versions.append')).toBe(false);
    const items = allItems().filter((i) => i.resource === W);
    expect(items.length).toBeGreaterThan(150);
    for (const id of ['widget.filters.array.colour', 'widget.filters.range.price_min', 'widget.filters.boolean.active', 'widget.lifecycle.create.single', 'widget.limits.string-255', 'widget.limits.integer-11-digits', 'widget.pagination.cap-1000', 'widget.model.sequence', 'widget.concurrency.updates']) {
      expect(widgetChecks().some((c) => c.id === id), id).toBe(true);
    }
    // the checks about every resource have a case for it
    expect(allItems().some((i) => i.id === `all.observe.consistent.order#${W}`)).toBe(true);
  });

  it('the suites register every check of the catalogue, the widget’s included, without an edit (the invariants, judged by the kit on every answer, by none)', async () => {
    const suites = readdirSync(new URL('../../suites/', import.meta.url)).filter((f) => f.endsWith('.check.ts'));
    for (const f of suites) await import(/* @vite-ignore */ new URL(`../../suites/${f}`, import.meta.url).href);
    const missing = catalogue().filter((c) => !isInvariantRule(c.rule)).map((c) => c.id).filter((id) => !registered.has(id));
    expect(missing).toEqual([]);
    expect(catalogue().filter((c) => isInvariantRule(c.rule) && c.resource === W).length).toBeGreaterThan(0);
    expect(catalogue().filter((c) => isInvariantRule(c.rule)).every((c) => !registered.has(c.id))).toBe(true);
    expect(widgetChecks().length).toBeGreaterThan(40);
    expect(widgetChecks().filter((c) => !isInvariantRule(c.rule)).every((c) => registered.has(c.id))).toBe(true);
  }, 60_000);

  it('the generated local faults have its faults, in every family a writable resource has', () => {
    const families = (name: string) => new Set(localFaults().filter((f) => f.resource === name).map((f) => f.family));
    const own = families(W);
    for (const family of families('coupon')) expect(own.has(family), family).toBe(true);
    expect([...own].every((f) => (FAMILIES as readonly string[]).includes(f))).toBe(true);
    expect(localFaults().some((f) => f.name === 'filter-ignored:widget.name')).toBe(true);
    // each names items of the catalogue that must fail
    const ids = allItems().map((i) => i.id);
    for (const f of localFaults().filter((x) => x.resource === W)) {
      expect(f.expects.some((g) => ids.some((id) => globRe(g).test(id))), f.name).toBe(true);
    }
  });

  it('the report shows its rows: coverage matrix and failure groups, in §1 order', () => {
    const items = allItems().map((i) => ({ ...i, status: i.resource === W && i.kind === 'filter' ? 'failed' as const : 'passed' as const }));
    const grid = coverageGrid(computeCoverage(items as any));
    expect(grid.resources.filter((r) => r !== '*').at(-1)).toBe(W);
    for (const kind of ['filter', 'count', 'payload', 'limit', 'form', 'pagination', 'delete', 'auth', 'model', 'concurrency']) {
      expect(grid.cell(W, kind)?.total, kind).toBeGreaterThan(0);
    }
    expect(grid.cell(W, 'filter')!.failed).toBe(grid.cell(W, 'filter')!.total);
    const checks = [W, 'product', 'country'].map((r) => ({ id: `${r}.filters.array.name`, resource: r, rule: 'filters.array', status: 'failed' }));
    expect(failureGroups(checks as any)[0].resources).toEqual(['product', 'country', W]);
  });
});

describe('the reference server holding the sixteenth resource', () => {
  const builders = [...BUILDERS, [W, widgetBuilder]] as Array<[string, typeof widgetBuilder]>;
  const data = seedData(1, { builders });
  let srv: ReferenceServer;
  let faulty: ReferenceServer;
  beforeAll(async () => {
    srv = await start({ data: () => structuredClone(data) });
    faulty = await start({ data: () => structuredClone(data), faults: ['filter-ignored:widget.name'] });
  });
  afterAll(async () => {
    await srv?.close();
    await faulty?.close();
  });
  const api = (s: ReferenceServer, op: string, body: Rec = {}) => call(s, `${resource(W).prefix}/${op}`, body);

  it('seeds its records (every field of its Record schema) and leaves the fifteen unchanged', () => {
    expect(data.records[W]).toHaveLength(widgetBuilder.count);
    for (const rec of data.records[W]) expect(validator(W, 'Record')(rec).errors).toEqual([]);
    const { [W]: _, ...fifteen } = data.records;
    expect(JSON.stringify({ records: fifteen, store: data.store })).toBe(JSON.stringify(seedData(1)));
  });

  it('serves get, count, filters, create, update and delete as its schema says', async () => {
    const got = await api(srv, 'get');
    expect(got.status).toBe(200);
    expect(got.body).toHaveLength(widgetBuilder.count);
    for (const rec of got.body) expect(validator(W, 'Record')(rec).errors).toEqual([]);
    expect((await api(srv, 'count')).body).toEqual({ count: String(widgetBuilder.count) });
    const red = data.records[W].filter((r) => r.colour === 'RED').length;
    expect((await api(srv, 'count', { filters: { colour: ['RED'] } })).body).toEqual({ count: String(red) });
    expect((await api(srv, 'get', { filters: { nope: ['x'] } })).status).toBe(400);

    const categories = data.records.category.slice(0, 2).map((c) => c.id);
    const [batch] = fc.sample(batchArb(W, { tag: 'sc16th000', refs: { category: categories } }, { minLength: 3, maxLength: 3 }), { seed: 16, numRuns: 1 });
    for (const p of batch) expect(parseDateTime(p.availablefrom)!, 'the date pair of the schema keeps its order').toBeLessThanOrEqual(parseDateTime(p.availableuntil)!);
    const created = await api(srv, 'create', { data: batch });
    expect(created.status).toBe(200);
    for (const rec of created.body) expect(validator(W, 'WriteRecord')(rec).errors).toEqual([]);
    const ids = created.body.map((r: Rec) => r.id);
    expect((await api(srv, 'count')).body).toEqual({ count: String(widgetBuilder.count + 3) });

    const updated = await api(srv, 'update', { data: [{ id: ids[0], stock: '77' }] });
    expect(updated.body[0].stock).toBe('77');
    const byId = await api(srv, 'get', { filters: { id: [ids[0]] } });
    expect(byId.body.map((r: Rec) => r.stock)).toEqual(['77']);

    expect((await api(srv, 'delete', { filter: [{ id: ids }] })).body).toEqual({ success: 'true' });
    expect((await api(srv, 'count')).body).toEqual({ count: String(widgetBuilder.count) });
  });

  it('a generated fault of the widget bites: filter-ignored:widget.name returns every widget', async () => {
    const name = data.records[W][0].name;
    expect((await api(srv, 'get', { filters: { name: [name] } })).body).toHaveLength(1);
    expect((await api(faulty, 'get', { filters: { name: [name] } })).body).toHaveLength(widgetBuilder.count);
    // and only that key of that resource
    expect((await api(faulty, 'get', { filters: { colour: ['RED'] } })).body.every((r: Rec) => r.colour === 'RED')).toBe(true);
  });
});
