/**
 * One builder per resource: the fields that must agree with each other or point
 * at other seeded records (names and slugs, prices and totals, addresses,
 * references, versions). Every other field of the resource's Record schema is
 * filled by the engine in ../seed.ts from the schema model (id, author, createdon,
 * slug, seo*, address blocks by prefix, then per kind).
 */
import { ZERO_GUID, maxLengthOf, resource } from '../../src/schema/model.js';
import { Rng } from './rng.js';
import { Ctx, T0, T1, hint, poolIndex, type Rec, type World } from './context.js';
import {
  DAY, bool, clip, dateOnly, dateTime, ean13, epoch, fixed, fold, int, money, pad, slugify,
} from './format.js';
import { COUNTRIES } from './geo.js';
import { annotatedPhone, emailFor, makeAddress, makePerson, personName, type Person } from './people.js';
import {
  BLOG_SENTENCES, BLOG_TITLES, CATEGORIES, CDN, COLLECTIONS, COLORS, COUPONS, DURATIONS, FILE_SUBJECTS, FILE_TYPES,
  MATERIALS, PAGE_PARAGRAPHS, PAGES, PRODUCTS, PRODUCT_PHRASES, PRODUCT_QUALIFIERS, REVIEW_COMMENTS, SIZES,
  STAFF_EMAIL_DOMAIN, STORE_HOST, STORE_NAME, TAGS, VENDORS, type Lang,
} from './vocab.js';

/**
 * The seed data of one resource: how many records a small store holds, and how each is built.
 * A builder gives the values that must agree with each other or point at other records; the
 * schema pass of reference/seed.ts fills every other field of the resource's Record schema.
 */
export interface Builder<S = any> {
  /** records in a small store (the big resource gets Behaviour.bigCount instead) */
  count: number;
  /** once per resource, with a stream of its own (permutations, lookups) */
  prepare?(world: World, n: number, rng: Rng): S;
  build(ctx: Ctx<S>): void;
}

const numbered = (name: string, round: number) => (round === 0 ? name : `${name} ${round + 1}`);
const tagItems = (tags: string[]) => tags.map((tag) => ({ tag }));
const lang2 = (l: Lang, fr: string, en: string) => (l === 'fr' ? fr : en);

/** log-uniform integer in [lo, hi] */
function logInt(rng: Rng, lo: number, hi: number): number {
  return Math.round(Math.exp(Math.log(lo) + rng.float() * (Math.log(hi) - Math.log(lo))));
}

function uniqueIn(set: Set<string>, base: string, make: (n: number) => string): string {
  let v = base;
  for (let k = 2; set.has(v); k++) v = make(k);
  set.add(v);
  return v;
}

/** versions of a blog post or page: v1 at creation, later ones at update times; the last holds `content` */
function versions(ctx: Ctx, content: string, drafts: string[], order: 'oldest-first' | 'newest-first'): Rec[] {
  const { rng } = ctx;
  const count = rng.weighted([[1, 45], [2, 30], [3, 15], [4, 10]] as const);
  let t = ctx.createdonSec();
  const out: Rec[] = [];
  for (let v = 1; v <= count; v++) {
    if (v > 1) t = ctx.after(t, 3600, 60 * DAY);
    const c = v === count ? content : drafts[(v - 1) % drafts.length] + (v > 1 ? ` (v${v})` : '');
    out.push({ id: rng.guid(), content: c, version: int(v), createdon: dateTime(t) });
  }
  return order === 'oldest-first' ? out : out.reverse();
}

// ---------------------------------------------------------------- country

const country: Builder = {
  count: 30,
  build(ctx) {
    const { i } = ctx;
    const j = i - COUNTRIES.length;
    const c = COUNTRIES[i] ?? {
      // beyond the real list (big-country stores): made-up codes ZAA, ZAB, ... ZAA1 and names
      code: 'Z' + String.fromCharCode(65 + (Math.floor(j / 26) % 26), 65 + (j % 26)) + (j >= 676 ? String(Math.floor(j / 676)) : ''),
      name: `Territoire n° ${j + 1}`,
      currency: ctx.rng.pick(['EUR', 'USD', 'XOF', 'XAF', 'CHF']),
    };
    Object.assign(ctx.core, { id: ctx.id(), code: c.code, name: c.name, defaultcurrencycode: c.currency });
  },
};

// ---------------------------------------------------------------- user

const user: Builder<{ emails: Set<string> }> = {
  count: 20,
  prepare: () => ({ emails: new Set() }),
  build(ctx) {
    const { rng, i } = ctx;
    const n = personName(rng);
    const email = uniqueIn(ctx.state.emails, emailFor(n.firstname, n.lastname, STAFF_EMAIL_DOMAIN),
      (k) => emailFor(n.firstname, n.lastname, STAFF_EMAIL_DOMAIN, k));
    const flip = rng.chance(0.2);
    const language = (n.lang === 'fr') !== flip ? 'fr-CA' : 'en-US';
    const addr = makeAddress(rng, ctx.world, n.lang);
    // the first user opened the store; later users were added by earlier ones
    const by = i > 0 ? ctx.built[rng.int(0, i - 1)] : undefined;
    Object.assign(ctx.core, {
      firstname: n.firstname,
      lastname: n.lastname,
      email,
      // every third member of the staff is reached at the store's line, by extension (no draw)
      phone: i % 3 === 1 ? annotatedPhone(addr.phone, n.lang, 'extension', i) : addr.phone,
      role: i === 0 || rng.chance(0.2) ? 'WEBSITE_ADMIN' : 'WEBSITE_USER',
      language,
      author: !by || rng.chance(0.1) ? '' : `${by.firstname} ${by.lastname}`,
    });
    if (i === 0) ctx.core.createdon = '2019-03-14 09:12:44';
  },
};

// ---------------------------------------------------------------- file

const file: Builder<{ perm: number[] }> = {
  count: 48,
  prepare: (_w, _n, rng) => ({ perm: rng.permutation(FILE_SUBJECTS.length) }),
  build(ctx) {
    const { rng, i } = ctx;
    const [ext, , lo, hi] = rng.weighted(FILE_TYPES.map((t) => [t, t[1]] as const));
    const subject = FILE_SUBJECTS[ctx.state.perm[i % FILE_SUBJECTS.length]];
    const name = rng.chance(0.12) && ['jpg', 'png', 'mp4'].includes(ext)
      ? `IMG_${pad(1000 + i, 4)}`
      : `${subject}-${pad(i + 1, 4)}`;
    const id = ctx.id();
    Object.assign(ctx.core, {
      name,
      extension: ext,
      url: `${CDN}/files/${id.slice(0, 8)}/${slugify(name)}.${ext}`,
      size: int(logInt(rng, lo, hi)),
    });
  },
};

