/**
 * Values at the documented limits (§8 Limits, §2 Conventions) are accepted and
 * read back intact, in the create answer and in get:
 * - strings of exactly 255 characters (run tag included), ASCII and multi-byte;
 * - page content of exactly 65535 characters;
 * - integers of 11 digits (99999999999);
 * - decimals at their largest under the reading of "8 digits, 2 decimals" the
 *   target takes (observation limits.decimalDigits: 99999999.99 or 999999.99;
 *   product weight 99.99 or 0.99);
 * - and the minimum of each: 1-character strings, 0, 0.00;
 * - text with accents, astral emoji, quotes, backslashes and <>&.
 *
 * Each check sends one create whose items hold its rule's properties at the
 * limit and every other property at its minimum (generators' boundaryPayloads),
 * so a rejection can only be about the values under test. What happens over a
 * limit is an observation (limits.overlongString), not judged here.
 * Characters are counted in code points (what §8 "255 characters" reads as).
 */
import {
  TEXT_MAX_LENGTH, maxLengthOf,
  check, checksOf, LIMIT_PROPS, resources, codePointLength, type CheckContext, type Rec, type Exchange,
  type LimitRule, type PayloadPropModel, type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import { boundaryPayloads, retoken, type Payload } from '../generators/index.js';
import { getByIds, matchResponse, mismatchesText, payloadMismatches, type Mismatch } from './support/writes.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = {
  rules: [
    'limits.string-255',
    'limits.integer-11-digits',
    'limits.decimal-digits',
    'limits.text-encoding',
    'limits.page-content-65535',
  ],
};

const WRITABLE = resources().filter((r) => r.writable && r.payload.length > 0);

/** Astral emoji, accents, quotes, a backslash (also before n: never unescape it), HTML/JSON-sensitive <>&. */
const ENCODING_SAMPLE = `Élève «déjà» ça où Œuvre’ 😀🚀🧪 𝄞 'apostrophe' "double" back\\slash \\n <b>&amp;</b> & < > 漢字 한국어 Ωμέγα €`;
const ENCODING_TAGS = ['😀 émoji 🎉', `quote's "tag" \\ <&>`, 'Élève déjà 漢字'];

/** Cut to at most n code points. */
const cut = (s: string, n: number) => Array.from(s).slice(0, n).join('');

/** 8 base-36 characters from the check's seed, a letter for the use and the item's index. */
const tokenFor = (ctx: CheckContext, use: 'c' | 'u', i: number) => `${use}${(ctx.seed >>> 0).toString(36).padStart(6, '0').slice(-6)}${i.toString(36)}`;

interface Limit {
  rule: LimitRule;
  /** the properties the rule is about */
  props: (r: ResourceModel) => PayloadPropModel[];
  /** create items: the rule's properties at the limit (and at the minimum), the rest at the minimum */
  items: (r: ResourceModel, ctx: CheckContext, props: PayloadPropModel[]) => Payload[];
  /** what the values are, for messages */
  what: string;
  section: string;
}

/** [at the maximum (ASCII), at the maximum (multi-byte)?, at the minimum], the other properties at their minimum. */
function boundaryItems(r: ResourceModel, ctx: CheckContext, props: PayloadPropModel[], opts: { multibyte: boolean; minimum: boolean }): Payload[] {
  const tag = ctx.config.runTag;
  const [ascii, multibyte, min] = boundaryPayloads(r.name, boundaryContext(ctx));
  const names = new Set(props.map((p) => p.name));
  const over = (src: Payload): Payload => ({ ...min, ...Object.fromEntries(Object.entries(src).filter(([k]) => names.has(k))) });
  const items = [over(ascii), ...(opts.multibyte ? [over(multibyte)] : []), ...(opts.minimum ? [min] : [])];
  return items.map((x, i) => retoken(r.name, x, tag, tokenFor(ctx, 'c', i)));
}

/** The payload context of the limit values: the run tag and how the target counts decimal digits. */
const boundaryContext = (ctx: CheckContext) => ({ tag: ctx.config.runTag, decimalReading: ctx.observed('limits.decimalDigits') });

