/**
 * Near-miss keys (§5.1: the key is the String in authentication.apiKey): the
 * configured key almost right — its letter case swapped, cut short by one,
 * extended by one, after or followed by a space, one character changed at its
 * start, its middle or its end (src/values/near-miss.ts) — is not the key, on
 * any operation. What lets one through is a comparison that is not exact on
 * one endpoint: a case-insensitive collation, a trim, a prefix or length-bound
 * compare. One item per resource and operation, judged with near-miss keys:
 *   <r>.auth.near-miss-no-records #get #count (store: #get)  refused, no records
 *   <r>.auth.near-miss-no-change  #create #update #delete     writable resources: each
 *                                   near-miss write changes nothing (read back, in two reads)
 * Every key costs a request per resource and operation, so which cases a
 * resource sends on an operation is planned per run (nearMissPlan): every
 * resource sends at least one (its share by depth) on every operation, every
 * case is sent on every operation by some resource, and the seed moves the
 * cases between resources from run to run; --depth deep sends every case on
 * every resource. The cases are the item's classes (report.json
 * items[].classes: key.<case>), those sent elsewhere in this run said so.
 * Refused is judged as for a wrong key (auth.check.ts): no records, no change —
 * and, where this target refuses a wrong key with a status that is not a 2xx
 * (observation auth.invalidKeyStatus), no 2xx either: an empty resource or a
 * delete's {success} must not hide an accepted key. A case the key's own form
 * does not have (no letter with a case, one character) is not judged, with
 * the reason. Near-miss keys are secrets like the key: every output shows
 * them as $STORE_API_KEY[<case>] (src/client/redact.ts).
 */
