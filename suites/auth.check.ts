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
 * the spec says where the key goes, not that a header must be refused.
 */
import fc from 'fast-check';
import { check, TargetError, type CheckContext } from '../src/check/index.js';
import type { CallResult, KeyChoice, Rec } from '../src/client/api.js';
import type { Exchange } from '../src/client/http.js';
import { resources, type ResourceModel } from '../src/schema/model.js';
import { WRONG_KEY, carriesData } from '../src/observe/shared.js';
import { batchArb } from '../generators/index.js';

const LIST = resources().filter((r) => !r.single && r.operations.includes('get'));
const STORE = resources().find((r) => r.single)!;
const WRITABLE = LIST.filter((r) => r.writable && r.payload.length > 0);
const S5 = '§5 Authentication';

const lower = (v: unknown) => String(v ?? '').toLowerCase();

/** Wrong keys: a fixed one and generated ones (never the configured key, never a part of it). */
function wrongKeyArb(ctx: CheckContext): fc.Arbitrary<string> {
  return fc.oneof(fc.constant(WRONG_KEY), fc.stringMatching(/^[A-Za-z0-9_-]{16,48}$/)).filter((k) => k !== ctx.config.apiKey);
}

/** What a "no records" answer leaked, or undefined. No answer at all cannot be judged: a target error. */
function leak(ex: Exchange): string | undefined {
  if (ex.transportError) throw new TargetError(`no answer: ${ex.transportError.code} ${ex.transportError.message}`, [ex]);
  const status = ex.response!.status;
  if (status < 200 || status > 299 || ex.json === undefined) return undefined;
  const data = carriesData(ex.json);
  return data ? `HTTP ${status} with ${data}` : undefined;
}

function status(ex: Exchange): string {
  return ex.transportError ? `no answer (${ex.transportError.code})` : `HTTP ${ex.response!.status}`;
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
    message: `${what} with the configured key in authentication.apiKey was refused: ${res.problem} (${S5}: every request carries the key in the JSON body as authentication.apiKey)`,
    expected: '2xx: the key in the body is the key',
    actual: `HTTP ${code}`,
    evidence: [ex],
  });
}

/** A value in a message: quoted, at most 40 characters. */
function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 40)}…"` : s;
}

/** The get and count requests of one key choice, judged for leaks. */
async function readsLeak(ctx: CheckContext, r: ResourceModel, key: KeyChoice, extra?: Rec): Promise<Array<{ what: string; leaked: string; ex: Exchange }>> {
  const get = await ctx.client.get(r, { key, extra });
  const count = extra
    ? await ctx.client.raw(`${r.prefix}/count`, { ...extra })
    : (await ctx.client.count(r, { key })).exchange;
  const out: Array<{ what: string; leaked: string; ex: Exchange }> = [];
  const g = leak(get.exchange);
  if (g) out.push({ what: `get ${r.prefix}/get`, leaked: g, ex: get.exchange });
  const c = leak(count);
  if (c) out.push({ what: `count ${r.prefix}/count`, leaked: c, ex: count });
  return out;
}

function failLeaks(ctx: CheckContext, how: string, leaks: Array<{ what: string; leaked: string; ex: Exchange }>, rule: string): void {
  if (!leaks.length) return;
  ctx.fail({
    message: `${how}: ${leaks.map((l) => `${l.what} answered ${l.leaked}`).join('; ')} (${S5}: ${rule})`,
    expected: 'no records: an error, an empty array or a count of 0',
    actual: leaks.map((l) => `${l.what}: ${l.leaked}`),
    evidence: leaks.map((l) => l.ex),
  });
}

// ---------------------------------------------------------------------------
// list resources: key in the body, wrong key, missing key
// ---------------------------------------------------------------------------

for (const r of LIST) {
  check({ rule: 'auth.key-in-body', resource: r.name }, async (ctx) => {
    served(ctx, await ctx.client.get(r), `get ${r.prefix}/get`);
    served(ctx, await ctx.client.count(r), `count ${r.prefix}/count`);
  });

  check({ rule: 'auth.invalid-key-no-records', resource: r.name }, async (ctx) => {
    await ctx.property(wrongKeyArb(ctx), async (key) => {
      failLeaks(ctx, `with a wrong authentication.apiKey (${show(key)})`, await readsLeak(ctx, r, { kind: 'other', key }), 'a wrong key returns no records');
    });
  });

  check({ rule: 'auth.missing-key-no-records', resource: r.name }, async (ctx) => {
    failLeaks(ctx, 'with no authentication object in the body', await readsLeak(ctx, r, { kind: 'missing' }), 'a missing key returns no records');
    failLeaks(ctx, 'with authentication: {} (no apiKey)', await readsLeak(ctx, r, { kind: 'missing' }, { authentication: {} }), 'a missing key returns no records');
  });
}

// ---------------------------------------------------------------------------
// the store: one object with the key, nothing without
// ---------------------------------------------------------------------------

check({ rule: 'auth.key-in-body', resource: STORE.name }, async (ctx) => {
  served(ctx, await ctx.client.store(), `store get ${STORE.prefix}/get`);
});

check({ rule: 'auth.invalid-key-no-records', resource: STORE.name }, async (ctx) => {
  await ctx.property(wrongKeyArb(ctx), async (key) => {
    const res = await ctx.client.store({ key: { kind: 'other', key } });
    const l = leak(res.exchange);
    if (l) failLeaks(ctx, `with a wrong authentication.apiKey (${show(key)})`, [{ what: `store get ${STORE.prefix}/get`, leaked: l, ex: res.exchange }], 'a wrong key returns no records (the store record holds the apikey itself, §5.2)');
  });
});

