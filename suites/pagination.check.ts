/**
 * Pagination (§4 Common rules: `pagination {pageNumber, pageSize}`; §4
 * Responses; §8 "A get returns at most 1000 records"), for every list resource.
 *
 * What the spec leaves open is read from the observations: the first page
 * number (pagination.firstPageNumber), the largest page (pagination.maxPageSize).
 * Order is never assumed: pages are compared as sets. Walking pages does need
 * an order that holds from one request to the next — that stability is exactly
 * what the partition check proves (pages of an unstable order overlap and leave
 * gaps).
 *
 * The set a resource's checks page through: for writable resources a fixture
 * batch of 9 records created once for the file; for read-only resources 9
 * records already there. Either way every query is scoped by an id filter on
 * that set alone (one filter, so filters.combination does not matter), so
 * concurrent checks never disturb it.
 */
import fc from 'fast-check';
import { check, fixture, observed, runtime, type CheckContext, type Fixture } from '../src/check/index.js';
import type { Rec } from '../src/client/api.js';
import type { Exchange } from '../src/client/http.js';
import { resources, resource, type ResourceModel } from '../src/schema/model.js';
import { batchArb } from '../generators/index.js';

const LIST = resources().filter((r) => !r.single && r.operations.includes('get'));
const SET_SIZE = 9;
const CAP = 1000;
const S_COMMON = '§4 Common rules';

const lower = (v: unknown) => String(v ?? '').toLowerCase();
const idsOf = (records: Rec[]) => records.map((x) => lower(x?.id));
const firstPage = () => observed('pagination.firstPageNumber');
/** the most records one page may hold: the observed largest page, never above the §8 cap */
const pageCap = () => Math.min(CAP, observed('pagination.maxPageSize'));

interface PageSet {
  /** lower-cased ids of the set */
  ids: string[];
  /** the records as one get of the whole set (no pagination) returned them */
  whole: Rec[];
  source: 'created' | 'existing';
  exchanges: Exchange[];
}

// ---------------------------------------------------------------------------
// the set each resource's checks page through
// ---------------------------------------------------------------------------

/** writable resources: one batch of SET_SIZE generated records, created once per file */
const created = new Map<string, Fixture<string[]>>(
  LIST.filter((r) => r.writable).map((r) => [r.name, fixture(async (scope) => {
    const rt = runtime();
    const [items] = fc.sample(batchArb(r.name, { tag: rt.config.runTag }, { minLength: SET_SIZE, maxLength: SET_SIZE }), { seed: rt.config.seed ^ 0x9a9e, numRuns: 1 });
    const recs = await scope.create(r, items);
    return recs.map((x) => String(x.id));
  })]),
);

/** read-only resources: the first SET_SIZE records of the default page (memoized per file) */
const existing = new Map<string, Promise<string[]>>();

async function setOf(ctx: CheckContext, r: ResourceModel): Promise<PageSet> {
  let ids: string[];
  let source: PageSet['source'];
  if (r.writable) {
    ids = await created.get(r.name)!.get(ctx);
    source = 'created';
  } else {
    let p = existing.get(r.name);
    if (!p) {
      p = ctx.client.get(r).then((res) => ctx.ok(res, `get of ${r.prefix}`).slice(0, SET_SIZE).map((x) => String(x.id)));
      existing.set(r.name, p);
      p.catch(() => existing.delete(r.name));
    }
    ids = await p;
    source = 'existing';
  }
  if (!ids.length) ctx.skip(`${r.prefix} holds no records to page through`);
  const res = await ctx.client.get(r, { filters: { id: ids } });
  const whole = ctx.ok(res, `get of ${r.prefix} filtered by the ids of its ${ids.length} records`);
  if (!whole.length) ctx.skip(`a get of ${r.prefix} filtered by ${ids.length} known ids returned nothing (the id filter is the filters suite's business)`);
  return { ids: ids.map(lower), whole, source, exchanges: [res.exchange] };
}

const describeSet = (r: ResourceModel, s: PageSet) => `${s.whole.length} ${s.source === 'created' ? 'records created by the check' : 'existing records'} of ${r.prefix}, scoped by an id filter`;

async function page(ctx: CheckContext, r: ResourceModel, s: PageSet, pageNumber: number, pageSize: number): Promise<{ records: Rec[]; exchange: Exchange }> {
  const res = await ctx.client.get(r, { filters: { id: s.ids }, pagination: { pageNumber, pageSize } });
  return { records: ctx.ok(res, `get of ${r.prefix} page ${pageNumber} (pageSize ${pageSize})`), exchange: res.exchange };
}

// ---------------------------------------------------------------------------
// pagination.page-size: a full page has exactly pageSize records unless fewer remain
// ---------------------------------------------------------------------------

