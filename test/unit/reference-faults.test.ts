/**
 * The fault registry: well-formed, every `breaks` a rule of src/rules.ts, and
 * each fault visibly changes the behaviour it names (and the default server
 * does not show that change).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/rules.js';
import { FAULTS, getFault } from '../../reference/faults.js';
import type { ReferenceServer } from '../../reference/server.js';
import { call, payloadFor, referenceIds, res, start } from './reference-helpers.js';

type Demo = (srv: ReferenceServer, refs: Record<string, string>) => Promise<boolean>;

const firstCustomers = (srv: ReferenceServer) => srv.snapshot().records.customer.slice(0, 2);
async function createTwo(srv: ReferenceServer, refs: Record<string, string>, name: string, extra: Record<string, unknown>[] = [{}, {}]) {
  const r = res(name);
  const got = await call(srv, `${r.prefix}/create`, { data: extra.map((e) => ({ ...payloadFor(r, refs), ...e })) });
  return got.body as any[];
}
async function versionsAfterOneUpdate(srv: ReferenceServer, refs: Record<string, string>, name: string): Promise<string[]> {
  const r = res(name);
  const [rec] = (await call(srv, `${r.prefix}/create`, { data: [payloadFor(r, refs)] })).body;
  await call(srv, `${r.prefix}/update`, { data: [{ id: rec.id, content: 'second' }] });
  return (await call(srv, `${r.prefix}/get`, { filters: { id: [rec.id] } })).body[0].versions.map((v: any) => v.version);
}

/** fault name -> "is the fault visible on this server?" */
const DEMOS: Record<string, Demo> = {
  'get-number-scalar': async (srv) => (await call(srv, '/api/v1/products/get')).body.some((p: any) => typeof p.price === 'number'),
  'get-nested-number': async (srv) => (await call(srv, '/api/v1/orders/get')).body.some((o: any) => typeof o.items[0]?.unitprice === 'number'),
  'datetime-with-T': async (srv) => (await call(srv, '/api/v1/products/get')).body[0].createdon.includes('T'),
  'get-boolean-1-0': async (srv) => ['1', '0'].includes((await call(srv, '/api/v1/products/get')).body[0].taxable),
  'write-boolean-true-false': async (srv, refs) => ['true', 'false'].includes((await createTwo(srv, refs, 'product', [{}]))[0].taxable),
  'product-size-echoed': async (srv, refs) => (await createTwo(srv, refs, 'product', [{ size: '7' }]))[0].size === '7',
  'range-as-text': async (srv, refs) => {
    const ids = (await createTwo(srv, refs, 'product', [{ price: '9.00' }, { price: '10.00' }])).map((p) => p.id);
    const got = await call(srv, '/api/v1/products/count', { filters: { id: ids, price_min: '9' } });
    return got.body.count !== '2';
  },
  'array-filter-first-value-only': async (srv) => {
    const [a, b] = firstCustomers(srv);
    return (await call(srv, '/api/v1/customers/count', { filters: { id: [a.id, b.id] } })).body.count === '1';
  },
  'array-filter-substring': async (srv) => {
    const [a] = firstCustomers(srv);
    const got = await call(srv, '/api/v1/customers/get', { filters: { email: [a.email.slice(1)] } });
    return got.body.some((c: any) => c.id === a.id);
  },
  'count-ignores-filters': async (srv) => {
    const [a] = firstCustomers(srv);
    return (await call(srv, '/api/v1/customers/count', { filters: { id: [a.id] } })).body.count !== '1';
  },
  'cap-not-applied': async (srv) => (await call(srv, '/api/v1/files/get', { pagination: { pageNumber: '1', pageSize: '2000' } })).body.length > 1000,
  'pages-overlap': async (srv) => {
    const p1 = (await call(srv, '/api/v1/files/get', { pagination: { pageNumber: '1', pageSize: '10' } })).body.map((x: any) => x.id);
    const p2 = (await call(srv, '/api/v1/files/get', { pagination: { pageNumber: '2', pageSize: '10' } })).body.map((x: any) => x.id);
    return p2.some((id: string) => p1.includes(id));
  },
  'update-drops-field': async (srv, refs) => {
    const [cat] = await createTwo(srv, refs, 'category', [{}]);
    const up = await call(srv, '/api/v1/products/categories/update', { data: [{ id: cat.id, name: 'renamed' }] });
    return up.body[0].name !== 'renamed';
  },
  'delete-too-much': async (srv, refs) => {
    const [a, b] = await createTwo(srv, refs, 'category');
    await call(srv, '/api/v1/products/categories/delete', { filter: [{ id: [a.id] }] });
    return (await call(srv, '/api/v1/products/categories/count', { filters: { id: [b.id] } })).body.count === '0';
  },
  'blog-versions-reversed': async (srv, refs) => (await versionsAfterOneUpdate(srv, refs, 'blog-post')).join() === '2,1',
  'page-versions-oldest-first': async (srv, refs) => (await versionsAfterOneUpdate(srv, refs, 'page')).join() === '1,2',
  'version-number-not-incremented': async (srv, refs) => (await versionsAfterOneUpdate(srv, refs, 'blog-post')).join() === '1,1',
  'wrong-key-accepted': async (srv) => (await call(srv, '/api/v1/products/get', {}, { key: 'not-the-key' })).status === 200,
  'key-from-header-only': async (srv) => {
    const body = await call(srv, '/api/v1/products/get');
    const header = await call(srv, '/api/v1/products/get', {}, { key: null, headers: { 'x-api-key': srv.apiKey } });
    return body.status !== 200 && header.status === 200;
  },
  'missing-key-accepted': async (srv) => (await call(srv, '/api/v1/products/get', {}, { key: null })).status === 200,
  'store-without-apikey': async (srv) => !('apikey' in (await call(srv, '/api/v1/store/get')).body),
  'truncate-at-200': async (srv, refs) => (await createTwo(srv, refs, 'category', [{ name: 'n'.repeat(250) }]))[0].name.length === 200,
};

