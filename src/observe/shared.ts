/**
 * Reads every probe may need, made once per run (memoized promises): the count
 * of every list resource and one default page (a get without pagination) per
 * resource; plus the helpers write probes share: probe payloads built from the
 * schema model, creating and deleting through the ledger, describing a body.
 */
import { randomBytes } from 'node:crypto';
import type { Rec, StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import type { RunConfig } from '../config.js';
import { ZERO_GUID, decimalLimitOf, decimalLimitOfEveryReading, knownValuesOf, maxLengthOf, resource, resources, type PayloadPropModel, type ResourceModel } from '../schema/model.js';
import { chunks } from '../client/cleanup.js';
import { pollUntil } from '../client/poll.js';
import { ProbeError, need } from './probe-error.js';

/** A key no target holds: used wherever a wrong key is wanted. */
export const WRONG_KEY = 'storecheck-invalid-key-0000000000000000';

export interface Page {
  records: Rec[];
  exchange: Exchange;
}

export class Shared {
  private readonly countMemo = new Map<string, Promise<number>>();
  private readonly pageMemo = new Map<string, Promise<Page>>();
  private readonly countExchanges = new Map<string, Exchange>();
  /** distinct per probe run, so repeated runs with one tag never collide on unique values */
  readonly nonce = randomBytes(3).toString('hex');
  /** what one phase leaves for a later one (e.g. page sizes phase 1 could not decide) */
  readonly notes = new Map<string, unknown>();

  constructor(readonly client: StoreClient, readonly config: RunConfig) {}

  /** The list resources (every resource but the single store), in §1 order. */
  listResources(): ResourceModel[] {
    return resources().filter((r) => !r.single && r.operations.includes('get'));
  }

  /** Unfiltered count of a resource (memoized). */
  count(name: string): Promise<number> {
    let p = this.countMemo.get(name);
    if (!p) {
      p = this.client.count(name).then((res) => {
        this.countExchanges.set(name, res.exchange);
        return need(res, `count of ${resource(name).prefix}`);
      });
      p.catch(() => undefined);
      this.countMemo.set(name, p);
    }
    return p;
  }

  countExchange(name: string): Exchange | undefined {
    return this.countExchanges.get(name);
  }

  /** Every list resource's count; resources whose count fails are left out. */
  async counts(): Promise<Map<string, number>> {
    const list = this.listResources();
    const settled = await Promise.allSettled(list.map((r) => this.count(r.name)));
    const out = new Map<string, number>();
    settled.forEach((s, i) => {
      if (s.status === 'fulfilled') out.set(list[i].name, s.value);
    });
    return out;
  }

  /** One get without pagination (the default page) of a resource (memoized). */
  page(name: string): Promise<Page> {
    let p = this.pageMemo.get(name);
    if (!p) {
      p = this.client.get(name).then((res) => ({ records: need(res, `get of ${resource(name).prefix}`), exchange: res.exchange }));
      p.catch(() => undefined);
      this.pageMemo.set(name, p);
    }
    return p;
  }

  /**
   * Read-only resources first (nothing the run writes disturbs them), then the
   * rest, each list ordered by count descending; only resources whose count is
   * at least `min`.
   */
  async byCount(min = 0, pred: (r: ResourceModel) => boolean = () => true): Promise<Array<{ r: ResourceModel; count: number }>> {
    const counts = await this.counts();
    return this.listResources()
      .filter(pred)
      .map((r) => ({ r, count: counts.get(r.name) ?? -1 }))
      .filter((x) => x.count >= min)
      .sort((a, b) => Number(a.r.writable) - Number(b.r.writable) || b.count - a.count);
  }

  /** A unique, run-tagged label for the records a probe creates. */
  label(probe: string, i: number | string): string {
    return `${this.config.runTag}-${this.nonce}-${probe}-${i}`.toLowerCase();
  }

  /**
   * A create item with every payload property (so an update that resets what it
   * does not get is visible), built from the model: strings carry a unique
   * run-tagged label, other kinds a plain valid value, references are left
   * empty (or the all-zero GUID where one is required).
   */
  payload(r: ResourceModel, probe: string, i: number, overrides: Rec = {}): Rec {
    const label = this.label(probe, i);
    const out: Rec = {};
    for (const p of r.payload) {
      const v = valueFor(p, label);
      if (v !== undefined) out[p.name] = v;
    }
    return { ...out, ...overrides };
  }

  /**
   * The record of `id` read back, polled until it is listed and `until` holds
   * (a store whose reads lag its writes shows it a little later), at most the
   * visibility deadline; the last read either way.
   */
  async readBack(r: ResourceModel, id: string, until: (rec: Rec) => boolean = () => true): Promise<{ rec: Rec | undefined; exchange: Exchange; elapsedMs: number; repeated: boolean; held: boolean }> {
    const read = async () => {
      const got = await this.client.get(r, { filters: { id: [id] } });
      return { got, rec: need(got, `get by id of ${r.title} ${id}`).find((x) => String(x?.id).toLowerCase() === id.toLowerCase()) };
    };
    const p = await pollUntil(read, (x) => !!x.rec && until(x.rec), this.config.visibilityTimeoutMs);
    return { rec: p.result.rec, exchange: p.result.got.exchange, elapsedMs: p.elapsedMs, repeated: p.repeated, held: p.held };
  }

  /** Delete ids this run created, in chunks a target with a batch limit accepts, side by side; returns the exchanges in chunk order. */
  async deleteOwned(r: ResourceModel | string, ids: string[], chunk = 100): Promise<Exchange[]> {
    return Promise.all(chunks(ids, chunk).map(async (list) => (await this.client.delete(r, list)).exchange));
  }
}

function valueFor(p: PayloadPropModel, label: string): unknown {
  if (p.references) {
    if (p.kind === 'list') return [];
    return p.required ? ZERO_GUID : undefined;
  }
  switch (p.kind) {
    case 'list': return p.itemKind === 'string' || !p.itemKind ? [`${label}-t`.slice(0, maxLengthOf(p))] : [];
    case 'boolean': return 'true';
    case 'integer': return '3';
    case 'decimal': {
      // within every reading of the limit (src/schema/model.ts): product weight is 0.99 at most in SQL's
      const digits = decimalLimitOfEveryReading(decimalLimitOf(p)).digits;
      return digits === 0 ? '0.25' : digits < 2 ? '1.25' : '12.50';
    }
    case 'datetime': return '2024-03-04 05:06:07';
    case 'date': return '2024-03-04';
    case 'guid': return ZERO_GUID;
    case 'predefined': return knownValuesOf(p)[0];
    default: return `${label}-${p.name}`.slice(0, maxLengthOf(p));
  }
}

/**
 * A short description of a body's shape: 'json {error:{code,message}}',
 * 'json {success,message}', 'json array', 'text', 'html', 'empty', 'no answer'.
 */
export function shapeOf(ex: Exchange): string {
  if (ex.transportError) return 'no answer';
  const text = ex.response?.text ?? '';
  const type = (ex.response?.headers['content-type'] ?? '').toLowerCase();
  if (text.trim() === '') return 'empty';
  if (ex.json === undefined) return type.includes('html') || /^\s*</.test(text) ? 'html' : 'text';
  return `json ${describe(ex.json, 0)}`;
}

function describe(v: unknown, depth: number): string {
  if (Array.isArray(v)) return 'array';
  if (v && typeof v === 'object') {
    if (depth >= 2) return '{…}';
    const parts = Object.entries(v as Rec).map(([k, x]) => (x && typeof x === 'object' && !Array.isArray(x) ? `${k}:${describe(x, depth + 1)}` : k));
    return `{${parts.join(',')}}`;
  }
  return v === null ? 'null' : typeof v;
}

/**
 * The family of a shape, for consistency: content kind and top-level keys
 * ('json {error}', 'json {success,message}', 'text', 'html') — optional inner
 * keys (error.details) do not change the family.
 */
export function shapeFamily(ex: Exchange): string {
  const shape = shapeOf(ex);
  if (!shape.startsWith('json ')) return shape;
  const json = ex.json;
  if (json && typeof json === 'object' && !Array.isArray(json)) return `json {${Object.keys(json).sort().join(',')}}`;
  return shape;
}

/** Does a JSON answer carry records or a positive count? (the "no records" rules of §5) */
export function carriesData(json: unknown): string | undefined {
  if (Array.isArray(json)) return json.length > 0 ? `an array of ${json.length} record(s)` : undefined;
  if (json && typeof json === 'object') {
    const o = json as Rec;
    if ('count' in o && Number(o.count) > 0) return `a count of ${String(o.count)}`;
    if (typeof o.id === 'string' || typeof o.apikey === 'string') return 'a record object';
  }
  return undefined;
}

/** The ids of records, lowercased. */
export function idsOf(records: Rec[]): string[] {
  return records.map((x) => String(x?.id ?? '').toLowerCase());
}

export function sameIds(a: Rec[], b: Rec[]): boolean {
  const x = idsOf(a);
  const y = idsOf(b);
  return x.length === y.length && x.every((id, i) => id === y[i]);
}

export function disjoint(a: Rec[], b: Rec[]): boolean {
  const x = new Set(idsOf(a));
  return idsOf(b).every((id) => !x.has(id));
}

export { ProbeError };