for (const r of LIST) {
  check({ rule: 'pagination.page-size', resource: r.name, writes: r.writable }, async (ctx) => {
    const s = await setOf(ctx, r);
    const n = s.whole.length;
    const first = firstPage();
    await ctx.property(fc.integer({ min: 1, max: 7 }), async (size) => {
      const per = Math.min(size, pageCap());
      // the first page, and the page where fewer than pageSize remain (when there is one)
      const indexes = [0];
      if (n > per && n % per !== 0) indexes.push(Math.floor(n / per));
      for (const i of indexes) {
        const got = await page(ctx, r, s, first + i, size);
        const want = Math.max(0, Math.min(per, n - i * per));
        if (got.records.length !== want) {
          ctx.fail({
            message: `pageSize ${size} on ${describeSet(r, s)}: page ${first + i} returned ${got.records.length} record(s), expected ${want} (${want < per ? `the ${want} that remain` : `a full page of ${per}`}) (${S_COMMON}: pagination.pageSize bounds the records returned)`,
            expected: want,
            actual: got.records.length,
            evidence: [got.exchange],
          });
        }
      }
    });
  });
}

// ---------------------------------------------------------------------------
// pagination.partition: consecutive pages partition the records
// ---------------------------------------------------------------------------

for (const r of LIST) {
  check({ rule: 'pagination.partition', resource: r.name, writes: r.writable }, async (ctx) => {
    const s = await setOf(ctx, r);
    const whole = new Set(idsOf(s.whole));
    const first = firstPage();
    await ctx.property(fc.integer({ min: 2, max: 4 }), async (size) => {
      const per = Math.min(size, pageCap());
      const maxPages = Math.ceil(whole.size / per) + 1;
      const seen = new Map<string, number>();
      const pages: Exchange[] = [];
      const overlaps: string[] = [];
      const foreign: string[] = [];
      let ended = false;
      for (let i = 0; i < maxPages; i++) {
        const got = await page(ctx, r, s, first + i, size);
        pages.push(got.exchange);
        for (const id of idsOf(got.records)) {
          if (!whole.has(id)) foreign.push(id);
          if (seen.has(id)) overlaps.push(`${id} on pages ${seen.get(id)} and ${first + i}`);
          else seen.set(id, first + i);
        }
        if (got.records.length < per) {
          ended = true;
          break;
        }
      }
      const where = `pages of ${size} from page ${first} over ${describeSet(r, s)}`;
      const rule = `(${S_COMMON}: consecutive pages partition the records, no overlap, no gap)`;
      if (overlaps.length) {
        ctx.fail({ message: `${where}: ${overlaps.length} record(s) came back on two pages: ${overlaps.slice(0, 3).join('; ')} ${rule}`, expected: 'each record on exactly one page', actual: overlaps, evidence: pages });
      }
      const missing = [...whole].filter((id) => !seen.has(id));
      if (missing.length) {
        ctx.fail({ message: `${where}: ${missing.length} of the ${whole.size} record(s) one get returns were on no page (${missing.slice(0, 3).join(', ')}) ${rule}`, expected: [...whole], actual: [...seen.keys()], evidence: [...s.exchanges, ...pages] });
      }
      if (foreign.length) {
        ctx.fail({ message: `${where}: pages returned ${foreign.length} record(s) a get of the whole set does not (${foreign.slice(0, 3).join(', ')}) ${rule}`, expected: [...whole], actual: foreign, evidence: [...s.exchanges, ...pages] });
      }
      if (!ended) {
        ctx.fail({ message: `${where}: after ${maxPages} full pages of ${per} the pages did not end, though the set holds ${whole.size} record(s) ${rule}`, expected: `a page with fewer than ${per} records by page ${first + maxPages - 1}`, actual: 'full pages', evidence: pages.slice(-2) });
      }
    });
  });
}

// ---------------------------------------------------------------------------
// pagination.count-total: count without filters = the records get can walk
// ---------------------------------------------------------------------------

/** Walk every page: the effective page size is what the first page returned; ends at a shorter page. */
async function walkAll(ctx: CheckContext, r: ResourceModel, expected: number): Promise<{ ids: Set<string>; exchanges: Exchange[] }> {
  const first = firstPage();
  const size = pageCap();
  const ids = new Set<string>();
  const exchanges: Exchange[] = [];
  let per = 0;
  let bound = 1;
  for (let i = 0; i < bound; i++) {
    const res = await ctx.client.get(r, { pagination: { pageNumber: first + i, pageSize: size } });
    exchanges.push(res.exchange);
    const recs = ctx.ok(res, `get of ${r.prefix} page ${first + i} (pageSize ${size})`);
    for (const id of idsOf(recs)) ids.add(id);
    // the page size the target applies is what the first page holds (it may clamp pageSize)
    if (i === 0) {
      per = recs.length;
      bound = Math.ceil(expected / Math.max(1, per)) + 2;
    }
    if (recs.length === 0 || recs.length < per) break;
  }
  return { ids, exchanges };
}

