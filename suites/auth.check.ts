/**
 * Authentication (§5): the key travels in the JSON body as
 * `authentication.apiKey` (§5.1); what a wrong or missing key gets is "not
 * shown" (§5.3), so the status is whatever the target chose (observed as
 * auth.invalidKeyStatus / auth.missingKeyStatus, judged for consistency by the
 * observe suite). What every target must do: serve no records and change
 * nothing without the key.
 *
 * "No records": an answer is judged by its body, not its status — a 2xx whose
 * body is a records array with records, a count above 0, or a store object is a
 * leak; an error of any status, an empty array, or {count: '0'} is not.
 *
 * Per resource (every list resource and the store):
 *   <r>.auth.key-in-body              get and count (store: get) with the configured key succeed
 *   <r>.auth.invalid-key-no-records   get and count with wrong keys (a property over keys)
 *   <r>.auth.missing-key-no-records   get and count with no authentication object and with {}
 *   <r>.auth.invalid-key-no-change    writable resources: create, update and delete with a
 *                                     wrong and with a missing key change nothing
 * A key in a header only is an observation (auth.headerKeyAccepted), not a failure:
 * the spec says where the key goes, not that a header must be refused. Keys that are
 * almost the key: auth-near-miss.check.ts.
 */
import fc from 'fast-check';
import {
  maxLengthOf,
  check, checkOf, countPath, resources, TargetError, WRONG_KEY, type CheckContext, type CallResult, type KeyChoice,
  type Rec, type Exchange, type ResourceModel, type SuiteDeclaration,
} from '../src/check/index.js';
import { batchArb } from '../generators/index.js';
import { OPS, leak, lower, readOne, sameAsOriginal, show, status, uniqueKeyOf, updatePropOf, what } from './support/keys.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = {
  rules: ['auth.key-in-body', 'auth.invalid-key-no-records', 'auth.missing-key-no-records', 'auth.invalid-key-no-change'],
};

const LIST = resources().filter((r) => !r.single && r.operations.includes('get'));
const STORE = resources().find((r) => r.single)!;
const WRITABLE = LIST.filter((r) => r.writable && r.payload.length > 0);

/** Wrong keys: a fixed one and generated ones (never the configured key, never a part of it). */
function wrongKeyArb(ctx: CheckContext): fc.Arbitrary<string> {
  return fc.oneof(fc.constant(WRONG_KEY), fc.stringMatching(/^[A-Za-z0-9_-]{16,48}$/)).filter((k) => k !== ctx.config.apiKey);
}

/**
 * A call with the configured key must be served: any 2xx (the shape of the answer is the other
 * suites' business); a 4xx is a failure of key-in-body, a 5xx or no answer a target error.
 */
function served(ctx: CheckContext, res: CallResult<unknown>, what: string): void {
  const ex = res.exchange;
  if (ex.transportError || (ex.response && ex.response.status >= 500)) throw new TargetError(`${what}: ${res.problem}`, [ex]);
  const code = ex.response!.status;
  if (code >= 200 && code <= 299) return;
  ctx.fail({
    message: `${what} with the configured key in authentication.apiKey was refused: ${res.problem} (${ctx.rule.section}: every request carries the key in the JSON body as authentication.apiKey)`,
    expected: '2xx: the key in the body is the key',
    actual: `HTTP ${code}`,
    evidence: [ex],
  });
}

function failLeaks(ctx: CheckContext, how: string, leaks: Array<{ what: string; leaked: string; ex: Exchange }>, rule: string): void {
  if (!leaks.length) return;
  ctx.fail({
    message: `${how}: ${leaks.map((l) => `${l.what} answered ${l.leaked}`).join('; ')} (${ctx.rule.section}: ${rule})`,
    expected: 'no records: an error, an empty array or a count of 0',
    actual: leaks.map((l) => `${l.what}: ${l.leaked}`),
    evidence: leaks.map((l) => l.ex),
  });
}

