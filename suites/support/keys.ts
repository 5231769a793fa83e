/**
 * What the auth suites share (§5 Authentication): whether an answer to a
 * request with a wrong, missing or near-miss key served anything, and the
 * records and properties their write attempts work on.
 *
 * "No records": an answer is judged by its body, not its status — a 2xx whose
 * body is a records array with records, a count above 0, or a store object is
 * a leak; an error of any status, an empty array, or {count: '0'} is not.
 */
import {
  TargetError, carriesData, countPath, type CheckContext, type KeyChoice, type Rec, type Exchange, type ResourceModel,
} from '../../src/check/index.js';

export const lower = (v: unknown) => String(v ?? '').toLowerCase();

/** What a "no records" answer leaked, or undefined. No answer at all cannot be judged: a target error. */
export function leak(ex: Exchange): string | undefined {
  if (ex.transportError) throw new TargetError(`no answer: ${ex.transportError.code} ${ex.transportError.message}`, [ex]);
  const status = ex.response!.status;
  if (status < 200 || status > 299 || ex.json === undefined) return undefined;
  const data = carriesData(ex.json);
  return data ? `HTTP ${status} with ${data}` : undefined;
}

export function status(ex: Exchange): string {
  return ex.transportError ? `no answer (${ex.transportError.code})` : `HTTP ${ex.response!.status}`;
}

/** A value in a message: quoted, at most 40 characters. */
export function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 40)}…"` : s;
}

export const OPS = ['get', 'count'] as const;
export type ReadOp = (typeof OPS)[number];

/** The request of a read, for messages: `get /api/v1/products/get`, `count <the observed users count path>`. */
export const what = (r: ResourceModel, op: ReadOp) => `${op} ${op === 'count' ? countPath(r) ?? `${r.prefix}/count` : `${r.prefix}/get`}`;

/** The answer of one read (get or count) with a key choice; `extra` replaces the body (authentication: {}). */
export async function readOne(ctx: CheckContext, r: ResourceModel, op: ReadOp, key: KeyChoice, extra?: Rec): Promise<Exchange> {
  if (extra) return ctx.client.raw(op === 'get' ? `${r.prefix}/get` : countPath(r) ?? `${r.prefix}/count`, { ...extra });
  return op === 'get' ? (await ctx.client.get(r, { key })).exchange : (await ctx.client.count(r, { key, path: countPath(r) })).exchange;
}

/** A unique payload property with an array filter of its own (page title may only be filterable as name: avoided). */
export function uniqueKeyOf(r: ResourceModel): string | undefined {
  const aliased = new Set(r.filters.filter((f) => f.aliasOf).map((f) => f.aliasOf!));
  return r.payload.find((p) => p.unique && p.kind === 'string' && !aliased.has(p.name) && r.filters.some((f) => f.key === p.name && f.filter === 'array'))?.name;
}

/** The String property an update attempt changes: a non-unique one when there is one. */
export function updatePropOf(r: ResourceModel, uk: string): string | undefined {
  const strings = r.payload.filter((p) => p.kind === 'string' && p.name !== uk && (p.recordField ?? p.name) === p.name);
  return (strings.find((p) => !p.unique) ?? strings[0])?.name;
}

/** The create answer and get may show a String in either form: same text means unchanged. */
export function sameAsOriginal(rec: Rec, original: Rec, prop: string): boolean {
  return String(rec[prop]) === String(original[prop]);
}
