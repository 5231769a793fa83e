/**
 * Page content's multi-byte text judged under what the store's long text limit
 * counts (observation limits.longTextUnit, src/observe/text-bytes.ts; §8 "Page
 * content 65535 characters" — MySQL's own words for a TEXT column, which holds
 * 65535 bytes):
 * - 'characters' (MEDIUMTEXT, nvarchar(max), PostgreSQL text): the designed
 *   multi-byte item holds the limit in multi-byte characters (2- and 3-byte
 *   UTF-8, up to three times as many bytes), kept whole in create and update;
 * - 'bytes refused' / 'bytes cut' (TEXT, in strict mode or not): the designed
 *   items stay within the limit's bytes, and a create and an update apart
 *   hold the limit in multi-byte characters: both refused, or both stored
 *   cut where the limit's bytes end (a character boundary), as the probe saw;
 * - not known (not probed, could not tell): the designed items stay within
 *   the limit's bytes, valid under both readings, and nothing more is sent.
 */
import { maxLengthOf, observed, textSize, type CheckContext, type Exchange, type PayloadPropModel, type Rec, type ResourceModel } from '../../src/check/index.js';
import { cutToBytes, fixedText, type Payload } from '../../generators/index.js';
import { getByIds, matchResponse } from '../support/writes.js';

const UNIT = 'limits.longTextUnit';

/** What the store's long text limit counts, as probed (null: not known). */
export const longTextUnit = () => observed(UNIT);

/** The limit of `p` in multi-byte characters (2- and 3-byte UTF-8); `offset` rotates the pattern so two such texts differ. */
export const multibyteAtLimit = (p: PayloadPropModel, offset = 0): string => fixedText(maxLengthOf(p), { style: 'multibyte', offset });

/** The designed items of the page content limit: where the limit was seen to count characters, the multi-byte one (item 1) holds the limit in multi-byte characters. */
export function longTextItems(items: Payload[], props: PayloadPropModel[]): Payload[] {
  if (longTextUnit() !== 'characters' || items.length < 2) return items;
  return items.map((x, i) => (i === 1 ? { ...x, ...Object.fromEntries(props.map((p) => [p.name, multibyteAtLimit(p)])) } : x));
}

/** What the designed multi-byte item is, for messages. */
export const longTextWhat = (): string => (longTextUnit() === 'characters'
  ? `content at its limit in characters, ASCII and multi-byte (the limit counts characters here: ${UNIT})`
  : 'content at its limit in characters (ASCII), and as much multi-byte text as its limit in UTF-8 bytes holds (valid whether the limit counts characters or bytes)');

interface Write { ok: boolean; value?: Rec[]; problem?: string; exchange: Exchange }

/** One write apart holding the limit in multi-byte characters, judged on `${prop}.${op}` under the bytes reading probed. */
async function judgeOverBytes(ctx: CheckContext, r: ResourceModel, props: PayloadPropModel[], op: 'create' | 'update', sent: Payload, res: Write, stored: Rec | undefined, evidence: Exchange[]): Promise<void> {
  const unit = longTextUnit();
  const why = `§8 Limits: Page content 65535 characters; this store's limit counts UTF-8 bytes (observation ${UNIT}: ${unit}), so the limit in multi-byte characters is ${unit === 'bytes refused' ? 'refused' : 'cut where its bytes end'}, in create as in update`;
  const answered = res.ok ? matchResponse(r, [sent], res.value ?? [])[0] : undefined;
  for (const p of props) {
    const field = p.recordField ?? p.name;
    const text = String(sent[p.name]);
    const want = cutToBytes(text, maxLengthOf(p));
    await ctx.item(`${p.name}.${op}`, (it) => {
      if (unit === 'bytes refused') {
        if (res.ok) it.fail({ message: `a ${op} holding ${p.name} of ${textSize(text)} was taken (stored as ${typeof answered?.[field] === 'string' ? textSize(String(answered[field])) : 'no string'}), though this store refuses content over its limit's bytes`, why, expected: 'refused, as the probe\'s create was', actual: `accepted: ${res.exchange.response?.status}`, evidence });
        return;
      }
      if (!res.ok) return it.fail({ message: `a ${op} holding ${p.name} of ${textSize(text)} was refused (${res.problem}), though this store cuts content over its limit's bytes`, why, expected: `stored cut to ${textSize(want)}`, actual: res.problem, evidence });
      for (const [where, rec] of [[`${op} answer`, answered], ['get by id', stored]] as const) {
        const got = rec?.[field];
        if (got !== want) it.fail({ message: `${where}: ${p.name} of ${textSize(text)} was stored as ${typeof got === 'string' ? textSize(got) : 'no string'}, not cut where ${maxLengthOf(p)} bytes end (${textSize(want)})`, why, expected: textSize(want), actual: typeof got === 'string' ? textSize(got) : got, evidence });
      }
    });
  }
}

/**
 * Under a bytes reading: a create apart and an update apart (of `baseId`, a
 * record of the check's own) holding the limit in multi-byte characters,
 * each judged as the probe saw (refused, or cut). Nothing is sent otherwise.
 */
export async function judgeLongTextBytes(ctx: CheckContext, r: ResourceModel, props: PayloadPropModel[], item: (content: Record<string, string>) => Payload, baseId: string | undefined): Promise<void> {
  const unit = longTextUnit();
  if (unit !== 'bytes refused' && unit !== 'bytes cut') return;
  const created = item(Object.fromEntries(props.map((p) => [p.name, multibyteAtLimit(p)])));
  const res = await ctx.scope.createRaw(r, [created]);
  const id = res.ok ? matchResponse(r, [created], res.value ?? [])[0]?.id : undefined;
  const got = id ? await getByIds(ctx, r, [String(id)], 'get by id of the create over the limit\'s bytes') : undefined;
  await judgeOverBytes(ctx, r, props, 'create', created, res, got?.byId.get(String(id).toLowerCase()), [res.exchange, ...(got ? [got.exchange] : [])]);
  if (!baseId) return;
  const changes: Payload = Object.fromEntries(props.map((p) => [p.name, multibyteAtLimit(p, 5)]));
  const up = await ctx.client.update(r, [{ id: baseId, ...changes }]);
  if (!up.ok && (!up.exchange.response || up.exchange.response.status >= 500)) ctx.ok(up, `update of ${r.title} over the limit's bytes`);
  // read until the update shows, cut or whole (judged below), up to the visibility deadline
  const shows = (m: Map<string, Rec>) => props.every((p) => [changes[p.name], cutToBytes(String(changes[p.name]), maxLengthOf(p))].includes(m.get(baseId.toLowerCase())?.[p.recordField ?? p.name] as string));
  const after = up.ok ? await getByIds(ctx, r, [baseId], 'get by id after the update over the limit\'s bytes', shows) : undefined;
  const rec = after?.byId.get(baseId.toLowerCase());
  await judgeOverBytes(ctx, r, props, 'update', { ...changes, id: baseId }, up, rec, [up.exchange, ...(after ? [after.exchange] : [])]);
}