describe('fault registry', () => {
  it('names are unique, each breaks a rule of src/rules.ts with its section, and has hooks (or a stale read around writes)', () => {
    const names = FAULTS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of FAULTS) {
      expect(RULES, f.name).toHaveProperty([f.breaks]);
      expect(f.section).toBe((RULES as any)[f.breaks].section);
      expect(Object.keys(f.hooks).length + (f.stale ? 1 : 0), f.name).toBeGreaterThan(0);
      expect(f.description.length).toBeGreaterThan(10);
    }
    expect(() => getFault('no-such-fault')).toThrow(/unknown fault/);
  });

  it('holds at least the faults the meta-tests rely on', () => {
    for (const name of Object.keys(DEMOS)) expect(FAULTS.map((f) => f.name)).toContain(name);
  });
});

describe('the default server shows none of the faults', () => {
  let srv: ReferenceServer;
  let refs: Record<string, string>;
  beforeAll(async () => {
    srv = await start();
    refs = await referenceIds(srv);
  });
  afterAll(async () => srv?.close());
  for (const [name, demo] of Object.entries(DEMOS)) {
    it(name, async () => expect(await demo(srv, refs)).toBe(false));
  }
});

describe('each fault visibly changes behaviour', () => {
  for (const [name, demo] of Object.entries(DEMOS)) {
    it(name, async () => {
      const srv = await start({ faults: [name] });
      try {
        const refs = await referenceIds(srv);
        expect(await demo(srv, refs)).toBe(true);
      } finally {
        await srv.close();
      }
    });
  }

  it('faults compose: two at once both show', async () => {
    const srv = await start({ faults: ['get-boolean-1-0', 'datetime-with-T'] });
    try {
      const p = (await call(srv, '/api/v1/products/get')).body[0];
      expect(['1', '0']).toContain(p.taxable);
      expect(p.createdon).toContain('T');
    } finally {
      await srv.close();
    }
  });
});
