import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ZERO_GUID, resources, validator, type FieldModel, type ResourceModel } from '../../src/schema/model.js';
import { DEFAULT_COUNTS, SEEDED_RESOURCES, seedData, type SeedData } from '../../reference/seed.js';

type Rec = Record<string, any>;

const SEED = 20240611;
const data = seedData(SEED);
const small = seedData(SEED, { bigResource: null });

const listed = (): ResourceModel[] => resources().filter((r) => !r.single);
const storeModel = (): ResourceModel => resources().find((r) => r.single)!;
const recs = (d: SeedData, name: string): Rec[] => d.records[name] ?? [];
const byId = (d: SeedData, name: string) => new Map(recs(d, name).map((r) => [r.id, r]));

/** The record as get shows it (§4): booleans 'true'/'false' as stored, comma decimals where the schema says. */
function renderGet(value: any, fields: FieldModel[]): Rec {
  const out: Rec = { ...value };
  for (const f of fields) {
    const v = out[f.name];
    if (v === undefined) continue;
    if (f.kind === 'decimal' && f.separator === ',' && typeof v === 'string') out[f.name] = v.replace('.', ',');
    else if (f.kind === 'array' && f.itemFields && Array.isArray(v)) out[f.name] = v.map((it) => renderGet(it, f.itemFields!));
    else if (f.kind === 'object' && f.objectFields && v && typeof v === 'object') out[f.name] = renderGet(v, f.objectFields);
  }
  return out;
}

/** every scalar leaf of a record, with its path */
function* leaves(v: any, path: string): Generator<[string, any]> {
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* leaves(v[i], `${path}[${i}]`);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) yield* leaves(x, `${path}.${k}`);
  else yield [path, v];
}

/** (field, value) pairs of a kind, sub-lists included */
function* valuesOfKind(rec: Rec, fields: FieldModel[], kind: string): Generator<[FieldModel, string]> {
  for (const f of fields) {
    const v = rec[f.name];
    if (v === undefined && !f.required) continue; // optional sub-object field (realtime {} of PICKUP)
    if (f.kind === kind) yield [f, v];
    if (f.kind === 'array' && f.itemFields && Array.isArray(v)) for (const it of v) yield* valuesOfKind(it, f.itemFields, kind);
    if (f.kind === 'array' && f.itemKind === kind && Array.isArray(v)) for (const it of v) yield [f, it];
    if (f.kind === 'object' && f.objectFields && v) yield* valuesOfKind(v, f.objectFields, kind);
  }
}

describe('seedData: shape', () => {
  it('seeds every listed resource of the schema model, and the store', () => {
    const names = listed().map((r) => r.name).sort();
    expect(names).toHaveLength(14);
    expect([...SEEDED_RESOURCES].sort()).toEqual(names);
    expect(Object.keys(data.records).sort()).toEqual(names);
    expect(storeModel().name).toBe('store');
    expect(data.store.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.store.apikey).toBe('to-be-set-by-server');
  });

  it('populates every resource (20-60 records) and gives the big resource (default file) more than 1000', () => {
    for (const r of listed()) {
      const n = recs(data, r.name).length;
      if (r.name === 'file') expect(n, r.name).toBe(1200);
      else {
        expect(n, r.name).toBeGreaterThanOrEqual(20);
        expect(n, r.name).toBeLessThanOrEqual(60);
      }
    }
    expect(recs(data, 'file').length).toBeGreaterThan(1000);
  });

  it('small store (bigResource null): nothing over 1000, default counts everywhere', () => {
    for (const r of listed()) {
      expect(recs(small, r.name).length, r.name).toBe(DEFAULT_COUNTS[r.name]);
      expect(recs(small, r.name).length, r.name).toBeLessThanOrEqual(1000);
    }
  });

  it('any resource can be the big one, with any count; unknown names are refused', () => {
    const d = seedData(5, { bigResource: 'product', bigCount: 1001 });
    expect(d.records.product).toHaveLength(1001);
    expect(d.records.file).toHaveLength(DEFAULT_COUNTS.file);
    expect(new Set(d.records.product.map((p) => p.name)).size).toBe(1001);
    expect(new Set(d.records.product.map((p) => p.slug)).size).toBe(1001);
    expect(new Set(d.records.product.map((p) => p.sku)).size).toBe(1001);
    const c = seedData(5, { bigResource: 'country', bigCount: 1100 });
    expect(new Set(c.records.country.map((x) => x.code)).size).toBe(1100);
    expect(() => seedData(1, { bigResource: 'store' })).toThrow(/not a seeded resource/);
    expect(() => seedData(1, { bigResource: 'nope' })).toThrow(/not a seeded resource/);
  });
});

