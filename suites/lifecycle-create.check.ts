/**
 * Create (§4 Create and update payloads, §4 Responses), for every writable
 * resource, item by item:
 *   <r>.lifecycle.create.single#<prop>       the create answer shows the value sent
 *   <r>.lifecycle.create.round-trip#<prop>   get by id shows the value sent
 *   <r>.lifecycle.create.batch#answer #stored  several items in one data: each answered, each stored
 *   <r>.lifecycle.create.references.<field>#answer #get  categoryid → categories, tags → tags…
 * One create judges every property at once. The first value is designed so a
 * dropped property shows (no value a default could equal: support/values.ts),
 * the others generated. Values are compared by meaning (src/values); the forms
 * are the format suite's business; tags compare as a set.
 */
import fc from 'fast-check';
import {
  maxLengthOf,
  check, forValues, checksOf, comparableProps, resources, type CheckContext, type Rec, type Exchange,
  type PayloadPropModel, type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import { looseKey, MAX_LIST_ITEMS, textArb, type Payload } from '../generators/index.js';
import { refsFixture, refsFor } from './support/refs.js';
import { designedPayload } from './support/values.js';
import { classCreates, judgeClassProp, storedClassItems, type ClassCreate } from './lifecycle/class-create.js';
import {
  batches, countByIds, failValues, fitUtf16, getByIds, idsOf, matchResponse, payloadContext, payloadMismatches, payloads, withCreated,
} from './support/writes.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = {
  rules: ['lifecycle.create.single', 'lifecycle.create.batch', 'lifecycle.create.round-trip', 'lifecycle.create.references'],
};

const WRITABLE = resources().filter((r) => r.writable && r.payload.length > 0);
const refs = refsFixture('lifecycle-create');
const classItems = classCreates(WRITABLE, refs);

/** Batch size: at least `min`, else the depth's batch size. */
const batchSize = (ctx: CheckContext, min: number) => ({ minLength: min, maxLength: Math.max(min, ctx.depth.batch) });

/** Judge every property of one record, one item each (a property not sent is not judged by this value). */
async function judgeProps(ctx: CheckContext, r: ResourceModel, props: PayloadPropModel[], payload: Payload, rec: Rec | undefined, form: 'get' | 'write', names: Map<string, string>, what: string, evidence: Exchange[]): Promise<void> {
  for (const p of props) {
    await ctx.item(p.name, (it) => {
      if (!(p.name in payload)) it.notJudged(`this value carried no ${p.name} (an optional property, or nothing to reference)`);
      const ms = payloadMismatches(r, payload, rec, form, { names, only: (q) => q.name === p.name });
      if (ms.length) failValues(it, what, ms, form === 'write' ? '§4 Responses: create returns the record with the values sent' : '§4 Responses: get returns the created record with the values sent', evidence);
    });
  }
}

/**
 * The value-class items (docs/value-classes.md) as the batch: each answered
 * with the values sent (#answer), each stored (#stored: get by their ids,
 * shared with round-trip) — a create that drops one class of a property the
 * answer does not show (product size is answered '0') shows in #stored.
 */
/** How item i of the value-class items was sent (class-create.ts loneIndex): alone, or with the others in one data. */
const sentAs = (cc: ClassCreate, i: number) => (cc.lone === undefined || cc.lone === i ? 'alone in data' : `with the other ${cc.items.length - 2} in one data`);

