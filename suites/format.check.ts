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
  check, fixture, mixSeed, requireOk, runtime, CheckFailure,
  type CheckContext, type Fixture, type Scope,
} from '../src/check/index.js';
import type { Rec } from '../src/client/api.js';
import type { Exchange } from '../src/client/http.js';
import { resources, type DecimalLimit, type FieldModel, type PayloadPropModel, type ResourceModel } from '../src/schema/model.js';
import { scaledToDecimal } from '../src/values/normalize.js';
import { describeValue, sameStoredValue } from '../src/values/same.js';
import { batchArb, updateArb, type Payload } from '../generators/index.js';
import { readFirstPage, type Page } from './support/first-page.js';

const SECTION = '§4 Formatting differs by operation';
const LIST_MAX = 12;

// ---------------------------------------------------------------- helpers

function list(items: string[]): string {
  const shown = items.slice(0, LIST_MAX).join('; ');
  return items.length > LIST_MAX ? `${shown}; … (${items.length - LIST_MAX} more)` : shown;
}

const at = (base: string, name: string) => (base ? `${base}.${name}` : name);

/** A scalar field of a record at any depth: `subject` is its dotted path without indexes (items.unitprice). */
interface Leaf { subject: string; field: FieldModel; trail: FieldModel[] }

function leaves(fields: FieldModel[], prefix = '', trail: FieldModel[] = []): Leaf[] {
  return fields.flatMap((f) => {
    const t = [...trail, f];
    if (f.kind === 'array' && f.itemFields) return leaves(f.itemFields, at(prefix, f.name), t);
    if (f.kind === 'object' && f.objectFields) return leaves(f.objectFields, at(prefix, f.name), t);
    if (f.kind === 'array' || f.kind === 'object' || f.kind === 'any') return [];
    return [{ subject: at(prefix, f.name), field: f, trail: t }];
  });
}

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
  resources().filter((r) => getLeaves(r).length > 0).map((r) => [r.name, fixture(async () => readFirstPage(r))]),
);