describe('seedData: determinism and speed', () => {
  it('same seed gives deep-equal data; another seed gives other data', () => {
    expect(seedData(SEED)).toEqual(data);
    expect(seedData(SEED, { bigResource: null })).toEqual(small);
    const other = seedData(SEED + 1);
    expect(other.records.product[0].id).not.toBe(data.records.product[0].id);
    expect(other.records.product.map((p) => p.name)).not.toEqual(data.records.product.map((p) => p.name));
    expect(other.store.id).not.toBe(data.store.id);
  });

  it('a record does not depend on the size of other resources', () => {
    // the first products are the same whether the store is big or small
    expect(small.records.product.slice(0, 5).map((p) => [p.id, p.name, p.price]))
      .toEqual(data.records.product.slice(0, 5).map((p) => [p.id, p.name, p.price]));
    expect(small.records.file.map((f) => f.id)).toEqual(data.records.file.slice(0, DEFAULT_COUNTS.file).map((f) => f.id));
  });
});

describe('seedData: every record validates against its Record schema in get form', () => {
  for (const [label, d] of [['big store', () => data], ['small store, other seed', () => seedData(77, { bigResource: null })]] as const) {
    it(label, () => {
      const failures: string[] = [];
      const seeded = d();
      for (const r of listed()) {
        const v = validator(r.name, 'Record');
        for (const rec of recs(seeded, r.name)) {
          const res = v(renderGet(rec, r.fields));
          if (!res.ok) failures.push(`${r.name} ${rec.id}: ${res.errors.slice(0, 3).join('; ')}`);
        }
      }
      const s = storeModel();
      const res = validator(s.name, 'Record')(renderGet(seeded.store, s.fields));
      if (!res.ok) failures.push(`store: ${res.errors.join('; ')}`);
      expect(failures.slice(0, 10)).toEqual([]);
    });
  }

  it('records hold exactly the schema fields, in schema order', () => {
    for (const r of listed()) {
      const names = r.fields.map((f) => f.name);
      for (const rec of recs(data, r.name).slice(0, 50)) expect(Object.keys(rec), r.name).toEqual(names);
    }
    expect(Object.keys(data.store)).toEqual(storeModel().fields.map((f) => f.name));
  });
});

