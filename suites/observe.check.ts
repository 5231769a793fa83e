/**
 * Behaviour the spec leaves open ("not shown") is observed once before the
 * run (src/observe) on one or two resources; these checks see that the target
 * applies the same choice elsewhere. They fail only on inconsistency — never
 * on the choice itself (rule observe.consistent, level observe).
 *
 *   all.observe.consistent.default-page-size  a get without pagination returns min(default, count)
 *                                             records on the three largest read-only resources
 *   all.observe.consistent.order              the default page of every read-only resource with
 *                                             createdon follows the observed order
 *   all.observe.consistent.error-shape        a wrong key (get, count, store get), a missing key and
 *                                             an unknown path are answered in one error shape family
 *   all.observe.consistent.auth-status        wrong and missing keys get the observed statuses on
 *                                             several resources and operations
 * Read-only resources only: nothing the run writes changes their counts or pages.
 */
import { check, observed, type CheckContext } from '../src/check/index.js';
import type { Rec } from '../src/client/api.js';
import type { Exchange } from '../src/client/http.js';
import { resources, type ResourceModel } from '../src/schema/model.js';
import { WRONG_KEY, shapeFamily, shapeOf } from '../src/observe/shared.js';
import { follows, orderOf, ORDERS, type OrderName } from '../src/observe/order.js';

const READ_ONLY = resources().filter((r) => !r.single && r.operations.includes('get') && !r.writable);
const STORE = resources().find((r) => r.single)!;
const LIST = resources().filter((r) => !r.single && r.operations.includes('get'));
const S_COMMON = '§4 Common rules';

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

check({ rule: 'observe.consistent', resource: '*', subject: 'default-page-size', title: 'a get without pagination returns the observed default page size on every resource' }, async (ctx) => {
  const def = observed('pagination.defaultPageSize');
  if (def === null) return ctx.skip('pagination.defaultPageSize was not observed');
  const counts = await Promise.all(READ_ONLY.map(async (r) => ({ r, res: await ctx.client.count(r) })));
  const largest = counts
    .map(({ r, res }) => ({ r, count: ctx.ok(res, `count of ${r.prefix}`), ex: res.exchange }))
    .filter((x) => x.count > 0)
    .sort((a, b) => b.count - a.count)
    .slice(0, 3);
  if (!largest.length) return ctx.skip('no read-only resource holds records');
  const wrong: string[] = [];
  const evidence: Exchange[] = [];
  for (const { r, count, ex } of largest) {
    const got = await defaultPage(ctx, r);
    const want = Math.min(def, count);
    if (got.records.length !== want) {
      wrong.push(`${r.prefix}/get returned ${got.records.length} of ${count} records, expected ${want}`);
      evidence.push(ex, got.exchange);
    }
  }
  if (wrong.length) {
    ctx.fail({
      message: `the default page size observed as ${def} is not applied everywhere: ${wrong.join('; ')} (${S_COMMON}: pagination defaults are not shown, but one target applies one)`,
      expected: `min(${def}, count) records per get without pagination`,
      actual: wrong,
      evidence,
    });
  }
});

check({ rule: 'observe.consistent', resource: '*', subject: 'order', title: 'records come in the observed order on every resource' }, async (ctx) => {
  const seen = observed('order.default');
  if (seen === 'unordered') return ctx.skip('order.default was observed as unordered: there is no order to hold');
  const audited = READ_ONLY.filter((r) => r.audit);
  const got = await Promise.all(audited.map(async (r) => ({ r, page: await defaultPage(ctx, r) })));
  const usable = got.filter((x) => x.page.records.length >= 3);
  if (!usable.length) return ctx.skip('no read-only resource with createdon holds 3 records or more');
  const shown = usable.map((x) => ({ ...x, order: orderOf([x.page.records]) }));
  let wrong: typeof shown;
  let expected: string;
  if (seen && (ORDERS as readonly string[]).includes(seen)) {
    wrong = shown.filter((x) => follows(x.page.records, seen as OrderName) === 'no');
    expected = `every default page ordered by ${seen} (observed)`;
  } else {
    // not observed: the resources must at least agree with each other
    const first = shown.find((x) => x.order && x.order !== 'unordered')?.order;
    wrong = first ? shown.filter((x) => x.order !== first && x.order !== undefined) : [];
    expected = `every default page in one order${first ? ` (${first}, as the first resource)` : ''}`;
  }
  if (wrong.length) {
    ctx.fail({
      message: `the order is not the same everywhere: ${wrong.map((x) => `${x.r.prefix}/get is ${x.order === 'unordered' ? 'in none of createdon/id asc/desc' : `ordered by ${x.order}`}`).join('; ')}; ${expected} (${S_COMMON}: the order of returned records is not shown, but one target applies one)`,
      expected,
      actual: Object.fromEntries(shown.map((x) => [x.r.name, x.order])),
      evidence: wrong.map((x) => x.page.exchange),
    });
  }
});