async function classBatch(ctx: CheckContext, r: ResourceModel, cc: ClassCreate): Promise<void> {
  const { items, classes, names, exchange: ex, exchanges } = cc;
  await ctx.item('answer', (it) => {
    it.classes(classes.judged, classes.notJudged);
    if (cc.refused) it.fail({ message: `create of ${items.length} valid ${r.title} items holding one value of each class was not accepted: ${cc.refused}`, why: '§4 Create and update payloads', expected: `2xx with ${items.length} created records`, actual: cc.refused, evidence: [ex] });
    items.forEach((payload, i) => {
      const ms = payloadMismatches(r, payload, cc.matched?.[i], 'write', { names });
      if (ms.length) failValues(it, `create of ${items.length} items (${sentAs(cc, i)}) answered item ${i} with values that differ from those sent`, ms, '§4 Create and update payloads: create returns each record with the values sent', exchanges);
    });
  });
  if (cc.refused) return;
  await ctx.item('stored', async (it) => {
    it.classes(classes.judged, classes.notJudged);
    const got = await storedClassItems(it, r, cc);
    got.ids.forEach((id, i) => {
      const rec = got.byId.get(id.toLowerCase());
      if (!rec) it.fail({ message: `create of ${items.length} items answered ${cc.matched?.length} records, but get with their ids does not return ${id}`, why: '§4 Create and update payloads: each item becomes a record', expected: got.ids, actual: got.records.map((x) => x?.id), evidence: [...exchanges, got.exchange] });
      const ms = payloadMismatches(r, items[i], rec, 'get', { names });
      if (ms.length) failValues(it, `get by id shows ${r.title} ${id}, created as item ${i} of ${items.length} (${sentAs(cc, i)}), with values that differ from those sent`, ms, '§4 Create and update payloads: each item becomes a record with the values sent', [...exchanges, got.exchange]);
    });
  });
}