describe('seedData: canonical normalized form', () => {
  it('every scalar is a string; GUIDs lowercase 36 chars; decimals with a dot; DateTime and Date forms', () => {
    const bad: string[] = [];
    const check = (rec: Rec, fields: FieldModel[], where: string) => {
      for (const [path, v] of leaves(rec, where)) if (typeof v !== 'string') bad.push(`${path} is ${typeof v}`);
      for (const [f, v] of valuesOfKind(rec, fields, 'guid')) if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v)) bad.push(`${where}.${f.name} guid ${v}`);
      for (const [f, v] of valuesOfKind(rec, fields, 'decimal')) if (!/^-?[0-9]+\.[0-9]+$/.test(v)) bad.push(`${where}.${f.name} decimal ${v}`);
      for (const [f, v] of valuesOfKind(rec, fields, 'integer')) if (!/^-?[0-9]+$/.test(v)) bad.push(`${where}.${f.name} integer ${v}`);
      for (const [f, v] of valuesOfKind(rec, fields, 'boolean')) if (v !== 'true' && v !== 'false') bad.push(`${where}.${f.name} boolean ${v}`);
      for (const [f, v] of valuesOfKind(rec, fields, 'datetime')) if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(v)) bad.push(`${where}.${f.name} datetime ${v}`);
      for (const [f, v] of valuesOfKind(rec, fields, 'date')) if (!/^\d{4}-\d\d-\d\d$/.test(v)) bad.push(`${where}.${f.name} date ${v}`);
    };
    for (const r of listed()) for (const rec of recs(data, r.name)) check(rec, r.fields, `${r.name}:${rec.id}`);
    check(data.store, storeModel().fields, 'store');
    expect(bad.slice(0, 10)).toEqual([]);
    expect(recs(data, 'customer').every((c) => /^\d{4}-\d\d-\d\d$/.test(c.birthdate))).toBe(true);
  });

  it('strings of writable resources fit the payload limits (255; page content 65535) so they can be re-sent', () => {
    const long: string[] = [];
    for (const r of listed().filter((x) => x.writable)) {
      for (const rec of recs(data, r.name)) {
        for (const [path, v] of leaves(rec, `${r.name}:${rec.id}`)) {
          const max = r.name === 'page' && /\.content$/.test(path) ? 65535 : 255;
          if (typeof v === 'string' && v.length > max) long.push(`${path} (${v.length})`);
        }
      }
    }
    expect(long).toEqual([]);
    expect(recs(data, 'page').some((p) => p.content.length > 2000)).toBe(true);
  });

  it('ids are unique within each resource', () => {
    for (const r of listed()) {
      const ids = recs(data, r.name).map((x) => x.id);
      expect(new Set(ids).size, r.name).toBe(ids.length);
    }
  });

  it('Predefined values come from the enumeration table (knownValues) only', () => {
    const bad: string[] = [];
    for (const r of [...listed(), storeModel()]) {
      const rs = r.single ? [data.store] : recs(data, r.name);
      for (const rec of rs) {
        for (const [f, v] of valuesOfKind(rec, r.fields, 'predefined')) {
          if (f.knownValues && !f.knownValues.includes(v)) bad.push(`${r.name}.${f.name}=${v}`);
        }
      }
    }
    expect(bad).toEqual([]);
    // and every listed value appears somewhere
    const seen = (name: string, field: string) => new Set(recs(data, name).map((x) => x[field]));
    expect([...seen('coupon', 'type')].sort()).toEqual(['AMOUNT_ORDER', 'FREE_SHIPPING']);
    expect([...seen('shipping-method', 'type')].sort()).toEqual(['PICKUP', 'REALTIME']);
    for (const n of ['shipping-method', 'tax', 'payment-method']) expect([...seen(n, 'appliesto')].sort(), n).toEqual(['COUNTRY', 'EVERYWHERE', 'STATE']);
    expect([...seen('user', 'role')].sort()).toEqual(['WEBSITE_ADMIN', 'WEBSITE_USER']);
    expect([...seen('user', 'language')].sort()).toEqual(['en-US', 'fr-CA']);
  });
});

describe('seedData: interesting splits for filters', () => {
  it('every boolean field of every listed resource has both true and false', () => {
    for (const r of listed()) {
      for (const f of r.fields.filter((x) => x.kind === 'boolean')) {
        const vals = new Set(recs(data, r.name).map((x) => x[f.name]));
        expect([...vals].sort(), `${r.name}.${f.name}`).toEqual(['false', 'true']);
      }
    }
  });

  it('products: prices 0.50..9999.99, weights within 2 digits 2 decimals, sizes varied, discounts below price', () => {
    const ps = recs(data, 'product');
    const prices = ps.map((p) => Number(p.price));
    expect(Math.min(...prices)).toBe(0.5);
    expect(Math.max(...prices)).toBe(9999.99);
    expect(ps.filter((p) => Number(p.price) < 20).length).toBeGreaterThan(3);
    expect(ps.filter((p) => Number(p.price) > 500).length).toBeGreaterThan(3);
    for (const p of ps) {
      expect(p.weight).toMatch(/^\d{1,2}\.\d{2}$/);
      if (p.discounted === 'true') expect(Number(p.discountprice)).toBeLessThan(Number(p.price));
    }
    expect(new Set(ps.map((p) => p.size)).size).toBeGreaterThan(5);
    expect(ps.some((p) => p.size !== '0')).toBe(true);
    expect(new Set(ps.map((p) => p.weight)).size).toBeGreaterThan(20);
    expect(ps.some((p) => p.variants.length > 0)).toBe(true);
    expect(ps.some((p) => p.variants.some((v: Rec) => v.color === '' || v.size === ''))).toBe(true);
  });

  it('tax rates with 3 decimals, including 14.975, 5.000 and 9.975', () => {
    const rates = recs(data, 'tax').map((t) => t.rate);
    for (const r of rates) expect(r).toMatch(/^\d{1,3}\.\d{3}$/);
    expect(rates).toEqual(expect.arrayContaining(['14.975', '5.000', '9.975']));
  });

  it('author on audited resources, sometimes empty; createdon spread over years, mostly distinct with a few ties', () => {
    let empty = 0, total = 0;
    for (const r of listed().filter((x) => x.audit)) {
      for (const rec of recs(data, r.name)) {
        expect(typeof rec.author, r.name).toBe('string');
        total++;
        if (rec.author === '') empty++;
      }
      const created = recs(data, r.name).map((x) => x.createdon);
      expect(new Set(created).size / created.length, r.name).toBeGreaterThan(0.75);
    }
    expect(empty).toBeGreaterThan(0);
    expect(empty / total).toBeLessThan(0.2);
    const files = recs(data, 'file').map((f) => f.createdon);
    expect(new Set(files).size).toBeLessThan(files.length); // ties
    const years = new Set(files.map((c) => c.slice(0, 4)));
    expect(years.size).toBeGreaterThanOrEqual(4);
    expect(recs(data, 'country')[0]).not.toHaveProperty('author');
  });
});

