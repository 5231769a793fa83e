/**
 * Deterministic, realistic seed data for the embedded reference server: a
 * bilingual (fr-CA / en-US) Québec store with every resource of §1 populated.
 *
 * Records are in the canonical "normalized" form agreed with the server, which
 * renders them per operation: every scalar a string, booleans 'true'/'false',
 * decimals with a dot, integers as digit strings, DateTime 'YYYY-MM-DD HH:MM:SS',
 * customer birthdate 'YYYY-MM-DD', sub-lists arrays of objects of strings, GUIDs
 * lowercase from the seeded stream (same seed, same data).
 *
 * Field coverage comes from the schema model (src/schema/model.ts): each record
 * holds exactly the fields of its resource's Record schema, in schema order. The
 * builders in ./seed/builders.ts give the values that must agree with each other
 * or point at other records; the producers below fill every other field by name
 * (id, author, createdon, slug, seo*, address blocks by prefix) and then by kind.
 */
import { schemaModel, type FieldModel, type SchemaModel } from '../src/schema/model.js';
import { BUILDERS, buildStore, type Builder } from './seed/builders.js';
import { Ctx, T0, T1, setHints, type Rec, type StateInfo, type World } from './seed/context.js';
import { clip, dateOnly, dateTime, fixed, slugify } from './seed/format.js';
import { REGIONS } from './seed/geo.js';
import { PERSON_FIELDS } from './seed/people.js';
import { Rng, hashString, seedWords } from './seed/rng.js';
import { STORE_NAME } from './seed/vocab.js';


export interface SeedOptions {
  /** the resource that gets `bigCount` records (over the get cap of §8); null: none. Default 'file'. */
  bigResource?: string | null;
  /** records of the big resource; default 1200 */
  bigCount?: number;
  /** the resources whose Record schemas the records complete (default: the schema model of schemas/) */
  model?: SchemaModel;
  /**
   * The seed data, in build order (every resource after the ones it references): default
   * BUILDERS (reference/seed/builders.ts). A resource added to the schemas is seeded by adding
   * its builder there; a test passes a list with one more.
   */
  builders?: ReadonlyArray<[string, Builder]>;
}

export interface SeedData {
  records: Record<string, Array<Record<string, any>>>;
  store: Record<string, any>;
}

/** Records per resource in a small store (each builder's count). */
export const DEFAULT_COUNTS: Readonly<Record<string, number>> = Object.fromEntries(BUILDERS.map(([name, b]) => [name, b.count]));

/** The resources seedData fills (every resource of §1 but the single store). */
export const SEEDED_RESOURCES: readonly string[] = BUILDERS.map(([name]) => name);

export function seedData(seed: number, opts: SeedOptions = {}): SeedData {
  const big = opts.bigResource === undefined ? 'file' : opts.bigResource;
  const bigCount = opts.bigCount ?? 1200;
  const builders = opts.builders ?? BUILDERS;
  const seeded = builders.map(([name]) => name);
  if (big !== null && !seeded.includes(big)) {
    throw new Error(`seedData: bigResource "${big}" is not a seeded resource (one of: ${seeded.join(', ')}; or null)`);
  }
  if (!Number.isInteger(bigCount) || bigCount < 0) throw new Error(`seedData: bigCount must be a non-negative integer, got ${bigCount}`);

  const sw = seedWords(seed);
  const models = new Map((opts.model ?? schemaModel()).resources.map((r) => [r.name, r]));
  const world = makeWorld(sw);
  for (const [name, builder] of builders) {
    const n = name === big ? bigCount : builder.count;
    const salt = hashString(name);
    const state = builder.prepare?.(world, n, new Rng(sw[0], sw[1], salt, 0xffffffff));
    const fields = models.get(name)?.fields;
    const slugs = new Set<string>();
    const out: Rec[] = [];
    world.records[name] = out; // visible (growing) to the builder through ctx.built
    for (let i = 0; i < n; i++) {
      const ctx = new Ctx(new Rng(sw[0], sw[1], salt, i), i, n, world, name, out, state);
      builder.build(ctx);
      out.push(complete(ctx, fields, slugs));
    }
    if (name === 'country') indexCountries(world);
    if (name === 'user') world.authors = out.map((u) => `${u.firstname} ${u.lastname}`);
  }

  const storeCtx = new Ctx(new Rng(sw[0], sw[1], hashString('store')), 0, 1, world, 'store', [], undefined);
  storeCtx.core = buildStore(world, storeCtx.rng);
  const store = complete(storeCtx, models.get('store')?.fields, new Set());
  return { records: world.records, store };
}

// ------------------------------------------------------------------ world

