/**
 * Versions of blog posts and pages (§3 States and transitions):
 * 1. a created record has one version, numbered 1, with the content as created;
 * 2. each update appends the next number, with the new content and the
 *    createdon of the update;
 * 3. blog posts list versions oldest first, pages newest first (model.versionsOrder).
 *
 * Versions are judged in the create and update answers and in get. Entries are
 * identified by their number, never by position (position is rule 3's business).
 *
 * Time: the target's clock and time zone are unknown, so createdon values are
 * only compared with each other (never with this machine's clock): they do
 * not go backwards as numbers grow, and the newest is not before the record's
 * creation. Once per check the last update is sent at least 1.05 s after the
 * create was answered; the target's clock has then moved on by a second, so
 * that update's version must carry a createdon later than the creation's
 * (timestamps have whole seconds).
 */
import fc from 'fast-check';
import {
  check, checkOf, resources, describeValue, normalizeInteger, parseDateTime, type CheckContext, type Rec, type Exchange,
  type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import type { Payload } from '../generators/index.js';
import { batches, getByIds, matchResponse, payloadContext, payloads, sleep, updates, withCreated } from './support/writes.js';
import { versionedProp as recordedInVersions } from './model/state.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = { rules: ['versions.initial', 'versions.append', 'versions.order'] };

const VERSIONED = resources().filter((r) => r.writable && r.versionsOrder && r.fields.some((f) => f.name === 'versions'));
/**
 * The designed history of every run: updates enough for version numbers to
 * cross the widths where their written length changes (9 → 10) and beyond,
 * where numbers compared or sorted as text go wrong (docs/value-classes.md,
 * integer.length-change); 11 updates, versions 1 to 12.
 */
const LONG_HISTORY = 11;
/** how long after the create's answer the timed update is sent */
const CLOCK_TICK_MS = 1_050;

/** The payload property a version records (content): the model's reading of it (suites/model/state.ts). */
function versionedProp(r: ResourceModel): string {
  const prop = recordedInVersions(r);
  if (!prop) throw new Error(`${r.name}: no payload property is recorded in versions`);
  return prop;
}

interface Entry { number: string | undefined; content: unknown; createdon: unknown; at?: number }

function entries(rec: Rec | undefined): Entry[] | undefined {
  const v = rec?.versions;
  if (!Array.isArray(v)) return undefined;
  return v.map((x: Rec) => ({ number: normalizeInteger(x?.version), content: x?.content, createdon: x?.createdon, at: parseDateTime(x?.createdon) }));
}

const numbersOf = (list: Entry[]) => list.map((e) => e.number ?? '?').join(', ');

/** Judge a record's versions after `contents.length - 1` updates: numbers 1..n, contents, createdon. */
function judgeHistory(
  ctx: CheckContext, r: ResourceModel, rec: Rec | undefined, contents: string[], where: string, evidence: Exchange[],
  opts: { createdon?: unknown; timedVersion?: number },
): void {
  const n = contents.length;
  const updates = n - 1;
  const list = entries(rec);
  const after = updates === 0 ? 'after create' : `after ${updates} update(s)`;
  if (!list) ctx.fail({ message: `${where}: versions is not a list (${ctx.rule.section}: updates append versions)`, actual: rec?.versions, evidence });
  if (list.length !== n) {
    ctx.fail({
      message: `${where}: ${r.title} has ${list.length} version(s) ${after}, numbered ${numbersOf(list)}; expected ${n} (${ctx.rule.section}: each update appends a version)`,
      expected: n, actual: rec?.versions, evidence,
    });
  }
  const byNumber = new Map(list.map((e) => [e.number, e]));
  const wanted = Array.from({ length: n }, (_, i) => String(i + 1));
  if (byNumber.size !== n || wanted.some((k) => !byNumber.has(k))) {
    ctx.fail({
      message: `${where}: versions ${after} are numbered ${numbersOf(list)}; expected 1 to ${n}, each once (${ctx.rule.section}: each update appends the next version number)`,
      expected: wanted, actual: list.map((e) => e.number ?? null), evidence,
    });
  }
  wanted.forEach((k, i) => {
    const e = byNumber.get(k)!;
    if (e.content !== contents[i]) {
      ctx.fail({
        message: `${where}: version ${k} holds content ${describeValue(e.content)}, but the ${i === 0 ? 'create' : `update ${i}`} sent ${describeValue(contents[i])} (${ctx.rule.section}: a version holds the content ${i === 0 ? 'as created' : 'of its update'})`,
        expected: contents[i], actual: e.content, evidence,
      });
    }
    if (e.at === undefined) ctx.fail({ message: `${where}: version ${k} has createdon ${describeValue(e.createdon)}, not a DateTime (${ctx.rule.section})`, actual: e.createdon, evidence });
    if (i > 0) {
      const prev = byNumber.get(wanted[i - 1])!;
      if (e.at! < prev.at!) {
        ctx.fail({
          message: `${where}: version ${k} has createdon ${describeValue(e.createdon)}, before version ${wanted[i - 1]}'s ${describeValue(prev.createdon)} (${ctx.rule.section}: an appended version carries the createdon of its update)`,
          expected: `≥ ${prev.createdon}`, actual: e.createdon, evidence,
        });
      }
    }
  });
  const newest = byNumber.get(String(n))!;
  const created = parseDateTime(opts.createdon);
  if (created !== undefined && newest.at! < created) {
    ctx.fail({
      message: `${where}: version ${n} has createdon ${describeValue(newest.createdon)}, before the record's createdon ${describeValue(opts.createdon)} (${ctx.rule.section})`,
      expected: `≥ ${opts.createdon}`, actual: newest.createdon, evidence,
    });
  }
  const timed = opts.timedVersion !== undefined ? byNumber.get(String(opts.timedVersion)) : undefined;
  const first = byNumber.get('1')!;
  if (timed && timed.at! <= first.at!) {
    ctx.fail({
      message: `${where}: version ${opts.timedVersion} was appended by an update sent more than ${CLOCK_TICK_MS / 1000} s after the create was answered, yet its createdon ${describeValue(timed.createdon)} is not later than version 1's ${describeValue(first.createdon)} (${ctx.rule.section}: an appended version carries the createdon of the update)`,
      expected: `> ${first.createdon}`, actual: timed.createdon, evidence,
    });
  }
}

/** Judge the order of a record's versions: by number, ascending (oldest first) or descending (newest first). */
function judgeOrder(ctx: CheckContext, r: ResourceModel, rec: Rec | undefined, where: string, evidence: Exchange[]): void {
  const list = entries(rec);
  if (!list) ctx.fail({ message: `${where}: versions is not a list (${ctx.rule.section})`, actual: rec?.versions, evidence });
  const nums = list.map((e) => (e.number === undefined ? NaN : Number(e.number)));
  if (nums.some((x) => Number.isNaN(x))) ctx.fail({ message: `${where}: a version number is not an integer: ${numbersOf(list)} (${ctx.rule.section})`, actual: rec?.versions, evidence });
  const oldestFirst = r.versionsOrder === 'oldest-first';
  const ok = nums.every((x, i) => i === 0 || (oldestFirst ? nums[i - 1] <= x : nums[i - 1] >= x));
  if (!ok) {
    const expected = [...nums].sort((a, b) => (oldestFirst ? a - b : b - a));
    ctx.fail({
      message: `${where}: ${r.title} versions are listed as ${nums.join(', ')}; §3 lists them ${oldestFirst ? 'oldest first for blog posts' : 'newest first for pages'} (expected ${expected.join(', ')}) (${ctx.rule.section})`,
      expected, actual: nums, evidence,
    });
  }
}

/** A create payload and `count` full updates, each with a content different from the one before. */
function historyArb(r: ResourceModel, ctx: CheckContext, prop: string, count: { min: number; max: number }) {
  const pctx = payloadContext(ctx);
  return fc
    .tuple(payloads(r, pctx), fc.array(updates(r, pctx, 'full'), { minLength: count.min, maxLength: count.max }))
    .filter(([p, ups]) => [p, ...ups].every((x, i, all) => i === 0 || x[prop] !== all[i - 1][prop]));
}

for (const r of VERSIONED) {
  const prop = versionedProp(r);

  check(checkOf('versions.initial', r.name), (c) => c.item('create', async (ctx) => {
    const pctx = payloadContext(ctx);
    await ctx.property(batches(r, pctx, { minLength: 1, maxLength: Math.max(1, ctx.depth.batch) }), async (batch) => {
      await withCreated(ctx, r, batch, async (created, ex) => {
        const matched = matchResponse(r, batch, created);
        batch.forEach((payload, i) => judgeHistory(ctx, r, matched[i], [String(payload[prop])], `create answer, item ${i}`, [ex], { createdon: matched[i]?.createdon }));
        const ids = matched.map((x) => String(x?.id));
        const got = await getByIds(ctx, r, ids, 'get by the created ids');
        batch.forEach((payload, i) => {
          const rec = got.byId.get(ids[i].toLowerCase());
          if (!rec) ctx.fail({ message: `get with filters.id [${ids[i]}] did not return the ${r.title} just created`, evidence: [ex, got.exchange] });
          judgeHistory(ctx, r, rec, [String(payload[prop])], `get of ${r.title} ${ids[i]}`, [ex, got.exchange], { createdon: rec?.createdon });
        });
      });
    });
  }));

  check(checkOf('versions.append', r.name), (c) => c.item('each-update', async (ctx) => {
    let timedRunDone = false;
    const run = async ([payload, ups]: [Payload, Payload[]]) => {
      const timed = !timedRunDone;
      timedRunDone = true;
      await withCreated(ctx, r, [payload], async ([rec], ex) => {
        const answeredAt = Date.now();
        const id = String(rec?.id);
        const contents: (string)[] = [String(payload[prop])];
        const evidence: Exchange[] = [ex];
        let timedVersion: number | undefined;
        for (const [j, change] of ups.entries()) {
          if (timed && j === ups.length - 1) {
            await sleep(Math.max(0, CLOCK_TICK_MS - (Date.now() - answeredAt)));
            timedVersion = j + 2;
          }
          const up = await ctx.client.update(r, [{ id, ...change }]);
          const list = ctx.ok(up, `update ${j + 1} of ${r.title} ${id}`);
          contents.push(String(change[prop]));
          evidence.push(up.exchange);
          const answered = list.find((x) => String(x?.id).toLowerCase() === id.toLowerCase());
          judgeHistory(ctx, r, answered, contents, `answer of update ${j + 1}`, [ex, up.exchange], { createdon: rec?.createdon, timedVersion });
        }
        const got = await getByIds(ctx, r, [id], 'get by id after the updates', (m) => (entries(m.get(id.toLowerCase()))?.length ?? 0) >= contents.length);
        evidence.push(got.exchange);
        const after = got.byId.get(id.toLowerCase());
        if (!after) ctx.fail({ message: `get with filters.id [${id}] did not return the ${r.title} after its updates`, evidence });
        judgeHistory(ctx, r, after, contents, `get after ${ups.length} updates`, evidence, { createdon: after?.createdon ?? rec?.createdon, timedVersion });
      });
    };
    // the long history first (it is also the timed one), then the depth's generated ones
    await ctx.property(historyArb(r, ctx, prop, { min: LONG_HISTORY, max: LONG_HISTORY }), run, { runs: 1, label: `${ctx.itemId}:long` });
    await ctx.property(historyArb(r, ctx, prop, { min: 2, max: 3 }), run);
  }));

  check(checkOf('versions.order', r.name), (c) => c.item('get', async (ctx) => {
    const run = async ([payload, ups]: [Payload, Payload[]]) => {
      await withCreated(ctx, r, [payload], async ([rec], ex) => {
        const id = String(rec?.id);
        for (const [j, change] of ups.entries()) {
          const up = await ctx.client.update(r, [{ id, ...change }]);
          const list = ctx.ok(up, `update ${j + 1} of ${r.title} ${id}`);
          judgeOrder(ctx, r, list.find((x) => String(x?.id).toLowerCase() === id.toLowerCase()), `answer of update ${j + 1}`, [up.exchange]);
        }
        const got = await getByIds(ctx, r, [id], 'get by id after the updates', (m) => (entries(m.get(id.toLowerCase()))?.length ?? 0) >= ups.length + 1);
        judgeOrder(ctx, r, got.byId.get(id.toLowerCase()), `get after ${ups.length} updates`, [ex, got.exchange]);
      });
    };
    await ctx.property(historyArb(r, ctx, prop, { min: LONG_HISTORY, max: LONG_HISTORY }), run, { runs: 1, label: `${ctx.itemId}:long` });
    await ctx.property(historyArb(r, ctx, prop, { min: 2, max: 2 }), run);
  }));
}
