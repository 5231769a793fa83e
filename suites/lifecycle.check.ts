/**
 * Create, update, delete (§4 Create and update payloads, §4 Responses, §4 Delete)
 * for every writable resource, as properties over generated payloads.
 *
 * Every property case creates its own records (one `data` carrying the whole
 * batch), judges them, and deletes them when it ends, so a case costs a few
 * requests. Values are compared by meaning (src/values: '1'/'true',
 * '12,50'/'12.5'); the forms are the format suite's business. Payload
 * properties are compared with the record field they show as (categoryid ->
 * categories); tags are compared as a set — the spec does not say their order.
 * Product `fileid` shows as no record field and is not compared; product
 * `size` is not compared in create/update answers (§4: they show '0').
 *
 * Shared fixture: the records that references point at — a few categories and
 * collections created once for the file, and existing files (they cannot be
 * created through the API; with none, the all-zero GUID of §2).
 */
import fc from 'fast-check';
import { check, fixture, observed, runtime, type CheckContext } from '../src/check/index.js';
import type { Rec } from '../src/client/api.js';
import type { Exchange } from '../src/client/http.js';
import { resource, resources, type PayloadPropModel, type ResourceModel } from '../src/schema/model.js';
import { describeValue } from '../src/values/index.js';
import {
  looseKey, MAX_LIST_ITEMS, textArb, type Payload,
} from '../generators/index.js';
import {
  batches, changedFields, comparableProps, countByIds, fieldOf, fitUtf16, getByIds, last, matchResponse, mismatchesText,
  payloadContext, payloads, updates, payloadMismatches, sameFieldValue, withCreated, type Mismatch,
} from './support/writes.js';

const WRITABLE = resources().filter((r) => r.writable && r.payload.length > 0);

interface Refs {
  /** ids by referenced resource name */
  ids: Partial<Record<string, string[]>>;
  /** lower-cased id -> name, for every referenced record */
  names: Map<string, string>;
}

/** Resources some payload property references (category, collection, file), from the model. */
const REFERENCED = [...new Set(WRITABLE.flatMap((r) => r.payload.map((p) => p.references).filter((x): x is string => !!x)))];

const refs = fixture<Refs>(async (scope) => {
  const rt = runtime();
  const out: Refs = { ids: {}, names: new Map() };
  for (const name of REFERENCED) {
    const target = resource(name);
    let records: Rec[] = [];
    if (target.writable) {
      const [items] = fc.sample(batches(target, { tag: rt.config.runTag }, { minLength: 3, maxLength: 3 }), { seed: rt.config.seed ^ 0x5eed, numRuns: 1 });
      records = await scope.create(target, items);
    } else {
      // read-only (files): a few existing records; none is fine (the all-zero GUID stands in)
      const got = await rt.client.get(target, { pagination: { pageSize: 3 } });
      records = got.ok ? (got.value ?? []).slice(0, 3) : [];
    }
    out.ids[name] = records.map((x) => x.id).filter((id): id is string => typeof id === 'string');
    for (const x of records) if (typeof x.id === 'string' && typeof x.name === 'string') out.names.set(x.id.toLowerCase(), x.name);
  }
  return out;
});

const needsRefs = (r: ResourceModel) => r.payload.some((p) => p.references);
const refsFor = async (r: ResourceModel): Promise<Refs> => (needsRefs(r) ? refs.get() : { ids: {}, names: new Map() });

const SECTION_CREATE = '§4 Create and update payloads';
const pick = (ms: Mismatch[], key: 'sent' | 'got') => Object.fromEntries(ms.map((m) => [m.prop, m[key]]));

function failValues(ctx: CheckContext, what: string, ms: Mismatch[], rule: string, evidence: Exchange[], sentWord = 'sent'): never {
  return ctx.fail({
    message: `${what}: ${mismatchesText(ms, sentWord)} (${rule})`,
    expected: pick(ms, 'sent'),
    actual: pick(ms, 'got'),
    evidence,
  });
}

