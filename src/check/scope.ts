/**
 * A scope owns the records a check (or a check file) created, and deletes them
 * when it closes — also when the check failed. Every query a check makes is
 * narrowed to its scope's ids, so parallel checks and the store's own data
 * never disturb it.
 */
import type { CallResult, Rec, StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { chunks, deletionLevels } from '../client/cleanup.js';
import { resource as resourceModel, type ResourceModel } from '../schema/model.js';
import { CheckFailure, TargetError, isTargetError } from './failure.js';
import { currentRuntime } from './runtime.js';

/** Bytes of data per create request: 1001 pages of long content would make one body of tens of MB. */
const CREATE_BODY_BUDGET = 4 * 1024 * 1024;

/** Items in order, cut into batches of at most `size` items and (but for a single item) `budget` bytes of JSON. */
export function batches<T>(items: T[], size: number, budget: number): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const n = Buffer.byteLength(JSON.stringify(item) ?? '');
    if (cur.length && (cur.length >= size || bytes + n > budget)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(item);
    bytes += n + 1;
  }
  if (cur.length) out.push(cur);
  return out;
}

export class Scope {
  private readonly created: Map<string, string[]>;
  /** the exchange of the last create request (createRaw's evidence) */
  private lastCreate?: Exchange;

  constructor(private readonly client: StoreClient, private readonly maxDataItems: number | null, shared?: Map<string, string[]>) {
    this.created = shared ?? new Map();
  }

  /**
   * Several scopes closed as one (a check file's fixtures, at its end): their
   * records deleted level by level, each level's lists side by side, through
   * the first scope's client — one round trip per level instead of per scope.
   */
  static closeTogether(scopes: readonly Scope[]): Promise<{ resource: string; ids: string[]; problem: string }[]> {
    if (!scopes.length) return Promise.resolve([]);
    const merged = new Map<string, string[]>();
    for (const s of scopes) {
      for (const [resource, ids] of s.created) merged.set(resource, [...(merged.get(resource) ?? []), ...ids]);
      s.created.clear();
    }
    return new Scope(scopes[0].client, scopes[0].maxDataItems, merged).close();
  }

  /** The same scope (the same records, deleted when it closes) sending through another client: an item's, for its evidence. */
  through(client: StoreClient): Scope {
    return new Scope(client, this.maxDataItems, this.created);
  }

  /** Ids this scope created, by resource, in creation order. */
  ids(resource: string): string[] {
    return [...(this.created.get(resource) ?? [])];
  }

  /**
   * Create records (split into batches the target accepts) and return them in
   * write form, in the order sent. A valid payload rejected is a failure. A
   * lost answer is resolved by the client (src/client/api.ts: the records are
   * looked up by their run-tagged values, the create sent again only when
   * none was stored); the create then has no answer to judge, a target error
   * — unless `acceptRecovered` (a caller that needs the records, not the
   * answer: fixtures, the concurrency checks): then the records found are
   * read back and returned as get shows them.
   *
   * The batches go side by side, within the run's gate: 1 001 records where a
   * store takes 10 a request were 101 creates one after another on the check's
   * chain (5.9 s at 30 ms), now one round trip. Every batch is settled before
   * this returns or throws, and what each created is remembered in the order
   * sent, so the scope deletes it whichever batch failed; the failure thrown
   * is the first batch's that failed, as when they went one by one.
   */
  async create(res: ResourceModel | string, items: Rec[], opts: { acceptRecovered?: boolean } = {}): Promise<Rec[]> {
    const r = typeof res === 'string' ? resourceModel(res) : res;
    const size = this.maxDataItems && this.maxDataItems > 0 ? this.maxDataItems : items.length || 1;
    const outcomes = await Promise.all(batches(items, size, CREATE_BODY_BUDGET).map((chunk) => this.createBatch(r, chunk, opts)));
    const out: Rec[] = [];
    let failure: unknown;
    for (const o of outcomes) {
      this.remember(r.name, o.ids);
      if (o.exchange) this.lastCreate = o.exchange;
      if (o.failure !== undefined) failure ??= o.failure;
      else out.push(...o.records);
    }
    if (failure !== undefined) throw failure;
    return out;
  }

