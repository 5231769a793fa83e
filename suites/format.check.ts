/**
 * §4 "Formatting differs by operation" (level quirk):
 * - get shows booleans as 'true'/'false' (format.get.boolean) and decimals with
 *   a dot (format.get.decimal-dot), except order item unitprice and shipping
 *   method handlingfee/fixedamount, written with a comma (format.get.decimal-comma);
 * - create and update show booleans as '1'/'0' (format.write.boolean) and
 *   price, weight, discountamount, minimumpurchase with a comma
 *   (format.write.decimal-comma);
 * - product create and update return size '0' (format.write.product-size-zero),
 *   while a following get shows the size sent.
 * Which field takes which form comes from the schema model: FieldModel.kind,
 * .separator and .quirk of the get form (r.fields) and the write form
 * (r.writeFields); nothing is listed here by hand.
 *
 * Cost: one get per resource with a boolean or decimal field (a page shared by
 * that resource's get checks); per writable resource with a write-form quirk,
 * one create of a small generated batch, one update, one get by id (shared by
 * its write checks), then the cleanup delete.
 */
import fc from 'fast-check';
import {
  check, fixture, requireOk, CheckFailure, decimalLimitOfEveryReading, resource, resources,
  scaledToDecimal, describeValue, sameStoredValue, catalogue, leaves, type CheckContext, type Fixture, type FixtureContext,
  type Rec, type Exchange, type CallResult, type DecimalLimit, type FieldModel, type PayloadPropModel, type ResourceModel, type RuleId,
  type Leaf, type SuiteDeclaration, type ClassTarget, payloadTarget, classesFor,
} from '../src/check/index.js';
import { chunked, classItemCount, classesAmong, observedNotTaken, payloadClasses, withClasses, type PropClasses } from './support/classes.js';
import { batchArb, updateArb, type Payload } from '../generators/index.js';
import { readFirstPage, type Page } from './support/first-page.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = {
  rules: [
    'format.get.boolean',
    'format.get.decimal-dot',
    'format.write.boolean',
    'format.write.decimal-comma',
    'format.write.product-size-zero',
    'format.get.decimal-comma',
  ],
};

const LIST_MAX = 12;

// ---------------------------------------------------------------- helpers

function list(items: string[]): string {
  const shown = items.slice(0, LIST_MAX).join('; ');
  return items.length > LIST_MAX ? `${shown}; … (${items.length - LIST_MAX} more)` : shown;
}

const at = (base: string, name: string) => (base ? `${base}.${name}` : name);

/** Every value of a leaf in one record, with its JSON path ([3].items[0].unitprice). */
function valuesAt(rec: unknown, trail: FieldModel[], path: string): Array<{ path: string; value: unknown }> {
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return [];
  const [f, ...rest] = trail;
  if (!(f.name in (rec as Rec))) return [];
  const v = (rec as Rec)[f.name];
  const p = at(path, f.name);
  if (rest.length === 0) return [{ path: p, value: v }];
  if (f.kind === 'array') return Array.isArray(v) ? v.flatMap((item, i) => valuesAt(item, rest, `${p}[${i}]`)) : [];
  return valuesAt(v, rest, p);
}

const recordPath = (r: ResourceModel, i: number) => (r.single ? '' : `[${i}]`);
const HAS_DECIMALS = /[.,][0-9]/;

// ---------------------------------------------------------------- get pages

const getLeaves = (r: ResourceModel) => leaves(r.fields).filter((l) => l.field.kind === 'boolean' || (l.field.kind === 'decimal' && l.field.separator !== 'either'));
const pages = new Map<string, Fixture<Page>>(
  resources().filter((r) => getLeaves(r).length > 0).map((r) => [r.name, fixture((f) => readFirstPage(r, f))]),
);

// ---------------------------------------------------------------- write fixture

interface Written {
  sent: Payload[];
  created: Rec[];
  createExchanges: Exchange[];
  /** the update items (changes[i] sent for updatedIds[i]): the first record with new generated values, each class record with another class's */
  changes: Payload[];
  updatedIds: string[];
  updated: Rec[];
  updateExchange: Exchange;
  /** get by id of every created record, after the update */
  after: Rec[];
  afterExchange: Exchange;
  /** the value classes of the properties behind write-form fields the items carry (support/classes.ts) */
  classes: PropClasses[];
}

const writeLeaves = (r: ResourceModel) => r.writeFields.filter((f) => f.kind === 'boolean' || (f.kind === 'decimal' && f.separator === ',') || f.quirk);
const propFor = (r: ResourceModel, f: FieldModel): PayloadPropModel | undefined => r.payload.find((p) => (p.recordField ?? p.name) === f.name);