import {
  check, checkOf, carriesData, maxLengthOf, nearMissKeys, nearMissPlan, nearMissShown, resources, NEAR_MISS, TargetError,
  type CallResult, type CheckContext, type Exchange, type ItemContext, type NearMissCase, type NearMissKey, type Rec, type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import { batchArb } from '../generators/index.js';
import { OPS, lower, readOne, show, status, uniqueKeyOf, updatePropOf, what } from './support/keys.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = { rules: ['auth.near-miss-no-records', 'auth.near-miss-no-change'] };

const LIST = resources().filter((r) => !r.single && r.operations.includes('get'));
const STORE = resources().find((r) => r.single)!;
const WRITABLE = LIST.filter((r) => r.writable && r.payload.length > 0);
const WRITES = ['create', 'update', 'delete'] as const;
type Write = (typeof WRITES)[number];

type Live = { case: NearMissCase; key: string };
const isLive = (k: NearMissKey): k is Live => 'key' in k;

/** The resources that send near-miss keys on each operation: the cases are planned across them. */
const PLACES: Readonly<Record<string, readonly string[]>> = {
  get: [...LIST.map((r) => r.name), STORE.name],
  count: LIST.map((r) => r.name),
  ...Object.fromEntries(WRITES.map((op) => [op, WRITABLE.map((r) => r.name)])),
};

/** How a near-miss key is named in messages (never the key: what it is made of, and how the evidence shows it). */
const named = (c: NearMissCase) => `${NEAR_MISS[c].says} (shown as ${nearMissShown(c)})`;

/** A near-miss case as a class of the key's values (report.json items[].classes). */
const classOf = (c: NearMissCase) => `key.${c}`;

/** What one resource sends on one operation: its near-miss keys, and the cases it does not send with why. */
interface Plan {
  sent: Live[];
  notJudged: Array<{ class: string; reason: string }>;
}

/**
 * The near-miss keys `r` sends on `op` in this run (nearMissPlan over the
 * cases the key's form has), and the item's classes: the cases sent, the
 * others with why (the key's form lacks them, or other resources send them).
 */
function planFor(ctx: CheckContext, r: ResourceModel, op: string): Plan {
  const keys = nearMissKeys(ctx.config.apiKey);
  const live = keys.filter(isLive);
  const places = PLACES[op];
  const plan = nearMissPlan(live.map((k) => k.case), places, ctx.depth.nearMissPerPlace, ctx.config.seed, op);
  const mine = new Set(plan.get(r.name) ?? []);
  const elsewhere = (c: NearMissCase) => places.filter((p) => p !== r.name && plan.get(p)?.includes(c));
  const notJudged = [
    ...keys.flatMap((k) => (isLive(k) ? [] : [{ class: classOf(k.case), reason: k.notJudged }])),
    ...live.filter((k) => !mine.has(k.case)).map((k) => ({
      class: classOf(k.case),
      reason: `sent on ${op} by ${elsewhere(k.case).join(', ')} in this run: at ${ctx.config.depth} depth ${r.name} sends ${mine.size} of the ${live.length} near-miss keys on ${op}, every key being sent by some resource and the seed moving them (--depth deep sends every one everywhere)`,
    })),
  ];
  return { sent: live.filter((k) => mine.has(k.case)), notJudged };
}

/** The item's classes recorded; without a near-miss key to send, the item is not judged. */
function recordPlan(it: ItemContext, p: Plan): void {
  it.classes(p.sent.map((k) => classOf(k.case)), p.notJudged);
  if (!p.sent.length) it.notJudged(p.notJudged.map((n) => n.reason).find((x) => !x.startsWith('sent on')) ?? 'no near-miss key of this key is sent here');
}

/**
 * What shows that the target took a near-miss key: a 2xx carrying records, a
 * count above 0 or the store object; or any 2xx where this target refuses a
 * wrong key otherwise (observation auth.invalidKeyStatus). Undefined: refused.
 */
function takenBy(ctx: CheckContext, ex: Exchange): string | undefined {
  const code = ex.response?.status;
  if (code === undefined || code < 200 || code > 299) return undefined;
  const data = ex.json === undefined ? undefined : carriesData(ex.json);
  if (data) return `HTTP ${code} with ${data}`;
  const wrong = ctx.observed('auth.invalidKeyStatus');
  if (wrong !== null && (wrong < 200 || wrong > 299)) return `HTTP ${code} where a wrong key gets HTTP ${wrong} (observation auth.invalidKeyStatus)`;
  return undefined;
}

/** A read with a near-miss key: refused, or the item fails. No answer or a 5xx is a target error (nothing to judge). */
function judgeRead(it: CheckContext, asked: string, c: NearMissCase, ex: Exchange): void {
  if (ex.transportError || ex.response!.status >= 500) throw new TargetError(`${asked}: ${status(ex)}`, [ex]);
  const took = takenBy(it, ex);
  if (!took) return;
  it.fail({
    message: `${asked} with ${named(c)} was accepted: answered ${took}`,
    why: `${it.rule.section}: the key is the String in authentication.apiKey; a key that differs from it in any way is refused, as a wrong key is`,
    expected: 'refused: an error, or no records (what a wrong key gets)',
    actual: took,
    evidence: [ex],
  });
}

// ---------------------------------------------------------------------------
// reads: every list resource's get and count, the store's get — one request per planned key
// ---------------------------------------------------------------------------

/** One read item: each planned near-miss key sent (side by side), then judged. */
async function judgeReads(it: ItemContext, p: Plan, send: (k: Live) => Promise<Exchange>, asked: string): Promise<void> {
  recordPlan(it, p);
  const answers = await Promise.all(p.sent.map(async (k) => [k, await send(k)] as const));
  for (const [k, ex] of answers) judgeRead(it, asked, k.case, ex);
}

for (const r of LIST) {
  check(checkOf('auth.near-miss-no-records', r.name), async (ctx) => {
    await Promise.all(OPS.map((op) => ctx.item(op, (it) =>
      judgeReads(it, planFor(it, r, op), (k) => readOne(it, r, op, { kind: 'other', key: k.key }), what(r, op)))));
  });
}

check(checkOf('auth.near-miss-no-records', STORE.name), async (ctx) => {
  await ctx.item('get', (it) =>
    judgeReads(it, planFor(it, STORE, 'get'), async (k) => (await it.client.store({ key: { kind: 'other', key: k.key } })).exchange, `store get ${STORE.prefix}/get`));
});

// ---------------------------------------------------------------------------
// writes: the planned creates, updates and deletes side by side; what changed is read back together
// ---------------------------------------------------------------------------

/** The planned write attempts of one resource: what each create sends, the record each update and delete aims at, and their answers. */
interface Attempts {
  creates: Array<{ k: Live; payload: Rec; res?: CallResult<Rec[]> }>;
  updates: Array<{ k: Live; target: Rec; value: string; res?: CallResult<Rec[]> }>;
  deletes: Array<{ k: Live; doomed: Rec; res?: CallResult<Rec> }>;
}

/** What the attempts left: the records created under their payloads' unique values (owned and deleted at once), the records they aimed at as they are now. */
interface Aftermath {
  appeared: Rec[];
  found?: Exchange;
  now: Rec[];
  after?: Exchange;
}

const keyOf = (k: Live) => ({ kind: 'other', key: k.key }) as const;

async function attempt(ctx: CheckContext, r: ResourceModel, a: Attempts, prop: string): Promise<void> {
  await Promise.all([
    ...a.creates.map(async (x) => { x.res = await ctx.client.create(r, [x.payload], { key: keyOf(x.k) }); }),
    ...a.updates.map(async (x) => { x.res = await ctx.client.update(r, [{ id: String(x.target.id), [prop]: x.value }], { key: keyOf(x.k) }); }),
    ...a.deletes.map(async (x) => { x.res = await ctx.client.delete(r, [String(x.doomed.id)], { key: keyOf(x.k) }); }),
  ]);
}

async function readBack(ctx: CheckContext, r: ResourceModel, a: Attempts, uk: string): Promise<Aftermath> {
  const sought = a.creates.map((x) => String(x.payload[uk]));
  const ids = [...a.updates.map((x) => String(x.target.id)), ...a.deletes.map((x) => String(x.doomed.id))];
  const [found, after] = await Promise.all([
    sought.length ? ctx.client.get(r, { filters: { [uk]: sought }, pagination: { pageSize: sought.length } }) : undefined,
    ids.length ? ctx.client.byIds(r, ids) : undefined,
  ]);
  const appeared = found ? ctx.ok(found, `get of ${r.prefix} by ${uk}`).filter((x) => sought.includes(String(x[uk]))) : [];
  if (appeared.length) {
    // records a near-miss create stored are the run's: owned, and deleted at once
    const made = appeared.map((x) => String(x.id));
    ctx.client.ledger?.recordCreated(r.name, made);
    await ctx.client.delete(r, made);
  }
  return { appeared, found: found?.exchange, now: after ? ctx.ok(after, `get of ${r.prefix} by id`) : [], after: after?.exchange };
}

const WHY = (ctx: CheckContext) => `${ctx.rule.section}: a write with a key that is not the key is refused and changes nothing`;
const EXPECTED = 'refused, and nothing changed (read back)';
const evidenceOf = (...xs: Array<Exchange | undefined>) => xs.filter((x): x is Exchange => x !== undefined);

/** The create item: no near-miss create was accepted or stored a record. */
function judgeCreates(it: ItemContext, r: ResourceModel, a: Attempts, m: Aftermath, uk: string): void {
  for (const x of a.creates) {
    const stored = m.appeared.filter((y) => y[uk] === x.payload[uk]);
    const took = takenBy(it, x.res!.exchange);
    if (!stored.length && !took) continue;
    it.fail({
      message: `a create of ${r.title} with ${named(x.k.case)} ${[took ? `was accepted (${took})` : '', stored.length ? `stored a record (${uk} ${show(x.payload[uk])})` : ''].filter(Boolean).join(' and ')}`,
      why: WHY(it), expected: EXPECTED, actual: { answered: status(x.res!.exchange), stored: stored.map((y) => y.id) }, evidence: evidenceOf(x.res!.exchange, m.found),
    });
  }
}

/** The update item: no near-miss update was accepted or changed its record. */
function judgeUpdates(it: ItemContext, r: ResourceModel, a: Attempts, m: Aftermath, prop: string): void {
  for (const x of a.updates) {
    const rec = m.now.find((y) => lower(y.id) === lower(x.target.id));
    const took = takenBy(it, x.res!.exchange);
    const changed = !rec ? 'the record is gone' : String(rec[prop]) !== String(x.target[prop]) ? `${prop} changed from ${show(x.target[prop])} to ${show(rec[prop])}` : '';
    if (!changed && !took) continue;
    it.fail({
      message: `an update of ${r.title} ${x.target.id} with ${named(x.k.case)} ${[took ? `was accepted (${took})` : '', changed].filter(Boolean).join(' and ')}`,
      why: WHY(it), expected: EXPECTED, actual: { answered: status(x.res!.exchange), [prop]: rec?.[prop] ?? '(gone)' }, evidence: evidenceOf(x.res!.exchange, m.after),
    });
  }
}

/** The delete item: no near-miss delete was accepted or removed its record. */
function judgeDeletes(it: ItemContext, r: ResourceModel, a: Attempts, m: Aftermath): void {
  for (const x of a.deletes) {
    const gone = !m.now.some((y) => lower(y.id) === lower(x.doomed.id));
    const took = takenBy(it, x.res!.exchange);
    if (!gone && !took) continue;
    it.fail({
      message: `a delete of ${r.title} ${x.doomed.id} with ${named(x.k.case)} ${[took ? `was accepted (${took})` : '', gone ? 'removed the record' : ''].filter(Boolean).join(' and ')}`,
      why: WHY(it), expected: EXPECTED, actual: { answered: status(x.res!.exchange), record: gone ? 'gone' : 'still there' }, evidence: evidenceOf(x.res!.exchange, m.after),
    });
  }
}

/** The attempts of the planned keys: one record created (in one request) per update and per delete to aim at, one payload per create. */
async function prepare(ctx: CheckContext, r: ResourceModel, plans: Record<Write, Plan>, prop: string): Promise<Attempts> {
  const [c, u, d] = [plans.create.sent, plans.update.sent, plans.delete.sent];
  const n = c.length + u.length + d.length;
  const payloads = ctx.sample(batchArb(r.name, { tag: ctx.config.runTag }, { minLength: n, maxLength: n }), 'payloads');
  const made = u.length + d.length ? await ctx.scope.create(r, payloads.slice(0, u.length + d.length)) : [];
  const maxLen = maxLengthOf(r.payload.find((p) => p.name === prop)!);
  return {
    updates: u.map((k, i) => ({ k, target: made[i], value: `${ctx.config.runTag}-nm${i}`.slice(0, maxLen) })),
    deletes: d.map((k, i) => ({ k, doomed: made[u.length + i] })),
    creates: c.map((k, i) => ({ k, payload: payloads[u.length + d.length + i] })),
  };
}

for (const r of WRITABLE) {
  check(checkOf('auth.near-miss-no-change', r.name), async (ctx) => {
    const plans = Object.fromEntries(WRITES.map((op) => [op, planFor(ctx, r, op)])) as Record<Write, Plan>;
    if (WRITES.every((op) => !plans[op].sent.length)) {
      for (const op of WRITES) await ctx.item(op, (it) => recordPlan(it, plans[op]));
      return;
    }
    const uk = uniqueKeyOf(r);
    const prop = updatePropOf(r, uk ?? '');
    if (!uk || !prop) return ctx.notJudged(`${r.title} has no unique, filterable String property to look created records up by, or none to update`);
    const a = await prepare(ctx, r, plans, prop);
    await attempt(ctx, r, a, prop);
    const m = await readBack(ctx, r, a, uk);
    await ctx.item('create', (it) => { recordPlan(it, plans.create); judgeCreates(it, r, a, m, uk); });
    await ctx.item('update', (it) => { recordPlan(it, plans.update); judgeUpdates(it, r, a, m, prop); });
    await ctx.item('delete', (it) => { recordPlan(it, plans.delete); judgeDeletes(it, r, a, m); });
  });
}
