/**
 * Helpers shared by the write suites (lifecycle, versions, limits): "is the
 * record the payload that was sent?", by meaning, property by property, and
 * the few calls every write check makes (get/count by ids, records created
 * and deleted per property case).
 *
 * Meaning, not form (§4 "Formatting differs by operation": a client tolerates
 * both forms): '1'/'true', '12,50'/'12.5', '2024-01-02'/'2024-01-02 00:00:00'
 * are the same value here; the format suite judges the forms.
 */
import {
  observed, countPath, eventually, describeValue, sameStoredValue, comparableProps, fieldOf, textUnderTrimming, textUnderNormalization, listUnderDuplicates, type CheckContext, type Rec,
  type Exchange, type FieldModel, type PayloadPropModel, type ResourceModel, type ScalarKind,
} from '../../src/check/index.js';
import { batchArb, looseKey, payloadArb, updateArb, type Payload, type PayloadContext } from '../../generators/index.js';
import { chunked } from './classes.js';

export type { Form } from '../../src/check/index.js';
type Form = 'get' | 'write';

export interface Mismatch {
  prop: string;
  /** the record field the property shows as */
  field: string;
  sent: unknown;
  got: unknown;
  note?: string;
}

const lower = (s: unknown) => String(s).toLowerCase();

export { comparableProps, fieldOf } from '../../src/check/index.js';

/** Sorted strings: tags are compared as a set (the spec does not say their order). */
const sortedStrings = (xs: unknown[]) => xs.map((x) => String(x)).sort();

/**
 * A String sent as the store's observed trimming stores it (text.trimming:
 * trimmed on a store that trims its input; as sent otherwise, and where a
 * store refuses it: such values are not sent there), in the normalization
 * form it was observed to store (text.normalization: NFC where it normalizes).
 */
function asStored(sent: unknown): unknown {
  if (typeof sent !== 'string') return sent;
  const x = textUnderTrimming(observed('text.trimming'), textUnderNormalization(observed('text.normalization'), sent));
  return x === 'refused' ? sent : x;
}

/** Why `got` does not show `sent` for property p (field f), or undefined when it does. */
function differs(p: PayloadPropModel, f: FieldModel, sent: unknown, got: unknown, names?: Map<string, string>): string | undefined {
  if (p.kind === 'list') {
    if (!Array.isArray(sent)) return undefined;
    if (!Array.isArray(got)) return `${f.name} is not a list`;
    if (p.references) {
      // categoryid [guid] -> categories [{id, name}]
      const want = new Set(sent.map(lower));
      const ids = got.map((x) => (x && typeof x === 'object' ? (x as Rec).id : undefined));
      const have = new Set(ids.filter((x) => typeof x === 'string').map(lower));
      if (ids.length !== want.size || have.size !== want.size || [...want].some((id) => !have.has(id))) {
        return `expected items {id, name} for exactly the ${want.size} id(s) sent (compared as a set)`;
      }
      if (names) {
        for (const x of got as Rec[]) {
          const name = names.get(lower(x.id));
          if (name !== undefined && x.name !== name) return `item ${x.id} has name ${describeValue(x.name)}, the referenced ${p.references} is named ${describeValue(name)}`;
        }
      }
      return undefined;
    }
    // tags [string] -> tags [{tag}]
    const itemField = f.itemFields?.length === 1 ? f.itemFields[0].name : undefined;
    const strings = got.map((x) => (itemField ? (x && typeof x === 'object' ? (x as Rec)[itemField] : undefined) : x));
    if (strings.some((s) => typeof s !== 'string')) return `expected items ${itemField ? `{${itemField}: String}` : 'String'}`;
    // a list holding an item twice as the store's observed reading stores it (lists.duplicates: merged into one by a set)
    const a = sortedStrings(listUnderDuplicates(observed('lists.duplicates'), sent.map(asStored)));
    const b = sortedStrings(strings);
    if (a.length !== b.length || a.some((x, i) => x !== b[i])) return 'compared in any order (the spec does not say their order)';
    return undefined;
  }
  if (sameStoredValue(p.kind as ScalarKind, asStored(sent), got)) return undefined;
  if (asStored(sent) === sent) return '';
  return `expected ${describeValue(asStored(sent))}: this store ${typeof sent === 'string' && textUnderNormalization(observed('text.normalization'), sent) !== sent ? 'NFC-normalizes strings on input (text.normalization)' : 'trims strings on input (text.trimming)'}`;
}

/**
 * Every payload property present in `payload` compared with the record field
 * it shows as (`recordField`: categoryid -> categories), by meaning.
 * `names` (id -> name) also checks the name of referenced records.
 */