/** A decimal within the limit whose fractional part is not zero, so a separator must appear (12.35, not 12.00). */
function fractionalDecimalArb({ digits, scale }: DecimalLimit): fc.Arbitrary<string> {
  const unit = 10n ** BigInt(scale);
  return fc.tuple(fc.bigInt({ min: 0n, max: 10n ** BigInt(digits) - 1n }), fc.bigInt({ min: 1n, max: unit - 1n }))
    .map(([int, frac]) => scaledToDecimal(int * unit + frac, scale));
}

/**
 * Values that make the format checks meaningful, per item: every decimal
 * with a non-zero fractional part; every property behind a quirk field
 * (product size) different from the quirk's constant; booleans alternating
 * so both values are shown.
 */
function overridesArb(r: ResourceModel): fc.Arbitrary<Payload> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const p of r.payload) {
    if (p.kind === 'decimal' && p.decimal && p.decimal.scale > 0) model[p.name] = fractionalDecimalArb(decimalLimitOfEveryReading(p.decimal));
  }
  for (const f of r.writeFields) {
    const p = f.quirk ? propFor(r, f) : undefined;
    if (p && p.kind === 'integer') model[p.name] = fc.integer({ min: 1, max: 99_999 }).map(String).filter((v) => v !== f.quirk!.const);
  }
  return fc.record(model);
}

function booleans(r: ResourceModel, i: number): Payload {
  const out: Payload = {};
  r.payload.filter((p) => p.kind === 'boolean').forEach((p, k) => { out[p.name] = (i + k) % 2 === 0 ? 'true' : 'false'; });
  return out;
}

/**
 * Class items beside the generated ones (in the same create): item k holds
 * class value k of every property behind a write-form field (decimals 0,
 * 0.01, 10.50, 9.99…100.00, 0.29, 999999.99; product size 1, 10, 2147483647…),
 * so each quirk is judged on zero, many digits and the written length
 * changing, not only on generated values; the update gives each class record
 * another class's value.
 */
function formatClasses(r: ResourceModel, f: FixtureContext, label: string): PropClasses[] {
  const behind = new Set(writeLeaves(r).map((x) => propFor(r, x)?.name).filter((x): x is string => x !== undefined));
  const draw = <T>(arb: fc.Arbitrary<T>, l: string) => f.sample(arb, `${label}:${l}`);
  return payloadClasses(r, f.config.runTag, f.depth.classValues, draw, { only: (p) => behind.has(p.name) && p.kind !== 'boolean', underReadings: observedNotTaken() });
}

async function writeFixture(r: ResourceModel, f: FixtureContext): Promise<Written> {
  const pctx = { tag: f.config.runTag };
  const label = `${r.name}.format.write-fixture`;
  const n = Math.max(2, f.depth.batch);
  const classes = formatClasses(r, f, label);
  const m = classItemCount(classes);
  const base = f.sample(batchArb(r.name, pctx, { minLength: n + m, maxLength: n + m }), label);
  const upd = f.sample(updateArb(r.name, pctx, { mode: 'full' }), `${label}:update`);
  const over = f.sampleMany(overridesArb(r), `${label}:overrides`, n + 1);
  const generated = (base as Payload[]).slice(0, n).map((p, i) => ({ ...p, ...over[i], ...booleans(r, i) }));
  const classItems = withClasses(r, (base as Payload[]).slice(n).map((p, i) => ({ ...p, ...booleans(r, n + i) })), classes, f.config.runTag);
  const sent = [...generated, ...classItems];

  const seen: Exchange[] = [];
  const listen = (ex: Exchange) => seen.push(ex);
  // the create's exchanges, whichever batches Scope.create sends
  f.client.http.listeners.add(listen);
  let created: Rec[];
  try {
    created = await f.scope.create(r, sent);
  } finally {
    f.client.http.listeners.delete(listen);
  }
  const createExchanges = seen.filter((ex) => ex.request.path.endsWith('/create'));
  const ids = created.map((x) => x?.id);
  if (!ids.every((id): id is string => typeof id === 'string')) {
    throw new CheckFailure({ message: `${r.name} create returned records without a string id (§4 Responses)`, evidence: createExchanges });
  }
  // the update flips every boolean of the first record and sends new decimals and sizes; each class record takes another class's values
  const classNames = new Set(classes.map((x) => x.p.name));
  const shifted = withClasses(r, classItems, classes, f.config.runTag, 1).map((x) => Object.fromEntries(Object.entries(x).filter(([k]) => classNames.has(k))) as Payload);
  const changes: Payload[] = [{ ...(upd as Payload), ...over[n], ...booleans(r, 1) }, ...shifted];
  const updatedIds = [ids[0], ...ids.slice(n)];
  // in lists of the observed limits.maxDataItems (one update on a store that takes them all)
  const updated: Rec[] = [];
  let up: CallResult<Rec[]> | undefined;
  for (const list of chunked(changes.map((c, i) => ({ ...c, id: updatedIds[i] })), f.observed('limits.maxDataItems'))) {
    up = await f.client.update(r, list);
    updated.push(...requireOk(up, `${r.name} update of records the run created`));
  }
  const got = await f.client.get(r, { filters: { id: ids }, pagination: ids.length > 10 ? { pageSize: ids.length } : undefined });
  const after = requireOk(got, `${r.name} get by id of the records just created`);
  return { sent, created, createExchanges, changes, updatedIds, updated, updateExchange: up!.exchange, after, afterExchange: got.exchange, classes };
}

