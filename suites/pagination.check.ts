/**
 * Pagination and the cap (§4 Common rules: `pagination {pageNumber,
 * pageSize}`; §4 Responses; §8 "A get returns at most 1000 records"), for
 * every list resource (items of src/items/reads.ts):
 *   <r>.pagination.page-size     #explicit            a full page has pageSize records unless fewer remain
 *                                #below-one           pageSize "0" and "-2": refused, no records, or the default page
 *   <r>.pagination.partition     #walk                consecutive pages partition the records (a walk past page 10 too)
 *   <r>.pagination.count-total   #total #over-1000    count equals what get can walk; not capped at 1000
 *   <r>.pagination.cap-1000      #default-get #page-size-over-cap   no get returns more than 1000
 *
 * What the spec leaves open comes from the observations (first page number,
 * largest page); order is never assumed: pages are compared as sets. The small
 * set the page checks walk: 9 records created per writable resource, or 9
 * existing ones; every query is scoped by an id filter on it (one filter, so
 * filters.combination does not matter). The cap and the uncapped count need
 * more than 1000 records: a writable resource gets 1001 copies of one
 * generated record (one create, or batches the target accepts); a read-only
 * resource is judged when it holds more than 1000 and is otherwise not judged.
 * The walk past page 10 (longWalk): the 1001 copies on a writable resource,
 * the records one get returns on a read-only one.
 */
import fc from 'fast-check';
import {
  GET_CAP,
  check, fixture, countPath, isRejected, isTargetError, pageSettings, readPage, walk, checksOf, resources, type CheckContext,
  type Fixture, type ItemContext, type Rec, type Exchange, type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import { batchArb } from '../generators/index.js';
import { createCopies } from './support/copies.js';
import { longWalkPlan, recordsOnPage } from './pagination/long-walk.js';
import { walkKnownSet } from './pagination/walk.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = {
  rules: ['pagination.page-size', 'pagination.partition', 'pagination.count-total', 'pagination.cap-1000'],
};

const LIST = resources().filter((r) => !r.single && r.operations.includes('get'));
const SET_SIZE = 9;
const CAP = GET_CAP;

const lower = (v: unknown) => String(v ?? '').toLowerCase();
const idsOf = (records: Rec[]) => records.map((x) => lower(x?.id));

interface PageSet {
  /** ids of the set as the store writes them: an id filter that compares exactly (filters.idCase sensitive) finds them only so */
  ids: string[];
  /** the records as one get of the whole set returned them */
  whole: Rec[];
  source: 'created' | 'existing';
  exchanges: Exchange[];
}

// ---------------------------------------------------------------- the small set

const created = new Map<string, Fixture<string[]>>(
  LIST.filter((r) => r.writable).map((r) => [r.name, fixture(async (f) => {
    const items = f.sample(batchArb(r.name, { tag: f.config.runTag }, { minLength: SET_SIZE, maxLength: SET_SIZE }), `pagination.small-set.${r.name}`);
    return (await f.scope.create(r, items)).map((x) => String(x.id));
  })]),
);

const existing = new Map<string, Fixture<string[]>>(
  LIST.filter((r) => !r.writable).map((r) => [r.name, fixture(async (f) => {
    const res = await readPage(f.client, r, { pageSize: SET_SIZE });
    if (!res.ok) return [];
    return (res.value ?? []).map((x) => String(x?.id));
  })]),
);

async function setOf(ctx: CheckContext, r: ResourceModel): Promise<PageSet> {
  const ids = await (r.writable ? created : existing).get(r.name)!.get(ctx);
  if (!ids.length) ctx.notJudged(`${r.prefix} holds no records to page through`);
  const res = await ctx.client.get(r, { filters: { id: ids } });
  const whole = ctx.ok(res, `get of ${r.prefix} filtered by the ids of its ${ids.length} records`);
  if (!whole.length) ctx.notJudged(`a get of ${r.prefix} filtered by ${ids.length} known ids returned nothing (judged by ${r.name}.filters.id)`);
  return { ids, whole, source: r.writable ? 'created' : 'existing', exchanges: [res.exchange] };
}

