/**
 * Values at the documented limits (§8 Limits, §2 Conventions) are accepted and
 * read back intact, in the create answer and in get:
 * - strings of exactly 255 characters (run tag included), ASCII and multi-byte;
 * - page content of exactly 65535 characters, its multi-byte text judged under
 *   what the store's long text limit counts (limits.longTextUnit: limits/text-bytes.ts);
 * - integers at their largest under the width of the target's Integer columns
 *   (observation limits.integerWidth: 11 digits, 99999999999, or the 32-bit
 *   column INT(11) usually is, 2147483647);
 * - decimals at their largest under the reading of "8 digits, 2 decimals" the
 *   target takes (observation limits.decimalDigits: 99999999.99 or 999999.99;
 *   product weight 99.99 or 0.99);
 * - and the minimum of each: 1-character strings, 0, 0.00;
 * - text with accents, astral emoji, quotes, backslashes and <>&, the emoji
 *   judged under the observed text.astral (kept; stored as '?'; or refused:
 *   then the text goes without them, and a create holding them must be refused).
 *
 * Each check sends one create whose items hold its rule's properties at the
 * limit and every other property at its minimum (generators' boundaryPayloads),
 * so a rejection can only be about the values under test — and, in the same
 * create and update, one class item per value of each class of the limit
 * (limits/classes.ts: text one below the limit, 50 tags at the limit, 1,
 * 9/10/99/100, 2147483647, 0.01, 10.50, 0.29, 999999.99…; items[].classes
 * records them). 4-byte text at the 255 limit goes in a create apart, judged
 * under the store's own unit of length (judgeAstral). What happens over a
 * limit is an observation (limits.overlongString), not judged here.
 * Characters are counted in code points (what §8 "255 characters" reads as).
 */
import {
  TEXT_MAX_LENGTH, maxLengthOf, describeValue,
  check, checksOf, LIMIT_PROPS, resources, codePointLength, astralUnder, hasAstral, type CheckContext, type Rec, type Exchange,
  type LimitRule, type PayloadPropModel, type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import type fc from 'fast-check';
import { boundaryPayloads, retoken, uniquePrefix, type Payload } from '../generators/index.js';
import { chunked, classesKeptOut, observedNotTaken } from './support/classes.js';
import { itemClasses, limitClasses, type PropLimitClasses } from './limits/classes.js';
import { judgeLongTextBytes, longTextItems, longTextWhat } from './limits/text-bytes.js';
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

/** 8 base-36 characters from the check's seed, a letter for the use and the item's index (two characters: a deep run's class items pass 36). */
const tokenFor = (ctx: CheckContext, use: 'c' | 'u' | 'b' | 'a' | 'r', i: number) => `${use}${(ctx.seed >>> 0).toString(36).padStart(5, '0').slice(-5)}${i.toString(36).padStart(2, '0')}`;

interface Limit {
  rule: LimitRule;
  /** the properties the rule is about */
  props: (r: ResourceModel) => PayloadPropModel[];
  /** create items: the rule's properties at the limit (and at the minimum), the rest at the minimum */
  items: (r: ResourceModel, ctx: CheckContext, props: PayloadPropModel[]) => Payload[];
  /** what the target stores for an item (default: the item itself), under a reading the target was observed to take */
  stored?: (ctx: CheckContext, item: Payload) => Payload;
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

/** The payload context of the limit values: the run tag, how the target counts decimal digits and how wide its Integer columns are. */
const boundaryContext = (ctx: CheckContext) => ({ tag: ctx.config.runTag, decimalReading: ctx.observed('limits.decimalDigits'), integerWidth: ctx.observed('limits.integerWidth') });

/** Every String of a payload as a column of the observed text.astral stores it ('refused' leaves it: a write holding it is judged apart). */
function underAstral(ctx: CheckContext, item: Payload): Payload {
  const reading = ctx.observed('text.astral');
  const stored = (s: string) => {
    const v = astralUnder(reading, s);
    return v === 'refused' ? s : v;
  };
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, typeof v === 'string' ? stored(v) : v.map(stored)]));
}