/** The ids of the created records, or a failure naming the record without one. */
function idsOf(ctx: CheckContext, created: Rec[], ex: Exchange): string[] {
  return created.map((rec, i) => {
    if (typeof rec?.id !== 'string') ctx.fail({ message: `create answered record ${i} without a string id (§4 Responses)`, actual: rec, evidence: [ex] });
    return rec.id as string;
  });
}

/** Size of generated batches: at least `min`, else the depth's batch size. */
const batchSize = (ctx: CheckContext, min: number) => ({ minLength: min, maxLength: Math.max(min, ctx.depth.batch) });

/** A generated batch and a non-empty choice of its positions (the records a delete names). */
async function batchAndChoice(ctx: CheckContext, r: ResourceModel): Promise<fc.Arbitrary<[Payload[], number[]]>> {
  const { ids } = await refsFor(r);
  return batches(r, payloadContext(ctx, ids), batchSize(ctx, 1))
    .chain((batch) => fc.tuple(fc.constant(batch), fc.subarray([...batch.keys()], { minLength: 1 })));
}

/** Records a list property of one generated payload takes, never empty (references, tags). */
function nonEmptyListArb(p: PayloadPropModel, refIds: string[]): fc.Arbitrary<string[]> {
  if (p.references) return fc.subarray(refIds, { minLength: 1 });
  return fc.uniqueArray(textArb({ maxLength: p.maxLength ?? 255 }), { minLength: 1, maxLength: MAX_LIST_ITEMS, selector: looseKey });
}