// ---------------------------------------------------------------------------
// list resources: key in the body, wrong key, missing key — get and count each an item
// ---------------------------------------------------------------------------

for (const r of LIST) {
  check(checkOf('auth.key-in-body', r.name), async (ctx) => {
    for (const op of OPS) {
      await ctx.item(op, async (it) => {
        served(it, op === 'get' ? await it.client.get(r) : await it.client.count(r, { path: countPath(r) }), what(r, op));
      });
    }
  });

  check(checkOf('auth.invalid-key-no-records', r.name), async (ctx) => {
    for (const op of OPS) {
      await ctx.item(op, (it) => it.property(wrongKeyArb(it), async (key) => {
        const ex = await readOne(it, r, op, { kind: 'other', key });
        const l = leak(ex);
        failLeaks(it, `with a wrong authentication.apiKey (${show(key)})`, l ? [{ what: what(r, op), leaked: l, ex }] : [], 'a wrong key returns no records');
      }));
    }
  });

  check(checkOf('auth.missing-key-no-records', r.name), async (ctx) => {
    for (const op of OPS) {
      await ctx.item(op, async (it) => {
        const none = await readOne(it, r, op, { kind: 'missing' });
        const empty = await readOne(it, r, op, { kind: 'missing' }, { authentication: {} });
        const leaks = [
          { what: `${what(r, op)} with no authentication object`, ex: none },
          { what: `${what(r, op)} with authentication: {} (no apiKey)`, ex: empty },
        ].map((x) => ({ ...x, leaked: leak(x.ex) })).filter((x): x is { what: string; ex: Exchange; leaked: string } => !!x.leaked);
        failLeaks(it, 'without a key', leaks, 'a missing key returns no records');
      });
    }
  });
}

// ---------------------------------------------------------------------------
// the store: one object with the key, nothing without
// ---------------------------------------------------------------------------

check(checkOf('auth.key-in-body', STORE.name), (c) => c.item('get', async (ctx) => {
  served(ctx, await ctx.client.store(), `store get ${STORE.prefix}/get`);
}));

check(checkOf('auth.invalid-key-no-records', STORE.name), (c) => c.item('get', (ctx) => ctx.property(wrongKeyArb(ctx), async (key) => {
  const res = await ctx.client.store({ key: { kind: 'other', key } });
  const l = leak(res.exchange);
  if (l) failLeaks(ctx, `with a wrong authentication.apiKey (${show(key)})`, [{ what: `store get ${STORE.prefix}/get`, leaked: l, ex: res.exchange }], 'a wrong key returns no records (the store record holds the apikey itself, §5.2)');
})));

check(checkOf('auth.missing-key-no-records', STORE.name), (c) => c.item('get', async (ctx) => {
  const none = await ctx.client.store({ key: { kind: 'missing' } });
  const empty = await ctx.client.raw(`${STORE.prefix}/get`, { authentication: {} });
  const leaks = [
    { what: `store get ${STORE.prefix}/get without authentication`, ex: none.exchange },
    { what: `store get ${STORE.prefix}/get with authentication: {}`, ex: empty },
  ].map((x) => ({ ...x, leaked: leak(x.ex) })).filter((x): x is { what: string; ex: Exchange; leaked: string } => !!x.leaked);
  failLeaks(ctx, 'without a key', leaks, 'a missing key returns no records (the store record holds the apikey itself, §5.2)');
}));

// ---------------------------------------------------------------------------
// writable resources: a wrong or missing key changes nothing
// ---------------------------------------------------------------------------