const IMAGE_EXT = new Set(['jpg', 'png', 'webp', 'gif']);
const imageFilesOf = (ctx: Ctx) => ctx.derived('image-files', () => ctx.records('file').filter((f) => IMAGE_EXT.has(f.extension)));

// ---------------------------------------------------------------- category, collection

function taxonomy(pool: Array<[string, Lang]>, kind: 'category' | 'collection', count: number): Builder<{ perm: number[] }> {
  return {
    count,
    prepare: (_w, _n, rng) => ({ perm: rng.permutation(pool.length) }),
    build(ctx) {
      const { idx, round } = poolIndex(ctx.state.perm, ctx.i);
      const [base, lang] = pool[idx];
      const name = numbered(base, round);
      const what = kind === 'category' ? lang2(lang, 'notre rayon', 'our') : lang2(lang, 'notre collection', 'our');
      const description = lang === 'fr'
        ? `Découvrez ${what} « ${name} » : des produits choisis avec soin par notre équipe de Montréal.`
        : `Shop ${what} ${name} ${kind === 'category' ? 'department' : 'collection'}, hand-picked by our team in Québec City.`;
      Object.assign(ctx.core, { name, description, _lang: lang });
    },
  };
}

// ---------------------------------------------------------------- customer

const customer: Builder<{ emails: Set<string> }> = {
  count: 50,
  prepare: () => ({ emails: new Set() }),
  build(ctx) {
    const { rng } = ctx;
    const p = makePerson(rng, ctx.world);
    const domain = p.email.split('@')[1];
    p.email = uniqueIn(ctx.state.emails, p.email, (k) => emailFor(p.firstname, p.lastname, domain, k));
    // every fourth customer's phone has an extension, and another's cellphone a note (no draw: the rest of the data stays as it was)
    if (ctx.i % 4 === 1) p.phone = annotatedPhone(p.phone, p.lang, 'extension', ctx.i);
    if (ctx.i % 4 === 3) p.cellphone = annotatedPhone(p.cellphone, p.lang, 'note', ctx.i);
    ctx.persons[''] = p;
    const guest = rng.chance(0.2);
    Object.assign(ctx.core, {
      birthdate: dateOnly(epoch('1942-01-01') + rng.int(0, 64 * 365) * DAY),
      credit: rng.chance(0.75) ? '0.00' : money(rng.int(5, 250) * 100 + rng.pick([0, 0, 50, 99])),
      guest: bool(guest),
      confirmed: bool(guest ? rng.chance(0.1) : rng.chance(0.85)),
      _lang: p.lang,
    });
  },
};

// ---------------------------------------------------------------- product

interface ProductState { perm: number[]; offsets: number[]; low: number; high: number; skus: Set<string> }

/** Each base name first plain, then with each qualifier once (order shuffled per base), then numbered. */
function productName(state: ProductState, i: number): { name: string; base: string; lang: Lang } {
  const B = PRODUCTS.length, Q = PRODUCT_QUALIFIERS.length;
  const baseIdx = state.perm[i % B];
  const lap = Math.floor(i / B);
  const [base, lang] = PRODUCTS[baseIdx];
  const l = lap % Q;
  const qualifier = l === 0 ? '' : PRODUCT_QUALIFIERS[1 + ((l - 1 + state.offsets[baseIdx]) % (Q - 1))];
  return { name: numbered(base + qualifier, Math.floor(lap / Q)), base, lang };
}

/**
 * Price and discount in cents: mostly 2..250 $, a tail up to 9999.99 (log-uniform pieces) with
 * shop-like endings; the extremes 0.50 and 9999.99 are always present.
 */
function productPricing(rng: Rng, i: number, state: ProductState): { cents: number; discounted: boolean; discountCents: number } {
  let cents: number;
  if (i === state.low) cents = 50;
  else if (i === state.high) cents = 999_999;
  else {
    const [lo, hi] = rng.weighted([[[0.5, 5], 10], [[5, 250], 65], [[250, 2500], 18], [[2500, 9999.99], 7]] as const);
    const dollars = Math.exp(Math.log(lo) + rng.float() * (Math.log(hi) - Math.log(lo)));
    cents = dollars < 5 ? Math.round(dollars * 100) : Math.floor(dollars) * 100 + rng.pick([99, 99, 95, 0, 50, 49, rng.int(0, 99)]);
    cents = Math.min(999_999, Math.max(50, cents));
  }
  const discounted = rng.chance(0.35);
  const discountCents = discounted ? Math.max(1, Math.min(cents - 1, Math.round(cents * (0.6 + 0.3 * rng.float())))) : 0;
  return { cents, discounted, discountCents };
}

/** Weight (2 digits with 2 decimals, in hundredths: 0.00..99.99), minbuy and maxbuy. */
function productMeasures(rng: Rng): { weight: number; minbuy: number; maxbuy: number } {
  const weight = rng.chance(0.04) ? 0 : rng.chance(0.03) ? 9999 : logInt(rng, 5, 4500);
  const minbuy = rng.weighted([[1, 80], [2, 10], [6, 5], [12, 5]] as const);
  const maxbuy = rng.chance(0.5) ? 0 : Math.max(minbuy, rng.pick([5, 10, 12, 24, 50, 99, 100]));
  return { weight, minbuy, maxbuy };
}

/** A SKU unique in the store (initials of the base name and the position) and an EAN-13 barcode, sometimes none. */
function productCodes(rng: Rng, state: ProductState, base: string, i: number): { sku: string; barcode: string } {
  const initials = fold(base).toUpperCase().split(/[^A-Z0-9]+/).filter(Boolean).slice(0, 3).map((w) => w[0]).join('');
  const sku = uniqueIn(state.skus, `${initials}-${pad(i + 1, 4)}`, (k) => `${initials}-${pad(i + 1, 4)}-${k}`);
  const barcode = rng.chance(0.08) ? '' : ean13('754' + rng.digits(9));
  return { sku, barcode };
}