const writes = new Map<string, Fixture<Written>>(
  resources().filter((r) => r.writable && writeLeaves(r).length > 0).map((r) => [r.name, fixture((f) => writeFixture(r, f))]),
);

/** Create and update answers, each record with what was sent for it. */
function writeAnswers(w: Written): Array<{ label: string; rec: Rec; sent: Payload }> {
  const change = new Map(w.updatedIds.map((id, i) => [id.toLowerCase(), w.changes[i]]));
  return [
    ...w.created.map((rec, i) => ({ label: `create [${i}]`, rec, sent: w.sent[i] })),
    ...w.updated.map((rec, i) => ({ label: `update [${i}]`, rec, sent: change.get(String(rec?.id).toLowerCase()) ?? w.changes[i] ?? {} })),
  ];
}

// ---------------------------------------------------------------- get checks

/** The get-form judgement of one leaf: which values are wrong, and how to say it. */
const GET_FORMS: Partial<Record<RuleId, { bad: (v: unknown) => boolean; decimals: boolean; shown: string; expected: string; quote: string }>> = {
  'format.get.boolean': { bad: (v) => v !== 'true' && v !== 'false', decimals: false, shown: "something other than 'true'/'false'", expected: "'true' or 'false'", quote: "\"Get responses show booleans as 'true' or 'false'\"" },
  'format.get.decimal-dot': { bad: (v) => (v as string).includes(','), decimals: true, shown: 'with a comma', expected: "a dot decimal such as '12.50'", quote: '"Get responses show ... decimals with a dot"' },
  'format.get.decimal-comma': { bad: (v) => (v as string).includes('.'), decimals: true, shown: 'with a dot', expected: "a comma decimal such as '12,50'", quote: '"with a few decimals written with a comma (order item unitprice, shipping method handlingfee and fixedamount)"' },
};

/**
 * The values of a record field in the write fixture's get by id (its class
 * records: zero, 0.01, 999999.99…), judged beside the first page's; none on a
 * read-only run, for sub-record fields, or when the fixture could not be made
 * (the write checks say why).
 */
async function fixtureValues(ctx: CheckContext, r: ResourceModel, leaf: Leaf): Promise<{ values: Array<{ path: string; value: unknown }>; exchange: Exchange } | undefined> {
  const w = writes.get(r.name);
  if (!w || ctx.config.readOnly || leaf.trail.length !== 1) return undefined;
  try {
    const got = await w.get(ctx);
    return { values: got.after.flatMap((rec, i) => valuesAt(rec, leaf.trail, `fixture[${i}]`)), exchange: got.afterExchange };
  } catch {
    return undefined;
  }
}

/** The classes bound to a field's limit (its largest values): a field with no payload property behind it has none in the schema model. */
const LIMIT_BOUND = new Set(['decimal.largest', 'decimal.at-digit-limit']);
/** Integer digits wide enough for any value shown, for a field whose limit the schema model does not hold. */
const WIDE_DIGITS = 18;