describe('seedData: referential sanity', () => {
  it('orders point at seeded customers, products, variants, countries, states, taxes, shipping and payment methods', () => {
    const customers = byId(data, 'customer');
    const products = byId(data, 'product');
    const countries = byId(data, 'country');
    const taxes = byId(data, 'tax');
    const ships = byId(data, 'shipping-method');
    const pms = byId(data, 'payment-method');
    const coupons = byId(data, 'coupon');
    let zeroVariant = 0, realVariant = 0;
    for (const o of recs(data, 'order')) {
      expect(customers.has(o.customerid)).toBe(true);
      expect(o.fullname).toBe(`${customers.get(o.customerid)!.firstname} ${customers.get(o.customerid)!.lastname}`);
      expect(countries.has(o.billingcountryid)).toBe(true);
      expect(countries.get(o.billingcountryid)!.code).toBe(o.billingcountrycode);
      expect(countries.has(o.shippingcountryid)).toBe(true);
      expect(o.taxid === ZERO_GUID || taxes.has(o.taxid)).toBe(true);
      expect(ships.has(o.shippingid)).toBe(true);
      expect(ships.get(o.shippingid)!.name).toBe(o.shippingname);
      expect(pms.has(o.paymentmethodid)).toBe(true);
      expect(o.couponid === ZERO_GUID ? o.couponcode === '' : coupons.get(o.couponid)?.code === o.couponcode).toBe(true);
      expect(o.items.length).toBeGreaterThan(0);
      for (const it of o.items) {
        const p = products.get(it.productid);
        expect(p).toBeDefined();
        if (it.productvariantid === ZERO_GUID) zeroVariant++;
        else {
          realVariant++;
          expect(p!.variants.some((v: Rec) => v.id === it.productvariantid)).toBe(true);
        }
      }
      for (const pay of o.payments) {
        expect(pay.methodid).toBe(o.paymentmethodid);
        expect(pay.customerid).toBe(o.customerid);
        expect(pay.amount).toBe(o.total);
      }
      // totals add up (cents)
      const c = (s: string) => Math.round(Number(s) * 100);
      const sum = o.items.reduce((s: number, it: Rec) => s + c(it.unitprice) * Number(it.quantity), 0);
      expect(c(o.totalprice)).toBe(sum);
      expect(c(o.total)).toBe(c(o.totalprice) - c(o.totaldiscount) + c(o.totaltaxes) + c(o.totalshipping) + c(o.totalshippingtaxes));
      expect(o.status).toBe('COMPLETED');
    }
    expect(zeroVariant).toBeGreaterThan(0);
    expect(realVariant).toBeGreaterThan(0);
    const numbers = recs(data, 'order').map((o) => Number(o.number));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(Math.min(...numbers)).toBe(Number(data.store.startingordernumber));
  });

  it('products hold {id, name} of seeded categories and collections; reviews of seeded customers', () => {
    const cats = byId(data, 'category');
    const cols = byId(data, 'collection');
    const customers = byId(data, 'customer');
    for (const p of recs(data, 'product')) {
      expect(p.categories.length).toBeGreaterThan(0);
      for (const c of p.categories) expect(cats.get(c.id)?.name).toBe(c.name);
      for (const c of p.collections) expect(cols.get(c.id)?.name).toBe(c.name);
      for (const r of p.reviews) {
        expect(customers.has(r.customerid)).toBe(true);
        expect(r.createdon >= p.createdon).toBe(true);
      }
      expect(p.images.map((i: Rec) => i.rank)).toEqual(p.images.map((_: Rec, k: number) => String(k + 1)));
    }
    expect(recs(data, 'product').some((p) => p.collections.length > 0)).toBe(true);
  });

  it('pages: backgroundfileid a seeded file or the all-zero GUID (both occur); exactly one home page', () => {
    const files = byId(data, 'file');
    const pages = recs(data, 'page');
    for (const p of pages) expect(p.backgroundfileid === ZERO_GUID || files.has(p.backgroundfileid)).toBe(true);
    expect(pages.some((p) => p.backgroundfileid === ZERO_GUID)).toBe(true);
    expect(pages.some((p) => p.backgroundfileid !== ZERO_GUID)).toBe(true);
    expect(pages.filter((p) => p.homepage === 'true')).toHaveLength(1);
    expect(small.records.page.filter((p) => p.homepage === 'true')).toHaveLength(1);
  });

  it('customers, taxes and methods reference seeded countries; appliesto and its fields agree', () => {
    const countries = byId(data, 'country');
    for (const c of recs(data, 'customer')) {
      expect(countries.get(c.countryid)?.code).toBe(c.countrycode);
      expect(countries.get(c.countryid)?.name).toBe(c.countryname);
    }
    for (const n of ['tax', 'shipping-method', 'payment-method']) {
      for (const t of recs(data, n)) {
        if (t.appliesto === 'EVERYWHERE') expect(t.appliestocountryid, n).toBe(ZERO_GUID);
        else expect(countries.get(t.appliestocountryid)?.code, n).toBe(t.appliestocountrycode);
        if (t.appliesto === 'STATE' && n !== 'payment-method') expect(t.appliestolist.length, n).toBeGreaterThan(0);
      }
    }
    expect(recs(data, 'payment-method').some((p) => p.appliestolist.includes(''))).toBe(true);
    expect(countries.get(data.store.countryid)?.code).toBe('CA');
  });

  it('shipping realtime is {} for PICKUP and a filled PROD object for REALTIME; payment instant is an object', () => {
    for (const s of recs(data, 'shipping-method')) {
      if (s.type === 'PICKUP') expect(s.realtime).toEqual({});
      else {
        expect(Object.keys(s.realtime).sort()).toEqual(['accountNumber', 'key', 'keyPassword', 'meterNumber', 'provider', 'serverType']);
        expect(s.realtime.serverType).toBe('PROD');
      }
    }
    expect(recs(data, 'shipping-method').some((s) => s.logourlsecure === '')).toBe(true);
    for (const p of recs(data, 'payment-method')) expect(typeof p.instant === 'object' && !Array.isArray(p.instant)).toBe(true);
    for (const b of recs(data, 'blog-post')) expect(Array.isArray(b.comments)).toBe(true);
    for (const o of recs(data, 'order')) expect(Array.isArray(o.histories)).toBe(true);
  });
});

