/**
 * Values at the documented limits (§8 Limits, §2 Conventions) are accepted and
 * read back intact, in the create answer and in get:
 * - strings of exactly 255 characters (run tag included), ASCII and multi-byte;
 * - page content of exactly 65535 characters;
 * - integers of 11 digits (99999999999);
 * - decimals at 8 digits with 2 decimals (99999999.99) and product weight at
 *   2.2 (99.99);
 * - and the minimum of each: 1-character strings, 0, 0.00;
 * - text with accents, astral emoji, quotes, backslashes and <>&.
 *
 * Each check sends one create whose items hold its rule's properties at the
 * limit and every other property at its minimum (generators' boundaryPayloads),
 * so a rejection can only be about the values under test. What happens over a
 * limit is an observation (limits.overlongString), not judged here.
 * Characters are counted in code points (what §8 "255 characters" reads as).
 */
import { check, CheckFailure, type CheckContext } from '../src/check/index.js';
import type { Rec } from '../src/client/api.js';
import type { Exchange } from '../src/client/http.js';
import type { RuleId } from '../src/rules.js';
import { resources, type PayloadPropModel, type ResourceModel } from '../src/schema/model.js';
import { codePointLength } from '../src/values/index.js';
import { boundaryPayloads, TOKEN_LENGTH, uniquePrefix, type Payload } from '../generators/index.js';
import { getByIds, matchResponse, mismatchesText, payloadMismatches, withCreated, type Mismatch } from './support/writes.js';

const WRITABLE = resources().filter((r) => r.writable && r.payload.length > 0);
const STRING_LIMIT = 255;

const isText = (p: PayloadPropModel) => p.kind === 'string' || (p.kind === 'list' && (p.itemKind ?? 'string') === 'string' && !p.references);

/** Astral emoji, accents, quotes, a backslash (also before n: never unescape it), HTML/JSON-sensitive <>&. */
const ENCODING_SAMPLE = `Élève «déjà» ça où Œuvre’ 😀🚀🧪 𝄞 'apostrophe' "double" back\\slash \\n <b>&amp;</b> & < > 漢字 한국어 Ωμέγα €`;
const ENCODING_TAGS = ['😀 émoji 🎉', `quote's "tag" \\ <&>`, 'Élève déjà 漢字'];

/** Cut to at most n code points. */
const cut = (s: string, n: number) => Array.from(s).slice(0, n).join('');

/** Distinct unique values per item: replace the token after the run tag (the length stays the same). */
function retoken(r: ResourceModel, payload: Payload, tag: string, token: string): Payload {
  const out: Payload = { ...payload };
  const start = uniquePrefix(tag, 'x'.repeat(TOKEN_LENGTH)).length - TOKEN_LENGTH;
  for (const p of r.payload) {
    const v = out[p.name];
    if (p.unique && typeof v === 'string' && v.startsWith(`${tag}-`)) out[p.name] = v.slice(0, start) + token + v.slice(start + TOKEN_LENGTH);
  }
  return out;
}

/** 8 base-36 characters from the check's seed and the item's index. */
const tokenFor = (ctx: CheckContext, i: number) => `l${(ctx.seed >>> 0).toString(36).padStart(6, '0').slice(-6)}${i.toString(36)}`;

interface Limit {
  rule: RuleId;
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
  const [ascii, multibyte, min] = boundaryPayloads(r.name, { tag });
  const names = new Set(props.map((p) => p.name));
  const over = (src: Payload): Payload => ({ ...min, ...Object.fromEntries(Object.entries(src).filter(([k]) => names.has(k))) });
  const items = [over(ascii), ...(opts.multibyte ? [over(multibyte)] : []), ...(opts.minimum ? [min] : [])];
  return items.map((x, i) => retoken(r, x, tag, tokenFor(ctx, i)));
}