/** The classes of a get field the values shown hold (a record field behind a payload property takes its limits; another, the scale it is written with). */
function getClasses(r: ResourceModel, leaf: Leaf, values: readonly unknown[]): { judged: string[]; notJudged: Array<{ class: string; reason: string }> } {
  const prop = leaf.trail.length === 1 ? propFor(r, leaf.field) : undefined;
  const dotted = values.map((v) => (typeof v === 'string' ? v.replace(',', '.') : v));
  const scale = Math.max(0, ...dotted.map((v) => (typeof v === 'string' ? (v.split('.')[1] ?? '').length : 0)));
  const t: ClassTarget = (prop && payloadTarget(prop)) || (leaf.field.kind === 'boolean' ? { kind: 'boolean', use: 'stored' } : { kind: 'decimal', use: 'stored', decimal: { digits: WIDE_DIGITS, scale } });
  const all = classesFor(t, observedNotTaken());
  const unbound = prop ? [] : all.judged.filter((c) => LIMIT_BOUND.has(c.name));
  const { present, absent } = classesAmong(t, all.judged.filter((c) => !unbound.includes(c)), dotted);
  return {
    judged: present.map((c) => c.name),
    notJudged: [
      ...all.notJudged.map((x) => ({ class: x.cls.name, reason: x.reason })),
      ...unbound.map((c) => ({ class: c.name, reason: `${leaf.subject} has no payload property behind it: its limit is not in the schema model` })),
      ...absent.map((c) => ({ class: c.name, reason: `no value of it among the ${values.length} ${leaf.subject} value(s) shown (the first page${prop ? ' and the format fixture\'s records' : ''})` })),
    ],
  };
}

for (const def of catalogue().filter((c) => c.rule in GET_FORMS)) {
  const r = resource(def.resource);
  const leaf = getLeaves(r).find((l) => l.subject === def.subject);
  const form = GET_FORMS[def.rule]!;
  if (!leaf) throw new Error(`${def.id}: no such leaf in the ${r.name} model`);
  check(def, async (ctx) => {
    await ctx.item('get', async (it) => {
      const page = await pages.get(r.name)!.get();
      const fx = await fixtureValues(it, r, leaf);
      const values = [...page.records.flatMap((rec, i) => valuesAt(rec, leaf.trail, recordPath(r, i))), ...(fx?.values ?? [])];
      if (values.length === 0) it.notJudged(page.records.length ? `no ${leaf.subject} value in ${page.what}: nothing to judge` : `${r.name} get returned no records: nothing to judge`);
      const cls = getClasses(r, leaf, values.map((x) => x.value));
      it.classes(cls.judged, cls.notJudged);
      const shown = form.decimals ? values.filter((x) => typeof x.value === 'string' && HAS_DECIMALS.test(x.value)) : values;
      if (shown.length === 0) it.notJudged(`no ${leaf.subject} value in ${page.what} has decimals (${values.length} value(s), none showing a separator)`);
      const bad = shown.filter((x) => form.bad(x.value)).map((x) => `${x.path} is ${describeValue(x.value)}`);
      if (bad.length) {
        it.fail({
          message: `${r.name} get shows ${leaf.subject} ${form.shown} in ${bad.length} of ${shown.length} value(s)${form.decimals ? ' with decimals' : ''}: ${list(bad)}`,
          why: form.quote,
          expected: form.expected, actual: bad.slice(0, 50), evidence: [page.exchange, ...(fx ? [fx.exchange] : [])],
        });
      }
    });
  });
}

// ---------------------------------------------------------------- write checks

type WriteOp = 'create' | 'update';
const COMMA_DECIMAL = /^-?[0-9]+(,[0-9]+)?$/;
/** A decimal whose fractional digits are not all zero (12.35, not 12.00 or 12). */
const hasFraction = (v: unknown) => typeof v === 'string' && /[.,][0-9]*[1-9]/.test(v);

/** The classes of a write field's property the answers of one operation were judged with (and the others, with why). */
function classesJudged(w: Written, op: WriteOp, prop: PayloadPropModel | undefined): { judged: string[]; notJudged: Array<{ class: string; reason: string }> } | undefined {
  const t = prop ? payloadTarget(prop) : undefined;
  if (!prop || !t) return undefined;
  const pc = w.classes.find((x) => x.p.name === prop.name);
  const all = classesFor(t, observedNotTaken());
  const values = answersOf(w, op).map((a) => a.sent[prop.name]);
  const { present, absent } = classesAmong(t, all.judged, values);
  return {
    judged: present.map((c) => c.name),
    notJudged: [
      ...all.notJudged.map((x) => ({ class: x.cls.name, reason: x.reason })),
      ...absent.map((c) => ({ class: c.name, reason: pc ? `no ${op} answer judged holds a value of it` : 'the format fixture carries no class values of this property' })),
    ],
  };
}
const answersOf = (w: Written, op: WriteOp) => writeAnswers(w).filter((a) => a.label.startsWith(op));
const evidenceOf = (w: Written, op: WriteOp) => (op === 'create' ? w.createExchanges : [w.updateExchange]);

