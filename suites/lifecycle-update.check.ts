/**
 * Update (§4 Create and update payloads, §4 Responses), for every writable
 * resource, item by item:
 *   <r>.lifecycle.update.changes#<prop>          after an update supplying it, get shows the new value
 *   <r>.lifecycle.update.response#<prop>         the update answer shows the new value
 *   <r>.lifecycle.update.changes.batch#every-record  several items in one data: every record changes
 *   <r>.lifecycle.update.others-untouched#others records not named keep their values
 * The first value changes every property to a value it did not have
 * (support/values.ts changeEvery), so an update that ignores one property
 * shows on that property at every depth; further values are partial updates,
 * judged also for the properties they do not supply when the target was
 * observed to update partially (observation update.semantics). A property
 * that can take no other value is not judged, with why.
 */
import fc from 'fast-check';
import {
  check, forValues, checksOf, comparableProps, resources, type CheckContext, type Rec, type Exchange, type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import type { Payload, PayloadContext } from '../generators/index.js';
import { refsFixture, refsFor } from './support/refs.js';
import { judgeClassProp } from './lifecycle/class-create.js';
import { classUpdates, readUpdated, type ClassUpdate } from './lifecycle/class-update.js';
import { changeEvery, designedPayload, unchangeableReason } from './support/values.js';
import {
  batches, changedFields, failValues, fieldOf, fitUtf16, getByIds, idsOf, matchResponse, payloadContext, payloadMismatches, payloads,
  sameFieldValue, updates, withCreated, type Mismatch,
} from './support/writes.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = {
  rules: ['lifecycle.update.changes', 'lifecycle.update.response', 'lifecycle.update.others-untouched'],
};

const WRITABLE = resources().filter((r) => r.writable && r.payload.length > 0);
const refs = refsFixture('lifecycle-update');
const classItems = classUpdates(WRITABLE, refs);

const batchSize = (ctx: CheckContext, min: number) => ({ minLength: min, maxLength: Math.max(min, ctx.depth.batch) });

/** A created payload and an update of it: every property changed (designed), or a partial one (generated). */
interface Plan { payload: Payload; change: Payload; unchangeable: string[]; full: boolean }

function plans(r: ResourceModel, pctx: PayloadContext): { designed: fc.Arbitrary<Plan>; generated: fc.Arbitrary<Plan> } {
  const designed = fc.tuple(designedPayload(r, pctx), updates(r, pctx, 'full')).map(([payload, proposal]) => {
    const { change, unchangeable } = changeEvery(r, payload, proposal, pctx);
    return { payload, change: fitUtf16(r, change), unchangeable, full: true };
  });
  const generated = fc.tuple(payloads(r, pctx), updates(r, pctx, 'partial')).map(([payload, change]) => ({ payload, change, unchangeable: [], full: false }));
  return { designed, generated };
}

/**
 * The record as get shows it once the update is visible (a lagging store is read again until it
 * differs from before, or shows the change: a change equal to what the record held — a boolean
 * drawn as it was — shows nothing new, and waiting for a difference would last the whole
 * visibility deadline on every store).
 */
async function readAfter(ctx: CheckContext, r: ResourceModel, id: string, before: Rec | undefined, change: Payload, what: string) {
  const props = comparableProps(r, 'get').filter((p) => p.name in change);
  const changed = (rec: Rec | undefined) => !!rec && (!before || props.some((p) => {
    const f = p.recordField ?? p.name;
    return !sameFieldValue(fieldOf(r, 'get', f)!, before[f], rec[f]);
  }) || payloadMismatches(r, change, rec, 'get').length === 0);
  return getByIds(ctx, r, [id], what, (m) => changed(m.get(id.toLowerCase())));
}

const lower = (s: string) => s.toLowerCase();

