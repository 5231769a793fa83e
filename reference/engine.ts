/**
 * The reference server's API logic, independent of HTTP: routing, auth,
 * filters, pagination, ordering, create/update/delete, rendering. Everything
 * about fields, filters and payloads comes from the schema model
 * (src/schema/model.ts); the "not shown" choices come from Behaviour; the
 * faults bend the Pipeline hooks (pipeline.ts).
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  GET_CAP, INTEGER_DIGITS, ZERO_GUID, decimalLimitUnder, schemaModel, type SchemaModel,
  type DecimalLimit, type FieldModel, type Operation, type PayloadPropModel, type ResourceModel, type ScalarKind,
} from '../src/schema/model.js';
import { decimalWithin } from '../src/schema/ajv.js';
import type { Behaviour } from './behaviour.js';
import { astralColumn, collationKey, longTextColumn, normalizedColumn, textBytesRefusal, decimalScaleColumn, edgeSpaceColumn, emptyRefusal, integerColumn, integerSyntaxRefusal, guidVersionRefusal, timestampRefusal, storeNow, throughZone } from './readings.js';
import { composePipeline, requestContext, setRequestContext, type FaultHooks, type FilterSite, type Pipeline, type Rec, type StaleRead } from './pipeline.js';

const EPOCH = '1970-01-01 00:00:00';
/** pageNumber and pageSize: strings holding integers (§4) of at most the Integer digits (§8) */
const PAGINATION_INTEGER = new RegExp(`^-?[0-9]{1,${INTEGER_DIGITS}}$`);
/** the undocumented field added to every record when behaviour.extraFields is on */
export const EXTRA_FIELD = { name: 'internalref', value: 'undocumented' } as const;

export interface EngineData {
  records: Record<string, Rec[]>;
  store: Rec;
}

export interface EngineOptions {
  apiKey: string;
  behaviour: Behaviour;
  /** fault hook layers, in order */
  faults?: Array<Partial<FaultHooks>>;
  /** builds the initial data (called again by reset()) */
  data: () => EngineData;
  /** the resources it serves (default: the schema model of schemas/) */
  model?: SchemaModel;
}

export interface EngineRequest {
  method: string;
  /** path without query string */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** an update working from an earlier read (a concurrency fault, see pipeline.ts StaleRead) */
  stale?: StaleRead;
}

export interface EngineResponse {
  status: number;
  /** a JSON value, or a string for text bodies */
  body: unknown;
  contentType: 'application/json' | 'text/plain';
  headers?: Record<string, string>;
}

export interface Route { resource: ResourceModel; op: Operation }

export class ApiError extends Error {
  constructor(public status: number, public code: string, message: string, public details?: string[]) {
    super(message);
  }
}

