/**
 * Delete (§4 Delete: the body carries `filter` as an array of objects, each
 * `{id: array of GUID}`; success is `{success: 'true'}`), for every writable
 * resource, in both shapes the spec allows:
 *   #several-ids      one filter object whose id array lists several records
 *   #several-filters  several filter objects, one id each
 * Items:
 *   <r>.lifecycle.delete.response#answer
 *   <r>.lifecycle.delete.exact#several-ids #several-filters   exactly the named ids go; the others stay
 *   <r>.lifecycle.delete.gone#several-ids #several-filters    the deleted ids are gone from get and count
 * Every deleted record sits between two survivors of its own create, and a
 * record of an earlier create must survive too. Reads after the delete wait
 * for it to show (a lagging store, src/check/visibility.ts). The exact and
 * the gone checks judge the same deletes (one plan per shape and run, sent
 * once): the creates, the delete and the clean-up are not paid twice.
 */
import fc from 'fast-check';
import {
  check, checksOf, resources, describeValue, type CheckContext, type ItemContext, type Rec, type Exchange,
  type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import { refsFixture, refsFor, REFERENCED } from './support/refs.js';
import { batches, countByIds, getByIds, idsOf, last, payloadContext, payloads, withCreated } from './support/writes.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = {
  rules: ['lifecycle.delete.response', 'lifecycle.delete.exact', 'lifecycle.delete.gone'],
};

const WRITABLE = resources().filter((r) => r.writable && r.payload.length > 0);
const refs = refsFixture('lifecycle-delete');
const SHAPES = ['several-ids', 'several-filters'] as const;
type Shape = (typeof SHAPES)[number];

/** The `filter` of a delete in one shape: one object with every id, or one object per id. */
const filterOf = (shape: Shape, ids: string[]) => (shape === 'several-ids' ? [{ id: ids }] : ids.map((id) => ({ id: [id] })));
const shapeText = (shape: Shape, n: number) => (shape === 'several-ids' ? `one filter object listing ${n} ids` : `${n} filter objects of one id each`);

/**
 * A bystander record, a batch of 5+ records, and two or more of its odd
 * positions (each between two survivors) to delete.
 */
function planArb(ctx: CheckContext, r: ResourceModel, ids: Partial<Record<string, string[]>>) {
  const pctx = payloadContext(ctx, ids);
  return fc.tuple(payloads(r, pctx), batches(r, pctx, { minLength: 5, maxLength: Math.max(5, ctx.depth.batch) }))
    .chain(([bystander, batch]) => {
      const odd = [...batch.keys()].filter((i) => i % 2 === 1 && i < batch.length - 1);
      return fc.tuple(fc.constant(bystander), fc.constant(batch), fc.subarray(odd, { minLength: 2 }));
    });
}

type Read<T> = PromiseSettledResult<T>;
type Got = Awaited<ReturnType<typeof getByIds>>;
type Counted = Awaited<ReturnType<typeof countByIds>>;

/** A delete and what was read after it: by the ids of the batch and its neighbours (exact), and by the deleted ids alone (gone). */
interface Scenario {
  survivors: string[];
  doomed: string[];
  res: Exchange;
  evidence: Exchange[];
  all: { read: Read<Got>; count: Read<Counted> };
  deletedOnly: { read: Read<Got>; count: Read<Counted> };
}

/** The value of a read sent beside another, or what ended it (judged in a fixed order: the get's first, then the count's). */
function settled<T>(r: PromiseSettledResult<T>): T {
  if (r.status === 'rejected') throw r.reason;
  return r.value;
}

/**
 * The scenarios of a resource and shape, by plan: the exact and the gone
 * checks draw the same plans (one label) and judge the same delete, sent once
 * by whichever asks first — the four reads after it serve both. A plan only
 * one of them asks (a shrunk case) is run for it alone.
 */
const scenarios = new Map<string, { p: Promise<Scenario>; askers: number }>();

/** Run `judge` on the scenario of each plan the item draws (its property: seeded by the resource and shape, shrunk on failure). */
async function judgeScenarios(it: ItemContext, r: ResourceModel, shape: Shape, judge: (d: Scenario) => void): Promise<void> {
  const refSet = await refsFor(refs, it, r);
  // records of other checks of this file: the refs fixture, when it holds records of this resource
  const fixtureIds = REFERENCED.includes(r.name) ? (await refs.get(it)).ids[r.name] ?? [] : [];
  await it.property(planArb(it, r, refSet.ids), async (plan) => {
    const key = `${r.name}\u0000${shape}\u0000${JSON.stringify(plan)}`;
    let shared = scenarios.get(key);
    if (!shared) scenarios.set(key, (shared = { p: runScenario(it, r, shape, fixtureIds, plan), askers: 0 }));
    if (++shared.askers === 2) scenarios.delete(key);
    judge(await shared.p);
  }, { label: `${r.name}.lifecycle.delete#${shape}` });
}

