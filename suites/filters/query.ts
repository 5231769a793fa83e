/**
 * Asking the target one filter case: the get (pages walked) and the count with
 * the same filters go out together, and the answer is shared by the checks of
 * the resource that ask the same case (the filter check judges the records,
 * the count check compares the count with them) — one pair of requests per
 * case and value, whichever check asks first.
 */
import {
  andMode, collation, dateOnlyBound, inclusive, NotJudged, TargetError, isTargetError, countPath, isRejected, walk, describeValue, type CheckContext,
  type WalkResult, type Rec, type Exchange, type ResourceModel,
} from '../../src/check/index.js';
import type { Scoped } from './scoped.js';

// the readings the oracle judges under live in the kit (src/check/oracle.ts)
export { andMode, collation, dateOnlyBound, inclusive };

/**
 * The filters of a query: the id filter of the scope beside the ones under
 * test when filters combine with AND. When they combine with OR the id filter
 * would widen the result instead, so the filter goes alone: the query then
 * reaches the whole store, its pages are walked (bounded), every record
 * returned must satisfy the filter and every scoped record that satisfies it
 * must be among them (judged only when the walk reached the last page).
 */
export function scopedFilters(s: Scoped, filters: Rec): Rec {
  return andMode() ? { id: s.ids, ...filters } : { ...filters };
}

/** Filters for a message: a long id list said as its length. */
export function showFilters(filters: Rec): string {
  const shown = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, k === 'id' && Array.isArray(v) && v.length > 3 ? `[${v.length} ids]` : v]));
  return describeValue(shown);
}

export type CountAnswer =
  | { ok: true; value: number; exchange: Exchange }
  | { ok: false; problem: string; exchange: Exchange }
  /** no path counts this resource on the target (users, observation users.countPath): the get is still judged */
  | { ok: false; notJudged: string };

export interface CaseAnswer {
  filters: Rec;
  get: WalkResult;
  count: CountAnswer;
}

const answers = new Map<string, Promise<CaseAnswer>>();

function keyOf(r: ResourceModel, filters: Rec, count: boolean): string {
  return `${r.name}\u0000${count ? 'get+count' : 'get'}\u0000${JSON.stringify(filters)}`;
}

const NOT_COUNTED: CountAnswer = { ok: false, notJudged: 'not counted: this case is judged on get alone' };

/** The count of a case (users count at the observed path, §4). A 5xx or no answer is a target error. */
async function countCase(ctx: CheckContext, r: ResourceModel, filters: Rec): Promise<CountAnswer> {
  let path: string | undefined;
  try {
    path = countPath(r);
  } catch (e) {
    if (e instanceof NotJudged) return { ok: false, notJudged: e.reason };
    throw e;
  }
  const res = await ctx.client.count(r, { filters, path });
  if (res.ok) return { ok: true, value: res.value!, exchange: res.exchange };
  if (isTargetError(res.exchange)) throw new TargetError(`${r.title} count with filters ${showFilters(filters)}: ${res.problem}`, [res.exchange]);
  return { ok: false, problem: res.problem ?? 'not accepted', exchange: res.exchange };
}

/**
 * The get (walked) and the count of a case, asked once per run and filters:
 * later askers of the same case get the same answer. `fresh` asks again (a
 * disagreement seen under OR combination, where other checks' writes show).
 * `count: false`: the get alone (a case judged on get only, to bound requests).
 */
export function ask(ctx: CheckContext, s: Scoped, filters: Rec, fresh = false, opts: { count?: boolean } = {}): Promise<CaseAnswer> {
  const counted = opts.count !== false;
  const key = keyOf(s.r, filters, counted);
  let p = fresh ? undefined : answers.get(key);
  if (!p) {
    p = Promise.all([walk(ctx.client, s.r, filters), counted ? countCase(ctx, s.r, filters) : NOT_COUNTED]).then(([get, count]) => ({ filters, get, count }));
    answers.set(key, p);
    // a target error is not remembered: the next asker tries again
    p.catch(() => answers.delete(key));
  }
  return p;
}

export const rejected = isRejected;

type Walked = Exclude<WalkResult, { problem: string }>;

/**
 * Under OR combination the filters are not scoped by the id filter, so a walk
 * reaches the run's other records, which other checks create and delete
 * meanwhile: a delete while the pages are walked shifts later records onto a
 * page already read, and a walk that reached its last page can still miss a
 * record of the scope that was there all along. When `missing` finds records
 * of the scope the walk left out, the case is walked again (at most twice
 * more) and the records of every walk are judged together: a record a store
 * leaves out of every walk is left out by the store, one it returned in some
 * walk was shifted by the churn. Every walk's records are kept, so a record
 * that does not satisfy the filter in any walk is still judged. Under AND (the
 * id filter scopes the case to the check's own records) one walk is the answer.
 */
export async function settledWalk(ctx: CheckContext, s: Scoped, filters: Rec, first: Walked, missing: (get: Walked) => number): Promise<Walked> {
  if (andMode() || !first.complete || missing(first) === 0) return first;
  const seen = new Map(first.records.map((x) => [String(x?.id).toLowerCase(), x]));
  let last = first;
  for (let again = 0; again < 2; again++) {
    const next = await walk(ctx.client, s.r, filters);
    if (isRejected(next) || !next.complete) return first;
    for (const x of next.records) if (!seen.has(String(x?.id).toLowerCase())) seen.set(String(x?.id).toLowerCase(), x);
    last = { ...next, records: [...seen.values()], exchanges: [...first.exchanges, ...next.exchanges] };
    if (missing(last) === 0) break;
  }
  return last;
}