/** The text-encoding sample without its 4-byte characters (what a store refusing them must still keep intact). */
const withoutAstral = (s: string) => Array.from(s).filter((ch) => !hasAstral(ch)).join('').replace(/ {2,}/g, ' ').trim();

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
    // multi-byte: the limit in characters where the store was seen to count characters, else as much as 65535 UTF-8
    // bytes hold (valid where the column is a MySQL TEXT: limits.longTextUnit, limits/text-bytes.ts)
    items: (r, ctx, props) => longTextItems(boundaryItems(r, ctx, props, { multibyte: true, minimum: false }), props),
    get what() { return longTextWhat(); },
    section: '§8 Limits: Page content 65535 characters',
  },
  {
    rule: 'limits.integer-11-digits',
    props: LIMIT_PROPS['limits.integer-11-digits'],
    items: (r, ctx, props) => boundaryItems(r, ctx, props, { multibyte: false, minimum: true }),
    what: 'integers at their largest under the observed width of Integer columns (limits.integerWidth) and 0',
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
      // a store refusing 4-byte characters (text.astral) gets the text without them (and a create with them, apart)
      const text = (s: string) => (ctx.observed('text.astral') === 'refused' ? withoutAstral(s) : s);
      for (const p of props) {
        const max = maxLengthOf(p);
        if (p.kind === 'list') item[p.name] = ENCODING_TAGS.map((t) => cut(text(t), max));
        else item[p.name] = cut(p.unique ? `${item[p.name]} ${text(ENCODING_SAMPLE)}` : text(ENCODING_SAMPLE), max);
      }
      return [item];
    },
    stored: underAstral,
    what: 'text with accents, emoji, quotes, backslashes and <>&',
    section: '§2 Conventions: String values (4-byte characters as observed: text.astral)',
  },
];

/**
 * A value for a failure's expected or actual: a long text (page content at its limit) as its start, end and
 * sizes, in the report too — two texts of 65535 characters side by side tell a reader less than their sizes
 * and ends (the test runner's own copy is cut for it whatever the check: src/check/failure.ts forRunner).
 */
const shown = (v: unknown): unknown => (typeof v === 'string' && v.length > 512 ? `${describeValue(v)}, ${Buffer.byteLength(v, 'utf8')} bytes` : v);

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
async function judgeProps(ctx: CheckContext, r: ResourceModel, limit: Limit, props: PayloadPropModel[], op: Op, sent: Payload[], records: Array<Rec | undefined>, form: 'get' | 'write', where: string, evidence: Exchange[]): Promise<void> {
  const items = limit.stored ? sent.map((x) => limit.stored!(ctx, x)) : sent;
  for (const p of props) {
    await ctx.item(`${p.name}.${op}`, (it) => {
      items.forEach((item, i) => {
        if (!records[i]) it.fail({ message: `${where}: no record for item ${i} (${limit.what})`, why: limit.section, evidence });
        const ms = payloadMismatches(r, item, records[i], form, { only: (q) => q.name === p.name });
        if (ms.length) {
          it.fail({
            message: `${where}, item ${i}: ${limit.what} did not come back intact: ${mismatchesText(ms)}${lengths(r, ms)}`,
            why: limit.section,
            expected: Object.fromEntries(ms.map((m) => [m.prop, shown(m.sent)])),
            actual: Object.fromEntries(ms.map((m) => [m.prop, shown(m.got)])),
            evidence,
          });
        }
      });
    });
  }
}

type Op = 'create' | 'update';

/**
 * A store observed refusing 4-byte characters (text.astral 'refused': MySQL's
 * utf8mb3 in strict mode) refuses them in every String: one create holding
 * the emoji sample in each of the rule's properties must be refused; when it
 * is taken, each property that kept them (or changed them) departs from the
 * store's own reading.
 */
async function astralRefused(ctx: CheckContext, r: ResourceModel, limit: Limit, props: PayloadPropModel[]): Promise<void> {
  const [, , min] = boundaryPayloads(r.name, boundaryContext(ctx));
  const item: Payload = { ...retoken(r.name, min, ctx.config.runTag, tokenFor(ctx, 'c', 30)) };
  for (const p of props) {
    const max = maxLengthOf(p);
    if (p.kind === 'list') item[p.name] = ENCODING_TAGS.map((t) => cut(t, max));
    else item[p.name] = cut(p.unique ? `${item[p.name]} ${ENCODING_SAMPLE}` : ENCODING_SAMPLE, max);
  }
  const res = await ctx.scope.createRaw(r, [item]);
  if (!res.ok) return;
  const created = matchResponse(r, [item], res.value!);
  const got = await getByIds(ctx, r, created.map((x) => String(x?.id)), 'get by the created id');
  const rec = got.byId.get(String(created[0]?.id).toLowerCase());
  for (const p of props) {
    await ctx.item(`${p.name}.create`, (it) => {
      const ms = payloadMismatches(r, item, rec, 'get', { only: (q) => q.name === p.name });
      it.fail({
        message: `a create holding 4-byte characters (emoji) in ${p.name} was taken, though this store refuses them (observation text.astral: refused); ${p.name} was ${ms.length ? `stored otherwise: ${mismatchesText(ms)}` : 'stored with them'}`,
        why: `${limit.section}: the store's own reading of 4-byte characters holds for every String property`,
        expected: 'the create refused, as every other create holding a 4-byte character',
        actual: rec?.[p.recordField ?? p.name],
        evidence: [res.exchange, got.exchange],
      });
    });
  }
}

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