/** Create the bystander and the batch, delete the chosen records in one shape, read what is left both ways; then clean up. */
async function runScenario(ctx: ItemContext, r: ResourceModel, shape: Shape, fixtureIds: string[], plan: [Rec, Rec[], number[]]): Promise<Scenario> {
  const [bystander, batch, chosen] = plan;
  return withCreated(ctx, r, [bystander], async ([other], ex0, deleted) => {
    const created = await ctx.scope.create(r, batch);
    const ex = last(ctx);
    const createdIds = idsOf(ctx, created, ex);
    const doomed = chosen.map((i) => createdIds[i]);
    const res = await ctx.client.delete(r, doomed, { filter: filterOf(shape, doomed) });
    ctx.ok(res, `delete of ${doomed.length} ${r.title} record(s) with ${shapeText(shape, doomed.length)}`);
    deleted(doomed);
    const dead = new Set(doomed.map((x) => x.toLowerCase()));
    const survivors = [String(other.id), ...createdIds.filter((x) => !dead.has(x.toLowerCase())), ...fixtureIds];
    const all = [...survivors, ...doomed];
    const goneFrom = (m: Map<string, Rec>) => doomed.every((x) => !m.has(x.toLowerCase()));
    const [readAll, countAll, readDeleted, countDeleted] = await Promise.allSettled([
      getByIds(ctx, r, all, 'get by the ids of the batch and its neighbours', goneFrom),
      countByIds(ctx, r, all, 'count by the ids of the batch and its neighbours', (n) => n === survivors.length),
      getByIds(ctx, r, doomed, 'get by the deleted ids', (m) => m.size === 0),
      countByIds(ctx, r, doomed, 'count by the deleted ids', (n) => n === 0),
    ]);
    return {
      survivors, doomed, res: res.exchange, evidence: [ex0, ex, res.exchange],
      all: { read: readAll, count: countAll }, deletedOnly: { read: readDeleted, count: countDeleted },
    };
  });
}

for (const r of WRITABLE) {
  const [response] = checksOf('lifecycle.delete.response', r.name);
  check(response, async (ctx) => {
    await ctx.item('answer', async (it) => {
      const pctx = payloadContext(it, (await refsFor(refs, it, r)).ids);
      const arb = batches(r, pctx, { minLength: 1, maxLength: Math.max(1, it.depth.batch) }).chain((b) => fc.tuple(fc.constant(b), fc.subarray([...b.keys()], { minLength: 1 })));
      await it.property(arb, async ([batch, chosen]) => {
        await withCreated(it, r, batch, async (created, ex, deleted) => {
          const createdIds = idsOf(it, created, ex);
          const doomed = chosen.map((i) => createdIds[i]);
          const res = await it.client.delete(r, doomed);
          if (res.ok) {
            deleted(doomed);
            return;
          }
          if (!res.exchange.response || res.exchange.response.status >= 500) it.ok(res, `delete of ${doomed.length} ${r.title} record(s)`);
          it.fail({
            message: `delete of ${doomed.length} ${r.title} record(s) this run created answered ${res.problem}`,
            why: "§4 Delete: the success response is {success: 'true'}",
            expected: { success: 'true' }, actual: (res.exchange.json as Rec | undefined) ?? res.exchange.response?.text, evidence: [res.exchange],
          });
        });
      });
    });
  });

  const [exact] = checksOf('lifecycle.delete.exact', r.name);
  check(exact, async (ctx) => {
    // the get and the count of each shape together (the shapes one after another: withCreated deletes
    // what the scope gained meanwhile, so two of them side by side would delete each other's records)
    for (const shape of SHAPES) {
      await ctx.item(shape, (it) => judgeScenarios(it, r, shape, ({ survivors, doomed, res, evidence, all }) => {
        const got = settled(all.read);
        const everyId = [...survivors, ...doomed];
        const missing = survivors.filter((x) => !got.byId.has(x.toLowerCase()));
        const kept = doomed.filter((x) => got.byId.has(x.toLowerCase()));
        if (missing.length || kept.length) {
          it.fail({
            message: `delete with ${shapeText(shape, doomed.length)} (${doomed.length} of the records) ${[
              missing.length ? `also removed ${missing.length} record(s) it did not name: ${missing.join(', ')}` : '',
              kept.length ? `left ${kept.length} named record(s) in place: ${kept.join(', ')}` : '',
            ].filter(Boolean).join(' and ')}`,
            why: '§4 Delete: delete removes exactly the ids of every filter object',
            expected: { survive: survivors, removed: doomed },
            actual: { returnedByGet: got.records.map((x) => x?.id) },
            evidence: [...evidence, got.exchange],
          });
        }
        const counted = settled(all.count);
        if (counted.count !== survivors.length) {
          it.fail({
            message: `after deleting ${doomed.length} record(s) with ${shapeText(shape, doomed.length)}, count with the ids of ${everyId.length} records gives ${counted.count} while ${survivors.length} survive`,
            why: '§4 Delete: other records survive',
            expected: survivors.length, actual: counted.count, evidence: [res, got.exchange, counted.exchange],
          });
        }
      }));
    }
  });

  const [gone] = checksOf('lifecycle.delete.gone', r.name);
  check(gone, async (ctx) => {
    for (const shape of SHAPES) {
      await ctx.item(shape, (it) => judgeScenarios(it, r, shape, ({ doomed, res, deletedOnly }) => {
        const got = settled(deletedOnly.read);
        const still = doomed.filter((x) => got.byId.has(x.toLowerCase()));
        if (still.length) {
          it.fail({
            message: `get with filters.id of ${doomed.length} ${r.title} record(s) deleted with ${shapeText(shape, doomed.length)} still returns ${still.length}: ${still.join(', ')}`,
            why: '§4 Delete: a deleted id is gone',
            expected: [], actual: got.records.map((x) => x?.id), evidence: [res, got.exchange],
          });
        }
        const counted = settled(deletedOnly.count);
        if (counted.count !== 0) {
          it.fail({
            message: `count with filters.id of ${doomed.length} ${r.title} record(s) deleted with ${shapeText(shape, doomed.length)} gives ${describeValue(String(counted.count))}, expected "0"`,
            why: '§4 Delete: a deleted id is gone from count',
            expected: 0, actual: counted.count, evidence: [res, counted.exchange],
          });
        }
      }));
    }
  });
}