for (const r of LIST) {
  check({ rule: 'pagination.count-total', resource: r.name, writes: r.writable }, async (ctx) => {
    if (r.writable) {
      // other checks create and delete records of this resource while this one runs, so an
      // unfiltered count could never be judged against a walk: the check's own records, scoped
      // by id, are a set nobody else changes
      const s = await setOf(ctx, r);
      const counted = await ctx.client.count(r, { filters: { id: s.ids } });
      const total = ctx.ok(counted, `count of ${r.prefix} filtered by ${s.ids.length} ids`);
      const size = Math.max(1, Math.ceil(s.ids.length / 3));
      const walked = new Set<string>();
      const exchanges: Exchange[] = [counted.exchange];
      for (let i = 0; i < s.ids.length + 2; i++) {
        const p = await page(ctx, r, s, firstPage() + i, size);
        exchanges.push(p.exchange);
        for (const id of idsOf(p.records)) walked.add(id);
        if (p.records.length < size) break;
      }
      if (walked.size !== total) {
        ctx.fail({
          message: `count on ${r.prefix} with an id filter of ${s.ids.length} records says ${total}; walking its pages (pageSize ${size}) found ${walked.size} distinct record(s) (§4 Responses: count returns the number of records the filters address)`,
          expected: total,
          actual: walked.size,
          evidence: exchanges.slice(0, 3),
        });
      }
      return;
    }
    // a read-only resource: nobody here writes it, so all of it is counted and walked
    const before = await ctx.client.count(r);
    const total = ctx.ok(before, `count of ${r.prefix}`);
    if (total > CAP) ctx.skip(`${r.prefix} holds ${total} records, more than the ${CAP} one get may return: walking them is left to the cap check`);
    const walked = await walkAll(ctx, r, total);
    if (walked.ids.size !== total) {
      ctx.fail({
        message: `count without filters on ${r.prefix} says ${total}, walking every page (pageSize ${pageCap()} from page ${firstPage()}) found ${walked.ids.size} distinct record(s) (§4 Responses: count returns the number of records addressed; without filters, all)`,
        expected: total,
        actual: walked.ids.size,
        evidence: [before.exchange, ...walked.exchanges.slice(-2)],
      });
    }
  });
}

// ---------------------------------------------------------------------------
// pagination.cap-1000: no get returns more than 1000 records
// ---------------------------------------------------------------------------

let counted: Promise<Array<{ r: ResourceModel; count: number }>> | undefined;

/** every list resource's count, largest first (once per file: both cap checks read it) */
function countsOf(ctx: CheckContext): Promise<Array<{ r: ResourceModel; count: number }>> {
  counted ??= Promise.all(LIST.map(async (r) => {
    const res = await ctx.client.count(r);
    return { r, count: res.ok ? res.value! : -1 };
  })).then((out) => out.sort((a, b) => b.count - a.count));
  return counted;
}

async function judgeCap(ctx: CheckContext, r: ResourceModel, filters: Rec | undefined, held: number, what: string): Promise<void> {
  for (const pageSize of [5000, CAP + 1]) {
    const res = await ctx.client.get(r, { filters, pagination: { pageNumber: firstPage(), pageSize } });
    const got = ctx.ok(res, `get of ${r.prefix} with pageSize ${pageSize}`);
    if (got.length > CAP) {
      ctx.fail({
        message: `a get of ${what} (${held} records) with pageSize ${pageSize} returned ${got.length} records (§8 Limits: a get returns at most ${CAP})`,
        expected: `at most ${CAP}`,
        actual: got.length,
        evidence: [res.exchange],
      });
    }
  }
}

check({ rule: 'pagination.cap-1000', resource: '*', title: 'a get returns at most 1000 records, on every resource holding more' }, async (ctx) => {
  const big = (await countsOf(ctx)).filter((x) => x.count > CAP);
  if (!big.length) ctx.skip(`no resource holds more than ${CAP} records; collection.pagination.cap-1000 creates ${CAP + 1} to check the cap (runs that may write)`);
  for (const { r, count } of big) await judgeCap(ctx, r, undefined, count, r.prefix);
});

check({ rule: 'pagination.cap-1000', resource: 'collection', writes: true, timeoutMs: 300_000, title: 'a get returns at most 1000 records, on 1001 collections created for the check' }, async (ctx) => {
  const big = (await countsOf(ctx)).filter((x) => x.count > CAP);
  if (big.length) ctx.skip(`${big[0].r.prefix} already holds ${big[0].count} records: all.pagination.cap-1000 checks the cap there`);
  const r = resource('collection');
  const [items] = fc.sample(batchArb(r.name, { tag: ctx.config.runTag }, { minLength: CAP + 1, maxLength: CAP + 1 }), { seed: ctx.seed, numRuns: 1 });
  const recs = await ctx.scope.create(r, items);
  const ids = recs.map((x) => String(x.id));
  await judgeCap(ctx, r, { id: ids }, ids.length, `${r.prefix} filtered by the ids of ${ids.length} collections created for the check`);
});