/** What one limit check sends: the designed items, the class items beside them, and the 4-byte text apart. */
interface Sent {
  /** the designed items, then the class items (item j of those holds class value j of every property) */
  items: Payload[];
  /** the items the update gives to the base records (the designed maxima and every class item) */
  updated: Payload[];
  classes: PropLimitClasses[];
  /** 4-byte text at the limit in every property that takes it (a create apart) */
  astral?: Payload;
}

/** The class items: item j holds class value j of every property (written for its own unique prefix), the others at their minimum. */
function classItems(ctx: CheckContext, r: ResourceModel, limit: Limit, props: PayloadPropModel[], items: Payload[]): Sent {
  const tag = ctx.config.runTag;
  const [, , min] = boundaryPayloads(r.name, boundaryContext(ctx));
  const draw = <T>(arb: fc.Arbitrary<T>, label: string) => ctx.sample(arb, label);
  const classes = props.map((p) => limitClasses(limit.rule, p, draw, ctx.depth.classValues, items.map((x) => x[p.name]).filter((v) => v !== undefined), observedNotTaken(), classesKeptOut(p)))
    .filter((x): x is PropLimitClasses => x !== undefined);
  const n = Math.max(0, ...classes.map((c) => c.values.length));
  const extra = Array.from({ length: n }, (_, j) => {
    const token = tokenFor(ctx, 'c', items.length + j);
    const item = retoken(r.name, min, tag, token);
    for (const pc of classes) if (pc.values[j]) item[pc.p.name] = pc.values[j].make(uniquePrefix(tag, token));
    return item;
  });
  const withAstral = classes.filter((pc) => pc.astral);
  let astral: Payload | undefined;
  if (withAstral.length) {
    const token = tokenFor(ctx, 'a', 0);
    astral = retoken(r.name, min, tag, token);
    for (const pc of withAstral) astral[pc.p.name] = pc.astral!.make(uniquePrefix(tag, token));
  }
  return { items: [...items, ...extra], updated: [...items.filter((_, i) => i < 2), ...extra], classes, astral };
}

/** Each property's items record the classes the values sent to them belong to (and the others, with why). */
async function recordClasses(ctx: CheckContext, limit: Limit, sent: Sent, ops: Record<Op, Payload[]>, reasons: Map<string, Map<string, string>> = new Map()): Promise<void> {
  for (const pc of sent.classes) {
    for (const op of ['create', 'update'] as const) {
      const values = ops[op].map((x) => x[pc.p.name]).filter((v) => v !== undefined);
      if (!values.length) {
        await ctx.item(`${pc.p.name}.${op}`, (it) => it.classes([], itemClasses(limit.rule, pc, [], observedNotTaken()).notJudged.map((x) => ({ class: x.class, reason: `no ${op} at the limit was judged (the create at the limit was refused): ${x.reason}` }))));
        continue;
      }
      const why = new Map(reasons.get(`${pc.p.name}.${op}`) ?? []);
      if (op === 'update' && pc.astral) why.set('string.astral', '4-byte text at the limit is judged in a create apart (an update holding it would put the other limit values at the mercy of the store\'s unit of length)');
      const { judged, notJudged } = itemClasses(limit.rule, pc, values, observedNotTaken(), why);
      await ctx.item(`${pc.p.name}.${op}`, (it) => it.classes(judged, notJudged));
    }
  }
}

/** Updates in lists of the observed limits.maxDataItems (one request on a store that takes them all). */
async function updateAll(ctx: CheckContext, r: ResourceModel, changes: Payload[]): Promise<{ ok: boolean; value?: Rec[]; problem?: string; exchange: Exchange }> {
  const value: Rec[] = [];
  let last: { ok: boolean; value?: Rec[]; problem?: string; exchange: Exchange } | undefined;
  for (const list of chunked(changes, ctx.observed('limits.maxDataItems'))) {
    last = await ctx.client.update(r, list);
    if (!last.ok) return last;
    value.push(...(last.value ?? []));
  }
  return { ...last!, value };
}