for (const r of WRITABLE) {
  check(checkOf('auth.invalid-key-no-change', r.name), async (ctx) => {
    const uk = uniqueKeyOf(r);
    const prop = updatePropOf(r, uk ?? '');
    if (!uk || !prop) ctx.notJudged(`${r.title} has no unique, filterable String property to look created records up by, or none to update`);
    const maxLen = maxLengthOf(r.payload.find((p) => p.name === prop)!);
    const payloads = ctx.sample(batchArb(r.name, { tag: ctx.config.runTag }, { minLength: 4, maxLength: 4 }), 'payloads');
    // one record the attempts try to update, another they try to delete (so each operation is judged alone)
    const [toUpdate, toDelete] = await ctx.scope.create(r, payloads.slice(0, 2));
    const updateId = String(toUpdate.id);
    const deleteId = String(toDelete.id);
    const attempts: Array<{ key: KeyChoice; label: string; payload: Rec; value: string; ex: Exchange[] }> = [
      { key: { kind: 'other', key: WRONG_KEY }, label: 'a wrong key', payload: payloads[2], value: `${ctx.config.runTag}-wrongkey`.slice(0, maxLen), ex: [] },
      { key: { kind: 'missing' }, label: 'no authentication object', payload: payloads[3], value: `${ctx.config.runTag}-nokey`.slice(0, maxLen), ex: [] },
    ];
    for (const a of attempts) {
      const [created, updated, deleted] = await Promise.all([
        ctx.client.create(r, [a.payload], { key: a.key }),
        ctx.client.update(r, [{ id: updateId, [prop!]: a.value }], { key: a.key }),
        ctx.client.delete(r, [deleteId], { key: a.key }),
      ]);
      a.ex.push(created.exchange, updated.exchange, deleted.exchange);
    }
    const why = `${ctx.rule.section}: a create, update or delete with a wrong or missing key changes nothing`;

    await ctx.item('create', async (it) => {
      // no record with either payload's unique value appeared (whatever did is owned and deleted at once)
      const sought = attempts.map((a) => String(a.payload[uk!]));
      const found = await it.client.get(r, { filters: { [uk!]: sought } });
      const appeared = it.ok(found, `get of ${r.prefix} by ${uk}`).filter((x) => sought.includes(String(x[uk!])));
      if (!appeared.length) return;
      const ids = appeared.map((x) => String(x.id));
      it.client.ledger?.recordCreated(r.name, ids);
      await it.client.delete(r, ids);
      const stored = attempts.filter((a) => appeared.some((x) => x[uk!] === a.payload[uk!]));
      it.fail({
        message: stored.map((a) => `a create with ${a.label} (answered ${status(a.ex[0])}) stored a record (${uk} ${show(a.payload[uk!])})`).join('; '),
        why, expected: 'no record created', actual: appeared.map((x) => x.id), evidence: [...stored.map((a) => a.ex[0]), found.exchange],
      });
    });

    const after = await ctx.client.get(r, { filters: { id: [updateId, deleteId] } });
    const now = ctx.ok(after, `get of ${r.prefix} by id`);
    await ctx.item('update', (it) => {
      const rec = now.find((x) => lower(x.id) === lower(updateId));
      if (!rec) return it.fail({ message: `record ${updateId}, which the attempts only tried to update, is gone`, why, evidence: [...attempts.map((a) => a.ex[1]), after.exchange] });
      if (!sameAsOriginal(rec, toUpdate, prop!)) {
        const who = attempts.find((a) => rec[prop!] === a.value);
        it.fail({
          message: `an update with ${who?.label ?? 'a wrong or missing key'} (answered ${who ? status(who.ex[1]) : '?'}) changed ${prop} from ${show(toUpdate[prop!])} to ${show(rec[prop!])}`,
          why, expected: 'the record unchanged', actual: rec[prop!], evidence: [...(who ? [who.ex[1]] : attempts.map((a) => a.ex[1])), after.exchange],
        });
      }
    });
    await ctx.item('delete', (it) => {
      if (now.some((x) => lower(x.id) === lower(deleteId))) return;
      it.fail({
        message: `a delete without the right key removed record ${deleteId} (delete answered ${attempts.map((a) => `${a.label}: ${status(a.ex[2])}`).join(', ')})`,
        why, expected: 'the record still there', actual: 'gone', evidence: [...attempts.map((a) => a.ex[2]), after.exchange],
      });
    });
  });
}