/** Images (seeded image files, ranked) and reviews by seeded customers, after the product's creation. */
function productMedia(ctx: Ctx<ProductState>, created: number): { images: Rec[]; reviews: Rec[] } {
  const { rng } = ctx;
  const imageFiles = imageFilesOf(ctx);
  const customers = ctx.records('customer');
  const images = rng.sample(imageFiles, rng.weighted([[0, 10], [1, 40], [2, 25], [3, 15], [4, 10]] as const))
    .map((f, r) => ({ id: rng.guid(), url: f.url, rank: int(r + 1) }));
  const reviews = (rng.chance(0.5) ? [] : rng.sample(customers, rng.int(1, 4))).map((c) => {
    const rl: Lang = rng.chance(0.7) ? 'fr' : 'en';
    return {
      id: rng.guid(),
      customerid: c.id,
      rating: int(rng.weighted([[5, 45], [4, 30], [3, 12], [2, 7], [1, 6]] as const)),
      comment: rng.pick(REVIEW_COMMENTS[rl]),
      createdon: dateTime(ctx.after(created, DAY, 400 * DAY)),
    };
  });
  return { images, reviews };
}

/** Variants (about half the products): 1-3 of one or two dimensions, each with its SKU, barcode and stock. */
function productVariants(rng: Rng, sku: string, barcode: string): Rec[] {
  const variants: Rec[] = [];
  if (!rng.chance(0.45)) return variants;
  const dims = rng.sample(['color', 'size', 'material', 'duration'] as const, rng.chance(0.7) ? 1 : 2);
  const k = rng.int(1, 3);
  const values = {
    color: rng.sample(COLORS, k), size: rng.sample(SIZES, k), material: rng.sample(MATERIALS, k), duration: rng.sample(DURATIONS, k),
  };
  for (let v = 0; v < k; v++) {
    const vr: Rec = { id: rng.guid(), color: '', size: '', material: '', duration: '' };
    for (const d of dims) vr[d] = values[d][v];
    vr.sku = `${sku}-${v + 1}`;
    vr.barcode = barcode && rng.chance(0.8) ? ean13('754' + rng.digits(9)) : '';
    vr.quantity = int(rng.chance(0.15) ? 0 : rng.int(1, 120));
    vr.displayname = dims.map((d) => vr[d]).join(' / ');
    variants.push(vr);
  }
  return variants;
}

const product: Builder<ProductState> = {
  count: 60,
  prepare: (_w, n, rng) => {
    const perm = rng.permutation(PRODUCTS.length);
    const offsets = PRODUCTS.map(() => rng.int(0, PRODUCT_QUALIFIERS.length - 2));
    const low = rng.int(0, n - 1);
    let high = rng.int(0, n - 1);
    if (high === low) high = (low + 1) % Math.max(n, 1);
    return { perm, offsets, low, high, skus: new Set() };
  },
  // every draw of the seeded stream in the order it always had: the data stays the same for a seed
  build(ctx) {
    const { rng, i, state } = ctx;
    const { name, base, lang } = productName(state, i);
    const vendor = rng.pick(VENDORS);
    const { cents, discounted, discountCents } = productPricing(rng, i, state);
    const { weight, minbuy, maxbuy } = productMeasures(rng);
    const { sku, barcode } = productCodes(rng, state, base, i);
    const phrases = rng.sample(PRODUCT_PHRASES[lang], 2);
    const description = lang === 'fr'
      ? `${name}, par ${vendor}. ${phrases.join(' ')}`
      : `${name} by ${vendor}. ${phrases.join(' ')}`;
    const created = ctx.createdonSec();
    const categories = ctx.records('category');
    const collections = ctx.records('collection');
    const { images, reviews } = productMedia(ctx, created);
    const tags = rng.sample(TAGS, rng.weighted([[0, 15], [1, 25], [2, 30], [3, 20], [4, 10]] as const));
    const variants = productVariants(rng, sku, barcode);

    Object.assign(ctx.core, {
      name,
      vendor,
      description,
      sku,
      barcode,
      taxable: bool(rng.chance(0.8)),
      discounted: bool(discounted),
      allowbuynostock: bool(rng.chance(0.25)),
      visible: bool(rng.chance(0.85)),
      price: money(cents),
      discountprice: money(discountCents),
      weight: fixed(weight, 2),
      minbuy: int(minbuy),
      maxbuy: int(maxbuy),
      quantity: int(rng.chance(0.12) ? 0 : logInt(rng, 1, 500)),
      size: int(rng.pick([0, 0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 36, 48, 100, 250, 500, 750, 1000])),
      nbsold: int(logInt(rng, 1, 5000) - 1),
      type: 'PHYSICAL',
      categories: rng.sample(categories, rng.weighted([[1, 60], [2, 30], [3, 10]] as const)).map((c) => ({ id: c.id, name: c.name })),
      collections: rng.sample(collections, rng.weighted([[0, 40], [1, 40], [2, 20]] as const)).map((c) => ({ id: c.id, name: c.name })),
      images,
      reviews,
      tags: tagItems(tags),
      variants,
      _lang: lang,
    });
  },
};

// ---------------------------------------------------------------- coupon

const coupon: Builder<{ perm: number[] }> = {
  count: 30,
  prepare: (_w, _n, rng) => ({ perm: rng.permutation(COUPONS.length) }),
  build(ctx) {
    const { rng } = ctx;
    const { idx, round } = poolIndex(ctx.state.perm, ctx.i);
    const [code, name, type] = COUPONS[idx];
    const start = rng.int(T0, T1);
    const fromCode = /(\d+)$/.exec(code);
    const amount = type === 'FREE_SHIPPING' ? 0
      : fromCode && Number(fromCode[1]) <= 100 ? Number(fromCode[1]) * 100
        : rng.pick([5, 10, 15, 20, 25, 50]) * 100;
    Object.assign(ctx.core, {
      createdon: dateTime(Math.max(T0, start - rng.int(0, 30 * DAY))),
      startdate: dateTime(start - (start % 3600)),
      enddate: rng.chance(0.1) ? '2099-12-31 23:59:59' : dateTime(start - (start % 3600) + rng.int(7, 365) * DAY - 1),
      code: round === 0 ? code : `${code}-${round + 1}`,
      type,
      name: numbered(name, round),
      discountamount: money(amount),
      minimumpurchase: money(rng.pick([0, 0, 25, 50, 75, 100, 150, 250]) * 100),
      limittotal: int(rng.pick([0, 0, 50, 100, 500, 1000])),
      limitcustomer: int(rng.pick([0, 1, 1, 2, 5])),
    });
  },
};