const UPDATE_RULES = {
  get: { rule: '§4 Create and update payloads: update changes the supplied values of every item in data', refusedBy: 'lifecycle.update.changes.batch#every-record' },
  write: { rule: '§4 Responses: update returns the updated records with the new values', refusedBy: 'lifecycle.update.changes.batch#every-record' },
} as const;

/** The value-class update (suites/lifecycle/class-update.ts) as a whole: every record named shows its change. */
async function classBatch(ctx: CheckContext, r: ResourceModel, cu: ClassUpdate): Promise<void> {
  await ctx.item('every-record', async (it) => {
    it.classes(cu.classes.judged, cu.classes.notJudged);
    if (cu.refused) it.fail({ message: `an update of ${cu.ids.length} ${r.title} records holding one value of each class (lists of the observed limits.maxDataItems) was not accepted: ${cu.refused}`, why: it.rule.section, evidence: cu.exchanges.slice(-1) });
    const got = await readUpdated(it, r, cu);
    const ev = [...cu.exchanges.slice(-1), got.exchange];
    cu.ids.forEach((id, i) => {
      const after = got.byId.get(lower(id));
      if (!after) it.fail({ message: `get with filters.id [${id}] did not return ${r.title} ${id} after an update of ${cu.ids.length} records in one data`, why: it.rule.section, evidence: ev });
      const ms = payloadMismatches(r, cu.items[i], after, 'get', { names: cu.names });
      if (ms.length) failValues(it, `after one update of ${cu.ids.length} ${r.title} records, get shows item ${i} (${id}) with values other than those supplied`, ms, `${it.rule.section}: update changes the supplied values of every item in data`, ev);
    });
  });
}

