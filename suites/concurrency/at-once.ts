/**
 * What the concurrency checks share: how many requests a check sends at once
 * (declared per check, scaled by depth, never above --concurrency: the run's
 * in-flight gate would hold the rest back and the requests would no longer
 * overlap), requests sent together with their order recorded, and the key a
 * batch of the run's records is counted and looked up by.
 */
import { type CheckContext, type Depth, type ResourceModel } from '../../src/check/index.js';

/** Requests a check wants in flight together, by depth. */
export type AtOnce = Record<Depth, number>;

/**
 * The requests this check sends together: what it declares for the depth,
 * within --concurrency. Fewer than 2 is no concurrency at all: not judged.
 */
export function atOnce(ctx: CheckContext, declared: AtOnce): number {
  const n = Math.min(declared[ctx.config.depth], ctx.config.concurrency);
  if (n < 2) ctx.notJudged(`needs at least 2 requests in flight together; the run allows ${ctx.config.concurrency} (--concurrency)`);
  return n;
}

/** One request of a batch sent together: its index, and when it left and came back (ms since the batch started). */
export interface Timed<T> {
  i: number;
  value: T;
  sentMs: number;
  answeredMs: number;
}

/** Send every request at once; each result keeps when it left and was answered, for the report. */
export async function together<T>(sends: Array<() => Promise<T>>): Promise<Array<Timed<T>>> {
  const t0 = performance.now();
  return Promise.all(sends.map(async (send, i) => {
    const sentMs = Math.round(performance.now() - t0);
    const value = await send();
    return { i, value, sentMs, answeredMs: Math.round(performance.now() - t0) };
  }));
}

/** The order the answers came back in, for a failure's evidence. */
export function answerOrder<T>(timed: Array<Timed<T>>, label: (i: number) => string): string[] {
  return [...timed].sort((a, b) => a.answeredMs - b.answeredMs).map((t) => `${label(t.i)}: sent at +${t.sentMs} ms, answered at +${t.answeredMs} ms`);
}

/**
 * The unique payload property a batch of the run's records is counted and
 * looked up by: one whose array filter has its name, not the page title pair
 * (which key a target takes is an observation of its own). Slug first.
 */
export function lookupKey(r: ResourceModel): string {
  const aliased = new Set(r.filters.filter((f) => f.aliasOf).map((f) => f.aliasOf!));
  const fit = r.payload.filter((p) => p.unique && p.kind === 'string' && r.filters.some((f) => f.key === p.name && f.filter === 'array' && !f.aliasOf && !aliased.has(f.key)));
  const key = fit.find((p) => p.name === 'slug') ?? fit[0];
  if (!key) throw new Error(`${r.name}: no unique property with an array filter to look records up by`);
  return key.name;
}