// ---------------------------------------------------------------- appliesto (tax, shipping, payment)

type Applies = { appliesto: 'EVERYWHERE' | 'COUNTRY' | 'STATE'; country?: string; states?: string[] };

function applyTo(ctx: Ctx, a: Applies): string[] {
  const c = a.country ? ctx.world.countryByCode.get(a.country) : undefined;
  ctx.core.appliesto = a.appliesto;
  ctx.persons.appliesto = a.appliesto === 'EVERYWHERE' || !c
    ? { countryid: ZERO_GUID, countrycode: '', countryname: '' }
    : { countryid: c.id, countrycode: c.code, countryname: c.name };
  return a.appliesto === 'STATE'
    ? (a.states ?? []).map((s) => ctx.world.stateByKey.get(`${a.country}-${s}`)?.id).filter((x): x is string => !!x)
    : [];
}

// ---------------------------------------------------------------- tax

const TAXES: Array<[string, string, number, Applies]> = [
  // [name, registration numbers, rate in thousandths of a percent, applies to]
  ['TPS', 'TPS : 123456789 RT0001', 5000, { appliesto: 'COUNTRY', country: 'CA' }],
  ['TVQ', 'TVQ : 1234567890 TQ0001', 9975, { appliesto: 'STATE', country: 'CA', states: ['QC'] }],
  ['TPS + TVQ', 'TPS : 123456789 RT0001 / TVQ : 1234567890 TQ0001', 14975, { appliesto: 'STATE', country: 'CA', states: ['QC'] }],
  ['TVH Ontario', 'TVH : 123456789 RT0001', 13000, { appliesto: 'STATE', country: 'CA', states: ['ON'] }],
  ['TVH Nouvelle-Écosse', 'TVH : 123456789 RT0001', 14000, { appliesto: 'STATE', country: 'CA', states: ['NS'] }],
  ['TVH Atlantique', 'TVH : 123456789 RT0001', 15000, { appliesto: 'STATE', country: 'CA', states: ['NB', 'PE', 'NL'] }],
  ['TVP Colombie-Britannique', 'PST-1234-5678', 7000, { appliesto: 'STATE', country: 'CA', states: ['BC'] }],
  ['TVP Saskatchewan', '', 6000, { appliesto: 'STATE', country: 'CA', states: ['SK'] }],
  ['TVD Manitoba', 'RST 123456-7', 7000, { appliesto: 'STATE', country: 'CA', states: ['MB'] }],
  ['TPS seulement (Alberta, territoires)', 'TPS : 123456789 RT0001', 5000, { appliesto: 'STATE', country: 'CA', states: ['AB', 'YT'] }],
  ['New York State sales tax', 'NY-ST-120 884421', 4000, { appliesto: 'STATE', country: 'US', states: ['NY'] }],
  ['New York City combined sales tax', 'NY-ST-120 884421', 8875, { appliesto: 'STATE', country: 'US', states: ['NY'] }],
  ['Vermont sales tax', 'VT 0042-1187', 6000, { appliesto: 'STATE', country: 'US', states: ['VT'] }],
  ['Maine sales tax', '', 5500, { appliesto: 'STATE', country: 'US', states: ['ME'] }],
  ['Massachusetts sales tax', 'MA-ST 88-31', 6250, { appliesto: 'STATE', country: 'US', states: ['MA'] }],
  ['New Hampshire (no sales tax)', '', 0, { appliesto: 'STATE', country: 'US', states: ['NH'] }],
  ['California sales tax', 'CDTFA 102-887761', 7250, { appliesto: 'STATE', country: 'US', states: ['CA'] }],
  ['Florida sales tax', '', 6000, { appliesto: 'STATE', country: 'US', states: ['FL'] }],
  ['Louisiana sales tax', '', 4450, { appliesto: 'STATE', country: 'US', states: ['LA'] }],
  ['Illinois / Texas / Washington', '', 6250, { appliesto: 'STATE', country: 'US', states: ['IL', 'TX', 'WA'] }],
  ['US sales tax (other states)', 'EIN 12-3456789', 6000, { appliesto: 'COUNTRY', country: 'US' }],
  ['TVA France', 'FR 12 345678901', 20000, { appliesto: 'COUNTRY', country: 'FR' }],
  ['TVA réduite France', 'FR 12 345678901', 5500, { appliesto: 'COUNTRY', country: 'FR' }],
  ['TVA Belgique', 'BE 0123.456.789', 21000, { appliesto: 'COUNTRY', country: 'BE' }],
  ['TVA Suisse', 'CHE-123.456.789 TVA', 8100, { appliesto: 'COUNTRY', country: 'CH' }],
  ['Exportation – détaxé', '', 0, { appliesto: 'EVERYWHERE' }],
];

const tax: Builder = {
  count: 26,
  build(ctx) {
    const { idx, round } = poolIndex(TAXES.map((_, k) => k), ctx.i);
    const [name, numbers, rate, applies] = TAXES[idx];
    const list = applyTo(ctx, applies);
    Object.assign(ctx.core, { name: numbered(name, round), numbers, rate: fixed(rate, 3), appliestolist: list });
  },
};

// ---------------------------------------------------------------- shipping method

interface Carrier { code: string; name: string; logo: string; options: Array<[string, string]> }
const CARRIERS: Record<string, Carrier> = {
  CANADAPOST: { code: 'CANADAPOST', name: 'Postes Canada', logo: 'postes-canada', options: [['DOM.RP', 'Colis standard'], ['DOM.EP', 'Colis accélérés'], ['DOM.XP', 'Xpresspost'], ['DOM.PC', 'Priorité']] },
  PUROLATOR: { code: 'PUROLATOR', name: 'Purolator', logo: 'purolator', options: [['PurolatorGround', 'Purolator Ground'], ['PurolatorExpress', 'Purolator Express']] },
  UPS: { code: 'UPS', name: 'UPS', logo: 'ups', options: [['11', 'UPS Standard'], ['65', 'UPS Express Saver'], ['03', 'UPS Ground']] },
  FEDEX: { code: 'FEDEX', name: 'FedEx', logo: 'fedex', options: [['FEDEX_GROUND', 'FedEx Ground'], ['INTERNATIONAL_ECONOMY', 'FedEx International Economy']] },
};