function normDateTime(v: string): string {
  const s = String(v).replace('T', ' ');
  return s.length === 10 ? `${s} 00:00:00` : s;
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  const s = String(v ?? '').replace(',', '.');
  return s.trim() === '' ? NaN : Number(s);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The folded values of an array filter (lower-cased GUIDs; strings under the
 * store's collation), built once per request (the filter's array is one object
 * for every record it is matched against): an id filter of a thousand ids over
 * a thousand records stays linear.
 */
const folded = new WeakMap<readonly string[], Map<(s: string) => string, Set<string>>>();
function foldedSet(wanted: readonly string[], key: (s: string) => string): Set<string> {
  let byKey = folded.get(wanted);
  if (!byKey) folded.set(wanted, (byKey = new Map()));
  let set = byKey.get(key);
  if (!set) byKey.set(key, (set = new Set(wanted.map(key))));
  return set;
}
const lowerCase = (s: string) => s.toLowerCase();

// Stryker disable all: fault machinery (npm run mutation:engine mutates the API, not the switches that break it)
/** A GUID-shaped id numbered n within a resource (the id-counter fault). */
function numberedId(resource: string, n: number): string {
  const hex = createHash('sha256').update(`${resource}:${n}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
// Stryker restore all

function toTrueFalse(v: unknown): string {
  return v === true || v === 'true' || v === '1' || v === 1 ? 'true' : 'false';
}

function defaultFor(kind: FieldModel['kind'] | PayloadPropModel['kind']): any {
  switch (kind) {
    case 'array': case 'list': return [];
    case 'object': return {};
    case 'boolean': return 'false';
    case 'integer': case 'decimal': return '0';
    case 'guid': return ZERO_GUID;
    case 'datetime': return EPOCH;
    default: return '';
  }
}

type Form = 'get' | 'write';
type Renderer = (src: Rec) => Rec;

interface ResourceState {
  list: Rec[];
  byId: Map<string, Rec>;
  /** ordered view, rebuilt lazily after a change */
  sorted: Rec[] | null;
}

export class Engine {
  readonly pipeline: Pipeline;
  private state = new Map<string, ResourceState>();
  private store: Rec = {};
  private routes = new Map<string, Route>();
  private prefixes = new Map<string, ResourceModel>();
  private renderers = new Map<string, Renderer>();
  private fieldKinds = new Map<string, Map<string, FieldModel>>();
  private author = '';
  private readonly model: SchemaModel;

  constructor(private opts: EngineOptions) {
    this.model = opts.model ?? schemaModel();
    for (const r of this.model.resources) {
      this.prefixes.set(r.prefix, r);
      for (const op of r.operations) this.routes.set(`${r.prefix}/${op}`, { resource: r, op });
      this.fieldKinds.set(r.name, new Map(r.fields.map((f) => [f.name, f])));
    }
    this.pipeline = composePipeline(this.defaults(), opts.faults ?? []);
    this.load();
  }

  get behaviour(): Behaviour {
    return this.opts.behaviour;
  }

  /** How the store's collation folds a String for an array filter (undefined: exact). */
  get collation(): ((s: string) => string) | undefined {
    if (this.collationMemo === null) this.collationMemo = collationKey(this.opts.behaviour);
    return this.collationMemo;
  }
  private collationMemo: ((s: string) => string) | undefined | null = null;

  /** A GUID array filter: letter case ignored, or the id as written (idCase) compared exactly. */
  matchGuid(value: string, wanted: readonly string[]): boolean {
    if (this.behaviour.idFilterCase === 'insensitive') return foldedSet(wanted, lowerCase).has(value.toLowerCase());
    return wanted.includes(this.behaviour.idCase === 'upper' ? value.toUpperCase() : value);
  }

  /**
   * A lagging read replica (Behaviour.readLagMs): per resource, the states
   * after each write, oldest first, with when they were written; get and
   * count read the newest one at least readLagMs old. Records are replaced,
   * never changed in place, so a state is a copy of the list and the index.
   */
  private readonly replica = new Map<string, Array<{ at: number; state: ResourceState }>>();

  private replicate(r: ResourceModel, at: number): void {
    if (this.behaviour.readLagMs <= 0) return;
    const s = this.st(r);
    const states = this.replica.get(r.name) ?? [];
    states.push({ at, state: { list: [...s.list], byId: new Map(s.byId), sorted: null } });
    this.replica.set(r.name, states);
  }

  /** The state reads see: the primary, or the replica readLagMs behind it. */
  private readState(r: ResourceModel): ResourceState {
    const states = this.replica.get(r.name);
    if (!states?.length) return this.st(r);
    const cutoff = Date.now() - this.behaviour.readLagMs;
    let i = 0;
    while (i + 1 < states.length && states[i + 1].at <= cutoff) i++;
    if (i > 0) states.splice(0, i);
    return states[0].state;
  }

  /** (Re)load the initial data. */
  load(): void {
    const data = this.opts.data();
    this.state.clear();
    for (const r of this.model.resources) {
      if (r.single) continue;
      const list = this.behaviour.emptyResources.includes(r.name) ? [] : (data.records[r.name] ?? []).map((x) => ({ ...x }));
      this.state.set(r.name, { list, byId: new Map(list.map((x) => [String(x.id).toLowerCase(), x])), sorted: null });
    }
    this.replica.clear();
    for (const r of this.model.resources) if (!r.single) this.replicate(r, -Infinity);
    this.store = { ...data.store, apikey: this.opts.apiKey };
    const users = this.state.get('user')?.list ?? [];
    const admin = users.find((u) => u.role === 'WEBSITE_ADMIN') ?? users[0];
    this.author = admin ? `${admin.firstname ?? ''} ${admin.lastname ?? ''}`.trim() : 'Store Admin';
  }

  // Stryker disable all: test harness API (ReferenceServer.snapshot), never served to a client
  /** A deep copy of every record and the store. */
  snapshot(): { records: Record<string, Rec[]>; store: Rec } {
    const records: Record<string, Rec[]> = {};
    for (const [name, s] of this.state) records[name] = structuredClone(s.list);
    return { records, store: structuredClone(this.store) };
  }
  // Stryker restore all

  route(path: string): Route | undefined {
    return this.routes.get(path);
  }

  // Stryker disable all: fault machinery (the stale reads of concurrency faults)
  /** Copies of the records of these ids as stored now (a concurrency fault reads them before it pauses). */
  peek(r: ResourceModel, ids: unknown[]): Map<string, Rec> {
    const s = this.st(r);
    const out = new Map<string, Rec>();
    for (const id of ids) {
      const rec = s.byId.get(String(id).toLowerCase());
      if (rec) out.set(String(id).toLowerCase(), structuredClone(rec));
    }
    return out;
  }
  // Stryker restore all

  // ---------------------------------------------------------------- pipeline defaults

  private defaults(): Pipeline {
    const engine = this;
    return {
      authenticate({ bodyKey, serverKey }) {
        if (bodyKey === undefined || bodyKey === null) return 'missing';
        if (typeof bodyKey !== 'string') return 'invalid';
        const a = Buffer.from(bodyKey);
        const b = Buffer.from(serverKey);
        return a.length === b.length && timingSafeEqual(a, b) ? 'ok' : 'invalid';
      },
      renderGet: (r, rec) => engine.renderer(r, 'get')(rec),
      renderWrite: (r, rec) => engine.renderer(r, 'write')(rec),
      storeObject: (store) => store,
      formatDateTime: (v) => v,
      matchArray(value, wanted, kind) {
        if (kind === 'integer' || kind === 'decimal') {
          const n = toNumber(value);
          return wanted.some((w) => toNumber(w) === n || w === value);
        }
        if (kind === 'guid') return engine.matchGuid(value, wanted);
        const key = engine.collation;
        return key ? foldedSet(wanted, key).has(key(value)) : wanted.includes(value);
      },
      matchBoolean: (value, wanted) => toTrueFalse(value) === toTrueFalse(wanted),
      compareRange(value, bound, kind) {
        switch (kind) {
          case 'integer': case 'decimal': return toNumber(value) - toNumber(bound);
          case 'datetime':
            if (!value) return NaN;
            // a date-only bound read as the whole day: the record's day against it
            if (bound.length === 10 && engine.behaviour.dateOnlyBound === 'whole day') return cmp(normDateTime(value).slice(0, 10), bound);
            return cmp(normDateTime(value), normDateTime(bound));
          case 'date': return value ? cmp(String(value).slice(0, 10), String(bound).slice(0, 10)) : NaN;
          default: return cmp(value, bound);
        }
      },
      paginate(list, { pageIndex, pageSize, cap }) {
        const size = Math.min(pageSize, cap);
        return list.slice(pageIndex * size, pageIndex * size + size);
      },
      count: (matched) => matched.length,
      selectDeletes: (ids) => ids,
      orderVersions(r, versions) {
        const sorted = [...versions].sort((a, b) => toNumber(a.version) - toNumber(b.version));
        return r.versionsOrder === 'newest-first' ? sorted.reverse() : sorted;
      },
      nextVersion: (versions) => String(versions.reduce((m, v) => Math.max(m, toNumber(v.version) || 0), 0) + 1),
      inputString: (v) => v,
      inputColumn: (_r, prop, v) => (prop.kind === 'decimal' && prop.decimal ? decimalScaleColumn(engine.behaviour, v, prop.decimal.scale) : v),
      afterCreate: (_r, rec) => rec,
      afterUpdate: (_r, rec) => rec,
      updateTarget: (_r, _id, current) => current,
      referenceTarget: (_r, _prop, stored) => stored,
      condition: (site) => engine.defaultCondition(site),
    } satisfies Pipeline;
  }

  // ---------------------------------------------------------------- rendering

  private renderer(r: ResourceModel, form: Form): Renderer {
    const key = `${r.name}:${form}`;
    let fn = this.renderers.get(key);
    if (!fn) {
      const fields = form === 'write' && r.writeFields.length ? r.writeFields : r.fields;
      const base = this.compileFields(r, fields, form, true);
      const extra = this.behaviour.extraFields;
      fn = extra ? (rec) => ({ ...base(rec), [EXTRA_FIELD.name]: EXTRA_FIELD.value }) : base;
      this.renderers.set(key, fn);
    }
    return fn;
  }

  private compileFields(r: ResourceModel, fields: FieldModel[], form: Form, top: boolean): Renderer {
    const parts = fields.map((f) => [f.name, this.compileField(r, f, form, top)] as const);
    return (src) => {
      const out: Rec = {};
      for (const [name, fn] of parts) out[name] = fn(src?.[name]);
      return out;
    };
  }

  private compileField(r: ResourceModel, f: FieldModel, form: Form, top: boolean): (v: any) => any {
    const p = () => this.pipeline;
    if (f.quirk) {
      const c = f.quirk.const;
      return () => c;
    }
    switch (f.kind) {
      case 'boolean': {
        const write = (f.booleanForm ?? form) === 'write';
        return write ? (v) => (toTrueFalse(v) === 'true' ? '1' : '0') : (v) => toTrueFalse(v);
      }
      case 'decimal': {
        const sep = f.separator ?? '.';
        if (sep === ',') return (v) => String(v ?? '0').replace('.', ',');
        if (sep === '.') return (v) => String(v ?? '0').replace(',', '.');
        return (v) => String(v ?? '0');
      }
      case 'datetime':
        return (v) => p().formatDateTime(v == null ? EPOCH : String(v));
      case 'array': {
        const versions = top && f.name === 'versions' && r.versionsOrder;
        if (f.itemFields) {
          const item = this.compileFields(r, f.itemFields, form, false);
          return versions
            ? (v) => p().orderVersions(r, Array.isArray(v) ? v : []).map(item)
            : (v) => (Array.isArray(v) ? v.map(item) : []);
        }
        if (f.itemKind === 'guid' && this.behaviour.idCase === 'upper') return (v) => (Array.isArray(v) ? v.map((x) => String(x).toUpperCase()) : []);
        if (f.itemKind && f.itemKind !== 'any') return (v) => (Array.isArray(v) ? v.map((x) => String(x)) : []);
        return (v) => (Array.isArray(v) ? v.slice() : []);
      }
      case 'object': {
        const known = new Map((f.objectFields ?? []).map((o) => [o.name, this.compileField(r, o, form, false)]));
        return (v) => {
          if (!v || typeof v !== 'object') return {};
          const out: Rec = {};
          for (const [k, x] of Object.entries(v)) out[k] = known.has(k) ? known.get(k)!(x) : x;
          return out;
        };
      }
      case 'any':
        return (v) => v ?? '';
      default: {
        const d = defaultFor(f.kind);
        // SQL Server writes a uniqueidentifier in upper case
        if (f.kind === 'guid' && this.behaviour.idCase === 'upper') return (v) => (v == null ? d : String(v).toUpperCase());
        return (v) => (v == null ? d : String(v));
      }
    }
  }

  // ---------------------------------------------------------------- request handling

  handle(req: EngineRequest): EngineResponse {
    try {
      return this.dispatch(req);
    } catch (e) {
      if (e instanceof ApiError) return this.errorResponse(e);
      const err = new ApiError(500, 'INTERNAL_ERROR', `internal error: ${(e as Error)?.message ?? String(e)}`);
      return this.errorResponse(err);
    }
  }

  errorResponse(e: ApiError): EngineResponse {
    const headers: Record<string, string> = e.status === 405 ? { allow: 'POST' } : {};
    switch (this.behaviour.errorShape) {
      case 'flat':
        return { status: e.status, contentType: 'application/json', headers, body: { success: 'false', message: e.message } };
      case 'text':
        return { status: e.status, contentType: 'text/plain', headers, body: `${e.code}: ${e.message}` };
      default: {
        const error: Rec = { code: e.code, message: e.message };
        if (e.details?.length) error.details = e.details;
        return { status: e.status, contentType: 'application/json', headers, body: { error } };
      }
    }
  }

  private dispatch(req: EngineRequest): EngineResponse {
    const route = this.routes.get(req.path);
    if (route?.resource.documentedCountPath && route.op === 'count' && this.behaviour.usersCountPath === 'absent') {
      throw new ApiError(404, 'NOT_FOUND', `operation "count" is not offered by ${route.resource.prefix}`);
    }
    if (!route) {
      const slash = req.path.lastIndexOf('/');
      const r = this.prefixes.get(req.path.slice(0, slash));
      if (r) throw new ApiError(404, 'NOT_FOUND', `operation "${req.path.slice(slash + 1)}" is not offered by ${r.prefix}`);
      throw new ApiError(404, 'NOT_FOUND', `no such path: ${req.path}`);
    }
    if (req.method !== 'POST') throw new ApiError(405, 'METHOD_NOT_ALLOWED', `method ${req.method} not allowed; every operation uses POST`);
    let body: unknown;
    try {
      body = JSON.parse(req.body);
    } catch {
      throw new ApiError(400, 'INVALID_JSON', 'the body is not valid JSON');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'INVALID_BODY', 'the body must be one JSON object');
    const b = body as Rec;
    // what the request is about, for hooks local to one resource or operation (the engine handles a request synchronously)
    // Stryker disable next-line all: fault machinery (only fault hooks read the request context)
    setRequestContext({ resource: route.resource, op: route.op, body: b });
    const auth = b.authentication;
    const bodyKey = auth && typeof auth === 'object' && !Array.isArray(auth) ? auth.apiKey : undefined;
    const verdict = this.pipeline.authenticate({ bodyKey, headers: req.headers, query: req.query, serverKey: this.opts.apiKey });
    if (verdict === 'missing') throw new ApiError(this.behaviour.missingKeyStatus, 'MISSING_KEY', 'authentication.apiKey is missing');
    if (verdict === 'invalid') throw new ApiError(this.behaviour.invalidKeyStatus, 'INVALID_KEY', 'the API key is not valid');

    const { resource: r, op } = route;
    const json = (value: unknown): EngineResponse => ({ status: 200, contentType: 'application/json', body: value });
    if (r.single) return json(this.pipeline.storeObject(this.pipeline.renderGet(r, this.store)));
    switch (op) {
      case 'get': return json(this.get(r, b));
      case 'count': return json(this.count(r, b));
      case 'create': return json(this.create(r, b, req.stale));
      case 'update': return json(this.update(r, b, req.stale));
      case 'delete': return json(this.remove(r, b));
    }
  }

  private st(r: ResourceModel): ResourceState {
    let s = this.state.get(r.name);
    if (!s) {
      s = { list: [], byId: new Map(), sorted: null };
      this.state.set(r.name, s);
    }
    return s;
  }

  private sorted(r: ResourceModel, s: ResourceState = this.st(r)): Rec[] {
    if (!s.sorted) {
      const order = this.behaviour.order;
      const byId = (a: Rec, b: Rec) => cmp(String(a.id), String(b.id));
      const byCreated = (a: Rec, b: Rec) => cmp(String(a.createdon ?? ''), String(b.createdon ?? ''));
      const fn = order === 'id asc' ? byId
        : order === 'createdon desc' ? (a: Rec, b: Rec) => byCreated(b, a) || byId(a, b)
          : (a: Rec, b: Rec) => byCreated(a, b) || byId(a, b);
      s.sorted = [...s.list].sort(fn);
    }
    return s.sorted;
  }

  private changed(r: ResourceModel): void {
    this.st(r).sorted = null;
    this.replicate(r, Date.now());
  }

  // ---------------------------------------------------------------- get / count

  private predicate(r: ResourceModel, filters: unknown): (rec: Rec) => boolean {
    if (filters === undefined || filters === null) return () => true;
    if (typeof filters !== 'object' || Array.isArray(filters)) throw new ApiError(400, 'VALIDATION_FAILED', 'filters must be an object', ['/filters must be object']);
    const mode = this.behaviour.pagesTitleFilterKey;
    const byKey = new Map(r.filters.map((x) => [x.key, x]));
    const aliased = new Set(r.filters.filter((x) => x.aliasOf).map((x) => x.aliasOf!));
    const f: Rec = {};
    for (const [key, value] of Object.entries(filters as Rec)) {
      const m = byKey.get(key);
      const unknown = !m || (mode === 'title' && m.aliasOf) || (mode === 'name' && !m.aliasOf && aliased.has(key));
      if (!unknown) f[key] = value;
      else if (this.behaviour.unknownFilterKey === 'rejected') throw new ApiError(400, 'UNKNOWN_FILTER', `unknown filter "${key}" for ${r.prefix}`, [`/filters/${key} is not a known filter`]);
    }
    const v = this.model.validator(r.name, 'Filters')(f);
    if (!v.ok) throw new ApiError(400, 'VALIDATION_FAILED', `invalid filters: ${v.errors.join('; ')}`, v.errors.map((e) => `/filters${e.startsWith('(root)') ? e.slice(6) : e}`));

    const p = this.pipeline;
    const kinds = this.fieldKinds.get(r.name)!;
    // Stryker disable next-line all: fault machinery (only fault hooks read a filter site's op)
    const op = requestContext()?.op === 'count' ? 'count' : 'get';
    // conditions by field: the _min and _max of one field always bound together (also under OR)
    const byField = new Map<string, Array<(rec: Rec) => boolean>>();
    for (const [key, value] of Object.entries(f)) {
      const m = byKey.get(key)!;
      const kind = (kinds.get(m.field)?.kind as ScalarKind | undefined) ?? m.valueKind;
      const site: FilterSite = { resource: r, key, field: m.field, filter: m.filter, bound: m.bound, kind, value, op };
      const list = byField.get(m.field) ?? [];
      list.push(p.condition(site));
      byField.set(m.field, list);
    }
    const conditions = [...byField.values()].map((list) => (list.length === 1 ? list[0] : (rec: Rec) => list.every((c) => c(rec))));
    if (conditions.length === 0) return () => true;
    if (this.behaviour.filterCombination === 'or') return (rec) => conditions.some((c) => c(rec));
    return (rec) => conditions.every((c) => c(rec));
  }

  /**
   * An enum-typed filter model (unknownPredefinedValue 'refused'): a value outside the field's
   * enumeration is a 400, letter case ignored as enum converters read names (System.Text.Json's
   * JsonStringEnumConverter, MySQL ENUM).
   */
  private refuseUnknownValues(site: FilterSite, wanted: readonly string[]): void {
    const known = this.fieldKinds.get(site.resource.name)?.get(site.field)?.knownValues;
    if (!known?.length) return;
    const names = new Set(known.map((k) => k.toLowerCase()));
    const unknown = wanted.find((w) => !names.has(w.toLowerCase()));
    if (unknown !== undefined) throw new ApiError(400, 'VALIDATION_FAILED', `invalid filters: ${site.key}: ${JSON.stringify(unknown)} is not one of ${known.join(', ')}`, [`/filters/${site.key} must be one of the enumeration's values`]);
  }

  /** The default condition of one filter key: array, Boolean or one range bound (pipeline.condition's `next`). */
  private defaultCondition(site: FilterSite): (rec: Rec) => boolean {
    const p = this.pipeline;
    const { field, kind, value } = site;
    if (site.filter === 'array') {
      const wanted = (value as unknown[]).map((x) => String(x));
      const form = kind === 'guid' ? wanted.map((x) => guidVersionRefusal(this.behaviour, x)).find(Boolean) : undefined;
      if (form) throw new ApiError(400, 'VALIDATION_FAILED', `invalid filters: ${site.key}: ${form}`, [`/filters/${site.key} ${form}`]);
      if (kind === 'predefined' && this.behaviour.unknownPredefinedValue === 'refused') this.refuseUnknownValues(site, wanted);
      return (rec) => p.matchArray(String(rec[field] ?? ''), wanted, kind);
    }
    if (site.filter === 'boolean') {
      const want = String(value);
      return (rec) => p.matchBoolean(String(rec[field] ?? ''), want);
    }
    const bound = String(Array.isArray(value) ? value[0] : value);
    const inclusive = this.behaviour.rangeInclusive;
    return (rec) => {
      const c = p.compareRange(String(rec[field] ?? ''), bound, kind);
      if (site.bound === 'min') return inclusive ? c >= 0 : c > 0;
      return inclusive ? c <= 0 : c < 0;
    };
  }

  private intParam(name: string, v: unknown): number | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    if (typeof v === 'string' && PAGINATION_INTEGER.test(v.trim())) return Number(v.trim());
    throw new ApiError(400, 'VALIDATION_FAILED', `pagination.${name} must be a string holding an integer`, [`/pagination/${name} must be an integer string`]);
  }

  private get(r: ResourceModel, body: Rec): Rec[] {
    const b = this.behaviour;
    const pag = body.pagination;
    if (pag !== undefined && pag !== null && (typeof pag !== 'object' || Array.isArray(pag))) {
      throw new ApiError(400, 'VALIDATION_FAILED', 'pagination must be an object', ['/pagination must be object']);
    }
    const pageNumber = this.intParam('pageNumber', pag?.pageNumber) ?? b.firstPageNumber;
    const pageSize = this.intParam('pageSize', pag?.pageSize) ?? b.defaultPageSize;
    if (pageNumber < b.firstPageNumber) {
      throw new ApiError(400, 'VALIDATION_FAILED', `pagination.pageNumber must be at least ${b.firstPageNumber}`, [`/pagination/pageNumber must be >= ${b.firstPageNumber}`]);
    }
    if (pageSize < 1 && b.pageSizeBelowOne === 'refused') throw new ApiError(400, 'VALIDATION_FAILED', 'pagination.pageSize must be at least 1', ['/pagination/pageSize must be >= 1']);
    const pred = this.predicate(r, body.filters);
    const matched = this.sorted(r, this.readState(r)).filter(pred);
    const page = this.pipeline.paginate(matched, {
      pageIndex: pageNumber - b.firstPageNumber,
      pageSize: pageSize >= 1 ? pageSize : b.pageSizeBelowOne === 'default' ? b.defaultPageSize : 0,
      cap: Math.min(b.maxPageSize, GET_CAP),
    });
    return page.map((rec) => this.pipeline.renderGet(r, rec));
  }

  private count(r: ResourceModel, body: Rec): Rec {
    const pred = this.predicate(r, body.filters);
    const all = this.readState(r).list;
    return { count: String(this.pipeline.count(all.filter(pred), all)) };
  }

  // ---------------------------------------------------------------- create / update / delete

  private dataItems(body: Rec): Rec[] {
    const data = body.data;
    if (!Array.isArray(data)) throw new ApiError(400, 'VALIDATION_FAILED', 'data must be an array of record objects', ['/data must be array']);
    if (data.length === 0) throw new ApiError(400, 'VALIDATION_FAILED', 'data must hold at least one record', ['/data must NOT have fewer than 1 items']);
    const max = this.behaviour.maxDataItems;
    if (max !== null && data.length > max) throw new ApiError(400, 'TOO_MANY_ITEMS', `data holds ${data.length} items; at most ${max} are accepted`, [`/data must NOT have more than ${max} items`]);
    return data;
  }

  /** §8 over-long strings: returns [item to validate, item to store]. */
  private lengthPolicy(r: ResourceModel, item: Rec): [Rec, Rec] {
    const policy = this.behaviour.overlongString;
    if (policy === 'rejected') return [item, item];
    const cut: Rec = { ...item };
    // lengths are characters (code points), as JSON Schema's maxLength counts them: an emoji is one
    const fit = (x: unknown, max: number) => {
      if (typeof x !== 'string') return x;
      const chars = [...x];
      return chars.length > max ? chars.slice(0, max).join('') : x;
    };
    for (const prop of r.payload) {
      const v = item[prop.name];
      if (!prop.maxLength) continue;
      if (typeof v === 'string') cut[prop.name] = fit(v, prop.maxLength);
      if (prop.kind === 'list' && Array.isArray(v)) cut[prop.name] = v.map((x) => fit(x, prop.maxLength!));
    }
    return [cut, policy === 'truncated' ? cut : item];
  }

  /**
   * A decimal over its limit under the 'digits in all' reading (the schema's
   * x-decimal keyword already holds every value to the 'integer digits' one).
   * Only what is stored: filter values are compared, never stored, and the
   * seeded tax rates (20.000) are over "3 digits in all, 3 of them decimals".
   */
  private decimalErrors(where: string, limit: DecimalLimit | undefined, value: unknown): string[] {
    if (!limit || this.behaviour.decimalDigits !== 'digits in all') return [];
    const within = decimalLimitUnder(limit, 'digits in all');
    const values = Array.isArray(value) ? value : [value];
    return values.some((x) => typeof x === 'string' && !decimalWithin(x, within))
      ? [`${where} must have at most ${limit.digits} digits in all, ${limit.scale} of them decimals`] : [];
  }

  /** Scalar values as their columns take them, before validation (the pipeline's inputColumn: a Decimal with excess scale under Behaviour.decimalScale). */
  private scalePolicy(r: ResourceModel, item: Rec): Rec {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
    const out: Rec = { ...item };
    for (const prop of r.payload) {
      if ((prop.kind === 'decimal' || prop.kind === 'integer') && typeof item[prop.name] === 'string') out[prop.name] = this.pipeline.inputColumn(r, prop, item[prop.name]);
    }
    return out;
  }

  /** What a column refuses: an Integer beyond its width, a 4-byte character in a utf8mb3 String. */
  private columnErrors(where: string, prop: PayloadPropModel, value: unknown): string[] {
    const values = Array.isArray(value) ? value : [value];
    const out: string[] = [];
    const empty = prop.kind === 'string' ? emptyRefusal(this.behaviour, value, prop.required === true) : undefined;
    if (empty) out.push(`${where} ${empty}`);
    if (this.behaviour.listDuplicates === 'refused' && prop.kind === 'list' && !prop.references && new Set(values).size < values.length) out.push(`${where}: duplicate entry (a unique key)`);
    for (const x of values) {
      if (typeof x !== 'string') continue;
      const syntax = prop.kind === 'integer' ? integerSyntaxRefusal(this.behaviour, x) : prop.kind === 'guid' || prop.references ? guidVersionRefusal(this.behaviour, x)
        : prop.kind === 'datetime' ? timestampRefusal(this.behaviour, x) : undefined;
      if (syntax) out.push(`${where}: ${syntax}`);
      const text = prop.kind === 'string' || prop.kind === 'predefined' || (prop.kind === 'list' && !prop.references);
      const bytes = prop.kind === 'string' ? textBytesRefusal(this.behaviour, prop.maxLength, x) : undefined;
      if (bytes) out.push(`${where}: ${bytes}`);
      const columns = prop.kind === 'integer' ? [integerColumn(this.behaviour, x)] : text ? [astralColumn(this.behaviour, x), edgeSpaceColumn(this.behaviour, x)] : [];
      for (const column of columns) if ('refused' in column) out.push(`${where}: ${column.refused}`);
    }
    return out;
  }

  private checkItems(r: ResourceModel, items: Rec[], update: boolean): Rec[] {
    const errors: string[] = [];
    const toStore: Rec[] = [];
    const check = this.model.validator(r.name, 'Payload');
    items.forEach((raw, i) => {
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
        errors.push(`/data/${i} must be object`);
        return;
      }
      const scaled = this.scalePolicy(r, raw);
      const [checked, stored] = this.lengthPolicy(r, scaled);
      let errs = check(checked).errors;
      if (update) {
        // partial items are fine for update: only the supplied properties are checked
        errs = errs.filter((e) => !/must have required property '(?!id')/.test(e));
        if (typeof raw.id !== 'string') errs.push(`(root) must have required property 'id'`);
      }
      errors.push(...errs.map((e) => `/data/${i}${e.startsWith('(root)') ? e.slice(6) : e}`));
      for (const prop of r.payload) errors.push(...this.decimalErrors(`/data/${i}/${prop.name}`, prop.decimal, scaled[prop.name]));
      for (const prop of r.payload) errors.push(...this.columnErrors(`/data/${i}/${prop.name}`, prop, raw[prop.name]));
      for (const prop of r.payload) {
        const v = raw[prop.name];
        if (!prop.references || prop.kind !== 'list' || !Array.isArray(v)) continue;
        const target = this.pipeline.referenceTarget(r, prop, this.state.get(prop.references));
        v.forEach((id, j) => {
          if (typeof id === 'string' && !target?.byId.has(id.toLowerCase())) {
            errors.push(`/data/${i}/${prop.name}/${j} must be the id of an existing ${prop.references}`);
          }
        });
      }
      toStore.push(stored);
    });
    if (errors.length) throw new ApiError(400, 'VALIDATION_FAILED', `invalid data: ${errors.slice(0, 5).join('; ')}${errors.length > 5 ? ` (+${errors.length - 5} more)` : ''}`, errors);
    return toStore;
  }

  /** The value a column stores (a refusal was already answered by checkItems). */
  private stored(c: { value: string } | { refused: string }, sent: string): string {
    return 'value' in c ? c.value : sent;
  }

  /** A String as its column stores it: spaces at its edges as the store takes them (trimmed), then its 4-byte characters. */
  private textColumn(v: string): string {
    const spaced = this.stored(edgeSpaceColumn(this.behaviour, normalizedColumn(this.behaviour, v)), v);
    return this.stored(astralColumn(this.behaviour, spaced), spaced);
  }

  /** A payload value in normalized record form. */
  private toRecordValue(r: ResourceModel, prop: PayloadPropModel, v: any): any {
    const p = this.pipeline;
    if (prop.kind === 'list') {
      const list: any[] = Array.isArray(v) ? v : [];
      const recField = this.fieldKinds.get(r.name)!.get(prop.recordField ?? prop.name);
      if (prop.references) {
        const target = this.state.get(prop.references);
        const itemNames = recField?.itemFields?.map((x) => x.name) ?? ['id', 'name'];
        return list.map((id) => {
          const ref = target?.byId.get(String(id).toLowerCase()) ?? { id };
          return Object.fromEntries(itemNames.map((n) => [n, ref[n] ?? '']));
        });
      }
      const all = list.map((x) => (typeof x === 'string' ? p.inputString(this.textColumn(x), prop.maxLength) : String(x)));
      // a set (a unique key with INSERT IGNORE): an item listed again is stored once
      const strings = this.behaviour.listDuplicates === 'merged' ? [...new Set(all)] : all;
      const itemFields = recField?.itemFields;
      if (itemFields?.length === 1) return strings.map((s) => ({ [itemFields[0].name]: s }));
      return strings;
    }
    if (typeof v !== 'string') return v;
    switch (prop.kind) {
      case 'string': case 'predefined': return p.inputString(longTextColumn(this.behaviour, prop.maxLength, this.textColumn(v)), prop.maxLength);
      case 'datetime': return throughZone(this.behaviour, normDateTime(v));
      case 'integer': return this.stored(integerColumn(this.behaviour, v.replace(/^(-?)0+(?=[0-9])/, '$1')), v);
      case 'decimal': return prop.decimal ? decimalScaleColumn(this.behaviour, v, prop.decimal.scale) : v;
      default: return v;
    }
  }

  private newVersion(content: unknown, version: string, at: string): Rec {
    return { id: randomUUID(), content: String(content ?? ''), version, createdon: at };
  }

  // Stryker disable all: fault machinery (a concurrency fault numbers ids from it)
  /** How many records of the resource are stored (a concurrency fault numbers ids from it). */
  size(r: ResourceModel): number {
    return this.st(r).list.length;
  }
  // Stryker restore all

  private create(r: ResourceModel, body: Rec, stale?: StaleRead): Rec[] {
    const items = this.checkItems(r, this.dataItems(body), false);
    const s = this.st(r);
    const now = storeNow(this.behaviour);
    const created: Rec[] = [];
    for (const [i, item] of items.entries()) {
      let rec: Rec = {};
      for (const f of r.fields) rec[f.name] = defaultFor(f.kind);
      // a stale id counter (a concurrency fault): ids numbered from the size read before a pause
      // Stryker disable next-line all: fault machinery (the id-counter fault)
      rec.id = stale?.part === 'id-counter' ? numberedId(r.name, (stale.count ?? 0) + i) : randomUUID();
      if (r.audit) {
        rec.author = this.author;
        rec.createdon = now;
      }
      for (const prop of r.payload) {
        if (prop.name in item && item[prop.name] !== undefined) rec[prop.recordField ?? prop.name] = this.toRecordValue(r, prop, item[prop.name]);
      }
      if (r.versionsOrder) rec.versions = [this.newVersion(rec.content, '1', now)];
      rec = this.pipeline.afterCreate(r, rec, item);
      created.push(rec);
    }
    for (const rec of created) {
      s.list.push(rec);
      s.byId.set(String(rec.id).toLowerCase(), rec);
    }
    this.changed(r);
    return created.map((rec) => this.pipeline.renderWrite(r, rec));
  }

  private update(r: ResourceModel, body: Rec, stale?: StaleRead): Rec[] {
    const items = this.checkItems(r, this.dataItems(body), true);
    const s = this.st(r);
    const target = (id: unknown) => this.pipeline.updateTarget(r, String(id), s.byId.get(String(id).toLowerCase()));
    const unknown = items.filter((it) => !target(it.id));
    if (unknown.length && this.behaviour.updateUnknownId === 'not-found') {
      throw new ApiError(404, 'RECORD_NOT_FOUND', `no ${r.title.toLowerCase()} with id ${unknown.map((u) => u.id).join(', ')}`, unknown.map((u) => `/data/${items.indexOf(u)}/id not found`));
    }
    const now = storeNow(this.behaviour);
    const replace = this.behaviour.updateSemantics === 'replace';
    const kinds = this.fieldKinds.get(r.name)!;
    const updated: Rec[] = [];
    for (const item of items) {
      const key = String(item.id).toLowerCase();
      const current = s.byId.get(key);
      const before = target(item.id);
      if (!before) continue;
      // a stale read (a concurrency fault): the update starts from the copy read before its pause
      // Stryker disable next-line all: fault machinery (the stale-read faults)
      const read = stale?.records.get(key);
      // Stryker disable next-line all: fault machinery (the stale-read faults)
      const start = stale?.part === 'record' && read ? read : before;
      let rec: Rec = { ...start };
      for (const prop of r.payload) {
        const target = prop.recordField ?? prop.name;
        if (prop.name in item && item[prop.name] !== undefined) rec[target] = this.toRecordValue(r, prop, item[prop.name]);
        else if (replace) rec[target] = defaultFor(kinds.get(target)?.kind ?? prop.kind);
      }
      if (r.versionsOrder) {
        const versions: Rec[] = Array.isArray(rec.versions) ? rec.versions : [];
        // Stryker disable next-line all: fault machinery (the stale version-number fault)
        const numbered: Rec[] = stale?.part === 'version-number' && Array.isArray(read?.versions) ? read!.versions : versions;
        rec.versions = [...versions, this.newVersion(rec.content, this.pipeline.nextVersion(numbered), now)];
      }
      rec = this.pipeline.afterUpdate(r, rec, item, before);
      const idx = current ? s.list.indexOf(current) : -1;
      if (idx >= 0) s.list[idx] = rec;
      else s.list.push(rec);
      s.byId.set(key, rec);
      updated.push(rec);
    }
    this.changed(r);
    return updated.map((rec) => this.pipeline.renderWrite(r, rec));
  }

  private remove(r: ResourceModel, body: Rec): Rec {
    const check = this.model.commonValidator('DeleteFilter')(body.filter);
    if (!check.ok) throw new ApiError(400, 'VALIDATION_FAILED', `invalid filter: ${check.errors.join('; ')}`, check.errors.map((e) => `/filter${e.startsWith('(root)') ? e.slice(6) : e}`));
    const ids = new Set<string>();
    for (const f of body.filter as Array<{ id: string[] }>) for (const id of f.id) ids.add(id.toLowerCase());
    const form = [...ids].map((id) => guidVersionRefusal(this.behaviour, id)).find(Boolean);
    if (form) throw new ApiError(400, 'VALIDATION_FAILED', `invalid filter: ${form}`, [`/filter ${form}`]);
    const max = this.behaviour.maxDataItems;
    if (max !== null && ids.size > max) throw new ApiError(400, 'TOO_MANY_ITEMS', `filter holds ${ids.size} ids; at most ${max} are accepted`, [`/filter must NOT have more than ${max} ids`]);
    const s = this.st(r);
    if (this.behaviour.deleteUnknownId === 'not-found') {
      const unknown = [...ids].filter((id) => !s.byId.has(id));
      if (unknown.length) throw new ApiError(404, 'RECORD_NOT_FOUND', `no ${r.title.toLowerCase()} with id ${unknown.join(', ')}`);
    }
    const doomed = this.pipeline.selectDeletes(ids, s.list);
    if (doomed.size) {
      s.list = s.list.filter((rec) => !doomed.has(String(rec.id).toLowerCase()));
      for (const id of doomed) s.byId.delete(id);
      this.changed(r);
    }
    return { success: 'true' };
  }
}
