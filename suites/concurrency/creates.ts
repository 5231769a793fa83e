/**
 * Creates sent together (`<r>.concurrency.creates`), each a batch of two:
 *   #distinct-ids  every item of every answer has an id of its own
 *   #none-lost     every item is stored once: get by the answered ids shows
 *                  each payload, and a lookup by the items' unique values
 *                  (slug, code) finds exactly one record for each
 * and a count sent while they land (`<r>.concurrency.count`):
 *   #between       the count lies between the counts before and after the
 *                  creates; after them (a lagging store given the visibility
 *                  deadline) it includes every record get lists.
 */
import { eventually, type CheckContext, type Rec, type Exchange, type ResourceModel } from '../../src/check/index.js';
import type { Payload } from '../../generators/index.js';
import { batches, getByIds, matchResponse, payloadContext } from '../support/writes.js';
import { answerOrder, atOnce, lookupKey, together, type AtOnce } from './at-once.js';

/** Creates sent together, by depth (each a batch of two). */
export const CREATES_AT_ONCE: AtOnce = { quick: 3, standard: 4, deep: 6 };
const PER_CREATE = 2;

/** k batches with distinct unique values (each batch drawn under a label of its own). */
function plannedBatches(ctx: CheckContext, r: ResourceModel, k: number, refIds: Partial<Record<string, string[]>>, label: string): Payload[][] {
  const pctx = payloadContext(ctx, refIds);
  return Array.from({ length: k }, (_, i) => ctx.sample(batches(r, pctx, { minLength: PER_CREATE, maxLength: PER_CREATE }), `${label}-${i}`));
}

/** The records whose lookup key is one of `values` (a get with that array filter). */
async function lookUp(ctx: CheckContext, r: ResourceModel, key: string, values: string[], what: string): Promise<{ records: Rec[]; exchange: Exchange }> {
  const res = await ctx.client.get(r, { filters: { [key]: values }, pagination: { pageSize: Math.max(1, values.length * 2) } });
  return { records: ctx.ok(res, what), exchange: res.exchange };
}

export async function judgeConcurrentCreates(ctx: CheckContext, r: ResourceModel, refIds: Partial<Record<string, string[]>>): Promise<void> {
  const k = atOnce(ctx, CREATES_AT_ONCE);
  const planned = plannedBatches(ctx, r, k, refIds, 'creates');
  const key = lookupKey(r);
  const sent = await together(planned.map((b) => () => ctx.scope.create(r, b, { acceptRecovered: true })));
  const order = answerOrder(sent, (i) => `create ${i + 1}`);
  const answered = sent.flatMap((s) => matchResponse(r, planned[s.i], s.value).map((rec) => String(rec?.id ?? '')));
  const evidence = ctx.exchanges.slice(-k);

  await ctx.item('distinct-ids', (it) => {
    const seen = new Map<string, number>();
    for (const id of answered) seen.set(id.toLowerCase(), (seen.get(id.toLowerCase()) ?? 0) + 1);
    const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    if (twice.length || answered.some((id) => !id)) {
      it.fail({
        message: `${k} creates of ${PER_CREATE} ${r.title} items sent together answered ${twice.length ? `the same id for several items: ${twice.join(', ')}` : 'an item without an id'}`,
        why: 'each item becomes a record of its own',
        expected: `${k * PER_CREATE} distinct ids`, actual: { ids: answered, answers: order }, evidence,
      });
    }
  });

  await ctx.item('none-lost', async (it) => {
    const payloads = planned.flat();
    const values = payloads.map((p) => String(p[key]));
    // each id once, as the store wrote it: an id filter that compares exactly (filters.idCase sensitive) finds it only so
    const ids = [...new Map(answered.filter(Boolean).map((x) => [x.toLowerCase(), x])).values()];
    const got = await getByIds(it, r, ids, `get by the ${ids.length} ids answered by ${k} creates sent together`);
    const byValue = (recs: Rec[], v: string) => recs.filter((x) => x?.[key] === v).length;
    const notStored = values.filter((v) => byValue(got.records, v) === 0);
    const found = await lookUp(it, r, key, values, `get by the ${key} of the ${values.length} items created together`);
    const counts = values.map((v) => byValue(found.records, v));
    const twice = values.filter((_, i) => counts[i] > 1);
    const absent = values.filter((_, i) => counts[i] === 0);
    if (notStored.length || twice.length || absent.length) {
      it.fail({
        message: `${k} creates of ${PER_CREATE} ${r.title} items sent together: ${[
          notStored.length ? `${notStored.length} item(s) not shown by get by the answered ids` : '',
          absent.length ? `${absent.length} item(s) not found by ${key}` : '',
          twice.length ? `${twice.length} item(s) stored more than once (found several records by ${key})` : '',
        ].filter(Boolean).join('; ')}`,
        why: 'each item of data becomes one record',
        expected: values.map((v) => ({ [key]: v, records: 1 })),
        actual: { byKey: values.map((v, i) => ({ [key]: v, records: counts[i] })), answers: order },
        evidence: [...evidence, got.exchange, found.exchange],
      });
    }
  });
}

export async function judgeCountWhileCreating(ctx: CheckContext, r: ResourceModel, refIds: Partial<Record<string, string[]>>): Promise<void> {
  const k = Math.max(2, atOnce(ctx, CREATES_AT_ONCE) - 1);
  const planned = plannedBatches(ctx, r, k, refIds, 'count');
  const key = lookupKey(r);
  const values = planned.flat().map((p) => String(p[key]));
  const filters = { [key]: values };
  const count = async (what: string) => {
    const res = await ctx.client.count(r, { filters });
    return { n: ctx.ok(res, what), exchange: res.exchange };
  };
  const before = await count(`count by the ${key} of ${values.length} items not created yet`);
  // the creates and the count leave together; the count is the last of the batch
  const sent = await together<unknown>([...planned.map((b) => () => ctx.scope.create(r, b, { acceptRecovered: true })), () => count(`count by ${key} sent while ${k} creates land`)]);
  const during = sent[k].value as Awaited<ReturnType<typeof count>>;
  const total = values.length;
  const listed = await lookUp(ctx, r, key, values, `get by the ${key} of the ${total} items created`);
  const { result: after } = await eventually(() => count(`count by the ${key} of the ${total} items created`), (x) => x.n === listed.records.length);
  const order = answerOrder(sent, (i) => (i < k ? `create ${i + 1}` : 'count'));

  await ctx.item('between', (it) => {
    const evidence = [before.exchange, during.exchange, listed.exchange, after.exchange];
    const why = '§4 Responses: count returns the number of records the filters address';
    if (listed.records.length !== total) {
      it.notJudged(`get by ${key} lists ${listed.records.length} of the ${total} records created (judged by ${r.name}.concurrency.creates#none-lost)`);
    }
    if (after.n !== total) {
      it.fail({
        message: `after ${k} creates of ${total} ${r.title} records, get by ${key} lists all ${total} while count with the same filter gives ${after.n} (read again until the visibility deadline)`,
        why, expected: total, actual: after.n, evidence,
      });
    }
    if (!(before.n <= during.n && during.n <= after.n)) {
      it.fail({
        message: `a count by ${key} sent while ${k} creates landed gave ${during.n}, outside the counts before (${before.n}) and after (${after.n}) them`,
        why, expected: `between ${before.n} and ${after.n}`, actual: { during: during.n, answers: order }, evidence,
      });
    }
  });
}
