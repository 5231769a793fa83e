/**
 * Behaviour the spec leaves open ("not shown") is observed once before the
 * run (src/observe) on one or two resources; these checks see that the target
 * applies the same choice elsewhere. They fail only on inconsistency — never
 * on the choice itself (rule observe.consistent, level observe).
 *
 *   all.observe.consistent.default-page-size #<resource>  a get without pagination returns the observed
 *                      default page size: min(default, count) on a read-only resource (nothing the run
 *                      writes changes it); on a writable one, exactly the default over default+1 records
 *                      the check creates (scoped by their ids: other checks' writes do not matter), and
 *                      as a read-only one in a --read-only run
 *   all.observe.consistent.order #<resource>  the default page follows the observed order
 *   all.observe.consistent.error-shape #all   a wrong key (get, count, store get), a missing key and
 *                      an unknown path are answered in one error shape family
 *   all.observe.consistent.auth-status #<resource>  wrong and missing keys get the observed statuses
 *   all.observe.consistent.error-status-class #all  a wrong key (WRONG_KEY, and one as long as the key),
 *                      a missing key on every resource, an unknown path, and a get whose optional
 *                      filters or pagination values are sent as null (a .NET or Java client's default
 *                      for an unset property; answered as omitted or refused, both honest): their
 *                      error answers never mix a 5xx with other classes (a store may answer its
 *                      clients' mistakes 4xx, or even 5xx throughout — §7 shows no status — but a 500
 *                      beside 401s is the store failing on some of them). Three requests of its own;
 *                      the rest are those auth-status and error-shape already hold.
 *   all.observe.consistent.id-case, createdon-zone, integer-width, decimal-scale: the readings of stack
 *                      defaults applied everywhere (suites/support/readings.ts)
 */
import {
  GET_CAP,
  check, fixture, observed, countPath, checksOf, resources, NotJudged, WRONG_KEY, shapeFamily, shapeOf, follows, orderOf, ORDERS,
  type CheckContext, type Fixture, type ItemContext, type Rec, type Exchange, type ResourceModel, type OrderName, type SuiteDeclaration,
} from '../src/check/index.js';
import { createCopies } from './support/copies.js';
import {
  createdonOffset, decimalScales, idsReading, idsShown, integerWidths, judgeAgainstStore, judgeCreatedonZone, judgeIdCase, judgeProps,
  propsReading, storeReading,
} from './support/readings.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = { rules: ['observe.consistent'] };

const STORE = resources().find((r) => r.single)!;
const LIST = resources().filter((r) => !r.single && r.operations.includes('get'));
const CHECKS = new Map(checksOf('observe.consistent').map((d) => [d.subject, d]));

// one default page per resource, shared by the checks of this file
const pages = new Map<string, Promise<{ records: Rec[]; exchange: Exchange }>>();
function defaultPage(ctx: CheckContext, r: ResourceModel): Promise<{ records: Rec[]; exchange: Exchange }> {
  let p = pages.get(r.name);
  if (!p) {
    p = ctx.client.get(r).then((res) => ({ records: ctx.ok(res, `get of ${r.prefix}`), exchange: res.exchange }));
    pages.set(r.name, p);
    p.catch(() => pages.delete(r.name));
  }
  return p;
}

/** default + 1 records of a writable resource: a page without pagination over them is exactly one default page. */
const overOnePage = new Map<string, Fixture<string[]>>(
  LIST.filter((r) => r.writable).map((r) => [r.name, fixture((f) => {
    const def = f.observed('pagination.defaultPageSize');
    return createCopies(f, r, Math.min(def ?? GET_CAP, GET_CAP) + 1, 'dp');
  })]),
);

