/**
 * Concurrent updates of one record (`<r>.concurrency.updates`):
 *   #none-lost  every update sent at once is applied. Under partial updates
 *               (observation update.semantics) each update supplies a property
 *               of its own, and every one of them shows its value afterwards —
 *               an update that reads, pauses and writes the record back loses
 *               the others'. Under replace-style updates each update replaces
 *               the whole record, so the record afterwards is one of them whole
 *               (last writer wins), never a mix.
 *   #versions   (blog posts, pages, §3) each update appends one version: n
 *               updates leave versions numbered 1..n+1, no gap, no duplicate,
 *               the content of every update in exactly one of them, and the
 *               record's content that of the newest.
 * The updates leave together (at most --concurrency); their order of answer
 * is recorded in the evidence.
 */
import fc from 'fast-check';
import { normalizeInteger, type CheckContext, type Rec, type ResourceModel } from '../../src/check/index.js';
import type { Payload } from '../../generators/index.js';
import { designedPayload } from '../support/values.js';
import { getByIds, idsOf, payloadContext, payloadMismatches, updates, mismatchesText, withCreated } from '../support/writes.js';
import { versionedProp } from '../model/state.js';
import { answerOrder, atOnce, together, type AtOnce } from './at-once.js';

/** Updates of one record sent together, by depth. */
export const UPDATES_AT_ONCE: AtOnce = { quick: 3, standard: 4, deep: 6 };


/** k partial updates, each supplying a text property of its own (and, on a versioned resource, a content of its own). */
function partialUpdates(ctx: CheckContext, r: ResourceModel, k: number): Payload[] | undefined {
  const versioned = versionedProp(r);
  const props = r.payload.filter((p) => p.kind === 'string' && p.safeValue === undefined && p.name !== versioned && (p.maxLength ?? 0) >= 40);
  if (props.length < 2) return undefined;
  const nonce = ctx.sample(fc.stringMatching(/^[a-z0-9]{6}$/), 'nonce');
  const tag = ctx.config.runTag;
  return Array.from({ length: Math.min(k, props.length) }, (_, i) => ({
    [props[i].name]: `${tag}-k${i}-${nonce}`,
    ...(versioned ? { [versioned]: `${tag}-v${i}-${nonce}` } : {}),
  }));
}