/** The write-form judgement of one field: which answers are wrong, and how to say it. */
const WRITE_FORMS: Partial<Record<RuleId, { bad: (v: unknown, f: FieldModel, sent: unknown) => boolean; shown: (f: FieldModel) => string; expected: (f: FieldModel) => string; why: (f: FieldModel) => string }>> = {
  'format.write.boolean': {
    bad: (v) => v !== '1' && v !== '0',
    shown: (f) => `show ${f.name} as something other than '1'/'0'`,
    expected: () => "'1' or '0'",
    why: () => `"Create and update responses show booleans as '1' or '0'"`,
  },
  'format.write.decimal-comma': {
    // a value sent with a non-zero fractional part must show it, after a comma; a whole one (0, 10.00) may show '10' or '10,00'
    bad: (v, _f, sent) => typeof v !== 'string' || !COMMA_DECIMAL.test(v) || (hasFraction(sent) && !v.includes(',')),
    shown: (f) => `do not show ${f.name} as a comma decimal`,
    expected: () => "a comma decimal such as '12,35' (decimals sent show after a comma; a whole value as '10' or '10,00')",
    why: () => `"Create and update responses show ... several decimals with a comma (for example price, weight, discountamount, minimumpurchase)"`,
  },
  'format.write.product-size-zero': {
    bad: (v, f) => v !== f.quirk!.const,
    shown: (f) => `returned ${f.name} other than ${describeValue(f.quirk!.const)}`,
    expected: (f) => `${f.name} ${describeValue(f.quirk!.const)} in every create and update answer`,
    why: (f) => f.quirk!.note,
  },
};

for (const def of catalogue().filter((c) => c.rule in WRITE_FORMS)) {
  const r = resource(def.resource);
  const f = r.writeFields.find((x) => x.name === def.subject);
  const form = WRITE_FORMS[def.rule]!;
  if (!f || !writes.has(r.name)) throw new Error(`${def.id}: no write field ${def.subject} in the ${r.name} model`);
  check(def, async (ctx) => {
    for (const op of ['create', 'update'] as const) {
      await ctx.item(op, async (it) => {
        const w = await writes.get(r.name)!.get(it);
        const prop = propFor(r, f);
        const answers = answersOf(w, op);
        const cls = classesJudged(w, op, prop);
        if (cls) it.classes(cls.judged, cls.notJudged);
        const bad = answers.filter((a) => form.bad(a.rec?.[f.name], f, prop ? a.sent[prop.name] : undefined))
          .map((a) => `${a.label}.${f.name} is ${describeValue(a.rec?.[f.name])} (sent ${describeValue(prop ? a.sent[prop.name] : undefined)})`);
        if (bad.length) {
          it.fail({
            message: `${r.name} ${op} ${form.shown(f)} in ${bad.length} of ${answers.length} record(s): ${list(bad)}`,
            why: form.why(f), expected: form.expected(f), actual: bad, evidence: evidenceOf(w, op),
          });
        }
        if (f.quirk && prop) judgeStoredBehindQuirk(it, r, f, prop, w, op);
      });
    }
  });
}

/** The quirk is in the answer only: the value sent was stored, and get shows it. */
function judgeStoredBehindQuirk(it: CheckContext, r: ResourceModel, f: FieldModel, prop: PayloadPropModel, w: Written, op: WriteOp): void {
  const byId = new Map(w.after.map((x) => [String(x?.id).toLowerCase(), x]));
  const change = new Map(w.updatedIds.map((id, i) => [id.toLowerCase(), w.changes[i]]));
  const lost: string[] = [];
  w.created.forEach((rec, i) => {
    // the records updated afterwards tell about the update; the others about the create
    const upd = change.get(String(rec?.id).toLowerCase());
    if ((upd !== undefined) !== (op === 'update')) return;
    const sent = upd ? upd[prop.name] : w.sent[i][prop.name];
    if (sent === undefined) return;
    const got = byId.get(String(rec.id).toLowerCase());
    if (!got) lost.push(`${rec.id} is missing from the get by id`);
    else if (!sameStoredValue('integer', sent, got[f.name])) lost.push(`${rec.id}: get shows ${f.name} ${describeValue(got[f.name])}, the ${op} sent ${describeValue(sent)}`);
  });
  if (lost.length) {
    it.fail({
      message: `the ${f.name} sent is not what a following get shows: ${list(lost)}`,
      why: `the '${f.quirk!.const}' is a quirk of the create and update answers; the value sent is stored`,
      expected: `get shows the ${f.name} sent`, actual: lost, evidence: [...evidenceOf(w, op), w.afterExchange],
    });
  }
}