check(CHECKS.get('default-page-size')!, async (ctx) => {
  const def = observed('pagination.defaultPageSize');
  if (def === null) ctx.notJudged('pagination.defaultPageSize was not observed: there is no default to hold');
  await Promise.all(LIST.map((r) => ctx.item(r.name, async (it) => {
    let held: number;
    let got: { records: Rec[]; exchange: Exchange };
    let what: string;
    const evidence: Exchange[] = [];
    // a --read-only run may not create the default+1 records: the writable resource is judged as a read-only one
    if (r.writable && !it.config.readOnly) {
      const ids = await overOnePage.get(r.name)!.get(it);
      const res = await it.client.get(r, { filters: { id: ids } });
      got = { records: it.ok(res, `get of ${r.prefix} by ${ids.length} ids`), exchange: res.exchange };
      held = ids.length;
      what = `${r.prefix}/get filtered by the ids of ${ids.length} records created for the check`;
    } else {
      const counted = await it.client.count(r, { path: countPath(r) });
      held = it.ok(counted, `count of ${r.prefix}`);
      got = await defaultPage(it, r);
      evidence.push(counted.exchange);
      what = `${r.prefix}/get (${held} records)`;
    }
    const want = Math.min(def!, held, GET_CAP);
    if (got.records.length !== want) {
      it.fail({
        message: `the default page size observed as ${def} is not applied on ${r.prefix}: a get without pagination of ${what} returned ${got.records.length} record(s), expected ${want}`,
        why: 'pagination defaults are not shown, but one target applies one',
        expected: want,
        actual: got.records.length,
        evidence: [...evidence, got.exchange],
      });
    }
  })));
});

check(CHECKS.get('order')!, async (ctx) => {
  const seen = observed('order.default');
  if (seen === 'unordered') ctx.notJudged('order.default was observed as unordered: there is no order to hold');
  if (seen === null) ctx.notJudged('order.default was not observed: there is no order to hold');
  const order = seen as OrderName;
  await Promise.all(LIST.map((r) => ctx.item(r.name, async (it) => {
    if (order.startsWith('createdon') && !r.audit) it.notJudged(`${r.title.toLowerCase()} records carry no createdon, the observed order's key (${order})`);
    const page = await defaultPage(it, r);
    if (page.records.length < 2) it.notJudged(`${r.prefix}/get returned fewer than 2 records: no order to see`);
    if (follows(page.records, order) === 'no') {
      it.fail({
        message: `${r.prefix}/get is ${orderOf([page.records]) === 'unordered' ? 'in none of createdon/id asc/desc' : `ordered by ${orderOf([page.records])}`}, not by ${order} as observed`,
        why: 'the order of returned records is not shown, but one target applies one',
        expected: `the default page ordered by ${order} (observed)`,
        actual: orderOf([page.records]),
        evidence: [page.exchange],
      });
    }
  })));
});

/** Wrong-key and missing-key answers of one resource (and an unknown path), shared by the error-shape and auth-status checks. */
type Answer = { what: string; kind: 'wrong' | 'missing' | 'unknown'; ex: Exchange };
const answerMemo = new Map<string, Promise<Answer[]>>();
function answersOf(ctx: CheckContext, r: ResourceModel | 'unknown'): Promise<Answer[]> {
  const key = r === 'unknown' ? r : r.name;
  let p = answerMemo.get(key);
  if (!p) {
    const wrong = { kind: 'other' as const, key: WRONG_KEY };
    p = (async (): Promise<Answer[]> => {
      if (r === 'unknown') return [{ what: 'get /api/v1/storecheck-no-such-resource/get (an unknown path)', kind: 'unknown', ex: await ctx.client.raw('/api/v1/storecheck-no-such-resource/get', ctx.client.body({})) }];
      if (r.single) {
        return [
          { what: `store get ${r.prefix}/get with a wrong key`, kind: 'wrong', ex: (await ctx.client.store({ key: wrong })).exchange },
          { what: `store get ${r.prefix}/get without a key`, kind: 'missing', ex: (await ctx.client.store({ key: { kind: 'missing' } })).exchange },
        ];
      }
      const [g, c, m] = await Promise.all([ctx.client.get(r, { key: wrong }), ctx.client.count(r, { key: wrong, path: countPath(r) }), ctx.client.get(r, { key: { kind: 'missing' } })]);
      return [
        { what: `get ${r.prefix}/get with a wrong key`, kind: 'wrong', ex: g.exchange },
        { what: `count ${countPath(r) ?? `${r.prefix}/count`} with a wrong key`, kind: 'wrong', ex: c.exchange },
        { what: `get ${r.prefix}/get without a key`, kind: 'missing', ex: m.exchange },
      ];
    })();
    answerMemo.set(key, p);
    p.catch(() => answerMemo.delete(key));
  }
  return p;
}