describe('seedData: versions (§3)', () => {
  const check = (name: string, order: 'oldest-first' | 'newest-first') => {
    const model = resources().find((r) => r.name === name)!;
    expect(model.versionsOrder).toBe(order);
    let multi = 0;
    for (const rec of recs(data, name)) {
      const vs: Rec[] = rec.versions;
      expect(vs.length).toBeGreaterThan(0);
      const nums = vs.map((v) => Number(v.version));
      const asc = [...nums].sort((a, b) => a - b);
      expect(asc).toEqual(asc.map((_, k) => k + 1));
      expect(nums).toEqual(order === 'oldest-first' ? asc : [...asc].reverse());
      const latest = vs.find((v) => Number(v.version) === vs.length)!;
      const first = vs.find((v) => v.version === '1')!;
      expect(latest.content).toBe(rec.content);
      expect(first.createdon).toBe(rec.createdon);
      const times = vs.map((v) => v.createdon);
      const sortedTimes = [...times].sort();
      expect(times).toEqual(order === 'oldest-first' ? sortedTimes : [...sortedTimes].reverse());
      if (vs.length > 1) multi++;
    }
    expect(multi).toBeGreaterThan(0);
  };
  it('blog posts: oldest first, numbered from 1, latest content = content', () => check('blog-post', 'oldest-first'));
  it('pages: newest first, numbered from 1, latest content = content', () => check('page', 'newest-first'));
});