for (const r of WRITABLE) {
  const [single] = checksOf('lifecycle.create.single', r.name);
  check(single, async (ctx) => {
    const { ids, names } = await refsFor(refs, ctx, r);
    const pctx = payloadContext(ctx, ids);
    const props = comparableProps(r, 'write');
    const arb = payloads(r, pctx);
    await forValues(ctx, designedPayload(r, pctx), arb, async (payload) => {
      await withCreated(ctx, r, [payload], async ([rec], ex) => {
        await judgeProps(ctx, r, props, payload, rec, 'write', names, `create with one item in data answered a ${r.title} whose values differ from those sent`, [ex]);
      });
    });
    // one value of each class of every property: the value-class items' create (shared with the batch check)
    const cc = await classItems.get(r.name)!.get(ctx);
    if (!cc) return;
    for (const p of props.filter((q) => cc.props.some((x) => x.p.name === q.name))) {
      await ctx.item(p.name, (it) => judgeClassProp(it, r, cc, p, 'write', (k) => cc.matched?.[k], `create of the ${cc.items.length} value-class items (one alone in data) answered a ${p.name} other than sent`, cc.exchanges));
    }
  });

  const [roundTrip] = checksOf('lifecycle.create.round-trip', r.name);
  check(roundTrip, async (ctx) => {
    const { ids, names } = await refsFor(refs, ctx, r);
    const pctx = payloadContext(ctx, ids);
    const props = comparableProps(r, 'get');
    const arb = payloads(r, pctx);
    await forValues(ctx, designedPayload(r, pctx), arb, async (payload) => {
      await withCreated(ctx, r, [payload], async (created, ex) => {
        const [id] = idsOf(ctx, matchResponse(r, [payload], created) as Rec[], ex);
        const got = await getByIds(ctx, r, [id], 'get by the created id');
        const rec = got.byId.get(id.toLowerCase());
        if (!rec) ctx.fail({ message: `get with filters.id [${id}] did not return the ${r.title} just created (waited ${ctx.config.visibilityTimeoutMs} ms for it to show)`, why: '§4 Responses: get returns the records', expected: id, actual: got.records.map((x) => x?.id), evidence: [ex, got.exchange] });
        await judgeProps(ctx, r, props, payload, rec, 'get', names, `get by id returned created ${r.title} ${id} with values that differ from those sent`, [ex, got.exchange]);
      });
    });
    const cc = await classItems.get(r.name)!.get(ctx);
    if (!cc) return;
    const got = cc.refused ? undefined : await storedClassItems(ctx, r, cc);
    for (const p of props.filter((q) => cc.props.some((x) => x.p.name === q.name))) {
      await ctx.item(p.name, (it) => judgeClassProp(it, r, cc, p, 'get', (k) => got?.byId.get(String(got.ids[k]).toLowerCase()), `get by id of the ${cc.items.length} value-class items (one created alone) shows a ${p.name} other than sent`, got ? [...cc.exchanges, got.exchange] : cc.exchanges));
    }
  });

  const [batch] = checksOf('lifecycle.create.batch', r.name);
  check(batch, async (ctx) => {
    const { ids, names } = await refsFor(refs, ctx, r);
    const judge = (items: Payload[]) => withCreated(ctx, r, items, async (created, ex) => {
      await ctx.item('answer', (it) => {
        const matched = matchResponse(r, items, created);
        items.forEach((payload, i) => {
          const ms = payloadMismatches(r, payload, matched[i], 'write', { names });
          if (ms.length) failValues(it, `create with ${items.length} items in one data answered item ${i} with values that differ from those sent`, ms, '§4 Create and update payloads: create returns each record with the values sent', [ex]);
        });
      });
      await ctx.item('stored', async (it) => {
        const createdIds = idsOf(it, created, ex);
        const { count, exchange } = await countByIds(it, r, createdIds, 'count by the created ids', (n) => n >= createdIds.length);
        if (count !== createdIds.length) {
          it.fail({
            message: `create of ${items.length} items in one data answered ${created.length} records, but count with their ids finds ${count}`,
            why: '§4 Create and update payloads: each item becomes a record',
            expected: createdIds.length, actual: count, evidence: [ex, exchange],
          });
        }
      });
    });
    await ctx.property(batches(r, payloadContext(ctx, ids), batchSize(ctx, 2)), judge);
    const cc = await classItems.get(r.name)!.get(ctx);
    if (cc) await classBatch(ctx, r, cc);
  });

  // product categoryid/collectionid -> categories/collections {id, name}; tags -> tags [{tag}]
  for (const p of r.payload.filter((x) => x.kind === 'list')) {
    const subject = p.recordField ?? p.name;
    const [def] = checksOf('lifecycle.create.references', r.name).filter((d) => d.subject === subject);
    check(def, async (ctx) => {
      const { ids, names } = await refsFor(refs, ctx, r);
      const refIds = p.references ? ids[p.references] ?? [] : [];
      if (p.references && refIds.length === 0) ctx.notJudged(`no ${p.references} to reference: none could be created or read`);
      const arb = batches(r, payloadContext(ctx, ids), batchSize(ctx, 1)).chain((b) =>
        fc.array(nonEmptyListArb(p, refIds), { minLength: b.length, maxLength: b.length })
          .map((lists) => b.map((item, i): Payload => fitUtf16(r, { ...item, [p.name]: lists[i] }))));
      const only = (q: PayloadPropModel) => q.name === p.name;
      const how = p.references ? `${p.name} [ids] becomes ${subject} [{id, name}] of the referenced ${p.references} records` : `${p.name} [strings] becomes ${subject} holding the same strings (compared as a set)`;
      await ctx.property(arb, async (items) => {
        await withCreated(ctx, r, items, async (created, ex) => {
          const matched = matchResponse(r, items, created);
          await ctx.item('answer', (it) => {
            items.forEach((payload, i) => {
              const ms = payloadMismatches(r, payload, matched[i], 'write', { names, only });
              if (ms.length) failValues(it, `create answered item ${i} with ${subject} that do not match ${p.name} sent`, ms, `§4 Create and update payloads: ${how}`, [ex]);
            });
          });
          await ctx.item('get', async (it) => {
            const createdIds = idsOf(it, matched as Rec[], ex);
            const got = await getByIds(it, r, createdIds, 'get by the created ids');
            items.forEach((payload, i) => {
              const rec = got.byId.get(createdIds[i].toLowerCase());
              if (!rec) it.fail({ message: `get with filters.id [${createdIds[i]}] did not return the ${r.title} just created`, why: '§4 Responses: get returns the records', evidence: [ex, got.exchange] });
              const ms = payloadMismatches(r, payload, rec, 'get', { names, only });
              if (ms.length) failValues(it, `get by id returned ${r.title} ${createdIds[i]} with ${subject} that do not match ${p.name} sent`, ms, `§4 Create and update payloads: ${how}`, [ex, got.exchange]);
            });
          });
        });
      });
    });
  }
}

/** Records a list property of one generated payload takes, never empty (references, tags). */
function nonEmptyListArb(p: PayloadPropModel, refIds: string[]): fc.Arbitrary<string[]> {
  if (p.references) return fc.subarray(refIds, { minLength: 1 });
  return fc.uniqueArray(textArb({ maxLength: maxLengthOf(p) }), { minLength: 1, maxLength: MAX_LIST_ITEMS, selector: looseKey });
}
