/**
 * A page walk while records are deleted (`<r>.concurrency.delete-walk#no-duplicates`):
 * the run's records are walked in pages of two; once the first page is in,
 * records of the first and last pages are deleted while the next page is read.
 * Records may then be skipped (an offset moved under the walk: an honest
 * consequence of paging by offset), but none may be listed twice, and none
 * that was never there. Once the deletes have landed, a walk lists exactly
 * the survivors.
 */
import { readPage, eventually, type CheckContext, type Rec, type Exchange, type ResourceModel } from '../../src/check/index.js';
import { batches, idsOf, last, payloadContext, withCreated } from '../support/writes.js';
import { answerOrder, atOnce, together, type AtOnce } from './at-once.js';

/** A delete and a page read sent together. */
export const DELETE_WALK_AT_ONCE: AtOnce = { quick: 2, standard: 2, deep: 2 };
const RECORDS = 8;
const PAGE = 2;

interface Pages {
  listed: string[];
  exchanges: Exchange[];
}

async function readFrom(ctx: CheckContext, r: ResourceModel, ids: string[], from: number, into: Pages): Promise<void> {
  for (let i = from; i < from + RECORDS; i++) {
    const res = await readPage(ctx.client, r, { filters: { id: ids }, index: i, pageSize: PAGE });
    into.exchanges.push(res.exchange);
    const page: Rec[] = ctx.ok(res, `page ${i + 1} of ${ids.length} ${r.title} records`);
    into.listed.push(...page.map((x) => String(x?.id)));
    if (page.length < PAGE) return;
  }
}

const duplicates = (ids: string[]) => {
  const seen = new Set<string>();
  return ids.filter((id) => seen.has(id.toLowerCase()) || !seen.add(id.toLowerCase()));
};

export async function judgeDeleteDuringWalk(ctx: CheckContext, r: ResourceModel, refIds: Partial<Record<string, string[]>>): Promise<void> {
  atOnce(ctx, DELETE_WALK_AT_ONCE);
  const items = ctx.sample(batches(r, payloadContext(ctx, refIds), { minLength: RECORDS, maxLength: RECORDS }), 'records');
  await withCreated(ctx, r, items, async (created, ex, deleted) => {
    const ids = idsOf(ctx, created, ex);
    const walkOf = (): Pages => ({ listed: [], exchanges: [] });
    const during = walkOf();
    const first = await readPage(ctx.client, r, { filters: { id: ids }, index: 0, pageSize: PAGE });
    during.exchanges.push(first.exchange);
    const page0 = ctx.ok(first, `page 1 of ${ids.length} ${r.title} records`).map((x) => String(x?.id));
    during.listed.push(...page0);
    // one record listed already and one not listed yet go while the second page is read
    const unseen = ids.filter((id) => !page0.some((x) => x.toLowerCase() === id.toLowerCase()));
    const doomed = [page0[0] ?? ids[0], unseen[unseen.length - 1] ?? ids[ids.length - 1]];
    const sent = await together<unknown>([
      () => ctx.client.delete(r, doomed),
      () => readFrom(ctx, r, ids, 1, during),
    ]);
    const del = sent[0].value as Awaited<ReturnType<typeof ctx.client.delete>>;
    ctx.ok(del, `delete of 2 ${r.title} records during a page walk`);
    deleted(doomed);
    const order = answerOrder(sent, (i) => (i === 0 ? 'delete' : 'pages 2 onwards'));
    const gone = new Set(doomed.map((x) => x.toLowerCase()));
    const survivors = ids.filter((id) => !gone.has(id.toLowerCase()));
    const { result: quiet } = await eventually(async () => {
      const p = walkOf();
      await readFrom(ctx, r, ids, 0, p);
      return p;
    }, (p) => p.listed.length === survivors.length && duplicates(p.listed).length === 0);

    await ctx.item('no-duplicates', (it) => {
      const known = new Set(ids.map((x) => x.toLowerCase()));
      const twice = duplicates(during.listed);
      const strangers = during.listed.filter((id) => !known.has(id.toLowerCase()));
      const evidence = [last(ctx), ...during.exchanges.slice(-3)];
      if (twice.length || strangers.length) {
        it.fail({
          message: `walking ${ids.length} ${r.title} records in pages of ${PAGE} while 2 of them were deleted listed ${twice.length ? `${twice.length} record(s) twice: ${twice.join(', ')}` : ''}${twice.length && strangers.length ? ' and ' : ''}${strangers.length ? `${strangers.length} record(s) outside the id filter` : ''}`,
          why: '§4 Common rules: consecutive pages partition the records; a delete may shift them, never repeat one',
          expected: 'each record at most once', actual: { listed: during.listed, deleted: doomed, answers: order }, evidence,
        });
      }
      const left = new Set(quiet.listed.map((x) => x.toLowerCase()));
      const wrong = [...duplicates(quiet.listed), ...quiet.listed.filter((id) => gone.has(id.toLowerCase())), ...survivors.filter((id) => !left.has(id.toLowerCase()))];
      if (wrong.length) {
        it.fail({
          message: `once the deletes landed, a walk of the ${ids.length} ${r.title} records in pages of ${PAGE} lists ${quiet.listed.length} record(s), not exactly the ${survivors.length} survivors (${wrong.length} wrong: ${wrong.slice(0, 4).join(', ')})`,
          why: '§4 Common rules: consecutive pages partition the records; §4 Delete',
          expected: survivors, actual: quiet.listed, evidence: quiet.exchanges.slice(-3),
        });
      }
    });
  });
}
