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
  type Rec, type Exchange, type DecimalLimit, type FieldModel, type PayloadPropModel, type ResourceModel, type RuleId,
  type Leaf, type SuiteDeclaration,
} from '../src/check/index.js';
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

/** The values of one leaf in the resource's page; skip when none is there to judge. */
async function getValues(ctx: CheckContext, r: ResourceModel, leaf: Leaf): Promise<{ page: Page; values: Array<{ path: string; value: unknown }> }> {
  const page = await pages.get(r.name)!.get();
  if (page.records.length === 0) ctx.notJudged(`${r.name} get returned no records: nothing to judge`);
  const values = page.records.flatMap((rec, i) => valuesAt(rec, leaf.trail, recordPath(r, i)));
  if (values.length === 0) ctx.notJudged(`no ${leaf.subject} value in ${page.what}: nothing to judge`);
  return { page, values };
}

// ---------------------------------------------------------------- write fixture

interface Written {
  sent: Payload[];
  created: Rec[];
  createExchanges: Exchange[];
  /** the update item (sent for created[0]) */
  change: Payload;
  updated: Rec[];
  updateExchange: Exchange;
  /** get by id of every created record, after the update */
  after: Rec[];
  afterExchange: Exchange;
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

async function writeFixture(r: ResourceModel, f: FixtureContext): Promise<Written> {
  const pctx = { tag: f.config.runTag };
  const label = `${r.name}.format.write-fixture`;
  const n = Math.max(2, f.depth.batch);
  const base = f.sample(batchArb(r.name, pctx, { minLength: n, maxLength: n }), label);
  const upd = f.sample(updateArb(r.name, pctx, { mode: 'full' }), `${label}:update`);
  const over = f.sampleMany(overridesArb(r), `${label}:overrides`, n + 1);
  const sent = (base as Payload[]).map((p, i) => ({ ...p, ...over[i], ...booleans(r, i) }));

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
  // the update flips every boolean of the first record and sends new decimals and sizes
  const change: Payload = { ...(upd as Payload), ...over[n], ...booleans(r, 1) };
  const up = await f.client.update(r, [{ ...change, id: ids[0] }]);
  const updated = requireOk(up, `${r.name} update of one record the run created`);
  const got = await f.client.get(r, { filters: { id: ids } });
  const after = requireOk(got, `${r.name} get by id of the records just created`);
  return { sent, created, createExchanges, change, updated, updateExchange: up.exchange, after, afterExchange: got.exchange };
}

const writes = new Map<string, Fixture<Written>>(
  resources().filter((r) => r.writable && writeLeaves(r).length > 0).map((r) => [r.name, fixture((f) => writeFixture(r, f))]),
);

/** Create and update answers, each record with what was sent for it. */
function writeAnswers(w: Written): Array<{ label: string; rec: Rec; sent: Payload }> {
  return [
    ...w.created.map((rec, i) => ({ label: `create [${i}]`, rec, sent: w.sent[i] })),
    ...w.updated.map((rec, i) => ({ label: `update [${i}]`, rec, sent: w.change })),
  ];
}


// ---------------------------------------------------------------- get checks

/** The get-form judgement of one leaf: which values are wrong, and how to say it. */
const GET_FORMS: Partial<Record<RuleId, { bad: (v: unknown) => boolean; decimals: boolean; shown: string; expected: string; quote: string }>> = {
  'format.get.boolean': { bad: (v) => v !== 'true' && v !== 'false', decimals: false, shown: "something other than 'true'/'false'", expected: "'true' or 'false'", quote: "\"Get responses show booleans as 'true' or 'false'\"" },
  'format.get.decimal-dot': { bad: (v) => (v as string).includes(','), decimals: true, shown: 'with a comma', expected: "a dot decimal such as '12.50'", quote: '"Get responses show ... decimals with a dot"' },
  'format.get.decimal-comma': { bad: (v) => (v as string).includes('.'), decimals: true, shown: 'with a dot', expected: "a comma decimal such as '12,50'", quote: '"with a few decimals written with a comma (order item unitprice, shipping method handlingfee and fixedamount)"' },
};

for (const def of catalogue().filter((c) => c.rule in GET_FORMS)) {
  const r = resource(def.resource);
  const leaf = getLeaves(r).find((l) => l.subject === def.subject);
  const form = GET_FORMS[def.rule]!;
  if (!leaf) throw new Error(`${def.id}: no such leaf in the ${r.name} model`);
  check(def, async (ctx) => {
    await ctx.item('get', async (it) => {
      const { page, values } = await getValues(it, r, leaf);
      const shown = form.decimals ? values.filter((x) => typeof x.value === 'string' && HAS_DECIMALS.test(x.value)) : values;
      if (shown.length === 0) it.notJudged(`no ${leaf.subject} value in ${page.what} has decimals (${values.length} value(s), none showing a separator)`);
      const bad = shown.filter((x) => form.bad(x.value)).map((x) => `${x.path} is ${describeValue(x.value)}`);
      if (bad.length) {
        it.fail({
          message: `${r.name} get shows ${leaf.subject} ${form.shown} in ${bad.length} of ${shown.length} value(s)${form.decimals ? ' with decimals' : ''}: ${list(bad)}`,
          why: form.quote,
          expected: form.expected, actual: bad.slice(0, 50), evidence: [page.exchange],
        });
      }
    });
  });
}

// ---------------------------------------------------------------- write checks

type WriteOp = 'create' | 'update';
const answersOf = (w: Written, op: WriteOp) => writeAnswers(w).filter((a) => a.label.startsWith(op));
const evidenceOf = (w: Written, op: WriteOp) => (op === 'create' ? w.createExchanges : [w.updateExchange]);

/** The write-form judgement of one field: which answers are wrong, and how to say it. */
const WRITE_FORMS: Partial<Record<RuleId, { bad: (v: unknown, f: FieldModel) => boolean; shown: (f: FieldModel) => string; expected: (f: FieldModel) => string; why: (f: FieldModel) => string }>> = {
  'format.write.boolean': {
    bad: (v) => v !== '1' && v !== '0',
    shown: (f) => `show ${f.name} as something other than '1'/'0'`,
    expected: () => "'1' or '0'",
    why: () => `"Create and update responses show booleans as '1' or '0'"`,
  },
  'format.write.decimal-comma': {
    // every value sent has a non-zero fractional part: the answer must show it, after a comma
    bad: (v) => typeof v !== 'string' || v.includes('.') || !/,[0-9]/.test(v),
    shown: (f) => `do not show ${f.name} with a decimal comma`,
    expected: () => "a comma decimal such as '12,35' (every value sent had decimals)",
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
        const bad = answers.filter((a) => form.bad(a.rec?.[f.name], f))
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
  const lost: string[] = [];
  w.created.forEach((rec, i) => {
    // record 0 was updated afterwards: it tells about the update; the others about the create
    if ((i === 0) !== (op === 'update')) return;
    const sent = i === 0 ? w.change[prop.name] : w.sent[i][prop.name];
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