const describeSet = (r: ResourceModel, s: PageSet) => `${s.whole.length} ${s.source === 'created' ? 'records created by the check' : 'existing records'} of ${r.prefix}, scoped by an id filter`;

async function page(ctx: CheckContext, r: ResourceModel, filters: Rec, index: number, pageSize: number): Promise<{ records: Rec[]; exchange: Exchange }> {
  const res = await readPage(ctx.client, r, { filters, index, pageSize });
  return { records: ctx.ok(res, `get of ${r.prefix} page ${pageSettings().first + index} (pageSize ${pageSize})`), exchange: res.exchange };
}

// ---------------------------------------------------------------- the big set (> 1000 records)

interface BigSet {
  /** ids of the records, when the run created them (writable resources); none: the whole resource */
  ids?: string[];
  held: number;
  what: string;
  exchanges: Exchange[];
}

/** 1001 copies of one generated record: the cap and an uncapped count can only be judged on more than 1000. */
const createdBig = new Map<string, Fixture<string[]>>(
  LIST.filter((r) => r.writable).map((r) => [r.name, fixture((f) => createCopies(f, r, CAP + 1, 'pg'))]),
);

const counts = new Map<string, Promise<number>>();

/**
 * How many records a read-only resource holds: its count, unless walking its
 * pages finds more (a count capped or wrong must not hide the cap items —
 * the count itself is judged by #total and #over-1000).
 */
async function heldBy(ctx: CheckContext, r: ResourceModel): Promise<number> {
  const counted = ctx.ok(await ctx.client.count(r, { path: countPath(r) }), `count of ${r.prefix}`);
  if (counted > CAP) return counted;
  const size = Math.min(pageSettings().max, CAP);
  const walked = await walk(ctx.client, r, undefined, { pageSize: size, maxPages: Math.ceil((CAP + 1) / size) + 1 });
  return isRejected(walked) ? counted : Math.max(counted, walked.records.length);
}

async function bigSetOf(ctx: CheckContext, r: ResourceModel): Promise<BigSet> {
  if (r.writable) {
    const ids = await createdBig.get(r.name)!.get(ctx);
    return { ids, held: ids.length, what: `${r.prefix} filtered by the ids of ${ids.length} records created for the check`, exchanges: [] };
  }
  let p = counts.get(r.name);
  if (!p) {
    p = heldBy(ctx, r);
    counts.set(r.name, p);
    p.catch(() => counts.delete(r.name));
  }
  const held = await p;
  if (held <= CAP) ctx.notJudged(`a read-only resource holding no more than ${CAP} records: no get can exceed the cap here, and the run cannot add records`);
  return { held, what: `${r.prefix} (${held} records)`, exchanges: [] };
}

// ---------------------------------------------------------------- checks