const isError = (ex: Exchange) => !!ex.response && (ex.response.status < 200 || ex.response.status > 299);

check(CHECKS.get('error-shape')!, async (ctx) => {
  await ctx.item('all', async (it) => {
    const picks = [LIST[0], LIST[Math.floor(LIST.length / 2)], LIST[LIST.length - 1], STORE];
    const all = (await Promise.all([...picks.map((r) => answersOf(it, r)), answersOf(it, 'unknown')])).flat();
    const errors = all.filter((a) => isError(a.ex));
    if (errors.length < 2) it.notJudged('fewer than two of the wrong-key, missing-key and unknown-path requests were answered with an error');
    const families = new Map<string, typeof errors>();
    for (const e of errors) families.set(shapeFamily(e.ex), [...(families.get(shapeFamily(e.ex)) ?? []), e]);
    if (families.size > 1) {
      const groups = [...families.entries()].map(([f, list]) => `${f}: ${list.map((x) => x.what).join(', ')}`);
      it.fail({
        message: `errors come in ${families.size} shapes: ${groups.join(' | ')}`,
        why: `§7 Errors: the error shape is not shown, but one target uses one; observed errors.shape: ${observed('errors.shape') ?? 'not observed'}`,
        expected: 'one error shape family',
        actual: Object.fromEntries([...families.entries()].map(([f, list]) => [f, list.map((x) => `${x.what} → ${shapeOf(x.ex)}`)])),
        evidence: [...families.values()].map((list) => list[0].ex),
      });
    }
  });
});

check(CHECKS.get('auth-status')!, async (ctx) => {
  const want = { wrong: observed('auth.invalidKeyStatus'), missing: observed('auth.missingKeyStatus') };
  if (want.wrong === null && want.missing === null) ctx.notJudged('auth.invalidKeyStatus and auth.missingKeyStatus were not observed');
  await Promise.all(LIST.map((r) => ctx.item(r.name, async (it: ItemContext) => {
    const off = (await answersOf(it, r)).filter((a) => a.kind !== 'unknown' && want[a.kind] !== null && a.ex.response && a.ex.response.status !== want[a.kind]);
    if (off.length) {
      it.fail({
        message: off.map((a) => `${a.what} was answered HTTP ${a.ex.response!.status}, not ${want[a.kind as 'wrong' | 'missing']}`).join('; '),
        why: `§5 Authentication: the status for a wrong or missing key is not shown, but one target uses one; observed auth.invalidKeyStatus ${want.wrong}, auth.missingKeyStatus ${want.missing}`,
        expected: want,
        actual: off.map((a) => `${a.what}: HTTP ${a.ex.response!.status}`),
        evidence: off.map((a) => a.ex),
      });
    }
  })));
});

/**
 * Answers a rate limiter or a gateway gives whatever was asked (the client retries them): not the
 * store's reading of the client's mistake.
 */
const TRANSIENT = new Set([429, 502, 503, 504]);
const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/**
 * A wrong key as long as the configured one: a store that compares keys only when their lengths
 * agree (Node's timingSafeEqual throws on unequal lengths) answers the two wrong keys differently.
 */
function sameLengthWrongKey(key: string): string {
  const k = 'x'.repeat(key.length);
  return k === key ? 'y'.repeat(key.length) : k;
}