/**
 * 4-byte text at the 255 limit, created apart: judged under the store's own
 * unit of length. Kept whole in every property: each passes. Cut or changed
 * in every one (or refused at once): the store counts UTF-16 units or bytes,
 * an honest reading of "characters" — not judged, with why. Cut in some while
 * others keep it whole: those depart from the store's own reading and fail.
 */
async function judgeAstral(ctx: CheckContext, r: ResourceModel, limit: Limit, sent: Sent, res: { ok: boolean; value?: Rec[]; problem?: string; exchange: Exchange } | undefined, got: { byId: Map<string, Rec>; exchange: Exchange } | undefined, reasons: Map<string, Map<string, string>>): Promise<void> {
  const on = sent.classes.filter((pc) => pc.astral);
  if (!sent.astral || !res || !on.length) return;
  const unit = (why: string) => on.forEach((pc) => reasons.set(`${pc.p.name}.create`, new Map([['string.astral', why]])));
  if (!res.ok) return unit(`a create holding 4-byte text at the limit in every property at once was refused (${res.problem}): this store counts the limit in UTF-16 units or bytes, an honest reading of "characters"`);
  const [answered] = matchResponse(r, [sent.astral], res.value ?? []);
  const stored = got?.byId.get(String(answered?.id).toLowerCase());
  const changed = new Map(on.map((pc) => [pc.p.name, [
    ...payloadMismatches(r, sent.astral!, answered, 'write', { only: (q) => q.name === pc.p.name }),
    ...payloadMismatches(r, sent.astral!, stored, 'get', { only: (q) => q.name === pc.p.name }),
  ]]));
  const kept = on.filter((pc) => changed.get(pc.p.name)!.length === 0).map((pc) => pc.p.name);
  if (!kept.length) return unit(`every property of the limit changed 4-byte text at the limit: this store counts the limit in UTF-16 units or bytes, an honest reading of "characters" (${on.length} propert${on.length === 1 ? 'y' : 'ies'})`);
  for (const pc of on) {
    const ms = changed.get(pc.p.name)!;
    await ctx.item(`${pc.p.name}.create`, (it) => {
      if (!ms.length) return;
      it.fail({
        message: `${r.name} ${pc.p.name} did not keep ${TEXT_MAX_LENGTH} characters of 4-byte text (emoji) whole, while ${kept.join(', ')} did: ${mismatchesText(ms)}${lengths(r, ms)}`,
        why: `${limit.section}: the store's own unit of length, as its other properties show, holds for every property`,
        expected: Object.fromEntries(ms.map((m) => [m.prop, m.sent])),
        actual: Object.fromEntries(ms.map((m) => [m.prop, m.got])),
        evidence: [res.exchange, ...(got ? [got.exchange] : [])],
      });
    });
  }
}

/** The create at the limit was refused: which property's values are refused, each alone (every value of its, the others at their minimum). */
async function createRefused(ctx: CheckContext, r: ResourceModel, limit: Limit, props: PayloadPropModel[], sent: Sent, res: { problem?: string; exchange: Exchange }): Promise<void> {
  const tag = ctx.config.runTag;
  const [, , min] = boundaryPayloads(r.name, boundaryContext(ctx));
  const refused = await refusedProps(ctx, r, props, (p) => ctx.scope.createRaw(r, sent.items.map((x, i) => retoken(r.name, { ...min, ...limitValues(x, [p]) }, tag, tokenFor(ctx, 'r', i)))));
  for (const p of props) {
    await ctx.item(`${p.name}.create`, (it) => {
      const why = refused.get(p.name);
      if (why) it.fail({ message: `a create holding ${p.name} at the limit (${limit.what}, and its value classes; everything else at its minimum) was not accepted: ${why.problem}`, why: limit.section, evidence: [why.exchange] });
      if (!refused.size) it.fail({ message: `a create holding ${limit.what} (${props.map((q) => q.name).join(', ')}) was not accepted, though each property alone was: ${res.problem}`, why: limit.section, evidence: [res.exchange] });
    });
    await ctx.item(`${p.name}.update`, (it) => it.notJudged('the create at the limit was refused, so there is no record to update at the limit'));
  }
}