for (const r of LIST) {
  const [pageSize] = checksOf('pagination.page-size', r.name);
  check(pageSize, async (ctx) => {
    await ctx.item('below-one', (it) => belowOne(it, r));
    await ctx.item('explicit', async (it) => {
      const s = await setOf(it, r);
      const n = s.whole.length;
      const { max } = pageSettings();
      await it.property(fc.integer({ min: 1, max: 7 }), async (size) => {
        const per = Math.min(size, max);
        // the first page, and the page where fewer than pageSize remain (when there is one)
        const indexes = [0];
        if (n > per && n % per !== 0) indexes.push(Math.floor(n / per));
        // read side by side: the second page does not wait for the first
        const pages = await Promise.all(indexes.map((i) => page(it, r, { id: s.ids }, i, size)));
        for (const [k, i] of indexes.entries()) {
          const got = pages[k];
          const want = Math.max(0, Math.min(per, n - i * per));
          if (got.records.length !== want) {
            it.fail({
              message: `pageSize ${size} on ${describeSet(r, s)}: page ${pageSettings().first + i} returned ${got.records.length} record(s), expected ${want} (${want < per ? `the ${want} that remain` : `a full page of ${per}`})`,
              why: 'pagination.pageSize bounds the records returned',
              expected: want,
              actual: got.records.length,
              evidence: [got.exchange],
            });
          }
        }
      });
    });
  });

  const [partition] = checksOf('pagination.partition', r.name);
  check(partition, async (ctx) => {
    await ctx.item('walk', async (it) => {
      const long = await longWalk(it, r);
      // on a read-only resource the long walk is the walk of a quick or standard run; a deep one adds the short
      // walks (page sizes 2 to 4 over 9 records by an id filter), which are the walk where the long one cannot be made
      if (long && !r.writable && it.config.depth !== 'deep') return;
      const s = await setOf(it, r);
      const whole = new Set(idsOf(s.whole));
      const { first, max } = pageSettings();
      await it.property(fc.integer({ min: 2, max: 4 }), async (size) => {
        const per = Math.min(size, max);
        const maxPages = Math.ceil(whole.size / per) + 1;
        const { seen, pages, overlaps, foreign, ended } = await partitionWalk(it, r, { id: s.ids }, whole, size, per, maxPages);
        const where = `pages of ${size} from page ${first} over ${describeSet(r, s)}`;
        const why = 'consecutive pages partition the records, no overlap, no gap';
        if (overlaps.length) it.fail({ message: `${where}: ${overlaps.length} record(s) came back on two pages: ${overlaps.slice(0, 3).join('; ')}`, why, expected: 'each record on exactly one page', actual: overlaps, evidence: pages });
        const missing = [...whole].filter((id) => !seen.has(id));
        if (missing.length) it.fail({ message: `${where}: ${missing.length} of the ${whole.size} record(s) one get returns were on no page (${missing.slice(0, 3).join(', ')})`, why, expected: [...whole], actual: [...seen.keys()], evidence: [...s.exchanges, ...pages] });
        if (foreign.length) it.fail({ message: `${where}: pages returned ${foreign.length} record(s) a get of the whole set does not (${foreign.slice(0, 3).join(', ')})`, why, expected: [...whole], actual: foreign, evidence: [...s.exchanges, ...pages] });
        if (!ended) it.fail({ message: `${where}: after ${maxPages} full pages of ${per} the pages did not end, though the set holds ${whole.size} record(s)`, why, expected: `a page with fewer than ${per} records by page ${first + maxPages - 1}`, actual: 'full pages', evidence: pages.slice(-2) });
      });
    });
   }, { timeoutMs: 300_000 });

  const [countTotal] = checksOf('pagination.count-total', r.name);
  check(countTotal, async (ctx) => {
    await Promise.all([
      ctx.item('total', (it) => countTotalItem(it, r)),
      ctx.item('over-1000', async (it) => {
        const big = await bigSetOf(it, r);
        const filters = big.ids ? { id: big.ids } : undefined;
        const counted = await it.client.count(r, { ...(filters ? { filters } : {}), path: countPath(r) });
        const n = it.ok(counted, `count of ${big.what}`);
        const walked = await walkIds(it, r, filters, big.held);
        if (n !== walked.ids.size) {
          it.fail({
            message: `count of ${big.what} says ${n}; walking its pages found ${walked.ids.size} distinct record(s)`,
            why: 'count returns the number of records the filters address; the 1000 cap is on get, not count (§8 Limits: records returned by every get)',
            expected: walked.ids.size,
            actual: n,
            evidence: [counted.exchange, ...walked.exchanges.slice(-1)],
          });
        }
      }),
    ]);
  }, { timeoutMs: 300_000 });

  const [cap] = checksOf('pagination.cap-1000', r.name);
  check(cap, async (ctx) => {
    const judge = async (it: ItemContext, pagination: { pageSize: number } | undefined) => {
      const big = await bigSetOf(it, r);
      const filters = big.ids ? { id: big.ids } : undefined;
      const res = pagination ? await readPage(it.client, r, { filters, pageSize: pagination.pageSize }) : await it.client.get(r, { ...(filters ? { filters } : {}) });
      const got = it.ok(res, `get of ${big.what}${pagination ? ` with pageSize ${pagination.pageSize}` : ' without pagination'}`);
      if (got.length > CAP) {
        it.fail({
          message: `a get of ${big.what}${pagination ? ` with pageSize ${pagination.pageSize}` : ' without pagination'} returned ${got.length} records`,
          expected: `at most ${CAP}`,
          actual: got.length,
          evidence: [res.exchange],
        });
      }
    };
    await Promise.all([
      ctx.item('default-get', (it) => judge(it, undefined)),
      ctx.item('page-size-over-cap', (it) => judge(it, { pageSize: 5000 })),
    ]);
  }, { timeoutMs: 300_000 });
}