/** The values of one leaf in the resource's page; skip when none is there to judge. */
async function getValues(ctx: CheckContext, r: ResourceModel, leaf: Leaf): Promise<{ page: Page; values: Array<{ path: string; value: unknown }> }> {
  const page = await pages.get(r.name)!.get();
  if (page.records.length === 0) ctx.skip(`${r.name} get returned no records: nothing to judge`);
  const values = page.records.flatMap((rec, i) => valuesAt(rec, leaf.trail, recordPath(r, i)));
  if (values.length === 0) ctx.skip(`no ${leaf.subject} value in ${page.what}: nothing to judge`);
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
    if (p.kind === 'decimal' && p.decimal && p.decimal.scale > 0) model[p.name] = fractionalDecimalArb(p.decimal);
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

async function writeFixture(r: ResourceModel, scope: Scope): Promise<Written> {
  const rt = runtime();
  const pctx = { tag: rt.config.runTag };
  const seed = mixSeed(rt.config.seed, `${r.name}.format.write-fixture`);
  const n = Math.max(2, rt.depth.batch);
  const [base] = fc.sample(batchArb(r.name, pctx, { minLength: n, maxLength: n }), { seed, numRuns: 1 });
  const [upd] = fc.sample(updateArb(r.name, pctx, { mode: 'full' }), { seed: seed + 1, numRuns: 1 });
  const over = fc.sample(overridesArb(r), { seed: seed + 2, numRuns: n + 1 });
  const sent = (base as Payload[]).map((p, i) => ({ ...p, ...over[i], ...booleans(r, i) }));

  const seen: Exchange[] = [];
  const listen = (ex: Exchange) => seen.push(ex);
  rt.client.http.listeners.add(listen);
  let created: Rec[];
  try {
    created = await scope.create(r, sent);
  } finally {
    rt.client.http.listeners.delete(listen);
  }
  const createExchanges = seen.filter((ex) => ex.request.path.endsWith('/create'));
  const ids = created.map((x) => x?.id);
  if (!ids.every((id): id is string => typeof id === 'string')) {
    throw new CheckFailure({ message: `${r.name} create returned records without a string id (§4 Responses)`, evidence: createExchanges });
  }
  // the update flips every boolean of the first record and sends new decimals and sizes
  const change: Payload = { ...(upd as Payload), ...over[n], ...booleans(r, 1) };
  const up = await rt.client.update(r, [{ ...change, id: ids[0] }]);
  const updated = requireOk(up, `${r.name} update of one record the run created`);
  const got = await rt.client.get(r, { filters: { id: ids } });
  const after = requireOk(got, `${r.name} get by id of the records just created`);
  return { sent, created, createExchanges, change, updated, updateExchange: up.exchange, after, afterExchange: got.exchange };
}

const writes = new Map<string, Fixture<Written>>(
  resources().filter((r) => r.writable && writeLeaves(r).length > 0).map((r) => [r.name, fixture((scope) => writeFixture(r, scope))]),
);

/** Create and update answers, each record with what was sent for it. */
function writeAnswers(w: Written): Array<{ label: string; rec: Rec; sent: Payload }> {
  return [
    ...w.created.map((rec, i) => ({ label: `create [${i}]`, rec, sent: w.sent[i] })),
    ...w.updated.map((rec, i) => ({ label: `update [${i}]`, rec, sent: w.change })),
  ];
}

const writeEvidence = (w: Written) => [...w.createExchanges, w.updateExchange];

// ---------------------------------------------------------------- get checks

for (const r of resources()) {
  for (const leaf of getLeaves(r)) {
    const f = leaf.field;
    if (f.kind === 'boolean') {
      check({ rule: 'format.get.boolean', resource: r.name, subject: leaf.subject }, async (ctx) => {
        const { page, values } = await getValues(ctx, r, leaf);
        const bad = values.filter((x) => x.value !== 'true' && x.value !== 'false').map((x) => `${x.path} is ${describeValue(x.value)}`);
        if (bad.length) {
          ctx.fail({
            message: `${r.name} get shows ${leaf.subject} as something other than 'true'/'false' in ${bad.length} of ${values.length} value(s): ${list(bad)} (${SECTION}: "Get responses show booleans as 'true' or 'false'")`,
            expected: "'true' or 'false'", actual: bad.slice(0, 50), evidence: [page.exchange],
          });
        }
      });
    } else if (f.separator === '.') {
      check({ rule: 'format.get.decimal-dot', resource: r.name, subject: leaf.subject }, async (ctx) => {
        const { page, values } = await getValues(ctx, r, leaf);
        const shown = values.filter((x) => typeof x.value === 'string' && HAS_DECIMALS.test(x.value));
        if (shown.length === 0) ctx.skip(`no ${leaf.subject} value in ${page.what} has decimals (${values.length} value(s), none showing a separator): nothing to judge`);
        const bad = shown.filter((x) => (x.value as string).includes(',')).map((x) => `${x.path} is ${describeValue(x.value)}`);
        if (bad.length) {
          ctx.fail({
            message: `${r.name} get shows ${leaf.subject} with a comma in ${bad.length} of ${shown.length} value(s) with decimals: ${list(bad)} (${SECTION}: "Get responses show ... decimals with a dot")`,
            expected: "a dot decimal such as '12.50'", actual: bad.slice(0, 50), evidence: [page.exchange],
          });
        }
      });
    } else if (f.separator === ',') {
      check({ rule: 'format.get.decimal-comma', resource: r.name, subject: leaf.subject }, async (ctx) => {
        const { page, values } = await getValues(ctx, r, leaf);
        const shown = values.filter((x) => typeof x.value === 'string' && HAS_DECIMALS.test(x.value));
        if (shown.length === 0) ctx.skip(`no ${leaf.subject} value in ${page.what} has decimals (${values.length} value(s), none showing a separator): nothing to judge`);
        const bad = shown.filter((x) => (x.value as string).includes('.')).map((x) => `${x.path} is ${describeValue(x.value)}`);
        if (bad.length) {
          ctx.fail({
            message: `${r.name} get shows ${leaf.subject} with a dot in ${bad.length} of ${shown.length} value(s) with decimals: ${list(bad)} (${SECTION}: "with a few decimals written with a comma (order item unitprice, shipping method handlingfee and fixedamount)")`,
            expected: "a comma decimal such as '12,50'", actual: bad.slice(0, 50), evidence: [page.exchange],
          });
        }
      });
    }
  }
}

// ---------------------------------------------------------------- write checks

for (const r of resources()) {
  if (!writes.has(r.name)) continue;
  for (const f of writeLeaves(r)) {
    const spec = { resource: r.name, subject: f.name, writes: true } as const;
    if (f.quirk) {
      const quirk = f.quirk;
      check({ ...spec, rule: 'format.write.product-size-zero' }, async (ctx) => {
        const w = await writes.get(r.name)!.get();
        const prop = propFor(r, f);
        const answers = writeAnswers(w);
        const bad = answers.filter((a) => a.rec?.[f.name] !== quirk.const)
          .map((a) => `${a.label}.${f.name} is ${describeValue(a.rec?.[f.name])} (sent ${describeValue(prop ? a.sent[prop.name] : undefined)})`);
        if (bad.length) {
          ctx.fail({
            message: `${r.name} create/update returned ${f.name} other than ${describeValue(quirk.const)} in ${bad.length} of ${answers.length} record(s): ${list(bad)} (${quirk.note})`,
            expected: `${f.name} ${describeValue(quirk.const)} in every create and update answer`, actual: bad, evidence: writeEvidence(w),
          });
        }
        if (!prop) return;
        // the quirk is in the answer only: the value sent was stored, and get shows it
        const byId = new Map(w.after.map((x) => [String(x?.id).toLowerCase(), x]));
        const lost: string[] = [];
        w.created.forEach((rec, i) => {
          const sent = i === 0 ? w.change[prop.name] : w.sent[i][prop.name];
          const got = byId.get(String(rec.id).toLowerCase());
          if (!got) lost.push(`${rec.id} is missing from the get by id`);
          else if (!sameStoredValue('integer', sent, got[f.name])) lost.push(`${rec.id}: get shows ${f.name} ${describeValue(got[f.name])}, ${i === 0 ? 'the update' : 'the create'} sent ${describeValue(sent)}`);
        });
        if (lost.length) {
          ctx.fail({
            message: `the ${f.name} sent is not what a following get shows: ${list(lost)} (${SECTION}: the '${quirk.const}' is a quirk of the create and update answers; the value sent is stored)`,
            expected: `get shows the ${f.name} sent`, actual: lost, evidence: [...writeEvidence(w), w.afterExchange],
          });
        }
      });
    } else if (f.kind === 'boolean') {
      check({ ...spec, rule: 'format.write.boolean' }, async (ctx) => {
        const w = await writes.get(r.name)!.get();
        const prop = propFor(r, f);
        const answers = writeAnswers(w);
        const bad = answers.filter((a) => a.rec?.[f.name] !== '1' && a.rec?.[f.name] !== '0')
          .map((a) => `${a.label}.${f.name} is ${describeValue(a.rec?.[f.name])} (sent ${describeValue(prop ? a.sent[prop.name] : undefined)})`);
        if (bad.length) {
          ctx.fail({
            message: `${r.name} create/update show ${f.name} as something other than '1'/'0' in ${bad.length} of ${answers.length} record(s): ${list(bad)} (${SECTION}: "Create and update responses show booleans as '1' or '0'")`,
            expected: "'1' or '0'", actual: bad, evidence: writeEvidence(w),
          });
        }
      });
    } else {
      check({ ...spec, rule: 'format.write.decimal-comma' }, async (ctx) => {
        const w = await writes.get(r.name)!.get();
        const prop = propFor(r, f);
        const answers = writeAnswers(w);
        const bad = answers.filter((a) => {
          const v = a.rec?.[f.name];
          // every value sent has a non-zero fractional part: the answer must show it, after a comma
          return typeof v !== 'string' || v.includes('.') || !/,[0-9]/.test(v);
        }).map((a) => `${a.label}.${f.name} is ${describeValue(a.rec?.[f.name])} (sent ${describeValue(prop ? a.sent[prop.name] : undefined)})`);
        if (bad.length) {
          ctx.fail({
            message: `${r.name} create/update do not show ${f.name} with a decimal comma in ${bad.length} of ${answers.length} record(s): ${list(bad)} (${SECTION}: "Create and update responses show ... several decimals with a comma (for example price, weight, discountamount, minimumpurchase)")`,
            expected: "a comma decimal such as '12,35' (every value sent had decimals)", actual: bad, evidence: writeEvidence(w),
          });
        }
      });
    }
  }
}