const SHIPPINGS: Array<[string, 'REALTIME' | 'PICKUP', string | null, Applies]> = [
  ['Ramassage en boutique – Montréal', 'PICKUP', null, { appliesto: 'STATE', country: 'CA', states: ['QC'] }],
  ['Postes Canada – Colis accélérés', 'REALTIME', 'CANADAPOST', { appliesto: 'COUNTRY', country: 'CA' }],
  ['Ramassage en boutique – Québec', 'PICKUP', null, { appliesto: 'STATE', country: 'CA', states: ['QC'] }],
  ['Postes Canada – Xpresspost', 'REALTIME', 'CANADAPOST', { appliesto: 'COUNTRY', country: 'CA' }],
  ['Ramassage en boutique – Trois-Rivières', 'PICKUP', null, { appliesto: 'STATE', country: 'CA', states: ['QC'] }],
  ['Purolator Ground', 'REALTIME', 'PUROLATOR', { appliesto: 'COUNTRY', country: 'CA' }],
  ['UPS Standard (États-Unis)', 'REALTIME', 'UPS', { appliesto: 'COUNTRY', country: 'US' }],
  ['Cueillette à l’entrepôt de Lévis', 'PICKUP', null, { appliesto: 'STATE', country: 'CA', states: ['QC'] }],
  ['FedEx International Economy', 'REALTIME', 'FEDEX', { appliesto: 'EVERYWHERE' }],
  ['Postes Canada – Priorité', 'REALTIME', 'CANADAPOST', { appliesto: 'STATE', country: 'CA', states: ['QC', 'ON', 'NB'] }],
  ['Store pickup – Burlington, VT', 'PICKUP', null, { appliesto: 'STATE', country: 'US', states: ['VT'] }],
  ['UPS Express Saver', 'REALTIME', 'UPS', { appliesto: 'EVERYWHERE' }],
  ['Purolator Express', 'REALTIME', 'PUROLATOR', { appliesto: 'STATE', country: 'CA', states: ['QC', 'ON'] }],
  ['FedEx Ground (US)', 'REALTIME', 'FEDEX', { appliesto: 'COUNTRY', country: 'US' }],
  ['Ramassage – marché Jean-Talon', 'PICKUP', null, { appliesto: 'STATE', country: 'CA', states: ['QC'] }],
  ['Postes Canada – International', 'REALTIME', 'CANADAPOST', { appliesto: 'EVERYWHERE' }],
  ['UPS Ground – Ontario', 'REALTIME', 'UPS', { appliesto: 'STATE', country: 'CA', states: ['ON'] }],
  ['Livraison locale – Sherbrooke', 'PICKUP', null, { appliesto: 'STATE', country: 'CA', states: ['QC'] }],
  ['Colissimo via Postes Canada (France)', 'REALTIME', 'CANADAPOST', { appliesto: 'COUNTRY', country: 'FR' }],
  ['Ramassage en boutique – Gatineau', 'PICKUP', null, { appliesto: 'STATE', country: 'CA', states: ['QC'] }],
  ['FedEx Priority Overnight', 'REALTIME', 'FEDEX', { appliesto: 'COUNTRY', country: 'CA' }],
];

const shippingMethod: Builder = {
  count: 21,
  build(ctx) {
    const { rng } = ctx;
    const { idx, round } = poolIndex(SHIPPINGS.map((_, k) => k), ctx.i);
    const [name, type, carrierCode, applies] = SHIPPINGS[idx];
    const carrier = carrierCode ? CARRIERS[carrierCode] : undefined;
    const list = applyTo(ctx, applies);
    const logo = `${CDN.replace('https://', '')}/logos/${carrier?.logo ?? 'maison-boreale'}.png`;
    Object.assign(ctx.core, {
      name: numbered(name, round),
      type,
      handlingfee: type === 'PICKUP' ? (rng.chance(0.8) ? '0.00' : '1.50') : rng.pick(['0.00', '1.50', '2.00', '2.95', '4.95']),
      fixedtype: 'FLAT_ORDER',
      fixedamount: type === 'PICKUP' ? '0.00' : rng.pick(['0.00', '0.00', '5.95', '9.95', '12.50', '19.99']),
      appliestolist: list,
      taxable: bool(rng.chance(0.7)),
      realtime: carrier
        ? {
          provider: carrier.code,
          key: rng.hex(16),
          keyPassword: rng.hex(24),
          accountNumber: rng.digits(10),
          meterNumber: carrier.code === 'FEDEX' ? rng.digits(9) : '',
          serverType: 'PROD',
        }
        : {},
      logourl: `http://${logo}`,
      logourlsecure: rng.chance(0.3) ? '' : `https://${logo}`,
      _carrier: carrier,
    });
  },
};

// ---------------------------------------------------------------- payment method

const PAYMENTS: Array<[string, Applies, string[]?]> = [
  ['Virement bancaire', { appliesto: 'EVERYWHERE' }, ['']],
  ['Virement Interac', { appliesto: 'COUNTRY', country: 'CA' }],
  ['Wire transfer – US customers', { appliesto: 'COUNTRY', country: 'US' }],
  ['Virement SEPA', { appliesto: 'COUNTRY', country: 'FR' }],
  ['Virement – clients du Québec', { appliesto: 'STATE', country: 'CA', states: ['QC'] }],
  ['Virement international (SWIFT)', { appliesto: 'EVERYWHERE' }],
  ['Bank transfer', { appliesto: 'EVERYWHERE' }, ['']],
  ['Virement – grossistes', { appliesto: 'COUNTRY', country: 'CA' }],
  ['Dépôt direct – Desjardins', { appliesto: 'STATE', country: 'CA', states: ['QC', 'ON'] }],
  ['Wire transfer (USD)', { appliesto: 'STATE', country: 'US', states: ['NY', 'VT', 'ME'] }],
  ['Virement bancaire Belgique', { appliesto: 'COUNTRY', country: 'BE' }],
  ['Virement postal Suisse', { appliesto: 'COUNTRY', country: 'CH' }],
  ['Virement – Maritimes', { appliesto: 'STATE', country: 'CA', states: ['NB', 'NS', 'PE'] }],
  ['Wire transfer – wholesale', { appliesto: 'EVERYWHERE' }, ['']],
  ['Virement Interac – Montréal', { appliesto: 'STATE', country: 'CA', states: ['QC'] }],
  ['Virement – Ouest canadien', { appliesto: 'STATE', country: 'CA', states: ['AB', 'BC', 'SK', 'MB'] }],
  ['Virement bancaire (EUR)', { appliesto: 'EVERYWHERE' }],
  ['Wire transfer – New England', { appliesto: 'STATE', country: 'US', states: ['VT', 'ME', 'MA', 'NH'] }],
  ['Virement – Ontario', { appliesto: 'STATE', country: 'CA', states: ['ON'] }],
  ['Virement – boutiques partenaires', { appliesto: 'EVERYWHERE' }],
  ['Virement – entreprises', { appliesto: 'COUNTRY', country: 'CA' }],
];

