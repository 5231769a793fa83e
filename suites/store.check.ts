/**
 * Store get (§4 Responses, §5.2): one object, not a list, holding apikey.
 */
import { check, CheckFailure } from '../src/check/index.js';
import { validator } from '../src/schema/model.js';

check({ rule: 'store.single-object', resource: 'store' }, async (ctx) => {
  const res = await ctx.client.store();
  if (Array.isArray(res.exchange.json)) {
    ctx.fail({ message: 'store get returned a JSON array; §4 says it returns a single object', expected: 'one JSON object', actual: `an array of ${(res.exchange.json as unknown[]).length}`, evidence: [res.exchange] });
  }
  ctx.ok(res, 'store get');
});

check({ rule: 'store.apikey-field', resource: 'store' }, async (ctx) => {
  const store = ctx.ok(await ctx.client.store(), 'store get');
  if (typeof store.apikey !== 'string') {
    throw new CheckFailure({ message: 'the store record has no string field apikey (§5.2)', expected: 'apikey: String', actual: store.apikey === undefined ? 'absent' : typeof store.apikey, evidence: ctx.exchanges.slice(-1) });
  }
});

check({ rule: 'conventions.record-schema', resource: 'store' }, async (ctx) => {
  const store = ctx.ok(await ctx.client.store(), 'store get');
  const v = validator('store', 'Record')(store);
  if (!v.ok) ctx.fail({ message: `the store object does not match §2 Store: ${v.errors.slice(0, 5).join('; ')}`, expected: 'every documented field with its type', actual: v.errors, evidence: ctx.exchanges.slice(-1) });
});