const LIMITS: Limit[] = [
  {
    rule: 'limits.string-255',
    props: LIMIT_PROPS['limits.string-255'],
    items: (r, ctx, props) => boundaryItems(r, ctx, props, { multibyte: true, minimum: true }),
    what: `strings of exactly ${TEXT_MAX_LENGTH} characters (ASCII and multi-byte) and of 1 character`,
    section: `§8 Limits: String length ${TEXT_MAX_LENGTH} characters`,
  },
  {
    rule: 'limits.page-content-65535',
    props: LIMIT_PROPS['limits.page-content-65535'],
    items: (r, ctx, props) => boundaryItems(r, ctx, props, { multibyte: true, minimum: false }),
    what: 'content of exactly 65535 characters (ASCII and multi-byte)',
    section: '§8 Limits: Page content 65535 characters',
  },
  {
    rule: 'limits.integer-11-digits',
    props: LIMIT_PROPS['limits.integer-11-digits'],
    items: (r, ctx, props) => boundaryItems(r, ctx, props, { multibyte: false, minimum: true }),
    what: 'integers of 11 digits (99999999999) and 0',
    section: '§8 Limits: Integer at most 11 digits',
  },
  {
    rule: 'limits.decimal-digits',
    props: LIMIT_PROPS['limits.decimal-digits'],
    items: (r, ctx, props) => boundaryItems(r, ctx, props, { multibyte: false, minimum: true }),
    what: 'decimals at their largest under the observed reading of their digits (limits.decimalDigits) and 0.00',
    section: '§8 Limits: Decimal 8 digits with 2 decimals; product weight 2 digits with 2 decimals',
  },
  {
    rule: 'limits.text-encoding',
    props: LIMIT_PROPS['limits.text-encoding'],
    items: (r, ctx, props) => {
      const tag = ctx.config.runTag;
      const [, , min] = boundaryPayloads(r.name, boundaryContext(ctx));
      const item: Payload = { ...retoken(r.name, min, tag, tokenFor(ctx, 'c', 0)) };
      for (const p of props) {
        const max = maxLengthOf(p);
        if (p.kind === 'list') item[p.name] = ENCODING_TAGS.map((t) => cut(t, max));
        else item[p.name] = cut(p.unique ? `${item[p.name]} ${ENCODING_SAMPLE}` : ENCODING_SAMPLE, max);
      }
      return [item];
    },
    what: 'text with accents, emoji, quotes, backslashes and <>&',
    section: '§2 Conventions: String values',
  },
];

/** A mismatch with the lengths said, for strings. */
function lengths(r: ResourceModel, ms: Mismatch[]): string {
  const said = ms
    .filter((m) => typeof m.sent === 'string' && r.payload.find((p) => p.name === m.prop)?.kind === 'string')
    .map((m) => `${m.prop}: sent ${codePointLength(m.sent as string)} characters, got ${typeof m.got === 'string' ? `${codePointLength(m.got)} characters` : 'no string'}`);
  return said.length ? ` [${said.slice(0, 4).join('; ')}]` : '';
}

/**
 * Judge each property's item on the records of one write: `${prop}.${op}`
 * fails when any item of the write shows the property changed.
 */
async function judgeProps(ctx: CheckContext, r: ResourceModel, limit: Limit, props: PayloadPropModel[], op: Op, items: Payload[], records: Array<Rec | undefined>, form: 'get' | 'write', where: string, evidence: Exchange[]): Promise<void> {
  for (const p of props) {
    await ctx.item(`${p.name}.${op}`, (it) => {
      items.forEach((item, i) => {
        if (!records[i]) it.fail({ message: `${where}: no record for item ${i} (${limit.what})`, why: limit.section, evidence });
        const ms = payloadMismatches(r, item, records[i], form, { only: (q) => q.name === p.name });
        if (ms.length) {
          it.fail({
            message: `${where}, item ${i}: ${limit.what} did not come back intact: ${mismatchesText(ms)}${lengths(r, ms)}`,
            why: limit.section,
            expected: Object.fromEntries(ms.map((m) => [m.prop, m.sent])),
            actual: Object.fromEntries(ms.map((m) => [m.prop, m.got])),
            evidence,
          });
        }
      });
    });
  }
}

type Op = 'create' | 'update';

/**
 * A write holding every property at the limit was refused: which property is
 * refused? Each is tried alone (the others at their minimum), so a store
 * refusing one property's limit fails that property's item only.
 */
async function refusedProps(ctx: CheckContext, r: ResourceModel, props: PayloadPropModel[], send: (only: PayloadPropModel) => Promise<{ ok: boolean; problem?: string; exchange: Exchange }>): Promise<Map<string, { problem: string; exchange: Exchange }>> {
  const out = new Map<string, { problem: string; exchange: Exchange }>();
  for (const p of props) {
    const res = await send(p);
    if (!res.ok) out.set(p.name, { problem: res.problem ?? 'refused', exchange: res.exchange });
  }
  return out;
}

/** The limit values of `item` (the rule's properties only), for an update. */
const limitValues = (item: Payload, props: PayloadPropModel[]) => Object.fromEntries(props.filter((p) => p.name in item).map((p) => [p.name, item[p.name]]));