/** Page sizes below 1: zero (LIMIT 0, a falsy value dropped for the default) and a negative one (slice(0, -2) serves all but the last two). */
const BELOW_ONE = [0, -2] as const;

/**
 * §4 makes pageSize a string holding an integer, so "0" and "-2" are requests
 * a client may send; what a store does with them is not shown (§4 Pagination
 * defaults). Every honest reading is accepted: refused (4xx), a page of no
 * records (LIMIT 0), or the default page (a value below 1 read as absent, as a
 * get of the same set without pageSize answers). Any other page is a fault: a
 * negative size used as a slice end serves records no page size asked for.
 */
async function belowOne(it: ItemContext, r: ResourceModel): Promise<void> {
  it.classes(['integer.zero']);
  const s = await setOf(it, r);
  const byDefault = await readPage(it.client, r, { filters: { id: s.ids } });
  const defaults = new Set(idsOf(it.ok(byDefault, `get of ${r.prefix} page ${pageSettings().first} without pageSize`)));
  for (const size of BELOW_ONE) {
    const res = await readPage(it.client, r, { filters: { id: s.ids }, pageSize: size });
    if (!res.ok) {
      if (isTargetError(res.exchange)) it.ok(res, `get of ${r.prefix} with pageSize "${size}"`);
      continue; // refused: an honest reading
    }
    const got = idsOf(res.value ?? []);
    const same = got.length === defaults.size && got.every((id) => defaults.has(id));
    if (got.length === 0 || same) continue; // no records (LIMIT 0), or read as absent: honest readings
    it.fail({
      message: `pageSize "${size}" on ${describeSet(r, s)}: the get answered ${got.length} record(s); a get without pageSize answered ${defaults.size}`,
      why: 'a pageSize below 1 asks for no records: refused, a page of no records, or read as absent (the default page) — never another page (§4 Pagination defaults: not shown)',
      expected: `refused, 0 records, or the ${defaults.size} of the default page`,
      actual: got.length,
      evidence: [byDefault.exchange, res.exchange],
    });
  }
}

/** What a long walk pages through, and how it is scoped. */
interface LongWalkSet {
  /** the ids of the records (lower case) */
  whole: Set<string>;
  /** the filters of every page: an id filter on the set */
  filters: Rec;
  what: string;
  /** the reads that made the set (evidence of a missing record) */
  exchanges: Exchange[];
}

/**
 * A read-only resource's records for the long walk: one get of the largest
 * page (observation pagination.maxPageSize) — the first page
 * count-total#total walks, the same request (sent once per worker: a read the
 * run cannot change is shared) — walked by an id filter on them. The run
 * cannot change these records, but others may: a live store gains orders and
 * customers while the run walks, and a record added meanwhile must not read as
 * one the pages should not hold. A full page: the resource may hold more than
 * one get returns, and the walk is bounded to the records of that get.
 */
async function readOnlyWalkSet(it: ItemContext, r: ResourceModel): Promise<LongWalkSet> {
  const { first, max } = pageSettings();
  const res = await readPage(it.client, r, { pageSize: max });
  const recs = it.ok(res, `get of ${r.prefix} page ${first} (pageSize ${max})`);
  const ids = recs.map((x) => String(x?.id));
  const whole = new Set(ids.map(lower));
  const held = recs.length < max ? `the ${whole.size} records of ${r.prefix} (one get of pageSize ${max} returned them all)` : `the ${whole.size} records of ${r.prefix} one get of pageSize ${max} returned (it may hold more: the walk is bounded to them)`;
  return { whole, filters: { id: ids }, what: `${held}, scoped by an id filter`, exchanges: [res.exchange] };
}

/** A writable resource's records for the long walk: the big set made for the cap (1001 records), by an id filter on them. */
async function writableWalkSet(it: ItemContext, r: ResourceModel): Promise<LongWalkSet> {
  const big = await bigSetOf(it, r);
  const ids = big.ids ?? [];
  return { whole: new Set(ids.map(lower)), filters: { id: ids }, what: big.what, exchanges: big.exchanges };
}

