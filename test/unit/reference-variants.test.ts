/**
 * Benign variants: each switches one "not shown" choice, visibly, and the
 * expectedObservations map covers every observation key for every variant.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ZERO_GUID } from '../../src/schema/model.js';
import { DEFAULT_BEHAVIOUR } from '../../reference/behaviour.js';
import { DEFAULT_OBSERVATIONS, VARIANTS, expectedObservations, getVariant } from '../../reference/variants.js';
import type { ReferenceServer } from '../../reference/server.js';
import { call, payloadFor, referenceIds, res, start } from './reference-helpers.js';

const KEYS = [
  'pagination.firstPageNumber', 'pagination.defaultPageSize', 'pagination.maxPageSize', 'order.default',
  'filters.combination', 'filters.rangeInclusive', 'update.semantics', 'auth.invalidKeyStatus',
  'auth.missingKeyStatus', 'pages.titleFilterKey', 'limits.overlongString', 'limits.maxDataItems',
  'delete.unknownId', 'update.unknownId', 'limits.decimalDigits', 'filters.unknownKey', 'filters.unknownPredefinedValue', 'consistency.readAfterWriteMs',
  'users.countPath', 'collation.case', 'collation.accents', 'collation.trailingSpaces', 'collation.normalization', 'text.normalization', 'limits.longTextUnit', 'limits.integerWidth', 'limits.decimalScale',
  'text.astral', 'text.trimming', 'text.whitespaceOnly', 'text.emptyRequired', 'text.emptyOptional', 'integers.leadingZeros', 'integers.negativeZero', 'lists.duplicates', 'time.createdonOffsetMinutes', 'filters.dateOnlyBound', 'ids.letterCase', 'filters.idCase', 'filters.guidVersion', 'time.dateTimeRange', 'http.contentType', 'http.jsonEscapes',
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

  it('expectedObservations has every key for every variant, and differs from the default somewhere (except extra-fields, small-store, no-orders, page-size-below-one-empty: choices no observation records)', () => {
    expect(Object.keys(DEFAULT_OBSERVATIONS).sort()).toEqual([...KEYS].sort());
    for (const v of VARIANTS) {
      const obs = expectedObservations[v.name];
      expect(Object.keys(obs).sort(), v.name).toEqual([...KEYS].sort());
      const differs = KEYS.some((k) => (obs as any)[k] !== (DEFAULT_OBSERVATIONS as any)[k]);
      if (!['extra-fields', 'small-store', 'no-orders', 'page-size-below-one-empty'].includes(v.name)) expect(differs, v.name).toBe(true);
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

/** The readings of stack defaults (reference/readings.ts), each visible on the wire. */
describe('each stack-default reading is visible', () => {
  const coupon = async (srv: ReferenceServer, refs: Record<string, string>, over: Record<string, string>) =>
    call(srv, '/api/v1/coupons/create', { data: [{ ...payloadFor(res('coupon'), refs), ...over }] });

  it('collation-ci, collation-ai, pad-space: one part of the comparison each', async () => {
    const cases: Array<[string, Record<string, string>]> = [['collation-ci', { case: 'yes' }], ['collation-ai', { accent: 'yes' }], ['pad-space', { pad: 'yes' }]];
    for (const [name, want] of cases) {
      await withVariant(name, async (srv) => {
        const file = srv.snapshot().records.file.find((f) => /[aeiou]/.test(f.name) && /[A-Za-z]/.test(f.name))!;
        const accented = file.name.replace(/[aeiou]/, (c: string) => ({ a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú' } as Record<string, string>)[c]);
        const count = async (v: string) => Number((await call(srv, '/api/v1/files/count', { filters: { id: [file.id], name: [v] } })).body.count);
        expect(await count(file.name)).toBe(1);
        expect(await count(file.name.toUpperCase() === file.name ? file.name.toLowerCase() : file.name.toUpperCase()), name).toBe(want.case ? 1 : 0);
        expect(await count(accented), name).toBe(want.accent ? 1 : 0);
        expect(await count(`${file.name} `), name).toBe(want.pad ? 1 : 0);
      });
    }
  });

  it('int32-refused and int32-clamped: an Integer beyond 32 bits', async () => {
    await withVariant('int32-refused', async (srv, refs) => {
      expect((await coupon(srv, refs, { limittotal: '2147483648' })).status).toBe(400);
      expect((await coupon(srv, refs, { limittotal: '2147483647' })).body[0].limittotal).toBe('2147483647');
    });
    await withVariant('int32-clamped', async (srv, refs) => {
      expect((await coupon(srv, refs, { limittotal: '99999999999' })).body[0].limittotal).toBe('2147483647');
    });
  });

  it('decimal-scale-rounded and decimal-scale-truncated: one decimal too many', async () => {
    await withVariant('decimal-scale-rounded', async (srv, refs) => {
      expect((await coupon(srv, refs, { discountamount: '2.345' })).body[0].discountamount.replace(',', '.')).toBe('2.35');
    });
    await withVariant('decimal-scale-truncated', async (srv, refs) => {
      expect((await coupon(srv, refs, { discountamount: '2.349' })).body[0].discountamount.replace(',', '.')).toBe('2.34');
    });
    expect((await withDefault((srv, refs) => coupon(srv, refs, { discountamount: '2.345' }))).status).toBe(400);
  });

  it('nfc-input and collation-canonical: e + U+0301 against the precomposed é', async () => {
    // what a collection created with a name holding e + U+0301 is stored as, and which form of it the name filter finds
    const seen = async (variant: string | undefined) => {
      const srv = await start(variant ? { variant } : {});
      try {
        const name = 'norm Cafe\u0301';
        const made = await call(srv, '/api/v1/products/collections/create', { data: [{ ...payloadFor(res('collection'), await referenceIds(srv)), name }] });
        const count = async (v: string) => Number((await call(srv, '/api/v1/products/collections/count', { filters: { id: [made.body[0].id], name: [v] } })).body.count);
        return { stored: made.body[0].name === name ? 'as sent' : made.body[0].name === name.normalize('NFC') ? 'nfc' : made.body[0].name, decomposed: await count(name), precomposed: await count(name.normalize('NFC')) };
      } finally {
        await srv.close();
      }
    };
    expect(await seen(undefined)).toEqual({ stored: 'as sent', decomposed: 1, precomposed: 0 });
    expect(await seen('nfc-input')).toEqual({ stored: 'nfc', decomposed: 1, precomposed: 1 });
    expect(await seen('collation-canonical')).toEqual({ stored: 'as sent', decomposed: 1, precomposed: 1 });
    // accents ignored: the combining mark is dropped with the others (UCA: marks weigh nothing at the first level)
    expect(await seen('collation-ai')).toEqual({ stored: 'as sent', decomposed: 1, precomposed: 1 });
    // *_general_ci: accents ignored one character at a time, the combining mark a character of its own
    expect(await seen('collation-general-ci')).toEqual({ stored: 'as sent', decomposed: 1, precomposed: 0 });
  });

  it('text-bytes: page content counted in UTF-8 bytes (a MySQL TEXT column), longer refused; the other Strings in characters', async () => {
    const page = (srv: ReferenceServer, refs: Record<string, string>, content: string) => call(srv, '/api/v1/pages/create', { data: [{ ...payloadFor(res('page'), refs), content }] });
    const max = res('page').payload.find((p) => p.name === 'content')!.maxLength!;
    await withVariant('text-bytes', async (srv, refs) => {
      expect((await page(srv, refs, 'é'.repeat(max / 2 + 1))).status).toBe(400);
      expect((await page(srv, refs, `${'é'.repeat((max - 1) / 2)}a`)).status).toBe(200);
      expect((await page(srv, refs, 'a'.repeat(max))).status).toBe(200);
    });
    await withVariant('first-page-zero', async (srv, refs) => expect((await page(srv, refs, 'é'.repeat(max))).status).toBe(200));
    // outside strict mode: cut to the longest start within the limit's bytes, whole characters
    await withVariant('text-bytes-cut', async (srv, refs) => {
      const made = await page(srv, refs, `${'a'.repeat(max - 2)}é€`);
      expect(made.status).toBe(200);
      expect(made.body[0].content).toBe(`${'a'.repeat(max - 2)}é`);
      expect((await page(srv, refs, `${'é'.repeat((max - 1) / 2)}a`)).body[0].content).toHaveLength((max - 1) / 2 + 1);
    });
  });

  it('astral-refused and astral-replaced: a 4-byte character', async () => {
    const create = (srv: ReferenceServer, refs: Record<string, string>) => call(srv, '/api/v1/products/collections/create', { data: [{ ...payloadFor(res('collection'), refs), description: 'a😀b' }] });
    await withVariant('astral-refused', async (srv, refs) => expect((await create(srv, refs)).status).toBe(400));
    await withVariant('astral-replaced', async (srv, refs) => expect((await create(srv, refs)).body[0].description).toBe('a?b'));
  });

  it('trim-strings, blank-refused, edge-spaces-refused: spaces at the edges of a String in data', async () => {
    // the description a collection create stores, or the HTTP status of its refusal
    const stored = async (variant: string | undefined, description: string) => {
      const srv = await start(variant ? { variant } : {});
      try {
        const out = await call(srv, '/api/v1/products/collections/create', { data: [{ ...payloadFor(res('collection'), await referenceIds(srv)), description }] });
        return out.status === 200 ? out.body[0].description : out.status;
      } finally {
        await srv.close();
      }
    };
    expect(await stored(undefined, '  a  ')).toBe('  a  ');
    expect(await stored(undefined, '   ')).toBe('   ');
    expect(await stored('trim-strings', '  a  ')).toBe('a');
    expect(await stored('trim-strings', '   ')).toBe('');
    expect(await stored('blank-refused', '   ')).toBe(400);
    expect(await stored('blank-refused', '  a  ')).toBe('  a  ');
    expect(await stored('edge-spaces-refused', 'a ')).toBe(400);
    expect(await stored('edge-spaces-refused', 'a b')).toBe('a b');
  });

  it("empty-refused and empty-optional-refused: '' in a mandatory property, and in one outside the mandatory list", async () => {
    // the status of a product create with '' in vendor (mandatory) or description (not mandatory)
    const status = async (variant: string | undefined, prop: 'vendor' | 'description') => {
      const srv = await start(variant ? { variant } : {});
      try {
        const out = await call(srv, '/api/v1/products/create', { data: [{ ...payloadFor(res('product'), await referenceIds(srv)), [prop]: '' }] });
        return out.status === 200 ? `stored ${JSON.stringify(out.body[0][prop])}` : out.status;
      } finally {
        await srv.close();
      }
    };
    expect(await status(undefined, 'vendor')).toBe('stored ""');
    expect(await status(undefined, 'description')).toBe('stored ""');
    expect(await status('empty-refused', 'vendor')).toBe(400);
    expect(await status('empty-refused', 'description')).toBe('stored ""');
    expect(await status('empty-optional-refused', 'vendor')).toBe('stored ""');
    expect(await status('empty-optional-refused', 'description')).toBe(400);
  });

  it("integer-leading-zeros-refused and integer-canonical-only: an Integer written '007' or '-0'", async () => {
    // the limittotal a coupon create stores, or the HTTP status of its refusal
    const stored = async (variant: string | undefined, limittotal: string) => {
      const srv = await start(variant ? { variant } : {});
      try {
        const out = await coupon(srv, await referenceIds(srv), { limittotal });
        return out.status === 200 ? out.body[0].limittotal : out.status;
      } finally {
        await srv.close();
      }
    };
    expect(await stored(undefined, '007')).toBe('7');
    expect(await stored(undefined, '-0')).toMatch(/^-?0$/);
    expect(await stored('integer-leading-zeros-refused', '007')).toBe(400);
    expect(await stored('integer-leading-zeros-refused', '-0')).toMatch(/^-?0$/);
    expect(await stored('integer-leading-zeros-refused', '70')).toBe('70');
    expect(await stored('integer-canonical-only', '-0')).toBe(400);
    expect(await stored('integer-canonical-only', '0')).toBe('0');
  });

  it('list-duplicates-merged and list-duplicates-refused: tags holding one tag twice', async () => {
    // the tags a blog post create stores, or the HTTP status of its refusal
    const tags = async (variant: string | undefined) => {
      const srv = await start(variant ? { variant } : {});
      try {
        const out = await call(srv, '/api/v1/blog/posts/create', { data: [{ ...payloadFor(res('blog-post'), await referenceIds(srv)), tags: ['a', 'b', 'a'] }] });
        return out.status === 200 ? out.body[0].tags.map((t: { tag: string }) => t.tag) : out.status;
      } finally {
        await srv.close();
      }
    };
    expect(await tags(undefined)).toEqual(['a', 'b', 'a']);
    expect(await tags('list-duplicates-merged')).toEqual(['a', 'b']);
    expect(await tags('list-duplicates-refused')).toBe(400);
  });

  it('timestamp-columns: a DateTime in data outside 1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC refused; the edges and every year between taken', async () => {
    const statuses = async (variant: string | undefined) => {
      const srv = await start(variant ? { variant } : {});
      try {
        const ids = await referenceIds(srv);
        const out: number[] = [];
        for (const d of ['1969-12-31 23:59:59', '1970-01-01 00:00:01', '2038-01-19 03:14:07', '2038-01-19 03:14:08']) {
          out.push((await call(srv, '/api/v1/coupons/create', { data: [{ ...payloadFor(res('coupon'), ids), startdate: d, enddate: d }] })).status);
        }
        return out;
      } finally {
        await srv.close();
      }
    };
    expect(await statuses(undefined)).toEqual([200, 200, 200, 200]);
    expect(await statuses('timestamp-columns')).toEqual([400, 200, 200, 400]);
  });

  it('guid-version-4: a GUID not of version 4 refused in a filter and a delete; version 4 and the all-zero GUID taken', async () => {
    const max = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    const v1 = 'c232ab00-9414-11ec-b3c8-9f6bdeced846';
    const statuses = async (variant: string | undefined) => {
      const srv = await start(variant ? { variant } : {});
      try {
        const get = async (ids: string[]) => (await call(srv, '/api/v1/orders/get', { filters: { customerid: ids } })).status;
        return [await get([max]), await get([v1]), await get([randomUUID(), ZERO_GUID]), (await call(srv, '/api/v1/coupons/delete', { filter: [{ id: [max] }] })).status];
      } finally {
        await srv.close();
      }
    };
    expect(await statuses(undefined)).toEqual([200, 200, 200, 200]);
    expect(await statuses('guid-version-4')).toEqual([400, 400, 200, 400]);
  });

  it('createdon-local-time: createdon on the Paris wall clock; a time in the spring-forward gap moves an hour on', () => withVariant('createdon-local-time', async (srv, refs) => {
    const [c] = (await coupon(srv, refs, { startdate: '2024-03-31 02:30:00', enddate: '2024-03-31 12:00:00' })).body;
    expect(c.startdate).toBe('2024-03-31 03:30:00');
    expect(c.enddate).toBe('2024-03-31 12:00:00');
    const paris = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris', dateStyle: 'short', timeStyle: 'medium' }).format(new Date());
    expect(Math.abs(Date.parse(`${c.createdon.replace(' ', 'T')}Z`) - Date.parse(`${paris.replace(' ', 'T')}Z`))).toBeLessThan(60_000);
  }));

  it('date-only-whole-day: a date-only _max keeps the whole day', () => withVariant('date-only-whole-day', async (srv) => {
    const order = srv.snapshot().records.order.find((o) => !o.createdon.endsWith('00:00:00'))!;
    const day = order.createdon.slice(0, 10);
    expect((await call(srv, '/api/v1/orders/count', { filters: { id: [order.id], createdon_max: day } })).body.count).toBe('1');
    expect((await withDefault((d) => call(d, '/api/v1/orders/count', { filters: { id: [order.id], createdon_max: day } }))).body.count).toBe('0');
  }));

  it('ids-upper-case and id-filter-exact', async () => {
    await withVariant('ids-upper-case', async (srv) => {
      const [p] = (await call(srv, '/api/v1/products/get', { pagination: { pageSize: '1' } })).body;
      expect(p.id).toBe(p.id.toUpperCase());
      expect(p.categories[0].id).toBe(p.categories[0].id.toUpperCase());
      expect((await call(srv, '/api/v1/products/count', { filters: { id: [p.id.toLowerCase()] } })).body.count).toBe('1');
    });
    await withVariant('id-filter-exact', async (srv) => {
      const [p] = (await call(srv, '/api/v1/products/get', { pagination: { pageSize: '1' } })).body;
      expect((await call(srv, '/api/v1/products/count', { filters: { id: [p.id] } })).body.count).toBe('1');
      expect((await call(srv, '/api/v1/products/count', { filters: { id: [p.id.toUpperCase()] } })).body.count).toBe('0');
    });
  });

  it("json-text-html: text/html, non-ASCII as \\uXXXX and '/' as '\\/' (PHP's defaults)", () => withVariant('json-text-html', async (srv) => {
    const got = await call(srv, '/api/v1/products/get', { pagination: { pageSize: '3' } });
    expect(got.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(got.text).toMatch(/\\\//);
    expect(got.text).toMatch(/\\u00[0-9a-f]{2}/);
    expect(got.text).not.toMatch(/[^\x00-\x7f]/);
  }));
});

async function withDefault<T>(fn: (srv: ReferenceServer, refs: Record<string, string>) => Promise<T>): Promise<T> {
  const srv = await start();
  try {
    return await fn(srv, await referenceIds(srv));
  } finally {
    await srv.close();
  }
}