describe('seedData: bilingual, realistic values', () => {
  it('accented fr-CA text next to en-US text', () => {
    const all = JSON.stringify(data);
    for (const w of ['Crème brûlée', 'Théière en fonte', 'Château', 'Québec', 'Montréal', 'Trois-Rivières']) expect(all, w).toContain(w);
    expect(recs(data, 'product').some((p) => /[éèêàâçôûîëï]/.test(p.name))).toBe(true);
    expect(recs(data, 'product').some((p) => /^[\x20-\x7e]+$/.test(p.name))).toBe(true);
    expect(recs(data, 'customer').some((c) => /[éèëçï]/i.test(c.firstname + c.lastname))).toBe(true);
    const codes = new Set(recs(data, 'country').map((c) => c.code));
    for (const c of ['CA', 'US', 'FR']) expect(codes.has(c)).toBe(true);
    expect(recs(data, 'country').find((c) => c.code === 'CA')?.defaultcurrencycode).toBe('CAD');
    expect(recs(data, 'country').find((c) => c.code === 'US')?.defaultcurrencycode).toBe('USD');
  });

  it('slugs derive from names, e-mails and postal codes look real', () => {
    for (const p of recs(data, 'product')) expect(p.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    for (const c of recs(data, 'customer')) {
      expect(c.email).toMatch(/^[a-z0-9.-]+@[a-z.]+$/);
      if (c.countrycode === 'CA') expect(c.postalcode).toMatch(/^[A-Z]\d[A-Z] \d[A-Z]\d$/);
      if (c.countrycode === 'US') expect(c.postalcode).toMatch(/^\d{5}$/);
    }
    const provinces = new Set(recs(data, 'customer').filter((c) => c.countrycode === 'CA').map((c) => c.statecode));
    expect(provinces.has('QC')).toBe(true);
    expect(new Set(recs(data, 'customer').map((c) => c.email)).size).toBe(recs(data, 'customer').length);
  });
});

describe('seedData: phones with letters', () => {
  // a filter that ignores letter case on a phone key can only show on phones holding letters (the #exact case of
  // <r>.filters.array.<phone key>); every seed must give each such key some, in the records a filter sample reads
  const KEYS: Array<[string, string]> = [['order', 'billingphone'], ['order', 'shippingphone'], ['customer', 'phone'], ['customer', 'cellphone'], ['user', 'phone']];
  it.each([1, 2026, 20261122, 20269041, 20276960])('seed %i: every phone filter key has values with letters, and digit-only ones', (seed) => {
    const data = seedData(seed);
    for (const [r, k] of KEYS) {
      const values = recs(data, r).map((x) => String(x[k]));
      expect(values.filter((v) => /[A-Za-z]/.test(v)).length, `${r}.${k}`).toBeGreaterThan(0);
      expect(values.filter((v) => /^[0-9+() -]+$/.test(v)).length, `${r}.${k}`).toBeGreaterThan(0);
    }
  });
});

describe('seedData: the same bytes as before', () => {
  // sha-256 of JSON.stringify(seedData(seed, opts)), recorded from the seed code before its builders
  // were split into named parts: a change of structure must leave every seeded byte (values, field
  // order, record order) as it was. A deliberate change of the seed data updates these figures.
  const sha = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('hex');
  it.each([
    [1, {}, 'df1cbe46d4dc9470db0513410ab6280dc3b71f3688efe16958384457a0337300'],
    [2026, {}, '97493e173d7bed6f1188da3bf71b3683c37214a8cdd5286eb1fab8cadb0b9d00'],
    [7, { bigResource: null }, 'e20d83fb74882487752fe6206c23a5920c05986b003752c28156bd480a6db9aa'],
    [42, { bigResource: 'order', bigCount: 1500 }, '6b17f2095239c8a9a404e19412f405166e0394f60b7d6c732472a3c4e3cb6d0e'],
  ] as const)('seed %i %j', (seed, opts, want) => {
    expect(sha(seedData(seed, opts))).toBe(want);
  });
});
