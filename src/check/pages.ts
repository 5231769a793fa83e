/**
 * The one page reader and walker (§4 Common rules: `pagination {pageNumber,
 * pageSize}`; §8: a get returns at most 1000 records). Page numbers start at
 * the observed first page (pagination.firstPageNumber) and a page never asks
 * for more than the observed largest page (pagination.maxPageSize): nothing
 * the spec leaves open is assumed.
 */
import type { CallResult, Rec, StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { GET_CAP, type ResourceModel } from '../schema/model.js';
import { isTargetError, NotJudged, TargetError } from './failure.js';
import { observed } from './runtime.js';

export interface PageSettings {
  /** the number of the first page */
  first: number;
  /** the largest page the target returns */
  max: number;
}

/** What the observations say about pages (worker side). */
export function pageSettings(): PageSettings {
  return { first: observed('pagination.firstPageNumber'), max: Math.min(GET_CAP, observed('pagination.maxPageSize')) };
}

/** One page: `index` counts from 0 whatever the target's first page number. */
export function readPage(client: StoreClient, r: ResourceModel, opts: { filters?: Rec; index?: number; pageSize?: number }, settings: PageSettings = pageSettings()): Promise<CallResult<Rec[]>> {
  const pagination = { pageNumber: settings.first + (opts.index ?? 0), ...(opts.pageSize !== undefined ? { pageSize: opts.pageSize } : {}) };
  return client.get(r, { ...(opts.filters ? { filters: opts.filters } : {}), pagination });
}

export interface Walk {
  /** distinct records of every page walked, in the order first seen */
  records: Rec[];
  /** every page was walked (false: stopped at the bound, or the pages stopped bringing new records) */
  complete: boolean;
  exchanges: Exchange[];
  /** the page size asked for */
  pageSize: number;
}

export interface Rejected {
  rejected: true;
  problem: string;
  status?: number;
  exchanges: Exchange[];
}

export type WalkResult = Walk | Rejected;

export const isRejected = (w: WalkResult): w is Rejected => 'rejected' in w;

/**
 * Walk the pages of a get with these filters while they come back full, up to
 * `maxPages`. A 4xx is returned as rejected (the caller judges it); no answer
 * or a 5xx is a TargetError.
 */
export async function walk(client: StoreClient, r: ResourceModel, filters: Rec | undefined, opts: { pageSize?: number; maxPages?: number; settings?: PageSettings } = {}): Promise<WalkResult> {
  const settings = opts.settings ?? pageSettings();
  const size = Math.max(1, Math.min(opts.pageSize ?? 250, settings.max));
  const maxPages = opts.maxPages ?? 4;
  const seen = new Map<string, Rec>();
  const exchanges: Exchange[] = [];
  for (let i = 0; i < maxPages; i++) {
    const res = await readPage(client, r, { filters, index: i, pageSize: size }, settings);
    exchanges.push(res.exchange);
    if (!res.ok) {
      if (isTargetError(res.exchange)) throw new TargetError(`${r.title} get: ${res.problem}`, [res.exchange]);
      return { rejected: true, problem: res.problem ?? 'not accepted', status: res.exchange.response?.status, exchanges };
    }
    const page = res.value ?? [];
    let fresh = 0;
    for (const rec of page) {
      const id = String(rec?.id ?? '').toLowerCase();
      if (!seen.has(id)) {
        seen.set(id, rec);
        fresh++;
      }
    }
    if (page.length < size) return { records: [...seen.values()], complete: true, exchanges, pageSize: size };
    if (fresh === 0) break;
  }
  return { records: [...seen.values()], complete: false, exchanges, pageSize: size };
}

/**
 * The count path of a resource: users at the observed path (§4 documents the
 * shipping methods path for them). A target where no path counts users cannot
 * have a users count judged: the item (or check) asking is not judged.
 */
export function countPath(r: ResourceModel): string | undefined {
  if (!r.documentedCountPath) return undefined;
  const path = observed('users.countPath');
  if (path === false) throw new NotJudged(`no path counts the records of ${r.prefix} on this target: ${r.prefix}/count is absent and the documented ${r.documentedCountPath} counts something else (observation users.countPath, §4)`);
  return path;
}