const paymentMethod: Builder = {
  count: 21,
  build(ctx) {
    const { idx, round } = poolIndex(PAYMENTS.map((_, k) => k), ctx.i);
    const [name, applies, explicit] = PAYMENTS[idx];
    const list = applyTo(ctx, applies);
    Object.assign(ctx.core, {
      name: numbered(name, round),
      type: 'WIRE',
      // array of String; an empty string where the sample shows one
      appliestolist: explicit ?? list,
      instant: {},
    });
  },
};

// ---------------------------------------------------------------- blog post

const blogPost: Builder<{ perm: number[] }> = {
  count: 24,
  prepare: (_w, _n, rng) => ({ perm: rng.permutation(BLOG_TITLES.length) }),
  build(ctx) {
    const { rng } = ctx;
    const { idx, round } = poolIndex(ctx.state.perm, ctx.i);
    const [base, lang] = BLOG_TITLES[idx];
    const title = numbered(base, round);
    const para = () => `<p>${rng.sample(BLOG_SENTENCES[lang], 2).join(' ')}</p>`;
    // blog content is limited in the payload (§4: String, max 255), so the seed stays within it
    const max = maxLengthOf(resource('blog-post').payload.find((p) => p.name === 'content')!);
    const content = clip(`<h2>${title}</h2>${para()}${para()}`, max);
    const drafts = [clip(`<h2>${title}</h2>${para()}`, max), clip(`<p>${lang2(lang, 'Brouillon', 'Draft')} : ${title}</p>`, max)];
    const created = ctx.createdonSec();
    const visibleFrom = ctx.after(created, 0, 20 * DAY);
    const comments = rng.chance(0.65) ? [] : Array.from({ length: rng.int(1, 3) }, () => {
      const p = personName(rng);
      return {
        id: rng.guid(),
        author: `${p.firstname} ${p.lastname[0]}.`,
        content: rng.pick(REVIEW_COMMENTS[p.lang]) || lang2(p.lang, 'Merci !', 'Thanks!'),
        createdon: dateTime(ctx.after(visibleFrom, 3600, 90 * DAY)),
      };
    });
    Object.assign(ctx.core, {
      title,
      content,
      visible: bool(rng.chance(0.75)),
      visibledate: dateTime(visibleFrom),
      visibledateend: rng.chance(0.2) ? '2099-12-31 23:59:59' : dateTime(visibleFrom + rng.int(180, 3 * 365) * DAY),
      tags: tagItems(rng.sample(TAGS, rng.int(0, 4))),
      versions: versions(ctx, content, drafts, 'oldest-first'),
      comments,
      _lang: lang,
    });
  },
};

// ---------------------------------------------------------------- page

const page: Builder<{ perm: number[] }> = {
  count: 20,
  prepare: (_w, n, rng) => {
    const perm = rng.permutation(PAGES.length);
    // the home page (pool entry 0) is always among the seeded pages
    const at = perm.indexOf(0);
    const limit = Math.min(n, perm.length);
    if (limit > 0 && at >= limit) {
      const j = rng.int(0, limit - 1);
      [perm[at], perm[j]] = [perm[j], perm[at]];
    }
    return { perm };
  },
  build(ctx) {
    const { rng } = ctx;
    const { idx, round } = poolIndex(ctx.state.perm, ctx.i);
    const [base, lang, secured] = PAGES[idx];
    const title = numbered(base, round);
    const paras = PAGE_PARAGRAPHS[lang];
    let content = `<h1>${title}</h1>` + rng.sample(paras, rng.int(2, 4)).map((p) => `<p>${p}</p>`).join('');
    if (/Conditions|Privacy|confidentialité/.test(base)) {
      // a long legal page (page content allows 65535 characters)
      const sections: string[] = [];
      for (let s = 1; s <= 40; s++) sections.push(`<h2>${lang2(lang, 'Article', 'Section')} ${s}</h2><p>${paras[s % paras.length]} ${paras[(s * 7) % paras.length]}</p>`);
      content += sections.join('');
    }
    const images = imageFilesOf(ctx);
    ctx.createdonSec();
    Object.assign(ctx.core, {
      title,
      content,
      homepage: bool(idx === 0 && round === 0),
      secured: bool(secured),
      backgroundfileid: images.length && rng.chance(0.45) ? rng.pick(images).id : ZERO_GUID,
      versions: versions(ctx, content, [`<h1>${title}</h1><p>${paras[0]}</p>`, `<h1>${title}</h1>`], 'newest-first'),
      _lang: lang,
    });
  },
};

// ---------------------------------------------------------------- order

interface OrderState { customersByTime: Rec[]; times: number[] }

const NOTES = ['', '', '', 'Laisser le colis à la porte arrière, svp.', 'Emballage cadeau, s’il vous plaît !', 'Please ring twice.', 'Livrer après 17 h.', 'Merci !'];

function trackingFor(rng: Rng, c: Carrier): { trackingnumber: string; trackingurl: string } {
  switch (c.code) {
    case 'CANADAPOST': { const n = rng.digits(16); return { trackingnumber: n, trackingurl: `https://www.canadapost-postescanada.ca/track-reperage/fr#/search?searchFor=${n}` }; }
    case 'UPS': { const n = '1Z' + rng.hex(6).toUpperCase() + rng.digits(10); return { trackingnumber: n, trackingurl: `https://www.ups.com/track?tracknum=${n}` }; }
    case 'FEDEX': { const n = rng.digits(12); return { trackingnumber: n, trackingurl: `https://www.fedex.com/fedextrack/?trknbr=${n}` }; }
    default: { const n = rng.digits(12); return { trackingnumber: n, trackingurl: `https://www.purolator.com/fr/expedition/suivi?pin=${n}` }; }
  }
}