/** The base records take the limit values (new tokens: unique values stay unique); judged in the answer and in get. */
async function updateAtLimit(ctx: CheckContext, r: ResourceModel, limit: Limit, props: PayloadPropModel[], sent: Sent, baseIds: string[]): Promise<Payload[]> {
  const tag = ctx.config.runTag;
  const changes = baseIds.map((id, i) => ({ id, ...limitValues(retoken(r.name, sent.updated[i], tag, tokenFor(ctx, 'u', i)), props) }));
  const up = await updateAll(ctx, r, changes);
  if (!up.ok) {
    if (!up.exchange.response || up.exchange.response.status >= 500) ctx.ok(up, `update at the limit of ${r.title}`);
    const refused = await refusedProps(ctx, r, props, async (p) => {
      const one = await updateAll(ctx, r, changes.map((c) => ({ id: c.id, ...limitValues(c, [p]) })));
      return { ok: one.ok, problem: one.problem, exchange: one.exchange };
    });
    for (const p of props) {
      await ctx.item(`${p.name}.update`, (it) => {
        const why = refused.get(p.name);
        if (why) it.fail({ message: `an update setting ${p.name} at the limit (${limit.what}, and its value classes) was not accepted: ${why.problem}`, why: limit.section, evidence: [why.exchange] });
        if (!refused.size) it.fail({ message: `an update holding ${limit.what} (${props.map((q) => q.name).join(', ')}) was not accepted, though each property alone was: ${up.problem}`, why: limit.section, evidence: [up.exchange] });
      });
    }
    return [];
  }
  const answered = baseIds.map((id) => up.value!.find((x) => String(x?.id).toLowerCase() === id.toLowerCase()));
  const values = changes.map(({ id: _id, ...rest }) => rest as Payload);
  await judgeProps(ctx, r, limit, props, 'update', values, answered, 'write', 'update answer', [up.exchange]);
  // read until the update shows, as the target stores it (4-byte characters as '?' where it replaces them)
  const shown = values.map((x) => (limit.stored ? limit.stored(ctx, x) : x));
  const applied = (m: Map<string, Rec>) => baseIds.every((id, i) => payloadMismatches(r, shown[i], m.get(id.toLowerCase()), 'get', { only: (q) => props.includes(q) }).length === 0);
  const after = await getByIds(ctx, r, baseIds, 'get by id after the update at the limit', applied);
  await judgeProps(ctx, r, limit, props, 'update', values, baseIds.map((id) => after.byId.get(id.toLowerCase())), 'get', `get of ${r.title} by id after the update`, [up.exchange, after.exchange]);
  return values;
}

for (const r of WRITABLE) {
  for (const limit of LIMITS) {
    const props = limit.props(r);
    if (props.length === 0) continue;
    const [def] = checksOf(limit.rule, r.name);
    check(def, async (ctx) => {
      const tag = ctx.config.runTag;
      const sent = classItems(ctx, r, limit, props, limit.items(r, ctx, props));
      const { items } = sent;
      if (limit.rule === 'limits.text-encoding' && ctx.observed('text.astral') === 'refused') await astralRefused(ctx, r, limit, props);
      // the records updated at the limit: created at the minimum beside the limit items
      const [, , min] = boundaryPayloads(r.name, boundaryContext(ctx));
      const bases = sent.updated.map((_, i) => retoken(r.name, min, tag, tokenFor(ctx, 'b', i)));
      const [res, astral] = await Promise.all([ctx.scope.createRaw(r, [...items, ...bases]), sent.astral ? ctx.scope.createRaw(r, [sent.astral]) : undefined]);
      if (!res.ok) {
        await createRefused(ctx, r, limit, props, sent, res);
        await recordClasses(ctx, limit, sent, { create: sent.items, update: [] });
        return;
      }
      const ex = res.exchange;
      const matched = matchResponse(r, [...items, ...bases], res.value!);
      await judgeProps(ctx, r, limit, props, 'create', items, matched.slice(0, items.length), 'write', 'create answer', [ex]);
      const ids = matched.map((x) => String(x?.id));
      const astralId = astral?.ok ? matchResponse(r, [sent.astral!], astral.value ?? []).map((x) => String(x?.id)) : [];
      const got = await getByIds(ctx, r, [...ids, ...astralId], 'get by the created ids');
      await judgeProps(ctx, r, limit, props, 'create', items, ids.slice(0, items.length).map((id) => got.byId.get(id.toLowerCase())), 'get', `get of ${r.title} by id`, [ex, got.exchange]);
      const reasons = new Map<string, Map<string, string>>();
      await judgeAstral(ctx, r, limit, sent, astral, got, reasons);
      const updated = await updateAtLimit(ctx, r, limit, props, sent, ids.slice(items.length));
      if (limit.rule === 'limits.page-content-65535') await judgeLongTextBytes(ctx, r, props, (content) => retoken(r.name, { ...min, ...content }, tag, tokenFor(ctx, 'a', 1)), ids[items.length]);
      await recordClasses(ctx, limit, sent, { create: [...items, ...(sent.astral && !reasons.size ? [sent.astral] : [])], update: updated }, reasons);
    });
  }
}