/** Wrong-key and missing-key answers on three list resources and the store, and an unknown path (shared). */
let authAnswers: Promise<Array<{ what: string; kind: 'wrong' | 'missing' | 'unknown'; ex: Exchange }>> | undefined;
function answers(ctx: CheckContext) {
  authAnswers ??= (async () => {
    const picks = [LIST[0], LIST[Math.floor(LIST.length / 2)], LIST[LIST.length - 1]];
    const out: Array<{ what: string; kind: 'wrong' | 'missing' | 'unknown'; ex: Exchange }> = [];
    const wrong = { kind: 'other' as const, key: WRONG_KEY };
    for (const r of picks) {
      out.push({ what: `get ${r.prefix}/get with a wrong key`, kind: 'wrong', ex: (await ctx.client.get(r, { key: wrong })).exchange });
      out.push({ what: `count ${r.prefix}/count with a wrong key`, kind: 'wrong', ex: (await ctx.client.count(r, { key: wrong })).exchange });
      out.push({ what: `get ${r.prefix}/get without a key`, kind: 'missing', ex: (await ctx.client.get(r, { key: { kind: 'missing' } })).exchange });
    }
    out.push({ what: `store get ${STORE.prefix}/get with a wrong key`, kind: 'wrong', ex: (await ctx.client.store({ key: wrong })).exchange });
    out.push({ what: `store get ${STORE.prefix}/get without a key`, kind: 'missing', ex: (await ctx.client.store({ key: { kind: 'missing' } })).exchange });
    out.push({ what: 'get /api/v1/storecheck-no-such-resource/get (an unknown path)', kind: 'unknown', ex: await ctx.client.raw('/api/v1/storecheck-no-such-resource/get', ctx.client.body({})) });
    return out;
  })();
  authAnswers.catch(() => { authAnswers = undefined; });
  return authAnswers;
}

const isError = (ex: Exchange) => !!ex.response && (ex.response.status < 200 || ex.response.status > 299);

check({ rule: 'observe.consistent', resource: '*', subject: 'error-shape', title: 'errors have one shape: wrong key, missing key, unknown path' }, async (ctx) => {
  const errors = (await answers(ctx)).filter((a) => isError(a.ex));
  if (errors.length < 2) return ctx.skip('fewer than two of the wrong-key, missing-key and unknown-path requests were answered with an error');
  const families = new Map<string, typeof errors>();
  for (const e of errors) families.set(shapeFamily(e.ex), [...(families.get(shapeFamily(e.ex)) ?? []), e]);
  if (families.size > 1) {
    const groups = [...families.entries()].map(([f, list]) => `${f}: ${list.map((x) => x.what).join(', ')}`);
    ctx.fail({
      message: `errors come in ${families.size} shapes: ${groups.join(' | ')} (§7 Errors: the error shape is not shown, but one target uses one; observed errors.shape: ${observed('errors.shape') ?? 'not observed'})`,
      expected: 'one error shape family',
      actual: Object.fromEntries([...families.entries()].map(([f, list]) => [f, list.map((x) => `${x.what} → ${shapeOf(x.ex)}`)])),
      evidence: [...families.values()].map((list) => list[0].ex),
    });
  }
});

check({ rule: 'observe.consistent', resource: '*', subject: 'auth-status', title: 'a wrong key and a missing key get the observed status everywhere' }, async (ctx) => {
  const want = { wrong: observed('auth.invalidKeyStatus'), missing: observed('auth.missingKeyStatus') };
  if (want.wrong === null && want.missing === null) return ctx.skip('auth.invalidKeyStatus and auth.missingKeyStatus were not observed');
  const off = (await answers(ctx)).filter((a) => a.kind !== 'unknown' && want[a.kind] !== null && a.ex.response && a.ex.response.status !== want[a.kind]);
  if (off.length) {
    ctx.fail({
      message: `${off.map((a) => `${a.what} was answered HTTP ${a.ex.response!.status}, not ${want[a.kind as 'wrong' | 'missing']}`).join('; ')} (§5 Authentication: the status for a wrong or missing key is not shown, but one target uses one; observed auth.invalidKeyStatus ${want.wrong}, auth.missingKeyStatus ${want.missing})`,
      expected: want,
      actual: off.map((a) => `${a.what}: HTTP ${a.ex.response!.status}`),
      evidence: off.map((a) => a.ex),
    });
  }
});
