/**
 * References to no record (§4 Create and update payloads, Product: categoryid
 * "each must be a valid category id", collectionid "each must be a valid
 * collection id"), for every reference list of a writable resource:
 *   <r>.lifecycle.unknown-reference.<prop>#create  a create naming an id that is
 *       no record's (beside a valid one) is refused, and no record holding its
 *       run-tagged unique value is stored
 *   <r>.lifecycle.unknown-reference.<prop>#update  an update of a record of the
 *       run naming such an id (every other property changed) is refused, and get
 *       shows the record as it was before
 * The unknown id is a random GUID drawn through the kit: never the all-zero
 * GUID (§2 Conventions keeps it for unset references, a reading some store may
 * take), never an id of the run's referenced records. A refusal is any answer
 * but 2xx (the spec shows no error status, §7); a 5xx stays a target error.
 */
import fc from 'fast-check';
import {
  TargetError, ZERO_GUID, check, checksOf, isTargetError, resources, type CheckContext, type PayloadPropModel, type Rec, type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import type { Payload } from '../generators/index.js';
import { refsFixture, refsFor } from './support/refs.js';
import { changedFields, getByIds, idsOf, mismatchesText, payloadContext, payloads, updates } from './support/writes.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = { rules: ['lifecycle.unknown-reference'] };

const WRITABLE = resources().filter((r) => r.writable && r.payload.some((p) => p.kind === 'list' && p.references));
const refs = refsFixture('lifecycle-unknown-reference');
const WHY = (p: PayloadPropModel) => `§4 Create and update payloads: ${p.name} is an array of GUID, each must be a valid ${p.references} id`;

/** A GUID that is no id of the run's referenced records and not the all-zero GUID. */
function unknownId(ctx: CheckContext, known: string[], label: string): string {
  const taken = new Set(known.map((x) => x.toLowerCase()));
  return ctx.sample(fc.uuid({ version: 4 }).filter((u) => u.toLowerCase() !== ZERO_GUID.toLowerCase() && !taken.has(u.toLowerCase())), label);
}

/** The list sent: a valid id first when there is one (a store checking only the first id is caught), then the unknown one. */
const listWith = (valid: string[], unknown: string) => [...valid.slice(0, 1), unknown];

/** Records of `r` holding the run-tagged unique value of `payload` (an array filter on it): what a refused create must not have stored. */
async function storedLike(ctx: CheckContext, r: ResourceModel, payload: Payload) {
  const p = r.payload.find((q) => q.unique && typeof payload[q.name] === 'string' && r.filters.some((f) => f.key === q.name && f.filter === 'array'));
  if (!p) return undefined;
  const got = await ctx.client.get(r, { filters: { [p.name]: [payload[p.name]] } });
  ctx.ok(got, `get of ${r.title} by ${p.name}`);
  return { prop: p.name, records: (got.value ?? []).filter((x) => String(x?.[p.recordField ?? p.name]) === payload[p.name]), exchange: got.exchange };
}

for (const r of WRITABLE) {
  for (const p of r.payload.filter((x) => x.kind === 'list' && x.references)) {
    const [def] = checksOf('lifecycle.unknown-reference', r.name).filter((d) => d.subject === p.name);
    check(def, async (ctx) => {
      const { ids } = await refsFor(refs, ctx, r);
      const valid = ids[p.references!] ?? [];
      const pctx = payloadContext(ctx, ids);

      await ctx.item('create', async (it) => {
        const unknown = unknownId(it, valid, 'unknown id (create)');
        const payload: Payload = { ...it.sample(payloads(r, pctx), 'payload (create)'), [p.name]: listWith(valid, unknown) };
        const res = await it.scope.createRaw(r, [payload]);
        if (res.ok) {
          const rec = res.value?.[0];
          it.fail({
            message: `a create of a ${r.title} with ${p.name} [${listWith(valid, unknown).join(', ')}], where ${unknown} is no ${p.references}'s id, was taken: it answered ${r.title} ${String(rec?.id)}`,
            why: WHY(p),
            expected: 'the create refused (any answer but 2xx), no record stored',
            actual: rec?.[p.recordField ?? p.name] ?? rec,
            evidence: [res.exchange],
          });
        }
        const found = await storedLike(it, r, payload);
        if (found?.records.length) {
          it.scope.adopt(r.name, found.records.map((x) => String(x.id)).filter((id) => id !== 'undefined'));
          it.fail({
            message: `a create naming ${p.name} ${unknown} (no ${p.references}'s id) was refused, yet get by its ${found.prop} finds ${found.records.length} ${r.title} record(s) stored from it`,
            why: `${WHY(p)}; a refused create stores nothing`,
            expected: 0, actual: found.records.map((x) => x.id), evidence: [res.exchange, found.exchange],
          });
        }
      });

      await ctx.item('update', async (it) => {
        const made = await it.scope.createRaw(r, [it.sample(payloads(r, pctx), 'payload (update target)')]);
        if (!made.ok) return it.fail({ message: `a create of a valid ${r.title} (the update's target) was not accepted: ${made.problem}`, why: '§4 Create and update payloads', evidence: [made.exchange] });
        const [id] = idsOf(it, made.value ?? [], made.exchange);
        const seen = (await getByIds(it, r, [id], 'get by id before the update')).byId.get(id.toLowerCase());
        if (!seen) return it.fail({ message: `get with filters.id [${id}] did not return the ${r.title} just created`, why: '§4 Responses', evidence: it.exchanges.slice(-2) });
        const before: Rec = seen;
        const unknown = unknownId(it, valid, 'unknown id (update)');
        const change: Payload = { ...it.sample(updates(r, pctx, 'full'), 'change'), [p.name]: listWith(valid, unknown) };
        const up = await it.client.update(r, [{ ...change, id }]);
        if (isTargetError(up.exchange)) throw new TargetError(`update of ${r.title} ${id} got no usable answer: ${up.problem}`, [up.exchange]);
        if (up.ok) {
          it.fail({
            message: `an update of ${r.title} ${id} with ${p.name} [${listWith(valid, unknown).join(', ')}], where ${unknown} is no ${p.references}'s id, was taken`,
            why: WHY(p),
            expected: 'the update refused (any answer but 2xx), the record left as it was',
            actual: up.value?.[0]?.[p.recordField ?? p.name] ?? up.value,
            evidence: [up.exchange],
          });
        }
        const got = await getByIds(it, r, [id], 'get by id after the refused update');
        const after = got.byId.get(id.toLowerCase());
        const ms = changedFields(r, before, after);
        if (!after || ms.length) {
          it.fail({
            message: `an update of ${r.title} ${id} naming ${p.name} ${unknown} (no ${p.references}'s id) was refused, yet get shows the record changed: ${after ? mismatchesText(ms, 'before') : 'it is gone'}`,
            why: `${WHY(p)}; a refused update stores nothing`,
            expected: 'the record as before the update', actual: after ?? null, evidence: [up.exchange, got.exchange],
          });
        }
      });
    });
  }
}