for (const r of WRITABLE) {
  // ---------------------------------------------------------------- create

  check({ rule: 'lifecycle.create.single', resource: r.name, writes: true }, async (ctx) => {
    const { ids, names } = await refsFor(r);
    await ctx.property(payloads(r, payloadContext(ctx, ids)), async (payload) => {
      await withCreated(ctx, r, [payload], async ([rec], ex) => {
        const ms = payloadMismatches(r, payload, rec, 'write', { names });
        if (ms.length) failValues(ctx, `create with one item in data answered a ${r.title} whose values differ from those sent`, ms, `${SECTION_CREATE}: create returns the record with the values sent`, [ex]);
      });
    });
  });

  check({ rule: 'lifecycle.create.batch', resource: r.name, writes: true }, async (ctx) => {
    const { ids, names } = await refsFor(r);
    await ctx.property(batches(r, payloadContext(ctx, ids), batchSize(ctx, 2)), async (batch) => {
      await withCreated(ctx, r, batch, async (created, ex) => {
        const matched = matchResponse(r, batch, created);
        batch.forEach((payload, i) => {
          const ms = payloadMismatches(r, payload, matched[i], 'write', { names });
          if (ms.length) failValues(ctx, `create with ${batch.length} items in one data answered item ${i} with values that differ from those sent`, ms, `${SECTION_CREATE}: create returns each record with the values sent`, [ex]);
        });
        // each record answered is a record created: an id filter counts all of them
        const createdIds = idsOf(ctx, created, ex);
        const { count, exchange } = await countByIds(ctx, r, createdIds, 'count by the created ids');
        if (count !== createdIds.length) {
          ctx.fail({
            message: `create of ${batch.length} items in one data answered ${created.length} records, but count with their ids finds ${count} (${SECTION_CREATE}: each item becomes a record)`,
            expected: createdIds.length, actual: count, evidence: [ex, exchange],
          });
        }
      });
    });
  });

  check({ rule: 'lifecycle.create.round-trip', resource: r.name, writes: true }, async (ctx) => {
    const { ids, names } = await refsFor(r);
    await ctx.property(batches(r, payloadContext(ctx, ids), batchSize(ctx, 1)), async (batch) => {
      await withCreated(ctx, r, batch, async (created, ex) => {
        const matched = matchResponse(r, batch, created);
        const createdIds = idsOf(ctx, matched as Rec[], ex);
        const got = await getByIds(ctx, r, createdIds, 'get by the created ids');
        batch.forEach((payload, i) => {
          const rec = got.byId.get(createdIds[i].toLowerCase());
          if (!rec) {
            ctx.fail({ message: `get with filters.id [${createdIds[i]}] did not return the ${r.title} just created (§4 Responses: get returns the records)`, expected: createdIds[i], actual: got.records.map((x) => x?.id), evidence: [ex, got.exchange] });
          }
          const ms = payloadMismatches(r, payload, rec, 'get', { names });
          if (ms.length) failValues(ctx, `get by id returned created ${r.title} ${createdIds[i]} with values that differ from those sent`, ms, '§4 Responses: get returns the created record with the values sent', [ex, got.exchange]);
        });
      });
    });
  });

  // product categoryid/collectionid -> categories/collections {id, name}; tags -> tags [{tag}]
  for (const p of r.payload.filter((x) => x.kind === 'list')) {
    const subject = p.recordField ?? p.name;
    const title = p.references
      ? `${p.name} becomes ${subject}: {id, name} of each referenced ${p.references}`
      : `${p.name} become ${subject}: one item per string sent`;
    check({ rule: 'lifecycle.create.references', resource: r.name, subject, title, writes: true }, async (ctx) => {
      const { ids, names } = await refsFor(r);
      const refIds = p.references ? ids[p.references] ?? [] : [];
      if (p.references && refIds.length === 0) throw new Error(`no ${p.references} to reference: the fixture created none`);
      const arb = batches(r, payloadContext(ctx, ids), batchSize(ctx, 1)).chain((batch) =>
        fc.array(nonEmptyListArb(p, refIds), { minLength: batch.length, maxLength: batch.length })
          .map((lists) => batch.map((item, i): Payload => fitUtf16(r, { ...item, [p.name]: lists[i] }))));
      const only = (q: PayloadPropModel) => q.name === p.name;
      const how = p.references
        ? `${p.name} [ids] becomes ${subject} [{id, name}] of the referenced ${p.references} records`
        : `${p.name} [strings] becomes ${subject} [{${fieldOf(r, 'get', subject)?.itemFields?.map((f) => f.name).join(', ') ?? 'tag'}}] holding the same strings (compared as a set)`;
      await ctx.property(arb, async (batch) => {
        await withCreated(ctx, r, batch, async (created, ex) => {
          const matched = matchResponse(r, batch, created);
          batch.forEach((payload, i) => {
            const ms = payloadMismatches(r, payload, matched[i], 'write', { names, only });
            if (ms.length) failValues(ctx, `create answered item ${i} with ${subject} that do not match ${p.name} sent`, ms, `${SECTION_CREATE}: ${how}`, [ex]);
          });
          const createdIds = idsOf(ctx, matched as Rec[], ex);
          const got = await getByIds(ctx, r, createdIds, 'get by the created ids');
          batch.forEach((payload, i) => {
            const rec = got.byId.get(createdIds[i].toLowerCase());
            if (!rec) ctx.fail({ message: `get with filters.id [${createdIds[i]}] did not return the ${r.title} just created (§4 Responses)`, evidence: [ex, got.exchange] });
            const ms = payloadMismatches(r, payload, rec, 'get', { names, only });
            if (ms.length) failValues(ctx, `get by id returned ${r.title} ${createdIds[i]} with ${subject} that do not match ${p.name} sent`, ms, `${SECTION_CREATE}: ${how}`, [ex, got.exchange]);
          });
        });
      });
    });
  }

  // ---------------------------------------------------------------- update

  check({ rule: 'lifecycle.update.changes', resource: r.name, writes: true }, async (ctx) => {
    const { ids, names } = await refsFor(r);
    const pctx = payloadContext(ctx, ids);
    const semantics = observed('update.semantics');
    await ctx.property(fc.tuple(payloads(r, pctx), updates(r, pctx, 'partial')), async ([payload, change]) => {
      await withCreated(ctx, r, [payload], async (created, ex) => {
        const [id] = idsOf(ctx, created, ex);
        const before = (await getByIds(ctx, r, [id], 'get by id before the update')).byId.get(id.toLowerCase());
        if (!before) return ctx.fail({ message: `get with filters.id [${id}] did not return the ${r.title} just created (§4 Responses)`, evidence: ctx.exchanges.slice(-2) });
        const up = await ctx.client.update(r, [{ id, ...change }]);
        ctx.ok(up, `update of ${r.title} ${id}`);
        const got = await getByIds(ctx, r, [id], 'get by id after the update');
        const after = got.byId.get(id.toLowerCase());
        if (!after) return ctx.fail({ message: `get with filters.id [${id}] did not return the ${r.title} after its update (§4 Create and update payloads)`, evidence: [up.exchange, got.exchange] });
        const ms = payloadMismatches(r, change, after, 'get', { names });
        if (ms.length) failValues(ctx, `after an update of ${r.title} ${id}, get shows values other than those supplied`, ms, `${SECTION_CREATE}: update changes the supplied values`, [up.exchange, got.exchange]);
        if (semantics === 'partial') {
          // observed: an update changes only the supplied properties; the others keep their values
          const kept: Mismatch[] = [];
          for (const p of comparableProps(r, 'get')) {
            if (p.name in change) continue;
            const field = p.recordField ?? p.name;
            const f = fieldOf(r, 'get', field)!;
            if (!sameFieldValue(f, before[field], after[field])) kept.push({ prop: p.name, field, sent: before[field], got: after[field], note: 'not supplied' });
          }
          if (kept.length) {
            failValues(ctx, `an update of ${r.title} ${id} supplying only ${Object.keys(change).join(', ')} changed properties it did not supply (the target was observed to apply updates partially)`, kept, `${SECTION_CREATE}; observation update.semantics = partial`, [up.exchange, got.exchange], 'before');
          }
        }
      });
    });
  });

  // several items in one data: each named record changes (a target that applies only the first item fails here)
  check({ rule: 'lifecycle.update.changes', resource: r.name, subject: 'batch', title: 'update with several items in one data changes every named record, and get shows each change', writes: true }, async (ctx) => {
    const max = observed('limits.maxDataItems');
    if (typeof max === 'number' && max < 2) ctx.skip(`the target takes one item per data (observation limits.maxDataItems = ${max})`);
    const { ids, names } = await refsFor(r);
    const pctx = payloadContext(ctx, ids);
    const size = { minLength: 2, maxLength: Math.max(2, Math.min(ctx.depth.batch, typeof max === 'number' ? max : Number.POSITIVE_INFINITY)) };
    const arb = batches(r, pctx, size).chain((batch) =>
      fc.tuple(fc.constant(batch), fc.array(updates(r, pctx, 'partial'), { minLength: batch.length, maxLength: batch.length })));
    await ctx.property(arb, async ([batch, changes]) => {
      await withCreated(ctx, r, batch, async (created, ex) => {
        const createdIds = idsOf(ctx, matchResponse(r, batch, created) as Rec[], ex);
        const up = await ctx.client.update(r, createdIds.map((id, i) => ({ id, ...changes[i] })));
        ctx.ok(up, `update of ${createdIds.length} ${r.title} records in one data`);
        const got = await getByIds(ctx, r, createdIds, 'get by id after the update');
        createdIds.forEach((id, i) => {
          const after = got.byId.get(id.toLowerCase());
          if (!after) ctx.fail({ message: `get with filters.id [${id}] did not return ${r.title} ${id} after an update of ${createdIds.length} records in one data (${SECTION_CREATE})`, evidence: [up.exchange, got.exchange] });
          const ms = payloadMismatches(r, changes[i], after, 'get', { names });
          if (ms.length) failValues(ctx, `after one update of ${createdIds.length} ${r.title} records, get shows item ${i} (${id}) with values other than those supplied`, ms, `${SECTION_CREATE}: update changes the supplied values of every item in data`, [up.exchange, got.exchange]);
        });
      });
    });
  });

  check({ rule: 'lifecycle.update.response', resource: r.name, writes: true }, async (ctx) => {
    const { ids, names } = await refsFor(r);
    const pctx = payloadContext(ctx, ids);
    await ctx.property(fc.tuple(payloads(r, pctx), updates(r, pctx, 'partial')), async ([payload, change]) => {
      await withCreated(ctx, r, [payload], async (created, ex) => {
        const [id] = idsOf(ctx, created, ex);
        const up = await ctx.client.update(r, [{ id, ...change }]);
        const list = ctx.ok(up, `update of ${r.title} ${id}`);
        const rec = list.find((x) => typeof x?.id === 'string' && x.id.toLowerCase() === id.toLowerCase());
        if (list.length !== 1 || !rec) {
          ctx.fail({
            message: `update with one item in data answered ${list.length} record(s)${rec ? '' : `, none with id ${id}`} (§4 Responses: update returns an array of the resulting records)`,
            expected: `[one record with id ${id}]`, actual: list.map((x) => x?.id), evidence: [up.exchange],
          });
        }
        const ms = payloadMismatches(r, change, rec, 'write', { names });
        if (ms.length) failValues(ctx, `update of ${r.title} ${id} answered values other than those supplied`, ms, '§4 Responses: update returns the updated records with the new values', [up.exchange]);
      });
    });
  });

  check({ rule: 'lifecycle.update.others-untouched', resource: r.name, writes: true }, async (ctx) => {
    const { ids } = await refsFor(r);
    const pctx = payloadContext(ctx, ids);
    // the record updated sits in the middle of its batch: siblings created before and after it
    const arb = fc.tuple(batches(r, pctx, batchSize(ctx, 3)), updates(r, pctx, 'partial'), fc.nat());
    await ctx.property(arb, async ([batch, change, k]) => {
      await withCreated(ctx, r, batch, async (created, ex) => {
        const createdIds = idsOf(ctx, created, ex);
        const target = createdIds[1 + (k % (createdIds.length - 2))];
        const siblings = createdIds.filter((x) => x !== target);
        const before = await getByIds(ctx, r, createdIds, 'get by the created ids before the update');
        const up = await ctx.client.update(r, [{ id: target, ...change }]);
        ctx.ok(up, `update of ${r.title} ${target}`);
        const after = await getByIds(ctx, r, createdIds, 'get by the created ids after the update');
        for (const sid of siblings) {
          const b = before.byId.get(sid.toLowerCase());
          if (!b) continue; // not this rule's business (round-trip)
          const a = after.byId.get(sid.toLowerCase());
          if (!a) {
            ctx.fail({ message: `after an update of ${r.title} ${target}, its sibling ${sid} (same create) is missing from get (§4: update changes only the records named by id)`, evidence: [up.exchange, after.exchange] });
          }
          const changed = changedFields(r, b, a);
          if (changed.length) {
            failValues(ctx, `an update naming only ${r.title} ${target} changed its sibling ${sid} (created in the same batch)`, changed, '§4 Create and update payloads: update changes only the records whose id is given', [before.exchange, up.exchange, after.exchange], 'before');
          }
        }
      });
    });
  });

  // ---------------------------------------------------------------- delete

  check({ rule: 'lifecycle.delete.response', resource: r.name, writes: true }, async (ctx) => {
    await ctx.property(await batchAndChoice(ctx, r), async ([batch, chosen]) => {
      await withCreated(ctx, r, batch, async (created, ex, deleted) => {
        const createdIds = idsOf(ctx, created, ex);
        const doomed = chosen.map((i) => createdIds[i]);
        const res = await ctx.client.delete(r, doomed);
        if (res.ok) deleted(doomed);
        const body = res.exchange.json as Rec | undefined;
        if (!res.ok) {
          if (!res.exchange.response || res.exchange.response.status >= 500) ctx.ok(res, `delete of ${doomed.length} ${r.title} record(s)`);
          ctx.fail({
            message: `delete of ${doomed.length} ${r.title} record(s) this run created answered ${res.problem}; §4 Delete: the success response is {success: 'true'}`,
            expected: { success: 'true' }, actual: body ?? res.exchange.response?.text, evidence: [res.exchange],
          });
        }
      });
    });
  });

  check({ rule: 'lifecycle.delete.exact', resource: r.name, writes: true }, async (ctx) => {
    const refSet = await refsFor(r);
    const pctx = payloadContext(ctx, refSet.ids);
    // records of other checks: the file's fixture when it holds records of this resource
    const fixtureIds = REFERENCED.includes(r.name) ? (await refs.get()).ids[r.name] ?? [] : [];
    // every deleted record sits between two survivors of its own create (odd positions), and a
    // record of an earlier create (and, for referenced resources, the file's fixture) must survive too
    const arb = fc.tuple(payloads(r, pctx), batches(r, pctx, batchSize(ctx, 3)))
      .chain(([bystander, batch]) => {
        const odd = [...batch.keys()].filter((i) => i % 2 === 1 && i < batch.length - 1);
        return fc.tuple(fc.constant(bystander), fc.constant(batch), fc.subarray(odd, { minLength: 1 }));
      });
    await ctx.property(arb, async ([bystander, batch, chosen]) => {
      await withCreated(ctx, r, [bystander], async ([other], ex0, deleted) => {
        const created = await ctx.scope.create(r, batch);
        const ex = last(ctx);
        const createdIds = idsOf(ctx, created, ex);
        const doomed = chosen.map((i) => createdIds[i]);
        const res = await ctx.client.delete(r, doomed);
        ctx.ok(res, `delete of ${doomed.length} ${r.title} record(s)`);
        deleted(doomed);
        const gone = new Set(doomed.map((x) => x.toLowerCase()));
        const survivors = [String(other.id), ...createdIds.filter((x) => !gone.has(x.toLowerCase())), ...fixtureIds];
        const all = [...survivors, ...doomed];
        const got = await getByIds(ctx, r, all, 'get by the ids of the batch and its neighbours');
        const missing = survivors.filter((x) => !got.byId.has(x.toLowerCase()));
        const kept = doomed.filter((x) => got.byId.has(x.toLowerCase()));
        if (missing.length || kept.length) {
          ctx.fail({
            message: `delete naming ${doomed.length} of ${createdIds.length} ${r.title} records ${[
              missing.length ? `also removed ${missing.length} record(s) it did not name: ${missing.join(', ')}` : '',
              kept.length ? `left ${kept.length} named record(s) in place: ${kept.join(', ')}` : '',
            ].filter(Boolean).join(' and ')} (§4 Delete: delete removes exactly the named ids)`,
            expected: { survive: survivors, removed: doomed },
            actual: { returnedByGet: got.records.map((x) => x?.id) },
            evidence: [ex0, ex, res.exchange, got.exchange],
          });
        }
        const counted = await countByIds(ctx, r, all, 'count by the ids of the batch and its neighbours');
        if (counted.count !== survivors.length) {
          ctx.fail({
            message: `after deleting ${doomed.length} record(s), count with the ids of ${all.length} records gives ${counted.count} while get returns the ${survivors.length} survivors (§4 Delete: other records survive)`,
            expected: survivors.length, actual: counted.count, evidence: [res.exchange, got.exchange, counted.exchange],
          });
        }
      });
    });
  });

  check({ rule: 'lifecycle.delete.gone', resource: r.name, writes: true }, async (ctx) => {
    await ctx.property(await batchAndChoice(ctx, r), async ([batch, chosen]) => {
      await withCreated(ctx, r, batch, async (created, ex, deleted) => {
        const createdIds = idsOf(ctx, created, ex);
        const doomed = chosen.map((i) => createdIds[i]);
        const res = await ctx.client.delete(r, doomed);
        ctx.ok(res, `delete of ${doomed.length} ${r.title} record(s)`);
        deleted(doomed);
        const got = await getByIds(ctx, r, doomed, 'get by the deleted ids');
        const still = doomed.filter((x) => got.byId.has(x.toLowerCase()));
        if (still.length) {
          ctx.fail({
            message: `get with filters.id of ${doomed.length} deleted ${r.title} record(s) still returns ${still.length}: ${still.join(', ')} (§4 Delete: a deleted id is gone)`,
            expected: [], actual: got.records.map((x) => x?.id), evidence: [res.exchange, got.exchange],
          });
        }
        const counted = await countByIds(ctx, r, doomed, 'count by the deleted ids');
        if (counted.count !== 0) {
          ctx.fail({
            message: `count with filters.id of ${doomed.length} deleted ${r.title} record(s) gives ${describeValue(String(counted.count))}, expected "0" (§4 Delete: a deleted id is gone from count)`,
            expected: 0, actual: counted.count, evidence: [res.exchange, counted.exchange],
          });
        }
      });
    });
  });
}