/** the methods whose appliesto covers the address (all of them when none does) */
function applicable(methods: Rec[], p: Person): Rec[] {
  const ok = methods.filter((m) =>
    m.appliesto === 'EVERYWHERE' ||
    (m.appliesto === 'COUNTRY' && m.appliestocountryid === p.countryid) ||
    (m.appliesto === 'STATE' && m.appliestocountryid === p.countryid && (m.appliestolist.includes(p.stateid) || m.appliestolist.includes(''))));
  return ok.length ? ok : methods;
}

function personOf(rec: Rec): Person {
  const p: Rec = { lang: hint(rec, 'lang') ?? 'fr' };
  for (const k of ['firstname', 'lastname', 'email', 'phone', 'cellphone', 'company', 'addressline1', 'addressline2', 'city', 'postalcode', 'countryid', 'countrycode', 'countryname', 'stateid', 'statecode', 'statename']) p[k] = rec[k];
  return p as Person;
}

/** When the order was placed: creation time grows with i (numbers follow it), a few ties with the order before. */
function orderCreated(ctx: Ctx<OrderState>): number {
  const { rng, i, n } = ctx;
  const step = (T1 - T0) / Math.max(n, 1);
  const prev = ctx.built[i - 1]?.createdon;
  const created = prev && rng.chance(0.05) ? epoch(prev) : Math.floor(T0 + i * step + rng.float() * step * 0.8);
  ctx.core.createdon = dateTime(created);
  return created;
}

interface OrderPeople { cust: Rec | undefined; buyer: Person; billing: Person; shipping: Person; billingsame: boolean; shippingsame: boolean }

/** The buyer (a customer who existed when the order was placed) and the billing and shipping addresses. */
function orderPeople(ctx: Ctx<OrderState>, created: number): OrderPeople {
  const { rng, world, state } = ctx;
  let hi = 0;
  while (hi < state.times.length && state.times[hi] <= created) hi++;
  const cust = state.customersByTime.length ? state.customersByTime[hi > 0 ? rng.int(0, hi - 1) : rng.int(0, state.customersByTime.length - 1)] : undefined;
  const buyer: Person = cust ? personOf(cust) : makePerson(rng, world);
  const billingsame = rng.chance(0.75);
  const billing: Person = billingsame ? buyer : { ...buyer, ...makeAddress(rng, world, buyer.lang), email: buyer.email };
  const shippingsame = rng.chance(0.65);
  const shipping: Person = shippingsame ? billing : makePerson(rng, world);
  ctx.persons.billing = billing;
  ctx.persons.shipping = shipping;
  return { cust, buyer, billing, shipping, billingsame, shippingsame };
}

/** 1-4 items of seeded products (a variant of one now and then), at the price the product sells for. */
function orderItems(ctx: Ctx<OrderState>): Rec[] {
  const { rng } = ctx;
  return rng.sample(ctx.records('product'), rng.weighted([[1, 45], [2, 30], [3, 15], [4, 10]] as const)).map((p) => {
    const variant = p.variants.length && rng.chance(0.7) ? rng.pick<Rec>(p.variants) : undefined;
    const unit = p.discounted === 'true' ? p.discountprice : p.price;
    return {
      id: rng.guid(),
      productid: p.id,
      productvariantid: variant?.id ?? ZERO_GUID,
      itemname: variant ? `${p.name} – ${variant.displayname}` : p.name,
      unitprice: unit,
      sku: variant?.sku ?? p.sku,
      quantity: int(rng.weighted([[1, 70], [2, 20], [3, 6], [5, 4]] as const)),
    };
  });
}

const cents = (s: string) => Math.round(Number(s) * 100);

interface OrderShipping { sm: Rec | undefined; carrier: Carrier | undefined; totalshipping: number; option: [string, string] }

/** A shipping method that serves the address, its carrier and option, and what shipping costs (nothing with a free-shipping coupon). */
function orderShipping(ctx: Ctx<OrderState>, shipping: Person, cp: Rec | undefined): OrderShipping {
  const { rng } = ctx;
  const ships = applicable(ctx.records('shipping-method'), shipping);
  const sm = ships.length ? rng.pick(ships) : undefined;
  const carrier: Carrier | undefined = sm ? hint(sm, 'carrier') : undefined;
  let totalshipping = 0;
  let option: [string, string] = ['', ''];
  if (sm && sm.type === 'REALTIME') {
    const fixedAmt = cents(sm.fixedamount);
    totalshipping = (fixedAmt > 0 ? fixedAmt : rng.int(850, 4500)) + cents(sm.handlingfee);
    if (carrier) option = rng.pick(carrier.options);
  } else if (sm) totalshipping = cents(sm.handlingfee);
  if (cp && cp.type === 'FREE_SHIPPING') totalshipping = 0;
  return { sm, carrier, totalshipping, option };
}

/** The tax of the shipping address (its state, else its country, else everywhere): its rate in thousandths of a percent. */
function orderTax(ctx: Ctx<OrderState>, shipping: Person): { tx: Rec | undefined; rate: number } {
  const taxes = ctx.records('tax');
  const candidates = [
    taxes.filter((t) => t.appliesto === 'STATE' && t.appliestolist.includes(shipping.stateid)),
    taxes.filter((t) => t.appliesto === 'COUNTRY' && t.appliestocountryid === shipping.countryid),
    taxes.filter((t) => t.appliesto === 'EVERYWHERE'),
  ].find((c) => c.length > 0);
  const tx = candidates && ctx.rng.chance(0.92) ? ctx.rng.pick(candidates) : undefined;
  return { tx, rate: tx ? Math.round(Number(tx.rate) * 1000) : 0 };
}

/** The payment, tracking and history sub-lists of an order (the seeded stream draws them in this order). */
function orderEvents(ctx: Ctx<OrderState>, created: number, pm: Rec | undefined, carrier: Carrier | undefined, customerid: string, total: number, fr: boolean): Rec {
  const { rng } = ctx;
  return {
    payments: pm
      ? [{
        id: rng.guid(), customerid, type: pm.type, amount: money(total),
        trxid: `TRX-${rng.digits(10)}`, methodid: pm.id, createdon: dateTime(ctx.after(created, 60, 2 * DAY)),
      }]
      : [],
    trackings: carrier
      ? [{ id: rng.guid(), ...trackingFor(rng, carrier), providertype: carrier.code, providername: carrier.name, createdon: dateTime(ctx.after(created, 3600, 3 * DAY)) }]
      : [],
    histories: rng.chance(0.5) ? [] : [{
      status: 'COMPLETED', createdon: dateTime(ctx.after(created, 600, 5 * DAY)), comment: fr ? 'Commande complétée' : 'Order completed',
    }],
  };
}