export function payloadMismatches(
  r: ResourceModel, payload: Payload | Rec, rec: Rec | undefined, form: Form,
  opts: { names?: Map<string, string>; only?: (p: PayloadPropModel) => boolean } = {},
): Mismatch[] {
  const out: Mismatch[] = [];
  for (const p of comparableProps(r, form)) {
    if (!(p.name in payload) || payload[p.name] === undefined) continue;
    if (opts.only && !opts.only(p)) continue;
    const field = p.recordField ?? p.name;
    const f = fieldOf(r, form, field)!;
    const sent = payload[p.name];
    const got = rec?.[field];
    const note = differs(p, f, sent, got, opts.names);
    if (note !== undefined) out.push({ prop: p.name, field, sent, got, note: note || undefined });
  }
  return out;
}

/** Canonical JSON: object keys sorted, so two equal values print alike. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Rec)[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** Do two readings of one record field hold the same value? Scalars by meaning, lists as sets of items. */
export function sameFieldValue(f: FieldModel, a: unknown, b: unknown): boolean {
  if (f.kind === 'array') {
    if (!Array.isArray(a) || !Array.isArray(b)) return canonical(a) === canonical(b);
    const x = a.map(canonical).sort();
    const y = b.map(canonical).sort();
    return x.length === y.length && x.every((s, i) => s === y[i]);
  }
  if (f.kind === 'object' || f.kind === 'any') return canonical(a) === canonical(b);
  if (typeof a === 'string' && typeof b === 'string' && a === b) return true;
  return sameStoredValue(f.kind, a, b);
}

/** The documented fields whose value differs between two readings of one record. */
export function changedFields(r: ResourceModel, before: Rec, after: Rec | undefined): Mismatch[] {
  const out: Mismatch[] = [];
  for (const f of r.fields) {
    if (!sameFieldValue(f, before[f.name], after?.[f.name])) out.push({ prop: f.name, field: f.name, sent: before[f.name], got: after?.[f.name] });
  }
  return out;
}

export function mismatchText(m: Mismatch, sentWord = 'sent'): string {
  const as = m.field !== m.prop ? ` (shown as ${m.field})` : '';
  return `${m.prop}${as}: ${sentWord} ${describeValue(m.sent)}, got ${describeValue(m.got)}${m.note ? ` — ${m.note}` : ''}`;
}

export function mismatchesText(ms: Mismatch[], sentWord = 'sent', max = 4): string {
  const shown = ms.slice(0, max).map((m) => mismatchText(m, sentWord)).join('; ');
  return ms.length > max ? `${shown} (+${ms.length - max} more)` : shown;
}

/** Records indexed by lower-cased id. */
export function indexById(records: Rec[]): Map<string, Rec> {
  const m = new Map<string, Rec>();
  for (const x of records) if (x && typeof x.id === 'string') m.set(lower(x.id), x);
  return m;
}

/**
 * The response record answering payload i: the one carrying the payload's
 * unique values (names, slugs and codes carry run tag + token); when none
 * does (the values came back changed), the one at the same position.
 */
export function matchResponse(r: ResourceModel, payloads: Array<Payload | Rec>, records: Rec[]): Array<Rec | undefined> {
  const unique = r.payload.filter((p) => p.unique && p.kind === 'string');
  return payloads.map((payload, i) => {
    const hit = records.find((rec) => unique.some((p) => typeof payload[p.name] === 'string' && rec?.[p.recordField ?? p.name] === payload[p.name]));
    return hit ?? records[i];
  });
}

/**
 * Get by an id filter, with a page size large enough when the ids may exceed a
 * default page. `visible` says when the read shows the write just made (the
 * records created, the change applied): a lagging store is read again until it
 * does or the visibility deadline passes (src/check/visibility.ts); the last
 * read is returned either way, for the caller to judge.
 */
export async function getByIds(ctx: CheckContext, r: ResourceModel, ids: string[], what: string, visible: (byId: Map<string, Rec>) => boolean = (m) => ids.every((id) => m.has(lower(id)))): Promise<{ records: Rec[]; byId: Map<string, Rec>; exchange: Exchange }> {
  const defaultSize = observed('pagination.defaultPageSize') ?? 10;
  const pagination = ids.length > Math.min(defaultSize, 10) ? { pageSize: Math.max(ids.length, 1) } : undefined;
  const { result } = await eventually(async () => {
    const res = await ctx.client.get(r, { filters: { id: ids }, pagination });
    const records = ctx.ok(res, what);
    return { records, byId: indexById(records), exchange: res.exchange };
  }, (x) => visible(x.byId));
  return result;
}

/** Count by an id filter; `visible` as for getByIds (e.g. the count a delete should leave). */
export async function countByIds(ctx: CheckContext, r: ResourceModel, ids: string[], what: string, visible: (count: number) => boolean = () => true): Promise<{ count: number; exchange: Exchange }> {
  const { result } = await eventually(async () => {
    const res = await ctx.client.count(r, { filters: { id: ids }, path: countPath(r) });
    return { count: ctx.ok(res, what), exchange: res.exchange };
  }, (x) => visible(x.count));
  return result;
}

/** The last exchange of the check (the one a step just made). */
export const last = (ctx: CheckContext): Exchange => ctx.exchanges[ctx.exchanges.length - 1];