check(CHECKS.get('error-status-class')!, async (ctx) => {
  await ctx.item('all', async (it) => {
    const sameLength = { kind: 'other' as const, key: sameLengthWrongKey(it.config.apiKey) };
    const first = LIST[0];
    const [answers, store, nullFilters, nullPages] = await Promise.all([
      // a resource the target gives no count path (users-count-absent) is left out, not the whole item
      Promise.all([...LIST, STORE].map((r) => answersOf(it, r).catch((e: unknown) => (e instanceof NotJudged ? [] : Promise.reject(e)))).concat(answersOf(it, 'unknown'))),
      it.client.store({ key: sameLength }),
      // an optional object sent as null: what .NET's and Java's JSON serializers write for an unset property by default
      it.client.raw(`${first.prefix}/get`, it.client.body({ filters: null })),
      it.client.raw(`${first.prefix}/get`, it.client.body({ pagination: { pageNumber: null, pageSize: null } })),
    ]);
    const all: Array<{ what: string; ex: Exchange }> = [
      ...answers.flat(),
      { what: `store get ${STORE.prefix}/get with a wrong key as long as the key`, ex: store.exchange },
      { what: `get ${first.prefix}/get with filters: null`, ex: nullFilters },
      { what: `get ${first.prefix}/get with pagination {pageNumber: null, pageSize: null}`, ex: nullPages },
    ];
    const errors = all.filter((a) => isError(a.ex) && !TRANSIENT.has(a.ex.response!.status));
    const classes = new Map<string, typeof all>();
    for (const a of errors) classes.set(statusClass(a.ex.response!.status), [...(classes.get(statusClass(a.ex.response!.status)) ?? []), a]);
    if (!classes.has('5xx') || classes.size < 2) return;
    const groups = [...classes.entries()].map(([c, list]) => `${c}: ${list.map((x) => `${x.what} (HTTP ${x.ex.response!.status})`).join(', ')}`);
    it.fail({
      message: `client errors are answered in ${classes.size} status classes: ${groups.join(' | ')}`,
      why: '§5 Authentication 3, §7 Errors: the status of a client error is not shown, but one target answers its clients\' mistakes in one class; a 5xx beside 4xx answers is the store failing on some of them (RFC 9110 §15.6: 5xx, the server erred)',
      expected: 'one status class for a wrong key, a missing key, an unknown path and optional objects sent as null, on every resource',
      actual: Object.fromEntries([...classes.entries()].map(([c, list]) => [c, list.map((x) => `${x.what} → HTTP ${x.ex.response!.status}`)])),
      evidence: [...classes.values()].map((list) => list[0].ex),
    });
  });
});

// ---- the readings of stack defaults (docs/stack-defaults.md): one item per resource, judged in suites/support/readings.ts
const byName = new Map(resources().map((r) => [r.name, r]));
const placesOf = (subject: string) => CHECKS.get(subject)!.items.map((i) => byName.get(i.case)!);
check(CHECKS.get('id-case')!, (ctx) => judgeAgainstStore(ctx, placesOf('id-case'), async (it, r) => idsShown(it, r, await defaultPage(it, r)),
  (shown) => idsReading(shown, { letterCase: observed('ids.letterCase'), filter: observed('filters.idCase') }), judgeIdCase));
check(CHECKS.get('createdon-zone')!, (ctx) => judgeAgainstStore(ctx, placesOf('createdon-zone'), createdonOffset,
  (shown) => storeReading(shown, observed('time.createdonOffsetMinutes')), judgeCreatedonZone));
check(CHECKS.get('integer-width')!, (ctx) => judgeAgainstStore(ctx, placesOf('integer-width'), integerWidths,
  propsReading(observed('limits.integerWidth')), judgeProps('Integer width', 'limits.integerWidth')));
check(CHECKS.get('decimal-scale')!, (ctx) => judgeAgainstStore(ctx, placesOf('decimal-scale'), decimalScales,
  propsReading(observed('limits.decimalScale')), judgeProps('Decimal scale', 'limits.decimalScale')));