/**
 * One walk past page 10 per list resource (docs/value-classes.md, page
 * numbers whose written length changes): on a writable resource the records
 * of the big set (1001, made for the cap), on a read-only one the records one
 * get returns (readOnlyWalkSet), in pages of the size longWalkPlan gives — page
 * 10 full, the page after it holding the rest or nothing — so a store that
 * compares or sorts page numbers as text ("2" > "11") loses or repeats pages.
 * §4 leaves the order of records open (not shown): judged as a partition of
 * the set, never by position — each record on exactly one page, none foreign,
 * every page holding what the set leaves for it, the pages end. Returns
 * whether the walk was made (false: the class is not judged, with why).
 */
async function longWalk(it: ItemContext, r: ResourceModel): Promise<boolean> {
  const set = await (r.writable ? writableWalkSet(it, r) : readOnlyWalkSet(it, r));
  const { first, max } = pageSettings();
  const n = set.whole.size;
  const plan = longWalkPlan(n, max);
  if (plan.reason !== undefined) {
    it.classes([], [{ class: 'integer.length-change', reason: `the page number: ${plan.reason} (${set.what})` }]);
    return false;
  }
  it.classes(['integer.length-change']);
  const { size, pages: pagesNeeded } = plan;
  const walked = await partitionWalk(it, r, set.filters, set.whole, size, size, pagesNeeded + 1);
  const { seen, pages, overlaps, foreign, ended } = walked;
  const where = `pages of ${size} from page ${first} over ${set.what} (${pagesNeeded} pages: page numbers past 9 → 10)`;
  const why = 'consecutive pages partition the records, no overlap, no gap';
  if (overlaps.length) it.fail({ message: `${where}: ${overlaps.length} record(s) came back on two pages: ${overlaps.slice(0, 3).join('; ')}`, why, expected: 'each record on exactly one page', actual: overlaps.slice(0, 20), evidence: pages.slice(-2) });
  const missing = [...set.whole].filter((id) => !seen.has(id));
  const lastSeen = Math.max(first - 1, ...seen.values());
  if (missing.length) it.fail({ message: `${where}: ${missing.length} of the ${n} record(s) were on no page; the pages ended at page ${first + pages.length - 1} (last record on page ${lastSeen})`, why, expected: `${n} records on pages ${first} to ${first + pagesNeeded - 1}`, actual: `${seen.size} records`, evidence: [...set.exchanges.slice(0, 1), ...pages.slice(-2)] });
  if (foreign.length) it.fail({ message: `${where}: pages returned ${foreign.length} record(s) not in the set (${foreign.slice(0, 3).join(', ')})`, why, expected: 'records of the set only', actual: foreign.slice(0, 20), evidence: [...set.exchanges.slice(0, 1), ...pages.slice(-2)] });
  if (!ended) it.fail({ message: `${where}: after ${pages.length} full pages the pages did not end`, why, expected: `a page with fewer than ${size} records by page ${first + pagesNeeded}`, actual: 'full pages', evidence: pages.slice(-2) });
  const wrong = walked.sizes.findIndex((got, i) => got !== recordsOnPage(n, size, i));
  if (wrong >= 0) it.fail({ message: `${where}: page ${first + wrong} held ${walked.sizes[wrong]} record(s), expected ${recordsOnPage(n, size, wrong)} (records per page: ${walked.sizes.join(', ')})`, why, expected: walked.sizes.map((_, i) => recordsOnPage(n, size, i)), actual: walked.sizes, evidence: pages.slice(Math.max(0, wrong - 1), wrong + 1) });
  return true;
}

interface PartitionWalk {
  /** each record's page number (the first it came back on) */
  seen: Map<string, number>;
  pages: Exchange[];
  /** records each page held */
  sizes: number[];
  /** records that came back on a second page */
  overlaps: string[];
  /** records not of `whole` */
  foreign: string[];
  /** a page held fewer than a full page: the pages ended */
  ended: boolean;
}