/**
 * Create `items` in the check's scope, run `fn` on the created records (in the
 * order sent) and delete what is left when it ends, also when it failed — a
 * shrunk property case re-sends the same unique values, so its predecessor
 * must be gone. `fn` may delete some records itself (it reports them through
 * the `deleted` callback).
 */
export async function withCreated<T>(
  ctx: CheckContext, r: ResourceModel, items: Array<Payload | Rec>,
  fn: (created: Rec[], createExchange: Exchange, deleted: (ids: string[]) => void) => Promise<T>,
): Promise<T> {
  const before = new Set(ctx.scope.ids(r.name).map(lower));
  let gone = new Set<string>();
  try {
    const created = await ctx.scope.create(r, items as Rec[]);
    return await fn(created, last(ctx), (ids) => {
      gone = new Set([...gone, ...ids.map(lower)]);
      ctx.scope.forget(r.name, ids);
    });
  } finally {
    // --keep-data: the records stay (the scope keeps them too; the ledger has them for sweep)
    const mine = ctx.config.keepData ? [] : ctx.scope.ids(r.name).filter((id) => !before.has(lower(id)) && !gone.has(lower(id)));
    // in lists the store takes, side by side; what cannot be deleted here stays in the scope, which deletes it when the check ends
    await Promise.all(chunked(mine, observed('limits.maxDataItems')).map(async (chunk) => {
      const res = await ctx.client.delete(r, chunk).catch(() => undefined);
      if (res?.ok) ctx.scope.forget(r.name, chunk);
    }));
  }
}

/** The generator context of a run: its tag and the records references may point at. */
export function payloadContext(ctx: CheckContext, refs: Partial<Record<string, string[]>> = {}): PayloadContext {
  return { tag: ctx.config.runTag, refs };
}

/** Sleep (the versions checks wait for the target's clock to tick a second). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Strings whose length is the same however a target counts it. §8 counts
 * "characters"; the suite reads that as code points, but a target may count
 * UTF-16 units (an emoji is two), and the generators' strings of random length
 * may hold astral characters up to maxLength code points — more than maxLength
 * UTF-16 units. The write suites are not about length (limits.check.ts is, with
 * BMP-only strings at the boundary), so they keep every generated string within
 * maxLength UTF-16 units too: characters are dropped from the end (a trailing
 * space becomes 'x': servers commonly trim) and list items made equal by the
 * cut are dropped.
 */
export function fitUtf16(r: ResourceModel, payload: Payload): Payload {
  const out: Payload = { ...payload };
  for (const p of r.payload) {
    const max = p.maxLength;
    const v = out[p.name];
    if (!max) continue;
    if (typeof v === 'string' && v.length > max) out[p.name] = fitString(v, max);
    else if (Array.isArray(v) && !p.references && v.some((x) => x.length > max)) {
      const seen = new Set<string>();
      out[p.name] = v.map((x) => fitString(x, max)).filter((x) => !seen.has(looseKey(x)) && !!seen.add(looseKey(x)));
    }
  }
  return out;
}

function fitString(s: string, max: number): string {
  if (s.length <= max) return s;
  const cps = Array.from(s);
  let units = s.length;
  while (units > max) units -= cps.pop()!.length;
  if (cps.length && /\s/u.test(cps[cps.length - 1])) cps[cps.length - 1] = 'x';
  return cps.join('');
}

/** The generators' arbitraries with fitUtf16 applied. */
export const payloads = (r: ResourceModel, pctx: PayloadContext) => payloadArb(r.name, pctx).map((p) => fitUtf16(r, p));
export const batches = (r: ResourceModel, pctx: PayloadContext, size: { minLength: number; maxLength: number }) =>
  batchArb(r.name, pctx, size).map((b) => b.map((p) => fitUtf16(r, p)));
export const updates = (r: ResourceModel, pctx: PayloadContext, mode: 'partial' | 'full') =>
  updateArb(r.name, pctx, { mode }).map((p) => fitUtf16(r, p));

const pick = (ms: Mismatch[], key: 'sent' | 'got') => Object.fromEntries(ms.map((m) => [m.prop, m[key]]));

/** Fail with the mismatched properties: what was sent (or before), what came back, where the spec says so. */
export function failValues(ctx: CheckContext, what: string, ms: Mismatch[], rule: string, evidence: Exchange[], sentWord = 'sent'): never {
  return ctx.fail({
    message: `${what}: ${mismatchesText(ms, sentWord)} (${rule})`,
    expected: pick(ms, 'sent'),
    actual: pick(ms, 'got'),
    evidence,
  });
}

/** The ids of created records, or a failure naming the record without one. */
export function idsOf(ctx: CheckContext, created: Rec[], ex: Exchange): string[] {
  return created.map((rec, i) => {
    if (typeof rec?.id !== 'string') ctx.fail({ message: `create answered record ${i} without a string id (§4 Responses)`, actual: rec, evidence: [ex] });
    return rec.id as string;
  });
}