export async function judgeConcurrentUpdates(ctx: CheckContext, r: ResourceModel, refIds: Partial<Record<string, string[]>>, names: Map<string, string>): Promise<void> {
  const k = atOnce(ctx, UPDATES_AT_ONCE);
  const pctx = payloadContext(ctx, refIds);
  const versioned = versionedProp(r);
  const semantics = ctx.observed('update.semantics');
  // under partial updates each change is judged on the property it alone supplies (the content every
  // update of a versioned resource supplies goes to the versions item)
  const own = (c: Payload): Payload => (versioned && semantics === 'partial' ? Object.fromEntries(Object.entries(c).filter(([k]) => k !== versioned)) : c);
  const changes = semantics === 'partial'
    ? partialUpdates(ctx, r, k)
    : Array.from({ length: k }, (_, i) => ctx.sample(updates(r, pctx, 'full'), `full-${i}`));
  if (!changes) return ctx.notJudged(`${r.title} has fewer than two text properties to give each update its own`);
  const payload = ctx.sample(designedPayload(r, pctx), 'record');
  await withCreated(ctx, r, [payload], async (created, ex) => {
    const [id] = idsOf(ctx, created, ex);
    const sent = await together(changes.map((c) => () => ctx.client.update(r, [{ id, ...c }])));
    // an answer lost and resolved by a read-back (the update applied) is an update done
    for (const s of sent) if (!s.value.applied) ctx.ok(s.value, `update ${s.i + 1} of ${changes.length} of ${r.title} ${id}, sent together`);
    const order = answerOrder(sent, (i) => `update ${i + 1} (${Object.keys(changes[i]).join(', ')})`);
    const evidence = [ex, ...sent.map((s) => s.value.exchange)];
    const applied = (rec: Rec | undefined) => !!rec && (semantics === 'partial'
      ? changes.every((c) => payloadMismatches(r, own(c), rec, 'get', { names }).length === 0)
      : changes.some((c) => payloadMismatches(r, c, rec, 'get', { names }).length === 0));
    const settled = (rec: Rec | undefined) => applied(rec) && (!versioned || (Array.isArray(rec?.versions) && rec!.versions.length >= changes.length + 1));
    const got = await getByIds(ctx, r, [id], `get of ${r.title} ${id} after ${changes.length} updates sent together`, (m) => settled(m.get(id.toLowerCase())));
    const after = got.byId.get(id.toLowerCase());
    evidence.push(got.exchange);

    await ctx.item('none-lost', (it) => {
      if (!after) it.fail({ message: `get by id does not return ${r.title} ${id} after ${changes.length} updates of it sent together`, why: it.rule.section, evidence });
      if (semantics === 'partial') {
        const lost = changes.map((c, i) => ({ i, ms: payloadMismatches(r, own(c), after, 'get', { names }) })).filter((x) => x.ms.length);
        if (lost.length) {
          it.fail({
            message: `${changes.length} updates of ${r.title} ${id} sent together, each supplying a property of its own: ${lost.length} of them lost — ${lost.map((x) => `update ${x.i + 1}: ${mismatchesText(x.ms)}`).join('; ')}`,
            why: `update changes the supplied values; the target updates partially (observation update.semantics), so each update keeps the others' changes`,
            expected: changes, actual: { record: after, answers: order }, evidence,
          });
        }
      } else if (!changes.some((c) => payloadMismatches(r, c, after, 'get', { names }).length === 0)) {
        it.fail({
          message: `${changes.length} updates of ${r.title} ${id} sent together, each replacing the record: afterwards it is none of them whole (${mismatchesText(payloadMismatches(r, changes[0], after, 'get', { names }))} against the first)`,
          why: `the target replaces records on update (observation update.semantics), so the last update applied is there whole`,
          expected: 'one of the updates, whole', actual: { record: after, answers: order }, evidence,
        });
      }
    });

    if (!versioned) return;
    await ctx.item('versions', (it) => {
      const list: Rec[] = Array.isArray(after?.versions) ? after!.versions : [];
      const n = changes.length + 1;
      const numbers = list.map((v) => normalizeInteger(v?.version) ?? '?');
      const wanted = Array.from({ length: n }, (_, i) => String(i + 1));
      const why = '§3 States and transitions: each update appends a version with the next number and its content';
      if (list.length !== n || wanted.some((w) => numbers.filter((x) => x === w).length !== 1)) {
        it.fail({
          message: `${changes.length} updates of ${r.title} ${id} sent together left ${list.length} version(s) numbered ${numbers.join(', ')}; expected ${n}, numbered 1 to ${n} once each`,
          why, expected: wanted, actual: { versions: numbers, answers: order }, evidence,
        });
      }
      const contents = list.filter((v) => normalizeInteger(v?.version) !== '1').map((v) => v?.content);
      const missing = changes.filter((c) => contents.filter((x) => x === c[versioned]).length !== 1).map((c) => c[versioned]);
      if (missing.length) {
        it.fail({
          message: `after ${changes.length} updates of ${r.title} ${id} sent together, the content of ${missing.length} update(s) is not in exactly one version: ${missing.join(', ')}`,
          why, expected: changes.map((c) => c[versioned]), actual: contents, evidence,
        });
      }
      const newest = list.find((v) => normalizeInteger(v?.version) === String(n));
      if (newest && after && newest.content !== after[versioned]) {
        it.fail({
          message: `${r.title} ${id} holds ${versioned} ${JSON.stringify(after[versioned])}, but its newest version ${n} holds ${JSON.stringify(newest.content)}`,
          why, expected: after[versioned], actual: newest.content, evidence,
        });
      }
    });
  });
}