for (const r of WRITABLE) {
  for (const limit of LIMITS) {
    const props = limit.props(r);
    if (props.length === 0) continue;
    const [def] = checksOf(limit.rule, r.name);
    check(def, async (ctx) => {
      const tag = ctx.config.runTag;
      const items = limit.items(r, ctx, props);
      // the records updated at the limit: created at the minimum beside the limit items
      const [, , min] = boundaryPayloads(r.name, boundaryContext(ctx));
      const bases = items.filter((_, i) => i < 2).map((_, i) => retoken(r.name, min, tag, tokenFor(ctx, 'c', 8 + i)));
      const res = await ctx.scope.createRaw(r, [...items, ...bases]);
      if (!res.ok) {
        // which property's limit is refused: each alone, the others at their minimum
        const refused = await refusedProps(ctx, r, props, (p) => ctx.scope.createRaw(r, [retoken(r.name, { ...min, ...limitValues(items[0], [p]) }, tag, tokenFor(ctx, 'c', 20))]));
        for (const p of props) {
          await ctx.item(`${p.name}.create`, (it) => {
            const why = refused.get(p.name);
            if (why) it.fail({ message: `a create holding ${p.name} at the limit (${limit.what}; everything else at its minimum) was not accepted: ${why.problem}`, why: limit.section, evidence: [why.exchange] });
            if (!refused.size) it.fail({ message: `a create holding ${limit.what} (${props.map((q) => q.name).join(', ')}) was not accepted, though each property alone was: ${res.problem}`, why: limit.section, evidence: [res.exchange] });
          });
          await ctx.item(`${p.name}.update`, (it) => it.notJudged('the create at the limit was refused, so there is no record to update at the limit'));
        }
        return;
      }
      const created = res.value!;
      const ex = res.exchange;
      const matched = matchResponse(r, [...items, ...bases], created);
      await judgeProps(ctx, r, limit, props, 'create', items, matched.slice(0, items.length), 'write', 'create answer', [ex]);
      const ids = matched.map((x) => String(x?.id));
      const got = await getByIds(ctx, r, ids, 'get by the created ids');
      await judgeProps(ctx, r, limit, props, 'create', items, ids.slice(0, items.length).map((id) => got.byId.get(id.toLowerCase())), 'get', `get of ${r.title} by id`, [ex, got.exchange]);

      // update: the base records take the limit values (new tokens: unique values stay unique)
      const baseIds = ids.slice(items.length);
      const changes = baseIds.map((id, i) => ({ id, ...limitValues(retoken(r.name, items[i], tag, tokenFor(ctx, 'u', i)), props) }));
      const up = await ctx.client.update(r, changes);
      if (!up.ok) {
        if (!up.exchange.response || up.exchange.response.status >= 500) ctx.ok(up, `update at the limit of ${r.title}`);
        const refused = await refusedProps(ctx, r, props, async (p) => {
          const one = await ctx.client.update(r, [{ id: baseIds[0], ...limitValues(changes[0], [p]) }]);
          return { ok: one.ok, problem: one.problem, exchange: one.exchange };
        });
        for (const p of props) {
          await ctx.item(`${p.name}.update`, (it) => {
            const why = refused.get(p.name);
            if (why) it.fail({ message: `an update setting ${p.name} at the limit (${limit.what}) was not accepted: ${why.problem}`, why: limit.section, evidence: [why.exchange] });
            if (!refused.size) it.fail({ message: `an update holding ${limit.what} (${props.map((q) => q.name).join(', ')}) was not accepted, though each property alone was: ${up.problem}`, why: limit.section, evidence: [up.exchange] });
          });
        }
        return;
      }
      const answered = baseIds.map((id) => up.value!.find((x) => String(x?.id).toLowerCase() === id.toLowerCase()));
      const sent = changes.map(({ id: _id, ...rest }) => rest as Payload);
      await judgeProps(ctx, r, limit, props, 'update', sent, answered, 'write', 'update answer', [up.exchange]);
      const applied = (m: Map<string, Rec>) => baseIds.every((id, i) => payloadMismatches(r, sent[i], m.get(id.toLowerCase()), 'get', { only: (q) => props.includes(q) }).length === 0);
      const after = await getByIds(ctx, r, baseIds, 'get by id after the update at the limit', applied);
      await judgeProps(ctx, r, limit, props, 'update', sent, baseIds.map((id) => after.byId.get(id.toLowerCase())), 'get', `get of ${r.title} by id after the update`, [up.exchange, after.exchange]);
    });
  }
}