check({ rule: 'auth.missing-key-no-records', resource: STORE.name }, async (ctx) => {
  const none = await ctx.client.store({ key: { kind: 'missing' } });
  const empty = await ctx.client.raw(`${STORE.prefix}/get`, { authentication: {} });
  const leaks = [
    { what: `store get ${STORE.prefix}/get without authentication`, ex: none.exchange },
    { what: `store get ${STORE.prefix}/get with authentication: {}`, ex: empty },
  ].map((x) => ({ ...x, leaked: leak(x.ex) })).filter((x): x is { what: string; ex: Exchange; leaked: string } => !!x.leaked);
  failLeaks(ctx, 'without a key', leaks, 'a missing key returns no records (the store record holds the apikey itself, §5.2)');
});

// ---------------------------------------------------------------------------
// writable resources: a wrong or missing key changes nothing
// ---------------------------------------------------------------------------

/** A unique payload property with an array filter of its own (page title may only be filterable as name: avoided). */
function uniqueKeyOf(r: ResourceModel): string | undefined {
  const aliased = new Set(r.filters.filter((f) => f.aliasOf).map((f) => f.aliasOf!));
  return r.payload.find((p) => p.unique && p.kind === 'string' && !aliased.has(p.name) && r.filters.some((f) => f.key === p.name && f.filter === 'array'))?.name;
}

/** The String property an update attempt changes: a non-unique one when there is one. */
function updatePropOf(r: ResourceModel, uk: string): string | undefined {
  const strings = r.payload.filter((p) => p.kind === 'string' && p.name !== uk && (p.recordField ?? p.name) === p.name);
  return (strings.find((p) => !p.unique) ?? strings[0])?.name;
}

for (const r of WRITABLE) {
  check({ rule: 'auth.invalid-key-no-change', resource: r.name, writes: true }, async (ctx) => {
    const uk = uniqueKeyOf(r);
    const prop = updatePropOf(r, uk ?? '');
    if (!uk || !prop) return ctx.skip(`${r.title} has no unique, filterable String property to look created records up by, or none to update`);
    const maxLen = r.payload.find((p) => p.name === prop)?.maxLength ?? 255;
    const [payloads] = fc.sample(batchArb(r.name, { tag: ctx.config.runTag }, { minLength: 3, maxLength: 3 }), { seed: ctx.seed, numRuns: 1 });
    const [base] = await ctx.scope.create(r, [payloads[0]]);
    const id = String(base.id);
    const attempts: Array<{ key: KeyChoice; label: string; payload: Rec; value: string; ex: Exchange[] }> = [
      { key: { kind: 'other', key: WRONG_KEY }, label: 'a wrong key', payload: payloads[1], value: `${ctx.config.runTag}-wrongkey`.slice(0, maxLen), ex: [] },
      { key: { kind: 'missing' }, label: 'no authentication object', payload: payloads[2], value: `${ctx.config.runTag}-nokey`.slice(0, maxLen), ex: [] },
    ];
    for (const a of attempts) {
      const created = await ctx.client.create(r, [a.payload], { key: a.key });
      const updated = await ctx.client.update(r, [{ id, [prop]: a.value }], { key: a.key });
      const deleted = await ctx.client.delete(r, [id], { key: a.key });
      a.ex.push(created.exchange, updated.exchange, deleted.exchange);
    }

    const problems: string[] = [];
    const evidence: Exchange[] = [];
    // creates: no record with either payload's unique value appeared (whatever did is owned and deleted at once)
    const sought = attempts.map((a) => String(a.payload[uk]));
    const found = await ctx.client.get(r, { filters: { [uk]: sought } });
    const appeared = ctx.ok(found, `get of ${r.prefix} by ${uk}`).filter((x) => sought.includes(String(x[uk])));
    if (appeared.length) {
      const ids = appeared.map((x) => String(x.id));
      ctx.client.ledger?.recordCreated(r.name, ids);
      await ctx.client.delete(r, ids);
      for (const a of attempts) {
        const rec = appeared.find((x) => x[uk] === a.payload[uk]);
        if (rec) {
          problems.push(`a create with ${a.label} (answered ${status(a.ex[0])}) stored record ${rec.id} (${uk} ${show(rec[uk])})`);
          evidence.push(a.ex[0]);
        }
      }
      evidence.push(found.exchange);
    }
    // update and delete: the record is still there, unchanged
    const after = await ctx.client.get(r, { filters: { id: [id] } });
    const rec = ctx.ok(after, `get of ${r.prefix} by id`).find((x) => lower(x.id) === lower(id));
    if (!rec) {
      const which = attempts.map((a) => `${a.label}: ${status(a.ex[2])}`).join(', ');
      problems.push(`a delete without the right key removed record ${id} (delete answered ${which})`);
      evidence.push(...attempts.map((a) => a.ex[2]), after.exchange);
    } else if (rec[prop] !== base[prop]) {
      const who = attempts.find((a) => rec[prop] === a.value);
      problems.push(`an update with ${who?.label ?? 'a wrong or missing key'} (answered ${who ? status(who.ex[1]) : '?'}) changed ${prop} from ${show(base[prop])} to ${show(rec[prop])}`);
      evidence.push(...(who ? [who.ex[1]] : attempts.map((a) => a.ex[1])), after.exchange);
    }
    if (problems.length) {
      ctx.fail({
        message: `${problems.join('; ')} (${S5}: a create, update or delete with a wrong or missing key changes nothing)`,
        expected: 'no record created, the record neither updated nor deleted',
        actual: problems,
        evidence,
      });
    }
  });
}