function makeWorld(sw: [number, number]): World {
  const salt = hashString('state');
  const states: StateInfo[] = REGIONS.map((r, k) => ({
    id: new Rng(sw[0], sw[1], salt, k).guid(),
    country: r.country,
    code: r.code,
    name: r.name,
    cities: r.cities,
  }));
  return {
    seedWords: sw,
    countries: [],
    countryByCode: new Map(),
    states,
    stateByKey: new Map(states.map((s) => [`${s.country}-${s.code}`, s])),
    statesCA: states.filter((s) => s.country === 'CA'),
    statesUS: states.filter((s) => s.country === 'US'),
    authors: [],
    startingOrderNumber: 1000 + 100 * new Rng(sw[0], sw[1], hashString('store-number')).int(0, 9),
    records: {},
    derived: new Map(),
  };
}

function indexCountries(world: World): void {
  world.countries = world.records.country;
  world.countryByCode = new Map(world.countries.map((c) => [c.code, c]));
  // states of countries that were not seeded cannot be referenced
  world.states = world.states.filter((s) => world.countryByCode.has(s.country));
  world.stateByKey = new Map(world.states.map((s) => [`${s.country}-${s.code}`, s]));
  world.statesCA = world.states.filter((s) => s.country === 'CA');
  world.statesUS = world.states.filter((s) => s.country === 'US');
}

// ------------------------------------------------------------------ schema pass

const PERSON_RE = new RegExp(`^(billing|shipping|appliesto)?(${PERSON_FIELDS.join('|')})$`);

/**
 * The record in schema order: the builder's value for a field when it gave one,
 * else a producer's. Builder hints (`_x` keys) are kept aside, never in the record.
 * Without a model (schema not there) the builder's fields are taken as they are.
 */
function complete(ctx: Ctx, fields: FieldModel[] | undefined, slugs: Set<string>): Rec {
  const core = ctx.core;
  const out: Rec = {};
  const hints: Rec = {};
  for (const k of Object.keys(core)) if (k.startsWith('_')) hints[k.slice(1)] = core[k];
  if (!fields) {
    for (const k of Object.keys(core)) if (!k.startsWith('_')) out[k] = core[k];
  } else {
    for (const f of fields) {
      let v = core[f.name];
      if (v === undefined) v = core[f.name] = produce(f, ctx, slugs);
      if (f.kind === 'array' && f.itemFields && Array.isArray(v)) v = v.map((item) => completeItem(item, f.itemFields!, ctx));
      out[f.name] = v;
    }
  }
  setHints(out, hints);
  return out;
}

function completeItem(item: Rec, fields: FieldModel[], ctx: Ctx): Rec {
  const out: Rec = {};
  for (const f of fields) out[f.name] = item[f.name] !== undefined ? item[f.name] : byKind(f, ctx);
  return out;
}

/** A value for a field the builder left out: by well-known name, then by kind. */
function produce(f: FieldModel, ctx: Ctx, slugs: Set<string>): unknown {
  const core = ctx.core;
  const label: string = core.name ?? core.title ?? core.code ?? '';
  switch (f.name) {
    case 'id':
      return ctx.id();
    case 'author':
      return ctx.author();
    case 'createdon':
      ctx.createdonSec();
      return core.createdon;
    case 'slug': {
      const base = slugify(label) || `item-${ctx.i + 1}`;
      let s = base;
      for (let k = 2; slugs.has(s); k++) s = `${base}-${k}`;
      slugs.add(s);
      return s;
    }
    case 'seopagetitle':
      return clip(`${label} | ${STORE_NAME}`, 70);
    case 'seopagedescription': {
      const text = String(core.description ?? core.content ?? label).replace(/<h\d>.*?<\/h\d>/g, ' ').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
      return clip(text, 160);
    }
    case 'seometakeywords': {
      const tags: string[] = Array.isArray(core.tags) ? core.tags.map((t: Rec) => t.tag) : [];
      const words = tags.length ? tags : slugify(label).split('-').filter((w) => w.length > 3);
      return [...new Set(words)].slice(0, 6).join(', ');
    }
  }
  const m = PERSON_RE.exec(f.name);
  if (m) {
    const v = ctx.persons[m[1] ?? '']?.[m[2] as keyof (typeof ctx.persons)[string]];
    if (v !== undefined) return v;
  }
  return byKind(f, ctx);
}

/** Any value of the field's kind, for fields no builder or name producer knows. */
function byKind(f: FieldModel, ctx: Ctx): unknown {
  const { rng } = ctx;
  switch (f.kind) {
    case 'guid': return rng.guid();
    case 'boolean': return rng.chance(0.5) ? 'true' : 'false';
    case 'integer': return String(rng.int(0, 100));
    case 'decimal': return fixed(rng.int(0, 10_000), 2);
    case 'datetime': return dateTime(rng.int(T0, T1));
    case 'date': return dateOnly(rng.int(T0, T1));
    case 'predefined': return f.knownValues?.length ? rng.pick(f.knownValues) : '';
    case 'string': return '';
    case 'array': return [];
    case 'object': {
      const o: Rec = {};
      for (const sub of f.objectFields ?? []) if (sub.required) o[sub.name] = byKind(sub, ctx);
      return o;
    }
    default: return '';
  }
}