for (const r of WRITABLE) {
  const [changes] = checksOf('lifecycle.update.changes', r.name).filter((d) => !d.subject);
  check(changes, async (ctx) => {
    const { ids, names } = await refsFor(refs, ctx, r);
    const pctx = payloadContext(ctx, ids);
    const semantics = ctx.observed('update.semantics');
    const { designed, generated } = plans(r, pctx);
    await forValues(ctx, designed, generated, async ({ payload, change, unchangeable }) => {
      await withCreated(ctx, r, [payload], async (created, ex) => {
        const [id] = idsOf(ctx, created, ex);
        const seen = (await getByIds(ctx, r, [id], 'get by id before the update')).byId.get(id.toLowerCase());
        if (!seen) return ctx.fail({ message: `get with filters.id [${id}] did not return the ${r.title} just created`, why: '§4 Responses', evidence: ctx.exchanges.slice(-2) });
        const up = await ctx.client.update(r, [{ id, ...change }]);
        ctx.ok(up, `update of ${r.title} ${id}`);
        const before: Rec = seen;
        const got = await readAfter(ctx, r, id, before, change, 'get by id after the update');
        const found = got.byId.get(id.toLowerCase());
        if (!found) return ctx.fail({ message: `get with filters.id [${id}] did not return the ${r.title} after its update`, why: ctx.rule.section, evidence: [up.exchange, got.exchange] });
        const after: Rec = found;
        for (const p of comparableProps(r, 'get')) {
          await ctx.item(p.name, (it) => {
            if (unchangeable.includes(p.name)) it.notJudged(unchangeableReason(p));
            if (p.name in change) {
              const ms = payloadMismatches(r, change, after, 'get', { names, only: (q) => q.name === p.name });
              if (ms.length) failValues(it, `after an update of ${r.title} ${id}, get shows a value other than the one supplied`, ms, `${it.rule.section}: update changes the supplied values`, [up.exchange, got.exchange]);
              return;
            }
            // not supplied: under partial updates (observed) it keeps its value
            if (semantics !== 'partial') it.notJudged('not supplied by this update, and updates replace records on this target (observation update.semantics)');
            const field = p.recordField ?? p.name;
            if (!sameFieldValue(fieldOf(r, 'get', field)!, before[field], after[field])) {
              const m: Mismatch = { prop: p.name, field, sent: before[field], got: after[field], note: 'not supplied' };
              failValues(it, `an update of ${r.title} ${id} supplying only ${Object.keys(change).join(', ')} changed ${p.name}, which it did not supply (the target was observed to apply updates partially)`, [m], `${it.rule.section}; observation update.semantics = partial`, [up.exchange, got.exchange], 'before');
            }
          });
        }
      });
    });
    // one value of each class of every property: the value-class update (shared with the batch check)
    const cu = await classItems.get(r.name)!.get(ctx);
    if (!cu) return;
    const got = cu.refused ? undefined : await readUpdated(ctx, r, cu);
    for (const p of comparableProps(r, 'get').filter((q) => cu.props.some((x) => x.p.name === q.name))) {
      await ctx.item(p.name, (it) => judgeClassProp(it, r, cu, p, 'get', (k) => got?.byId.get(lower(cu.ids[k])), `after one update of the ${cu.ids.length} value-class items, get shows a ${p.name} other than supplied`, got ? [...cu.exchanges.slice(-1), got.exchange] : cu.exchanges.slice(-1), UPDATE_RULES.get));
    }
  });

  const [response] = checksOf('lifecycle.update.response', r.name);
  check(response, async (ctx) => {
    const { ids, names } = await refsFor(refs, ctx, r);
    const pctx = payloadContext(ctx, ids);
    const { designed, generated } = plans(r, pctx);
    await forValues(ctx, designed, generated, async ({ payload, change, unchangeable }) => {
      await withCreated(ctx, r, [payload], async (created, ex) => {
        const [id] = idsOf(ctx, created, ex);
        const up = await ctx.client.update(r, [{ id, ...change }]);
        const list = ctx.ok(up, `update of ${r.title} ${id}`);
        const rec = list.find((x) => typeof x?.id === 'string' && x.id.toLowerCase() === id.toLowerCase());
        if (list.length !== 1 || !rec) {
          ctx.fail({
            message: `update with one item in data answered ${list.length} record(s)${rec ? '' : `, none with id ${id}`}`,
            why: '§4 Responses: update returns an array of the resulting records',
            expected: `[one record with id ${id}]`, actual: list.map((x) => x?.id), evidence: [up.exchange],
          });
        }
        for (const p of comparableProps(r, 'write')) {
          await ctx.item(p.name, (it) => {
            if (unchangeable.includes(p.name)) it.notJudged(unchangeableReason(p));
            if (!(p.name in change)) it.notJudged(`not supplied by this update`);
            const ms = payloadMismatches(r, change, rec, 'write', { names, only: (q) => q.name === p.name });
            if (ms.length) failValues(it, `update of ${r.title} ${id} answered a value other than the one supplied`, ms, '§4 Responses: update returns the updated records with the new values', [up.exchange]);
          });
        }
      });
    });
    const cu = await classItems.get(r.name)!.get(ctx);
    if (!cu) return;
    for (const p of comparableProps(r, 'write').filter((q) => cu.props.some((x) => x.p.name === q.name))) {
      await ctx.item(p.name, (it) => judgeClassProp(it, r, cu, p, 'write', (k) => cu.answered.get(lower(cu.ids[k])), `one update of the ${cu.ids.length} value-class items answered a ${p.name} other than supplied`, cu.exchanges, UPDATE_RULES.write));
    }
  });

  // several items in one data: each named record changes (a target that applies only the first item fails here)
  const [batch] = checksOf('lifecycle.update.changes', r.name).filter((d) => d.subject === 'batch');
  check(batch, async (ctx) => {
    const max = ctx.observed('limits.maxDataItems');
    if (typeof max === 'number' && max < 2) ctx.notJudged(`the target takes one item per data (observation limits.maxDataItems = ${max})`);
    const { ids, names } = await refsFor(refs, ctx, r);
    const pctx = payloadContext(ctx, ids);
    const size = { minLength: 2, maxLength: Math.max(2, Math.min(ctx.depth.batch, typeof max === 'number' ? max : Number.POSITIVE_INFINITY)) };
    const arb = batches(r, pctx, size).chain((b) => fc.tuple(fc.constant(b), fc.array(updates(r, pctx, 'partial'), { minLength: b.length, maxLength: b.length })));
    const judge = (items: Payload[], changes: Payload[]) => withCreated(ctx, r, items, async (created, ex) => {
      await ctx.item('every-record', async (it) => {
        const createdIds = idsOf(it, matchResponse(r, items, created) as Rec[], ex);
        const up = await it.client.update(r, createdIds.map((id, i) => ({ id, ...changes[i] })));
        it.ok(up, `update of ${createdIds.length} ${r.title} records in one data`);
        const applied = (m: Map<string, Rec>) => createdIds.every((id, i) => payloadMismatches(r, changes[i], m.get(id.toLowerCase()), 'get', { names }).length === 0);
        const got = await getByIds(it, r, createdIds, 'get by id after the update', applied);
        createdIds.forEach((id, i) => {
          const after = got.byId.get(id.toLowerCase());
          if (!after) it.fail({ message: `get with filters.id [${id}] did not return ${r.title} ${id} after an update of ${createdIds.length} records in one data`, why: it.rule.section, evidence: [up.exchange, got.exchange] });
          const ms = payloadMismatches(r, changes[i], after, 'get', { names });
          if (ms.length) failValues(it, `after one update of ${createdIds.length} ${r.title} records, get shows item ${i} (${id}) with values other than those supplied`, ms, `${it.rule.section}: update changes the supplied values of every item in data`, [up.exchange, got.exchange]);
        });
      });
    });
    await ctx.property(arb, ([items, changes]) => judge(items, changes));
    const cu = await classItems.get(r.name)!.get(ctx);
    if (cu) await classBatch(ctx, r, cu);
  });

  const [others] = checksOf('lifecycle.update.others-untouched', r.name);
  check(others, async (ctx) => {
    const { ids } = await refsFor(refs, ctx, r);
    const pctx = payloadContext(ctx, ids);
    // the record updated sits in the middle of its batch: siblings created before and after it
    const arb = fc.tuple(batches(r, pctx, batchSize(ctx, 3)), updates(r, pctx, 'partial'), fc.nat());
    await ctx.property(arb, async ([items, change, k]) => {
      await withCreated(ctx, r, items, async (created, ex) => {
        await ctx.item('others', async (it) => {
          const createdIds = idsOf(it, created, ex);
          const target = createdIds[1 + (k % (createdIds.length - 2))];
          const siblings = createdIds.filter((x) => x !== target);
          const before = await getByIds(it, r, createdIds, 'get by the created ids before the update');
          const up = await it.client.update(r, [{ id: target, ...change }]);
          it.ok(up, `update of ${r.title} ${target}`);
          // wait until the update shows (a lagging store), then read every sibling
          await readAfter(it, r, target, before.byId.get(target.toLowerCase()), change, 'get of the updated record');
          const all = await getByIds(it, r, createdIds, 'get by the created ids after the update');
          const evidence: Exchange[] = [before.exchange, up.exchange, all.exchange];
          for (const sid of siblings) {
            const b = before.byId.get(sid.toLowerCase());
            if (!b) continue; // not this rule's business (round-trip)
            const a = all.byId.get(sid.toLowerCase());
            if (!a) it.fail({ message: `after an update of ${r.title} ${target}, its sibling ${sid} (same create) is missing from get`, why: '§4: update changes only the records named by id', evidence });
            const changed = changedFields(r, b, a);
            if (changed.length) failValues(it, `an update naming only ${r.title} ${target} changed its sibling ${sid} (created in the same batch)`, changed, `${it.rule.section}: update changes only the records whose id is given`, evidence, 'before');
          }
        });
      });
    });
  });
}
