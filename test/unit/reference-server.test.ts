/**
 * The reference server implements the spec: every operation of every resource,
 * the formatting quirks (§4), versions (§3), authentication (§5), the cap (§8)
 * and the filters (§4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commonValidator, resources, validator } from '../../src/schema/model.js';
import type { ReferenceServer } from '../../reference/server.js';
import { call, payloadFor, referenceIds, res, start } from './reference-helpers.js';

let srv: ReferenceServer;
let refs: Record<string, string>;

beforeAll(async () => {
  srv = await start();
  refs = await referenceIds(srv);
});
afterAll(async () => srv?.close());

const ZERO = '00000000-0000-0000-0000-000000000000';

describe('every documented operation answers 200 with the right envelope (§1, §4)', () => {
  for (const r of resources()) {
    describe(r.name, () => {
      if (r.single) {
        it('store get returns one object with every field, apikey = the key (§4, §5.2)', async () => {
          const got = await call(srv, `${r.prefix}/get`);
          expect(got.status).toBe(200);
          expect(Array.isArray(got.body)).toBe(false);
          expect(validator(r.name, 'Record')(got.body).errors).toEqual([]);
          expect(got.body.apikey).toBe(srv.apiKey);
        });
        return;
      }
      it('get returns an array of records valid against the get schema', async () => {
        const got = await call(srv, `${r.prefix}/get`, { pagination: { pageNumber: '1', pageSize: '50' } });
        expect(got.status).toBe(200);
        expect(Array.isArray(got.body)).toBe(true);
        expect(got.body.length).toBeGreaterThan(0);
        const check = validator(r.name, 'Record');
        for (const rec of got.body) expect(check(rec).errors).toEqual([]);
      });
      it('count returns {count: "<integer>"} equal to the number of records', async () => {
        const got = await call(srv, `${r.prefix}/count`);
        expect(got.status).toBe(200);
        expect(commonValidator('CountResponse')(got.body).ok).toBe(true);
        expect(Number(got.body.count)).toBe(srv.snapshot().records[r.name].length);
      });
      if (!r.writable) {
        it('create/update/delete are not offered: 404', async () => {
          for (const op of ['create', 'update', 'delete']) expect((await call(srv, `${r.prefix}/${op}`, { data: [] })).status).toBe(404);
        });
        return;
      }
      it('create, update, delete answer with the documented envelopes', async () => {
        const created = await call(srv, `${r.prefix}/create`, { data: [payloadFor(r, refs)] });
        expect(created.status, created.text).toBe(200);
        expect(created.body).toHaveLength(1);
        expect(validator(r.name, 'WriteRecord')(created.body[0]).errors).toEqual([]);
        const id = created.body[0].id;
        const str = r.payload.find((p) => p.kind === 'string')!;
        const updated = await call(srv, `${r.prefix}/update`, { data: [{ id, [str.name]: 'changed value' }] });
        expect(updated.status, updated.text).toBe(200);
        expect(validator(r.name, 'WriteRecord')(updated.body[0]).errors).toEqual([]);
        expect(updated.body[0][str.recordField ?? str.name]).toBe('changed value');
        const deleted = await call(srv, `${r.prefix}/delete`, { filter: [{ id: [id] }] });
        expect(deleted.status).toBe(200);
        expect(deleted.body).toEqual({ success: 'true' });
        const after = await call(srv, `${r.prefix}/count`, { filters: { id: [id] } });
        expect(after.body).toEqual({ count: '0' });
      });
    });
  }

  it('the users count path and the documented shipping methods count path both answer (§4)', async () => {
    const users = await call(srv, '/api/v1/users/count');
    expect(Number(users.body.count)).toBe(srv.snapshot().records.user.length);
    const shipping = await call(srv, '/api/v1/shipping/methods/count');
    expect(Number(shipping.body.count)).toBe(srv.snapshot().records['shipping-method'].length);
  });

  it('unknown paths, other versions and operations not offered: 404; non-POST: 405; invalid JSON: 400', async () => {
    expect((await call(srv, '/api/v2/products/get')).status).toBe(404);
    expect((await call(srv, '/api/v1/nothing/get')).status).toBe(404);
    expect((await call(srv, '/api/v1/store/count')).status).toBe(404);
    const get = await call(srv, '/api/v1/products/get', {}, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.body.error.code).toBe('METHOD_NOT_ALLOWED');
    const bad = await call(srv, '/api/v1/products/get', {}, { raw: '{"authentication": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_JSON');
  });
});

describe('formatting quirks (§2, §4 Formatting differs by operation)', () => {
  it("get shows booleans 'true'/'false' and decimals with a dot, except the three comma fields", async () => {
    const products = (await call(srv, '/api/v1/products/get')).body;
    expect(products.length).toBeGreaterThan(0);
    for (const p of products) {
      for (const f of ['taxable', 'discounted', 'allowbuynostock', 'visible']) expect(['true', 'false']).toContain(p[f]);
      expect(p.price).toMatch(/^-?\d+(\.\d+)?$/);
    }
    const methods = (await call(srv, '/api/v1/shipping/methods/get')).body;
    const commaSeen = methods.some((m: any) => m.handlingfee.includes(',') || m.fixedamount.includes(','));
    for (const m of methods) {
      expect(m.handlingfee).not.toContain('.');
      expect(m.fixedamount).not.toContain('.');
    }
    const orders = (await call(srv, '/api/v1/orders/get')).body;
    const items = orders.flatMap((o: any) => o.items);
    expect(items.length).toBeGreaterThan(0);
    for (const it of items) expect(it.unitprice).not.toContain('.');
    expect(commaSeen || items.some((it: any) => it.unitprice.includes(','))).toBe(true);
  });

  it("create/update show '1'/'0' and comma decimals; product size is '0' in write form while get shows the sent size", async () => {
    const r = res('product');
    const payload = { ...payloadFor(r, refs), price: '12.34', weight: '1.5', size: '7', taxable: 'true', visible: 'false' };
    const created = await call(srv, '/api/v1/products/create', { data: [payload] });
    const w = created.body[0];
    expect(w.taxable).toBe('1');
    expect(w.visible).toBe('0');
    expect(w.price).toBe('12,34');
    expect(w.weight).toBe('1,5');
    expect(w.size).toBe('0');
    const got = (await call(srv, '/api/v1/products/get', { filters: { id: [w.id] } })).body[0];
    expect(got.size).toBe('7');
    expect(got.price).toBe('12.34');
    expect(got.taxable).toBe('true');
    expect(got.visible).toBe('false');
    const updated = (await call(srv, '/api/v1/products/update', { data: [{ id: w.id, size: '9', price: '3.5' }] })).body[0];
    expect(updated.size).toBe('0');
    expect(updated.price).toBe('3,5');
    expect((await call(srv, '/api/v1/products/get', { filters: { id: [w.id] } })).body[0].size).toBe('9');

    const coupon = (await call(srv, '/api/v1/coupons/create', { data: [{ ...payloadFor(res('coupon'), refs), discountamount: '5.25', minimumpurchase: '100.10' }] })).body[0];
    expect(coupon.discountamount).toBe('5,25');
    expect(coupon.minimumpurchase).toBe('100,10');
  });

  it('product create turns categoryid/collectionid into [{id, name}] and tags into [{tag}]', async () => {
    const payload = { ...payloadFor(res('product'), refs), tags: ['red', 'blue'] };
    const w = (await call(srv, '/api/v1/products/create', { data: [payload] })).body[0];
    const cat = srv.snapshot().records.category.find((c) => c.id === refs.category)!;
    expect(w.categories).toEqual([{ id: cat.id, name: cat.name }]);
    expect(w.collections[0].id).toBe(refs.collection);
    expect(w.tags).toEqual([{ tag: 'red' }, { tag: 'blue' }]);
    expect(w.author).not.toBeUndefined();
    expect(w.createdon).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const bad = await call(srv, '/api/v1/products/create', { data: [{ ...payload, categoryid: [ZERO.replace(/0$/, '1')] }] });
    expect(bad.status).toBe(400);
  });

  it('seeded data holds all-zero GUIDs in productvariantid and backgroundfileid (§2)', () => {
    const snap = srv.snapshot();
    const variantIds = snap.records.order.flatMap((o) => o.items.map((i: any) => i.productvariantid));
    expect(variantIds).toContain(ZERO);
    expect(snap.records.page.map((p) => p.backgroundfileid)).toContain(ZERO);
  });
});

describe('versions (§3)', () => {
  it('blog posts oldest first, pages newest first, across two updates', async () => {
    for (const [name, newestFirst] of [['blog-post', false], ['page', true]] as const) {
      const r = res(name);
      const created = (await call(srv, `${r.prefix}/create`, { data: [{ ...payloadFor(r, refs), content: 'v1' }] })).body[0];
      expect(created.versions).toHaveLength(1);
      expect(created.versions[0]).toMatchObject({ version: '1', content: 'v1' });
      await call(srv, `${r.prefix}/update`, { data: [{ id: created.id, content: 'v2' }] });
      const up = (await call(srv, `${r.prefix}/update`, { data: [{ id: created.id, content: 'v3' }] })).body[0];
      const expected = newestFirst ? ['3', '2', '1'] : ['1', '2', '3'];
      expect(up.versions.map((v: any) => v.version)).toEqual(expected);
      const got = (await call(srv, `${r.prefix}/get`, { filters: { id: [created.id] } })).body[0];
      expect(got.versions.map((v: any) => v.version)).toEqual(expected);
      expect(got.versions.map((v: any) => v.content)).toEqual(newestFirst ? ['v3', 'v2', 'v1'] : ['v1', 'v2', 'v3']);
    }
  });
});

describe('authentication (§5)', () => {
  it('a key only in a header (or query) is rejected with 401', async () => {
    const h = await call(srv, '/api/v1/products/get', {}, { key: null, headers: { 'x-api-key': srv.apiKey, authorization: `Bearer ${srv.apiKey}` } });
    expect(h.status).toBe(401);
    expect(h.body.error.code).toBe('MISSING_KEY');
    const q = await call(srv, `/api/v1/products/get?apiKey=${encodeURIComponent(srv.apiKey)}`, {}, { key: null });
    expect(q.status).toBe(401);
  });

  it('wrong or missing key: 401 with the error body, and nothing changes', async () => {
    const before = srv.snapshot();
    const r = res('category');
    for (const key of ['wrong-key', null]) {
      for (const [op, body] of [['get', {}], ['create', { data: [payloadFor(r, refs)] }], ['update', { data: [{ id: refs.category, name: 'x' }] }], ['delete', { filter: [{ id: [refs.category] }] }]] as const) {
        const got = await call(srv, `${r.prefix}/${op}`, body, { key });
        expect(got.status).toBe(401);
        expect(got.body.error.code).toBe(key === null ? 'MISSING_KEY' : 'INVALID_KEY');
        expect(got.text).not.toContain(srv.apiKey);
      }
    }
    expect(srv.snapshot()).toEqual(before);
  });
});

describe('the 1000 cap (§8) and pagination', () => {
  it('a get never returns more than 1000 records; count reports all of them', async () => {
    const count = Number((await call(srv, '/api/v1/files/count')).body.count);
    expect(count).toBeGreaterThan(1000);
    const got = await call(srv, '/api/v1/files/get', { pagination: { pageNumber: '1', pageSize: '5000' } });
    expect(got.body).toHaveLength(1000);
    const second = await call(srv, '/api/v1/files/get', { pagination: { pageNumber: 2, pageSize: 1000 } });
    expect(second.body).toHaveLength(count - 1000);
    expect(new Set([...got.body, ...second.body].map((x: any) => x.id)).size).toBe(count);
  });

  it('default page size 100, first page 1, ordered by createdon then id', async () => {
    const got = (await call(srv, '/api/v1/files/get')).body;
    expect(got).toHaveLength(100);
    const keys = got.map((x: any) => `${x.createdon}|${x.id}`);
    expect([...keys].sort()).toEqual(keys);
    expect((await call(srv, '/api/v1/files/get', { pagination: { pageNumber: '0' } })).status).toBe(400);
  });
});

describe('filters (§4)', () => {
  it('array filters match exact values, any of the listed ones', async () => {
    const all = srv.snapshot().records.customer;
    const [a, b] = all;
    const got = (await call(srv, '/api/v1/customers/get', { filters: { email: [a.email, b.email] } })).body;
    expect(got.map((x: any) => x.id).sort()).toEqual(all.filter((c) => c.email === a.email || c.email === b.email).map((c) => c.id).sort());
    const partial = (await call(srv, '/api/v1/customers/get', { filters: { email: [a.email.slice(0, -1)] } })).body;
    expect(partial.filter((x: any) => x.id === a.id)).toEqual([]);
  });

  it('order number filter compares numbers', async () => {
    const o = srv.snapshot().records.order[0];
    const got = (await call(srv, '/api/v1/orders/get', { filters: { number: [`0${o.number}`] } })).body;
    expect(got.map((x: any) => x.id)).toContain(o.id);
  });

  it('range filters compare numbers as numbers, inclusive, and accept a string or an array (orders)', async () => {
    const products = srv.snapshot().records.product;
    const prices = products.map((p) => Number(p.price)).sort((x, y) => x - y);
    const mid = prices[Math.floor(prices.length / 2)];
    const got = (await call(srv, '/api/v1/products/count', { filters: { price_min: String(mid) } })).body;
    expect(Number(got.count)).toBe(prices.filter((p) => p >= mid).length);
    const orders = srv.snapshot().records.order;
    const t = Number(orders[0].totalprice);
    const asString = (await call(srv, '/api/v1/orders/count', { filters: { totalprice_max: String(t) } })).body;
    const asArray = (await call(srv, '/api/v1/orders/count', { filters: { totalprice_max: [String(t)] } })).body;
    expect(asArray).toEqual(asString);
    expect(Number(asString.count)).toBe(orders.filter((o) => Number(o.totalprice) <= t).length);
  });

  it('DateTime ranges compare instants; a date-only bound means 00:00:00 of that day', async () => {
    const files = srv.snapshot().records.file;
    const day = files[0].createdon.slice(0, 10);
    const got = (await call(srv, '/api/v1/files/count', { filters: { createdon_max: day } })).body;
    expect(Number(got.count)).toBe(files.filter((f) => f.createdon <= `${day} 00:00:00`).length);
    const customers = srv.snapshot().records.customer;
    const birth = customers[0].birthdate;
    const b = (await call(srv, '/api/v1/customers/count', { filters: { birthdate_min: birth, birthdate_max: birth } })).body;
    expect(Number(b.count)).toBe(customers.filter((c) => c.birthdate === birth).length);
  });

  it('boolean filters and several filters combined (AND)', async () => {
    const products = srv.snapshot().records.product;
    const visible = products.filter((p) => p.visible === 'true');
    expect(Number((await call(srv, '/api/v1/products/count', { filters: { visible: 'true' } })).body.count)).toBe(visible.length);
    const both = products.filter((p) => p.visible === 'true' && p.taxable === 'false');
    expect(Number((await call(srv, '/api/v1/products/count', { filters: { visible: 'true', taxable: 'false' } })).body.count)).toBe(both.length);
  });

  it('page filters accept title and its alias name; unknown keys are rejected', async () => {
    const page = srv.snapshot().records.page[0];
    for (const key of ['title', 'name']) {
      const got = (await call(srv, '/api/v1/pages/get', { filters: { [key]: [page.title] } })).body;
      expect(got.map((x: any) => x.id)).toContain(page.id);
    }
    const bad = await call(srv, '/api/v1/pages/get', { filters: { colour: ['red'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('UNKNOWN_FILTER');
  });
});

describe('limits (§8)', () => {
  it('over-long strings, 12-digit integers and decimals over their scale are rejected with the failing path', async () => {
    const r = res('category');
    const long = await call(srv, `${r.prefix}/create`, { data: [{ ...payloadFor(r, refs), name: 'x'.repeat(256) }] });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('VALIDATION_FAILED');
    expect(long.body.error.details.join(' ')).toContain('/data/0/name');
    const ok = await call(srv, `${r.prefix}/create`, { data: [{ ...payloadFor(r, refs), name: 'x'.repeat(255) }] });
    expect(ok.status).toBe(200);
    expect(ok.body[0].name).toHaveLength(255);
    const p = res('product');
    expect((await call(srv, `${p.prefix}/create`, { data: [{ ...payloadFor(p, refs), quantity: '123456789012' }] })).status).toBe(400);
    expect((await call(srv, `${p.prefix}/create`, { data: [{ ...payloadFor(p, refs), price: '1.234' }] })).status).toBe(400);
    expect((await call(srv, `${p.prefix}/create`, { data: [{ ...payloadFor(p, refs), weight: '123.5' }] })).status).toBe(400);
  });

  it('a batch is all-or-nothing; update of an unknown id is 404; delete ignores unknown ids', async () => {
    const r = res('collection');
    const before = srv.snapshot().records.collection.length;
    const bad = await call(srv, `${r.prefix}/create`, { data: [payloadFor(r, refs), { ...payloadFor(r, refs), slug: 5 }] });
    expect(bad.status).toBe(400);
    expect(srv.snapshot().records.collection).toHaveLength(before);
    const missing = await call(srv, `${r.prefix}/update`, { data: [{ id: ZERO.replace(/0$/, '9'), name: 'x' }] });
    expect(missing.status).toBe(404);
    const del = await call(srv, `${r.prefix}/delete`, { filter: [{ id: [ZERO.replace(/0$/, '9')] }] });
    expect(del.body).toEqual({ success: 'true' });
    expect(srv.snapshot().records.collection).toHaveLength(before);
  });
});

describe('instrumentation', () => {
  it('stats count requests by operation and path; snapshot is a deep copy', async () => {
    srv.stats.reset();
    await call(srv, '/api/v1/taxes/get');
    await call(srv, '/api/v1/taxes/count');
    expect(srv.stats.byOperation).toEqual({ get: 1, count: 1 });
    expect(srv.stats.byPath['/api/v1/taxes/get']).toBe(1);
    expect(srv.stats.peakInFlight).toBeGreaterThanOrEqual(1);
    const snap = srv.snapshot();
    snap.records.tax[0].name = 'mutated';
    expect(srv.snapshot().records.tax[0].name).not.toBe('mutated');
  });
});