  /** One batch's create (in halves after a 413), never rejecting: what it created, its records or why it failed. */
  private async createBatch(r: ResourceModel, chunk: Rec[], opts: { acceptRecovered?: boolean }): Promise<BatchOutcome> {
    let result: Awaited<ReturnType<StoreClient['create']>>;
    try {
      result = await this.client.create(r, chunk);
    } catch (e) {
      return { ids: [], records: [], failure: e };
    }
    // 413: a body limit of the target (the spec names none): the same items in halves, nothing was created
    if (result.exchange.response?.status === 413 && chunk.length > 1) {
      const halves = await Promise.all([chunk.slice(0, chunk.length >> 1), chunk.slice(chunk.length >> 1)].map((h) => this.createBatch(r, h, opts)));
      const failed = halves.find((h) => h.failure !== undefined);
      return { ids: halves.flatMap((h) => h.ids), records: halves.flatMap((h) => h.records), exchange: halves[1].exchange ?? halves[0].exchange, ...(failed ? { failure: failed.failure } : {}) };
    }
    const exchange = result.exchange;
    const got = Array.isArray(exchange.json) ? (exchange.json as Rec[]) : [];
    const ids = got.map((x) => x?.id).filter((id): id is string => typeof id === 'string');
    if (isTargetError(exchange)) {
      const found = result.recovered ?? [];
      ids.push(...found);
      if (opts.acceptRecovered && found.length === chunk.length) {
        try {
          const back = await this.client.byIds(r, found);
          if (back.ok && back.value!.length === chunk.length) return { ids, records: back.value!, exchange };
        } catch (e) {
          return { ids, records: [], exchange, failure: e };
        }
      }
      return { ids, records: [], exchange, failure: new TargetError(`create on ${r.prefix} got no usable answer: ${result.problem}`, [exchange]) };
    }
    if (!result.ok) {
      return {
        ids, records: [], exchange,
        failure: new CheckFailure({
          message: `create of ${chunk.length} valid ${r.title} payload(s) was not accepted: ${result.problem}`,
          expected: `2xx with an array of ${chunk.length} created record(s)`,
          actual: result.problem,
          evidence: [exchange],
        }),
      };
    }
    if (got.length !== chunk.length) {
      return {
        ids, records: [], exchange,
        failure: new CheckFailure({
          message: `create sent ${chunk.length} item(s) in data and got ${got.length} record(s) back`,
          expected: chunk.length,
          actual: got.length,
          evidence: [exchange],
        }),
      };
    }
    return { ids, records: got, exchange };
  }

  /**
   * Create, telling a refusal apart instead of failing: `ok` false with the
   * problem and the exchange when the target refused the items (a check that
   * probes which value is refused); a lost answer is still a TargetError.
   */
  async createRaw(res: ResourceModel | string, items: Rec[]): Promise<{ ok: boolean; value?: Rec[]; problem?: string; exchange: Exchange }> {
    try {
      const value = await this.create(res, items);
      return { ok: true, value, exchange: this.lastCreate! };
    } catch (e) {
      if (e instanceof CheckFailure && e.detail.evidence?.length) return { ok: false, problem: String(e.detail.actual ?? e.detail.message), exchange: e.detail.evidence[0] };
      throw e;
    }
  }

  /** Own ids created outside create() (a check calling the client itself): deleted when the scope closes. */
  adopt(resource: string, ids: string[]): void {
    this.remember(resource, ids);
  }

  /** Forget ids a check deleted itself (so cleanup does not delete them twice). */
  forget(resource: string, ids: string[]): void {
    const gone = new Set(ids.map((x) => x.toLowerCase()));
    this.created.set(resource, (this.created.get(resource) ?? []).filter((id) => !gone.has(id.toLowerCase())));
  }

  private remember(resource: string, ids: string[]): void {
    this.created.set(resource, [...(this.created.get(resource) ?? []), ...ids]);
  }

  /**
   * Delete everything this scope created; returns what could not be deleted.
   * With --keep-data (the run's config) nothing is deleted: the records stay,
   * the ledger keeps them for `storecheck sweep`.
   */
  async close(): Promise<{ resource: string; ids: string[]; problem: string }[]> {
    if (currentRuntime()?.config.keepData) {
      this.created.clear();
      return [];
    }
    const leftovers: { resource: string; ids: string[]; problem: string }[] = [];
    // records that reference others go first (products before their categories and collections); the
    // resources of one level, and the lists of one resource, go side by side: one round trip per level,
    // not one per list (a fixture of 1 001 records in lists of 50 took 20 deletes one after another)
    for (const level of deletionLevels([...this.created.keys()])) {
      await Promise.all(level.flatMap((resource) => this.deleteLists(resource, leftovers)));
      for (const resource of level) this.created.delete(resource);
    }
    return leftovers;
  }

  /** The deletes of one resource's ids, in lists of the data limit (100 when none was observed). */
  private deleteLists(resource: string, leftovers: { resource: string; ids: string[]; problem: string }[]): Promise<void>[] {
    const ids = this.created.get(resource) ?? [];
    const size = this.maxDataItems && this.maxDataItems > 0 ? this.maxDataItems : 100;
    return chunks(ids, size).map(async (chunk) => {
      let result: CallResult<Rec> | undefined;
      try {
        result = await this.client.delete(resource, chunk);
      } catch (e) {
        leftovers.push({ resource, ids: chunk, problem: (e as Error).message });
        return;
      }
      if (!result.ok) leftovers.push({ resource, ids: chunk, problem: result.problem ?? 'delete failed' });
    });
  }
}

/** What one batch of a create did: the ids it created (remembered whatever else happened), its records, or why it failed. */
interface BatchOutcome {
  ids: string[];
  records: Rec[];
  exchange?: Exchange;
  failure?: unknown;
}

export type { Exchange };