const LIMITS: Limit[] = [
  {
    rule: 'limits.string-255',
    props: (r) => r.payload.filter((p) => isText(p) && p.maxLength === STRING_LIMIT),
    items: (r, ctx, props) => boundaryItems(r, ctx, props, { multibyte: true, minimum: true }),
    what: `strings of exactly ${STRING_LIMIT} characters (ASCII and multi-byte) and of 1 character`,
    section: `§8 Limits: String length ${STRING_LIMIT} characters`,
  },
  {
    rule: 'limits.page-content-65535',
    props: (r) => r.payload.filter((p) => p.kind === 'string' && (p.maxLength ?? 0) > STRING_LIMIT),
    items: (r, ctx, props) => boundaryItems(r, ctx, props, { multibyte: true, minimum: false }),
    what: 'content of exactly 65535 characters (ASCII and multi-byte)',
    section: '§8 Limits: Page content 65535 characters',
  },
  {
    rule: 'limits.integer-11-digits',
    props: (r) => r.payload.filter((p) => p.kind === 'integer'),
    items: (r, ctx, props) => boundaryItems(r, ctx, props, { multibyte: false, minimum: true }),
    what: 'integers of 11 digits (99999999999) and 0',
    section: '§8 Limits: Integer at most 11 digits',
  },
  {
    rule: 'limits.decimal-digits',
    props: (r) => r.payload.filter((p) => p.kind === 'decimal'),
    items: (r, ctx, props) => boundaryItems(r, ctx, props, { multibyte: false, minimum: true }),
    what: 'decimals at their largest (8 digits with 2 decimals, product weight 2 with 2) and 0.00',
    section: '§8 Limits: Decimal 8 digits with 2 decimals; product weight 2 digits with 2 decimals',
  },
  {
    rule: 'limits.text-encoding',
    props: (r) => r.payload.filter(isText),
    items: (r, ctx, props) => {
      const tag = ctx.config.runTag;
      const [, , min] = boundaryPayloads(r.name, { tag });
      const item: Payload = { ...retoken(r, min, tag, tokenFor(ctx, 0)) };
      for (const p of props) {
        const max = p.maxLength ?? STRING_LIMIT;
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

function judge(ctx: CheckContext, r: ResourceModel, limit: Limit, props: PayloadPropModel[], items: Payload[], records: Array<Rec | undefined>, form: 'get' | 'write', where: string, evidence: Exchange[]): void {
  const names = new Set(props.map((p) => p.name));
  items.forEach((item, i) => {
    if (!records[i]) ctx.fail({ message: `${where}: no record for item ${i} (${limit.what})`, evidence });
    const ms = payloadMismatches(r, item, records[i], form, { only: (p) => names.has(p.name) });
    if (ms.length) {
      ctx.fail({
        message: `${where}, item ${i}: ${limit.what} did not come back intact: ${mismatchesText(ms)}${lengths(r, ms)} (${limit.section})`,
        expected: Object.fromEntries(ms.map((m) => [m.prop, m.sent])),
        actual: Object.fromEntries(ms.map((m) => [m.prop, m.got])),
        evidence,
      });
    }
  });
}

for (const r of WRITABLE) {
  for (const limit of LIMITS) {
    const props = limit.props(r);
    if (props.length === 0) continue;
    check({ rule: limit.rule, resource: r.name, writes: true }, async (ctx) => {
      const items = limit.items(r, ctx, props);
      let accepted = false;
      try {
        await withCreated(ctx, r, items, async (created, ex) => {
          accepted = true;
          const matched = matchResponse(r, items, created);
          judge(ctx, r, limit, props, items, matched, 'write', 'create answer', [ex]);
          const ids = matched.map((x) => String(x?.id));
          const got = await getByIds(ctx, r, ids, 'get by the created ids');
          judge(ctx, r, limit, props, items, ids.map((id) => got.byId.get(id.toLowerCase())), 'get', `get of ${r.title} by id`, [ex, got.exchange]);
        });
      } catch (e) {
        // a rejected create: say which values were at the limit
        if (accepted || !(e instanceof CheckFailure)) throw e;
        throw new CheckFailure({ ...e.detail, message: `a create holding ${limit.what} (${props.map((p) => p.name).join(', ')}; everything else at its minimum) was not accepted: ${e.detail.message} (${limit.section})` });
      }
    });
  }
}
