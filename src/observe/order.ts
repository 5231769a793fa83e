/**
 * order.default (§4 "Order of returned records: not shown"): 'createdon asc',
 * 'createdon desc', 'id asc', 'id desc' or 'unordered'.
 *
 * The default page of two resources that carry createdon (read-only ones
 * first): an ordering is a candidate when every consecutive pair of both pages
 * respects it (ties allowed for createdon) and at least one pair shows it
 * strictly. The first candidate in the list above wins (createdon and id only
 * agree when ids grow with time, and then both describe the order); none →
 * 'unordered'.
 */
import type { Rec } from '../client/api.js';
import { parseDateTime } from '../values/index.js';
import { couldNotTell, observation, type Probe } from './types.js';
import type { Exchange } from '../client/http.js';

const KEY = 'order.default';
export type OrderName = 'createdon asc' | 'createdon desc' | 'id asc' | 'id desc';
export const ORDERS: readonly OrderName[] = ['createdon asc', 'createdon desc', 'id asc', 'id desc'];

/** -1/0/1 between consecutive records for one ordering key; undefined when a value is unusable. */
function step(a: Rec, b: Rec, key: 'createdon' | 'id'): number | undefined {
  if (key === 'id') {
    const x = String(a.id ?? '').toLowerCase();
    const y = String(b.id ?? '').toLowerCase();
    return x < y ? 1 : x > y ? -1 : 0;
  }
  const x = parseDateTime(a.createdon);
  const y = parseDateTime(b.createdon);
  if (x === undefined || y === undefined) return undefined;
  return Math.sign(y - x);
}

/** Does this list follow the ordering? 'strict' when at least one step shows it. */
export function follows(records: Rec[], order: OrderName): 'no' | 'yes' | 'strict' {
  const [key, dir] = order.split(' ') as ['createdon' | 'id', 'asc' | 'desc'];
  const want = dir === 'asc' ? 1 : -1;
  let strict = false;
  for (let i = 1; i < records.length; i++) {
    const s = step(records[i - 1], records[i], key);
    if (s === undefined) return 'no';
    if (s === -want) return 'no';
    if (s === 0 && key === 'id') return 'no';
    if (s === want) strict = true;
  }
  return strict ? 'strict' : 'yes';
}

/** The ordering a set of pages shows (each page judged on its own). */
export function orderOf(pages: Rec[][]): OrderName | 'unordered' | undefined {
  const usable = pages.filter((p) => p.length >= 2);
  if (!usable.length) return undefined;
  for (const o of ORDERS) {
    const verdicts = usable.map((p) => follows(p, o));
    if (verdicts.every((v) => v !== 'no') && verdicts.some((v) => v === 'strict')) return o;
  }
  return 'unordered';
}

export const orderProbe: Probe = {
  name: 'default order',
  keys: [KEY],
  phase: 1,
  async run({ shared }) {
    const candidates = (await shared.byCount(3, (r) => r.audit)).slice(0, 2);
    if (!candidates.length) return { [KEY]: couldNotTell('no resource with createdon holds 3 records or more') };
    const pages = await Promise.all(candidates.map((c) => shared.page(c.r.name)));
    const exchanges: Exchange[] = pages.map((p) => p.exchange);
    const found = orderOf(pages.map((p) => p.records));
    const where = candidates.map((c, i) => `${c.r.prefix}/get (${pages[i].records.length} records)`).join(' and ');
    if (found === undefined) return { [KEY]: couldNotTell(`the default pages of ${where} hold fewer than 2 records`, ...exchanges) };
    if (found === 'unordered') return { [KEY]: observation('unordered', `the default pages of ${where} follow none of createdon asc/desc, id asc/desc`, ...exchanges) };
    return { [KEY]: observation(found, `the default pages of ${where} are ordered by ${found}`, ...exchanges) };
  },
};