/**
 * Pages of the records these filters address, `size` asked per page, up to
 * `maxPages`, until one holds fewer than `per` (what a full page holds): on
 * which page each record came back, which came back twice, which are foreign.
 */
async function partitionWalk(it: ItemContext, r: ResourceModel, filters: Rec, whole: Set<string>, size: number, per: number, maxPages: number): Promise<PartitionWalk> {
  const { first } = pageSettings();
  // the pages the set fills are read side by side (suites/pagination/walk.ts)
  const walked = await walkKnownSet(whole.size, per, maxPages, (i) => page(it, r, filters, i, size));
  const out: PartitionWalk = { seen: new Map(), pages: [], sizes: [], overlaps: [], foreign: [], ended: walked.ended };
  walked.pages.forEach((got, i) => {
    out.pages.push(got.exchange);
    out.sizes.push(got.records.length);
    for (const id of idsOf(got.records)) {
      if (!whole.has(id)) out.foreign.push(id);
      if (out.seen.has(id)) out.overlaps.push(`${id} on pages ${out.seen.get(id)} and ${first + i}`);
      else out.seen.set(id, first + i);
    }
  });
  return out;
}

/** Walk every page (the page size the target applies is what the first page holds); ends at a shorter page. */
async function walkIds(ctx: CheckContext, r: ResourceModel, filters: Rec | undefined, expected: number): Promise<{ ids: Set<string>; exchanges: Exchange[] }> {
  const size = pageSettings().max;
  const ids = new Set<string>();
  const exchanges: Exchange[] = [];
  let per = 0;
  let bound = 1;
  for (let i = 0; i < bound; i++) {
    const res = await readPage(ctx.client, r, { filters, index: i, pageSize: size });
    exchanges.push(res.exchange);
    const recs = ctx.ok(res, `get of ${r.prefix} page ${pageSettings().first + i} (pageSize ${size})`);
    for (const id of idsOf(recs)) ids.add(id);
    if (i === 0) {
      per = recs.length;
      bound = Math.ceil(expected / Math.max(1, per)) + 2;
    }
    if (recs.length === 0 || recs.length < per) break;
  }
  return { ids, exchanges };
}

/**
 * count without filters equals the records get can walk. On a writable
 * resource other checks create and delete records meanwhile, so the check's
 * own set, scoped by id, is what is counted and walked; a read-only resource
 * is counted and walked whole.
 */
async function countTotalItem(it: ItemContext, r: ResourceModel): Promise<void> {
  if (r.writable) {
    const s = await setOf(it, r);
    const counted = await it.client.count(r, { filters: { id: s.ids }, path: countPath(r) });
    const total = it.ok(counted, `count of ${r.prefix} filtered by ${s.ids.length} ids`);
    const size = Math.max(1, Math.ceil(s.ids.length / 3));
    const walked = new Set<string>();
    const exchanges: Exchange[] = [counted.exchange];
    const { pages } = await walkKnownSet(s.ids.length, size, s.ids.length + 2, (i) => page(it, r, { id: s.ids }, i, size));
    for (const p of pages) {
      exchanges.push(p.exchange);
      for (const id of idsOf(p.records)) walked.add(id);
    }
    if (walked.size !== total) {
      it.fail({
        message: `count on ${r.prefix} with an id filter of ${s.ids.length} records says ${total}; walking its pages (pageSize ${size}) found ${walked.size} distinct record(s)`,
        why: 'count returns the number of records the filters address',
        expected: total,
        actual: walked.size,
        evidence: exchanges.slice(0, 3),
      });
    }
    return;
  }
  const before = await it.client.count(r, { path: countPath(r) });
  const total = it.ok(before, `count of ${r.prefix}`);
  const walked = await walkIds(it, r, undefined, total);
  if (walked.ids.size !== total) {
    it.fail({
      message: `count without filters on ${r.prefix} says ${total}, walking every page (pageSize ${pageSettings().max} from page ${pageSettings().first}) found ${walked.ids.size} distinct record(s)`,
      why: 'count returns the number of records addressed; without filters, all',
      expected: total,
      actual: walked.ids.size,
      evidence: [before.exchange, ...walked.exchanges.slice(-2)],
    });
  }
}
