/**
 * Near-miss keys (§5.1: the key is the String in authentication.apiKey): the
 * configured key almost right — its letter case swapped, cut short by one,
 * extended by one, after or followed by a space, one character changed at its
 * start, its middle or its end (src/values/near-miss.ts) — is not the key, on
 * any operation. What lets one through is a comparison that is not exact on
 * one endpoint: a case-insensitive collation, a trim, a prefix or length-bound
 * compare. Each near-miss key is sent once per operation:
 *   <r>.auth.near-miss-no-records   get and count (store: get): refused, no records
 *   <r>.auth.near-miss-no-change    writable resources: a create, an update and a delete
 *                                   with each near-miss key change nothing (read back,
 *                                   all cases in two reads)
 * Refused is judged as for a wrong key (auth.check.ts): no records, no change —
 * and, where this target refuses a wrong key with a status that is not a 2xx
 * (observation auth.invalidKeyStatus), no 2xx either: an empty resource or a
 * delete's {success} must not hide an accepted key. A case the key's own form
 * does not have (no letter with a case, one character) is not judged, with
 * the reason. Near-miss keys are secrets like the key: every output shows
 * them as $STORE_API_KEY[<case>] (src/client/redact.ts).
 */
import {
  check, checkOf, carriesData, maxLengthOf, nearMissKeys, nearMissShown, resources, NEAR_MISS, TargetError,
  type CallResult, type CheckContext, type Exchange, type NearMissCase, type NearMissKey, type Rec, type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import { batchArb } from '../generators/index.js';
import { OPS, lower, readOne, show, status, uniqueKeyOf, updatePropOf, what } from './support/keys.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = { rules: ['auth.near-miss-no-records', 'auth.near-miss-no-change'] };

const LIST = resources().filter((r) => !r.single && r.operations.includes('get'));
const STORE = resources().find((r) => r.single)!;
const WRITABLE = LIST.filter((r) => r.writable && r.payload.length > 0);
const WRITES = ['create', 'update', 'delete'] as const;

type Live = { case: NearMissCase; key: string };
const isLive = (k: NearMissKey): k is Live => 'key' in k;

/** How a near-miss key is named in messages (never the key: what it is made of, and how the evidence shows it). */
const named = (c: NearMissCase) => `${NEAR_MISS[c].says} (shown as ${nearMissShown(c)})`;

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
// reads: every list resource's get and count, the store's get — one request per case
// ---------------------------------------------------------------------------

for (const r of LIST) {
  check(checkOf('auth.near-miss-no-records', r.name), async (ctx) => {
    const keys = nearMissKeys(ctx.config.apiKey);
    await Promise.all(OPS.flatMap((op) => keys.map((k) => ctx.item(`${op}.${k.case}`, async (it) => {
      if (!isLive(k)) return it.notJudged(k.notJudged);
      judgeRead(it, what(r, op), k.case, await readOne(it, r, op, { kind: 'other', key: k.key }));
    }))));
  });
}

check(checkOf('auth.near-miss-no-records', STORE.name), async (ctx) => {
  const keys = nearMissKeys(ctx.config.apiKey);
  await Promise.all(keys.map((k) => ctx.item(`get.${k.case}`, async (it) => {
    if (!isLive(k)) return it.notJudged(k.notJudged);
    judgeRead(it, `store get ${STORE.prefix}/get`, k.case, (await it.client.store({ key: { kind: 'other', key: k.key } })).exchange);
  })));
});

// ---------------------------------------------------------------------------
// writes: a create, an update and a delete per case; what changed is read back together
// ---------------------------------------------------------------------------

/** One case's write attempts: the payload its create sends, the records its update and its delete aim at. */
interface Attempt {
  k: Live;
  payload: Rec;
  target: Rec;
  doomed: Rec;
  value: string;
  created?: CallResult<Rec[]>;
  updated?: CallResult<Rec[]>;
  deleted?: CallResult<Rec>;
}

/** What the attempts left: the records created under their payloads' unique values (owned and deleted at once), the records they aimed at as they are now. */
interface Aftermath {
  appeared: Rec[];
  found: Exchange;
  now: Rec[];
  after: Exchange;
}

async function attempt(ctx: CheckContext, r: ResourceModel, a: Attempt, prop: string): Promise<void> {
  const key = { kind: 'other', key: a.k.key } as const;
  [a.created, a.updated, a.deleted] = await Promise.all([
    ctx.client.create(r, [a.payload], { key }),
    ctx.client.update(r, [{ id: String(a.target.id), [prop]: a.value }], { key }),
    ctx.client.delete(r, [String(a.doomed.id)], { key }),
  ]);
}

async function readBack(ctx: CheckContext, r: ResourceModel, attempts: Attempt[], uk: string): Promise<Aftermath> {
  const sought = attempts.map((a) => String(a.payload[uk]));
  const ids = attempts.flatMap((a) => [String(a.target.id), String(a.doomed.id)]);
  const [found, after] = await Promise.all([ctx.client.get(r, { filters: { [uk]: sought }, pagination: { pageSize: sought.length } }), ctx.client.byIds(r, ids)]);
  const appeared = ctx.ok(found, `get of ${r.prefix} by ${uk}`).filter((x) => sought.includes(String(x[uk])));
  if (appeared.length) {
    // records a near-miss create stored are the run's: owned, and deleted at once
    const made = appeared.map((x) => String(x.id));
    ctx.client.ledger?.recordCreated(r.name, made);
    await ctx.client.delete(r, made);
  }
  return { appeared, found: found.exchange, now: ctx.ok(after, `get of ${r.prefix} by id`), after: after.exchange };
}

/** One case's three items, from what its attempts answered and what the read-back shows. */
async function judgeWrites(ctx: CheckContext, r: ResourceModel, a: Attempt, m: Aftermath, uk: string, prop: string): Promise<void> {
  const why = `${ctx.rule.section}: a write with a key that is not the key is refused and changes nothing`;
  const expected = 'refused, and nothing changed (read back)';
  const c = a.k.case;
  await ctx.item(`create.${c}`, (it) => {
    const stored = m.appeared.filter((x) => x[uk] === a.payload[uk]);
    const took = takenBy(it, a.created!.exchange);
    if (!stored.length && !took) return;
    it.fail({
      message: `a create of ${r.title} with ${named(c)} ${[took ? `was accepted (${took})` : '', stored.length ? `stored a record (${uk} ${show(a.payload[uk])})` : ''].filter(Boolean).join(' and ')}`,
      why, expected, actual: { answered: status(a.created!.exchange), stored: stored.map((x) => x.id) }, evidence: [a.created!.exchange, m.found],
    });
  });
  await ctx.item(`update.${c}`, (it) => {
    const rec = m.now.find((x) => lower(x.id) === lower(a.target.id));
    const took = takenBy(it, a.updated!.exchange);
    const changed = !rec ? 'the record is gone' : String(rec[prop]) !== String(a.target[prop]) ? `${prop} changed from ${show(a.target[prop])} to ${show(rec[prop])}` : '';
    if (!changed && !took) return;
    it.fail({
      message: `an update of ${r.title} ${a.target.id} with ${named(c)} ${[took ? `was accepted (${took})` : '', changed].filter(Boolean).join(' and ')}`,
      why, expected, actual: { answered: status(a.updated!.exchange), [prop]: rec?.[prop] ?? '(gone)' }, evidence: [a.updated!.exchange, m.after],
    });
  });
  await ctx.item(`delete.${c}`, (it) => {
    const gone = !m.now.some((x) => lower(x.id) === lower(a.doomed.id));
    const took = takenBy(it, a.deleted!.exchange);
    if (!gone && !took) return;
    it.fail({
      message: `a delete of ${r.title} ${a.doomed.id} with ${named(c)} ${[took ? `was accepted (${took})` : '', gone ? 'removed the record' : ''].filter(Boolean).join(' and ')}`,
      why, expected, actual: { answered: status(a.deleted!.exchange), record: gone ? 'gone' : 'still there' }, evidence: [a.deleted!.exchange, m.after],
    });
  });
}

for (const r of WRITABLE) {
  check(checkOf('auth.near-miss-no-change', r.name), async (ctx) => {
    const keys = nearMissKeys(ctx.config.apiKey);
    for (const k of keys) if (!isLive(k)) for (const op of WRITES) await ctx.item(`${op}.${k.case}`, (it) => it.notJudged(k.notJudged));
    const live = keys.filter(isLive);
    if (!live.length) return;
    const uk = uniqueKeyOf(r);
    const prop = updatePropOf(r, uk ?? '');
    if (!uk || !prop) return ctx.notJudged(`${r.title} has no unique, filterable String property to look created records up by, or none to update`);
    const n = live.length;
    const payloads = ctx.sample(batchArb(r.name, { tag: ctx.config.runTag }, { minLength: 3 * n, maxLength: 3 * n }), 'payloads');
    // two records per case, created in one request: one its update tries to change, one its delete tries to remove
    const made = await ctx.scope.create(r, payloads.slice(0, 2 * n));
    const maxLen = maxLengthOf(r.payload.find((p) => p.name === prop)!);
    const attempts: Attempt[] = live.map((k, i) => ({ k, payload: payloads[2 * n + i], target: made[i], doomed: made[n + i], value: `${ctx.config.runTag}-nm${i}`.slice(0, maxLen) }));
    await Promise.all(attempts.map((a) => attempt(ctx, r, a, prop)));
    const aftermath = await readBack(ctx, r, attempts, uk);
    for (const a of attempts) await judgeWrites(ctx, r, a, aftermath, uk, prop);
  });
}
