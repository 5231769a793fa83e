/**
 * Sub-records of a record just created (§2 Conventions: "Reference fields that
 * are unset can hold the all-zero GUID"), for every writable resource with
 * sub-lists whose items carry an id (product categories, collections, images,
 * reviews, variants; blog post and page versions):
 *   <r>.lifecycle.create.sub-record-ids#<sub-list>  no item of the sub-list, in
 *       the create answer or in get by id, has the all-zero GUID as its own id
 * The all-zero GUID stands for "no record" in a reference; as the id of a
 * listed item it shows an item that is no record (a LEFT JOIN with no match
 * rendered as one empty row). Whether a new record has items it was not sent
 * is left open (a store may give a product a default variant), so only their
 * ids are judged.
 */
import {
  ZERO_GUID, check, checksOf, resources, type Rec, type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import { refsFixture, refsFor } from './support/refs.js';
import { getByIds, idsOf, payloadContext, payloads } from './support/writes.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = { rules: ['lifecycle.create.sub-record-ids'] };

const WRITABLE = resources().filter((r) => r.writable && r.payload.length > 0);
const refs = refsFixture('lifecycle-sub-records');
const zero = ZERO_GUID.toLowerCase();

/** The sub-lists of `r` whose items carry an id, from the model. */
const subLists = (r: ResourceModel) => r.fields.filter((f) => f.kind === 'array' && f.itemFields?.some((x) => x.name === 'id' && x.kind === 'guid'));

/** Positions of the items of `list` whose own id is the all-zero GUID. */
const zeroIdItems = (list: unknown) => (Array.isArray(list) ? list : []).flatMap((x, i) => (x && typeof x === 'object' && String((x as Rec).id).toLowerCase() === zero ? [i] : []));

for (const r of WRITABLE) {
  const fields = subLists(r);
  if (!fields.length) continue;
  const [def] = checksOf('lifecycle.create.sub-record-ids', r.name);
  check(def, async (ctx) => {
    const { ids } = await refsFor(refs, ctx, r);
    const payload = ctx.sample(payloads(r, payloadContext(ctx, ids)), 'payload');
    const res = await ctx.scope.createRaw(r, [payload]);
    if (!res.ok) return ctx.fail({ message: `a create of a valid ${r.title} was not accepted: ${res.problem}`, why: '§4 Create and update payloads', evidence: [res.exchange] });
    const answered = res.value?.[0];
    const [id] = idsOf(ctx, res.value ?? [], res.exchange);
    const got = await getByIds(ctx, r, [id], 'get by the created id');
    const stored = got.byId.get(id.toLowerCase());
    for (const f of fields) {
      await ctx.item(f.name, (it) => {
        const shown = [['the create answer', answered, res.exchange], ['get by id', stored, got.exchange]] as const;
        const bad = shown.map(([where, rec, ex]) => ({ where, rec, ex, at: zeroIdItems(rec?.[f.name]) })).filter((x) => x.at.length);
        if (!bad.length) return;
        it.fail({
          message: `${r.title} ${id}, just created, lists ${bad.map((b) => `in ${b.where} ${b.at.length} ${f.name} item(s) (at ${b.at.join(', ')}) whose own id is the all-zero GUID`).join('; ')}`,
          why: '§2 Conventions: the all-zero GUID stands for an unset reference; an item listed in a sub-list is a record with an id of its own',
          expected: `no ${f.name} item with id ${ZERO_GUID}`,
          actual: bad[0].at.map((i) => (bad[0].rec?.[f.name] as Rec[])[i]),
          evidence: bad.map((b) => b.ex),
        });
      });
    }
  });
}
