/**
 * Benign variants: each switches one "not shown" choice, visibly, and the
 * expectedObservations map covers every observation key for every variant.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_BEHAVIOUR } from '../../reference/behaviour.js';
import { DEFAULT_OBSERVATIONS, VARIANTS, expectedObservations, getVariant } from '../../reference/variants.js';
import type { ReferenceServer } from '../../reference/server.js';
import { call, payloadFor, referenceIds, res, start } from './reference-helpers.js';

const KEYS = [
  'pagination.firstPageNumber', 'pagination.defaultPageSize', 'pagination.maxPageSize', 'order.default',
  'filters.combination', 'filters.rangeInclusive', 'update.semantics', 'auth.invalidKeyStatus',
  'auth.missingKeyStatus', 'pages.titleFilterKey', 'limits.overlongString', 'limits.maxDataItems',
  'delete.unknownId', 'update.unknownId', 'limits.decimalDigits', 'filters.unknownKey', 'consistency.readAfterWriteMs',
  'users.countPath',
];

const REQUIRED = [
  'first-page-zero', 'page-size-25', 'order-desc', 'order-id', 'or-filters', 'exclusive-ranges', 'replace-updates',
  'error-403-flat', 'error-text-400', 'overlong-truncated', 'overlong-accepted', 'max-batch-10', 'extra-fields',
  'small-store', 'pages-name-only',
];

describe('variant registry', () => {
  it('holds the required variants, each with a description and a behaviour change', () => {
    for (const name of REQUIRED) expect(getVariant(name).name).toBe(name);
    for (const v of VARIANTS) {
      expect(v.description.length).toBeGreaterThan(5);
      const changed = Object.entries(v.behaviour).some(([k, x]) => (DEFAULT_BEHAVIOUR as any)[k] !== x);
      expect(changed, v.name).toBe(true);
    }
    expect(() => getVariant('nope')).toThrow(/unknown variant/);
  });

  it('expectedObservations has every key for every variant, and differs from the default somewhere (except extra-fields, small-store, no-orders)', () => {
    expect(Object.keys(DEFAULT_OBSERVATIONS).sort()).toEqual([...KEYS].sort());
    for (const v of VARIANTS) {
      const obs = expectedObservations[v.name];
      expect(Object.keys(obs).sort(), v.name).toEqual([...KEYS].sort());
      const differs = KEYS.some((k) => (obs as any)[k] !== (DEFAULT_OBSERVATIONS as any)[k]);
      if (!['extra-fields', 'small-store', 'no-orders'].includes(v.name)) expect(differs, v.name).toBe(true);
    }
    expect(expectedObservations['first-page-zero']['pagination.firstPageNumber']).toBe(0);
    expect(expectedObservations['error-403-flat']['auth.invalidKeyStatus']).toBe(403);
    expect(expectedObservations['max-batch-10']['limits.maxDataItems']).toBe(10);
  });
});

async function withVariant(name: string, fn: (srv: ReferenceServer, refs: Record<string, string>) => Promise<void>) {
  const srv = await start({ variant: name });
  try {
    const refs = await referenceIds(srv);
    await fn(srv, refs);
  } finally {
    await srv.close();
  }
}
const ids = (rows: any[]) => rows.map((x) => x.id);

describe('each variant visibly changes its choice', () => {
  it('first-page-zero', () => withVariant('first-page-zero', async (srv) => {
    const p0 = await call(srv, '/api/v1/files/get', { pagination: { pageNumber: '0', pageSize: '5' } });
    const dflt = await call(srv, '/api/v1/files/get', { pagination: { pageSize: '5' } });
    expect(p0.status).toBe(200);
    expect(ids(p0.body)).toEqual(ids(dflt.body));
  }));

  it('page-size-25', () => withVariant('page-size-25', async (srv) => {
    expect((await call(srv, '/api/v1/files/get')).body).toHaveLength(25);
  }));

  it('order-desc and order-id', async () => {
    await withVariant('order-desc', async (srv) => {
      const keys = (await call(srv, '/api/v1/files/get')).body.map((x: any) => x.createdon);
      expect([...keys].sort().reverse()).toEqual(keys);
    });
    await withVariant('order-id', async (srv) => {
      const got = ids((await call(srv, '/api/v1/files/get')).body);
      expect([...got].sort()).toEqual(got);
    });
  });

  it('or-filters', () => withVariant('or-filters', async (srv) => {
    const products = srv.snapshot().records.product;
    const either = products.filter((p) => p.visible === 'true' || p.taxable === 'false').length;
    expect(Number((await call(srv, '/api/v1/products/count', { filters: { visible: 'true', taxable: 'false' } })).body.count)).toBe(either);
    const prices = products.map((p) => Number(p.price)).sort((a, b) => a - b);
    const [lo, hi] = [prices[1], prices[prices.length - 2]];
    const inRange = prices.filter((p) => p >= lo && p <= hi).length;
    expect(Number((await call(srv, '/api/v1/products/count', { filters: { price_min: String(lo), price_max: String(hi) } })).body.count)).toBe(inRange);
  }));

  it('exclusive-ranges', () => withVariant('exclusive-ranges', async (srv, refs) => {
    const [p] = (await call(srv, '/api/v1/products/create', { data: [{ ...payloadFor(res('product'), refs), price: '77.77' }] })).body;
    expect((await call(srv, '/api/v1/products/count', { filters: { id: [p.id], price_min: '77.77' } })).body.count).toBe('0');
    expect((await call(srv, '/api/v1/products/count', { filters: { id: [p.id], price_min: '77.76' } })).body.count).toBe('1');
  }));

  it('replace-updates', () => withVariant('replace-updates', async (srv, refs) => {
    const [c] = (await call(srv, '/api/v1/products/categories/create', { data: [payloadFor(res('category'), refs)] })).body;
    const [u] = (await call(srv, '/api/v1/products/categories/update', { data: [{ id: c.id, name: 'only name' }] })).body;
    expect(u.name).toBe('only name');
    expect(u.slug).toBe('');
  }));

  it('error-403-flat and error-text-400', async () => {
    await withVariant('error-403-flat', async (srv) => {
      const got = await call(srv, '/api/v1/products/get', {}, { key: 'wrong' });
      expect(got.status).toBe(403);
      expect(got.body).toEqual({ success: 'false', message: expect.any(String) });
      expect((await call(srv, '/api/v1/products/get', {}, { key: null })).status).toBe(403);
    });
    await withVariant('error-text-400', async (srv) => {
      const got = await call(srv, '/api/v1/products/get', {}, { key: 'wrong' });
      expect(got.status).toBe(400);
      expect(got.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(got.text).toMatch(/^INVALID_KEY: /);
    });
  });

  it('overlong-truncated and overlong-accepted', async () => {
    for (const [name, length] of [['overlong-truncated', 255], ['overlong-accepted', 300]] as const) {
      await withVariant(name, async (srv, refs) => {
        const got = await call(srv, '/api/v1/products/categories/create', { data: [{ ...payloadFor(res('category'), refs), name: 'y'.repeat(300) }] });
        expect(got.status).toBe(200);
        expect(got.body[0].name).toHaveLength(length);
      });
    }
  });

  it('max-batch-10', () => withVariant('max-batch-10', async (srv, refs) => {
    const r = res('category');
    const eleven = Array.from({ length: 11 }, () => payloadFor(r, refs));
    const tooMany = await call(srv, `${r.prefix}/create`, { data: eleven });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('TOO_MANY_ITEMS');
    const ten = await call(srv, `${r.prefix}/create`, { data: eleven.slice(0, 10) });
    expect(ten.body).toHaveLength(10);
    const del = await call(srv, `${r.prefix}/delete`, { filter: [{ id: [...ids(ten.body), refs.category] }] });
    expect(del.status).toBe(400);
  }));

  it('extra-fields', () => withVariant('extra-fields', async (srv, refs) => {
    expect(Object.keys((await call(srv, '/api/v1/geo/countries/get')).body[0])).toContain('internalref');
    const [c] = (await call(srv, '/api/v1/coupons/create', { data: [payloadFor(res('coupon'), refs)] })).body;
    expect(c).toHaveProperty('internalref');
  }));

  it('small-store', () => withVariant('small-store', async (srv) => {
    for (const [name, list] of Object.entries(srv.snapshot().records)) expect(list.length, name).toBeLessThanOrEqual(1000);
  }));

  it('pages-name-only', () => withVariant('pages-name-only', async (srv) => {
    const page = srv.snapshot().records.page[0];
    expect((await call(srv, '/api/v1/pages/get', { filters: { title: [page.title] } })).status).toBe(400);
    expect(ids((await call(srv, '/api/v1/pages/get', { filters: { name: [page.title] } })).body)).toContain(page.id);
  }));

  it('page-size-max-500 and missing-key-400', async () => {
    await withVariant('page-size-max-500', async (srv) => {
      expect((await call(srv, '/api/v1/files/get', { pagination: { pageNumber: '1', pageSize: '1000' } })).body).toHaveLength(500);
    });
    await withVariant('missing-key-400', async (srv) => {
      expect((await call(srv, '/api/v1/files/get', {}, { key: null })).status).toBe(400);
      expect((await call(srv, '/api/v1/files/get', {}, { key: 'wrong' })).status).toBe(401);
    });
  });

  it('decimal-digits-in-all', () => withVariant('decimal-digits-in-all', async (srv, refs) => {
    const r = res('coupon');
    const over = await call(srv, `${r.prefix}/create`, { data: [{ ...payloadFor(r, refs), discountamount: '1000000.00' }] });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toMatch(/discountamount must have at most 8 digits in all/);
    expect((await call(srv, `${r.prefix}/create`, { data: [{ ...payloadFor(r, refs), discountamount: '999999.99' }] })).status).toBe(200);
    // filter values are compared, never stored: the seeded tax rates (20.000) stay filterable
    expect((await call(srv, '/api/v1/taxes/count', { filters: { rate_min: '19.000' } })).status).toBe(200);
  }));

  it('pages-name-lenient: unknown filter keys are left out of the filtering', () => withVariant('pages-name-lenient', async (srv) => {
    const all = await call(srv, '/api/v1/pages/count');
    expect((await call(srv, '/api/v1/pages/count', { filters: { title: ['no such title'] } })).body).toEqual(all.body);
    expect((await call(srv, '/api/v1/pages/count', { filters: { nosuchkey: ['x'] } })).body).toEqual(all.body);
    expect((await call(srv, '/api/v1/pages/count', { filters: { name: ['no such title'] } })).body.count).toBe('0');
  }));

  it('users-count-absent', () => withVariant('users-count-absent', async (srv) => {
    expect((await call(srv, '/api/v1/users/count')).status).toBe(404);
    const shipping = await call(srv, '/api/v1/shipping/methods/count');
    expect(Number(shipping.body.count)).toBe(srv.snapshot().records['shipping-method'].length);
  }));

  it('no-orders', () => withVariant('no-orders', async (srv) => {
    expect((await call(srv, '/api/v1/orders/get')).body).toEqual([]);
    expect((await call(srv, '/api/v1/customers/get')).body.length).toBeGreaterThan(0);
  }));

  it('replica-lag: reads show a write only after the lag, then for good', () => withVariant('replica-lag', async (srv, refs) => {
    const r = res('category');
    const lag = srv.behaviour.readLagMs;
    const byId = () => call(srv, `${r.prefix}/get`, { filters: { id: [c.id] } });
    // what a read within the lag shows is asserted only when it was (a stalled machine may read later)
    const within = async (since: number, want: string[]) => {
      const got = ids((await byId()).body);
      if (Date.now() - since < lag) expect(got).toEqual(want);
    };
    let t = Date.now();
    const [c] = (await call(srv, `${r.prefix}/create`, { data: [payloadFor(r, refs)] })).body;
    await within(t, []);
    await new Promise((resolve) => setTimeout(resolve, lag + 50));
    expect(ids((await byId()).body)).toEqual([c.id]);
    t = Date.now();
    await call(srv, `${r.prefix}/delete`, { filter: [{ id: [c.id] }] });
    await within(t, [c.id]);
    await new Promise((resolve) => setTimeout(resolve, lag + 50));
    expect((await byId()).body).toEqual([]);
  }));

  it('behaviour options apply on top of a variant', async () => {
    const srv = await start({ variant: 'page-size-25', behaviour: { order: 'id asc' } });
    try {
      expect(srv.behaviour.defaultPageSize).toBe(25);
      expect(srv.behaviour.order).toBe('id asc');
    } finally {
      await srv.close();
    }
  });
});