const order: Builder<OrderState> = {
  count: 60,
  prepare: (world) => {
    const customersByTime = (world.records.customer ?? []).slice().sort((a, b) => (a.createdon < b.createdon ? -1 : a.createdon > b.createdon ? 1 : 0));
    return { customersByTime, times: customersByTime.map((c) => epoch(c.createdon)) };
  },
  // every draw of the seeded stream in the order it always had: the data stays the same for a seed
  build(ctx) {
    const { rng, i, world } = ctx;
    const created = orderCreated(ctx);
    const { cust, buyer, billing, shipping, billingsame, shippingsame } = orderPeople(ctx, created);
    const items = orderItems(ctx);
    const totalprice = items.reduce((s, it) => s + cents(it.unitprice) * Number(it.quantity), 0);
    const coupons = ctx.records('coupon');
    const cp = coupons.length && rng.chance(0.25) ? rng.pick(coupons) : undefined;
    const discount = cp && cp.type === 'AMOUNT_ORDER' ? cents(cp.discountamount) : 0;
    const totaldiscount = Math.min(discount, totalprice);
    const { sm, carrier, totalshipping, option } = orderShipping(ctx, shipping, cp);
    const { tx, rate } = orderTax(ctx, shipping);
    const totaltaxes = Math.round(((totalprice - totaldiscount) * rate) / 100_000);
    const totalshippingtaxes = sm && sm.taxable === 'true' ? Math.round((totalshipping * rate) / 100_000) : 0;
    const total = totalprice - totaldiscount + totaltaxes + totalshipping + totalshippingtaxes;
    const pms = applicable(ctx.records('payment-method'), billing);
    const pm = pms.length ? rng.pick(pms) : undefined;
    const customerid = cust?.id ?? ZERO_GUID;

    Object.assign(ctx.core, {
      customerid,
      fullname: `${buyer.firstname} ${buyer.lastname}`,
      number: int(world.startingOrderNumber + i),
      status: 'COMPLETED',
      total: money(total),
      totalprice: money(totalprice),
      totaltaxes: money(totaltaxes),
      totalshipping: money(totalshipping),
      totalshippingtaxes: money(totalshippingtaxes),
      totaldiscount: money(totaldiscount),
      discount: money(discount),
      taxid: tx?.id ?? ZERO_GUID,
      shippingid: sm?.id ?? ZERO_GUID,
      shippingname: sm?.name ?? '',
      shippingoption: option[0],
      shippingoptionname: option[1],
      couponid: cp?.id ?? ZERO_GUID,
      couponcode: cp?.code ?? '',
      paymentmethodid: pm?.id ?? ZERO_GUID,
      paymentmethodname: pm?.name ?? '',
      billingsame: bool(billingsame),
      shippingsame: bool(shippingsame),
      customernotes: rng.pick(NOTES),
      items,
      ...orderEvents(ctx, created, pm, carrier, customerid, total, buyer.lang === 'fr'),
      _lang: buyer.lang,
    });
  },
};

// ---------------------------------------------------------------- store

/** The store object (single). `apikey` is a placeholder the server replaces. */
export function buildStore(world: World, rng: Rng): Rec {
  const qc = world.stateByKey.get('CA-QC');
  const ca = world.countryByCode.get('CA');
  return {
    id: rng.guid(),
    name: STORE_NAME,
    maintenance: 'false',
    enableaccountcreate: 'true',
    enableproductpurchase: 'true',
    enableproductreview: 'true',
    enableguestcheckout: 'true',
    haslogo: 'true',
    smtpdefault: 'false',
    autobill: 'true',
    startingordernumber: int(world.startingOrderNumber),
    checkouttype: 'STANDARD',
    inventoryupdatetrigger: 'ORDER_COMPLETED',
    address: '4520, rue Saint-Denis',
    city: 'Montréal',
    countryid: ca?.id ?? ZERO_GUID,
    countrycode: 'CA',
    countryname: ca?.name ?? 'Canada',
    stateid: qc?.id ?? ZERO_GUID,
    statecode: 'QC',
    statename: 'Québec',
    postalcode: 'H2J 2L3',
    phone: '(514) 555-0142',
    apikey: 'to-be-set-by-server',
    smtpfrom: `boutique@${STORE_HOST}`,
    smtpserver: `smtp.${STORE_HOST}`,
    smtpport: '587',
    smtpusername: `boutique@${STORE_HOST}`,
    robotstxt: 'User-agent: *\nDisallow: /panier\nDisallow: /caisse\nSitemap: https://www.lamaisonboreale.example/sitemap.xml',
    analyticstracking: "<script async src=\"https://www.googletagmanager.com/gtag/js?id=G-BOREALE01\"></script><script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());gtag('config','G-BOREALE01');</script>",
    conversiontracking: '',
    orderconfirmationtemplateid: rng.guid(),
    orderstatustemplateid: rng.guid(),
    newaccounttemplateid: rng.guid(),
    newordertemplateid: rng.guid(),
    newcustomertemplateid: rng.guid(),
    facebookurl: 'https://www.facebook.com/lamaisonboreale.example',
    twitterurl: 'https://twitter.com/maisonboreale_ex',
    youtubeurl: 'https://www.youtube.com/@lamaisonboreale-example',
    thumblrurl: '',
    pinteresturl: 'https://www.pinterest.ca/lamaisonboreale_example/',
    trialexpireson: '2019-04-13 09:12:44',
    lastbilledon: dateTime(epoch('2025-06-01 04:00:00') + rng.int(0, 3600)),
    createdon: '2019-03-14 09:12:44',
  };
}

/** build order: every resource comes after the ones it references */
export const BUILDERS: Array<[string, Builder]> = [
  ['country', country],
  ['user', user],
  ['file', file],
  ['category', taxonomy(CATEGORIES, 'category', 24)],
  ['collection', taxonomy(COLLECTIONS, 'collection', 20)],
  ['customer', customer],
  ['product', product],
  ['coupon', coupon],
  ['tax', tax],
  ['shipping-method', shippingMethod],
  ['payment-method', paymentMethod],
  ['blog-post', blogPost],
  ['page', page],
  ['order', order],
];

