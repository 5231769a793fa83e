/**
 * The hook points of the reference server's request pipeline. The engine
 * builds a default Pipeline; each fault (faults.ts) overrides a few of its
 * functions. A fault hook receives the same arguments plus `next`, the
 * implementation it replaces, so most faults are "call next, then bend one thing".
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RuleId } from '../src/rules.js';
import type { PayloadPropModel, ResourceModel, ScalarKind } from '../src/schema/model.js';

/** A record in normalized form (every scalar a string; see README "Data representation"). */
export type Rec = Record<string, any>;

export interface AuthInput {
  /** `authentication.apiKey` from the body (undefined when absent) */
  bodyKey: unknown;
  headers: IncomingHttpHeaders;
  /** the URL's query string parameters */
  query: URLSearchParams;
  serverKey: string;
}
export type AuthResult = 'ok' | 'missing' | 'invalid';

export interface PageRequest {
  /** 0-based page index (pageNumber - firstPageNumber) */
  pageIndex: number;
  /** the page size asked for (or the default) */
  pageSize: number;
  /** the most records one get may return (min of maxPageSize and the §8 cap) */
  cap: number;
}

/** One key of a get or count's filters, as a condition is built for it. */
export interface FilterSite {
  resource: ResourceModel;
  key: string;
  /** the record field it filters */
  field: string;
  filter: 'array' | 'range' | 'boolean';
  bound?: 'min' | 'max';
  /** the kind of the record field */
  kind: ScalarKind;
  /** the value as sent */
  value: unknown;
  op: 'get' | 'count';
}

/** The request being handled (the engine handles one request at a time, synchronously). */
export interface RequestContext {
  resource: ResourceModel;
  op: string;
  /** the parsed JSON body */
  body: Rec;
}

// Stryker disable all: fault machinery (only fault hooks read the request context)
let current: RequestContext | undefined;

/** The request the engine is handling now: lets a fault touch one resource or one operation only. */
export function requestContext(): RequestContext | undefined {
  return current;
}

export function setRequestContext(c: RequestContext | undefined): void {
  current = c;
}
// Stryker restore all

export interface Pipeline {
  /** the test one filter key applies to each record (by default matchArray, matchBoolean or compareRange) */
  condition(site: FilterSite): (rec: Rec) => boolean;
  /** §5: who may call */
  authenticate(a: AuthInput): AuthResult;
  /** a record in get form (§4 Formatting differs by operation) */
  renderGet(r: ResourceModel, rec: Rec): Rec;
  /** a record in create/update form */
  renderWrite(r: ResourceModel, rec: Rec): Rec;
  /** the store object of store get (after rendering, apikey set) */
  storeObject(store: Rec): Rec;
  /** a DateTime value as shown in responses ('YYYY-MM-DD HH:MM:SS') */
  formatDateTime(v: string): string;
  /** array filter: does `value` equal one of `wanted`? kind is the record field's kind */
  matchArray(value: string, wanted: string[], kind: ScalarKind): boolean;
  /** boolean filter: does the record's `value` match the filter value `wanted` ('true'/'false' as sent)? */
  matchBoolean(value: string, wanted: string): boolean;
  /** range filter: compare a record value with a bound (<0, 0, >0) */
  compareRange(value: string, bound: string, kind: ScalarKind): number;
  /** the page of an ordered, filtered list */
  paginate(list: Rec[], p: PageRequest): Rec[];
  /** count: the number reported for the matched records */
  count(matched: Rec[], all: Rec[]): number;
  /** delete: the ids actually removed, given the ids asked for and the stored records (storage order) */
  selectDeletes(ids: Set<string>, all: Rec[]): Set<string>;
  /** §3: versions in the order shown for this resource */
  orderVersions(r: ResourceModel, versions: Rec[]): Rec[];
  /** §3: the version number of the next entry */
  nextVersion(versions: Rec[]): string;
  /** a String payload value as stored (after the length check) */
  inputString(value: string, maxLength: number | undefined): string;
  /** a scalar payload value as its column takes it, before validation (the store's readings: Behaviour.decimalScale …) */
  inputColumn(r: ResourceModel, prop: PayloadPropModel, value: string): string;
  /** a record just built by create, before it is stored */
  afterCreate(r: ResourceModel, rec: Rec, item: Rec): Rec;
  /** a record just changed by update, before it is stored */
  afterUpdate(r: ResourceModel, rec: Rec, item: Rec, before: Rec): Rec;
  /** the stored record an update of `id` starts from (`current`: the one stored now; undefined: no such record) */
  updateTarget(r: ResourceModel, id: string, current: Rec | undefined): Rec | undefined;
  /** the records the ids of reference list `prop` (product categoryid…) must name, as a create or update checks them (`stored`: those of `prop.references`) */
  referenceTarget(r: ResourceModel, prop: PayloadPropModel, stored: ReferenceTarget | undefined): ReferenceTarget | undefined;
}

/** Stored records by lower-cased id, as a reference check reads them. */
export interface ReferenceTarget {
  byId: { has(id: string): boolean };
}

/**
 * A write that works from what it read earlier (a fault of concurrency,
 * applied by the server around one update or create: read, pause, write):
 * `records` are copies of the records as they were before the pause; `part`
 * says what the write takes from them — the whole record (an update writing
 * back over whatever changed meanwhile: a lost update), only the version
 * number it appends, or (a create) the id counter its ids are numbered from.
 */
export interface StaleRead {
  records: Map<string, Rec>;
  /** what the write takes from its earlier read: the record, the version number, or (create) the id counter */
  part: 'record' | 'version-number' | 'id-counter';
  /** 'id-counter': how many records the resource held at the read (ids are numbered from it) */
  count?: number;
}

type WithNext<F> = F extends (...a: infer A) => infer R ? (...a: [...A, next: F]) => R : never;

/** What a fault may override: each hook gets the original arguments plus `next`. */
export type FaultHooks = { [K in keyof Pipeline]: WithNext<Pipeline[K]> };

/** A named fault (faults.ts, faults-generated.ts): the rule it breaks and the hooks that break it. */
export interface Fault {
  name: string;
  /** the rule it breaks (src/rules.ts) */
  breaks: RuleId;
  /** the spec section of that rule */
  section: string;
  description: string;
  hooks: Partial<FaultHooks>;
  /**
   * A fault of concurrency the server applies around each update of one
   * resource: it reads the records, pauses, then updates from what it read
   * (StaleRead) — harmless alone, wrong when updates overlap.
   */
  stale?: { resource: string; part: StaleRead['part']; pauseMs: number };
  /**
   * The depth its proofs run at when they name none (reference/prove.ts):
   * 'standard' for a fault only one value class shows on one endpoint where
   * quick spreads the classes over the resources (near-miss keys:
   * src/values/near-miss.ts nearMissPlan) — standard and deep send every one
   * everywhere (DepthProfile.nearMissPerPlace), and standard is the depth a
   * CI gate runs.
   */
  proveDepth?: 'standard' | 'deep';
}

/** Layer hooks over a base pipeline; later hooks wrap earlier ones. */
export function composePipeline(base: Pipeline, layers: Array<Partial<FaultHooks>>): Pipeline {
  const p: Pipeline = { ...base };
  // Stryker disable all: fault machinery (the fault layers; mutation:engine runs with none)
  for (const layer of layers) {
    for (const key of Object.keys(layer) as Array<keyof Pipeline>) {
      const hook = layer[key] as any;
      if (typeof hook !== 'function') continue;
      const prev = p[key] as any;
      (p as any)[key] = (...args: any[]) => hook(...args, prev);
    }
  }
  // Stryker restore all
  return p;
}
