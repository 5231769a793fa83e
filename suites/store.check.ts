/**
 * Store get (§4 Responses, §5.2): one object, not a list, holding apikey.
 * (Its record schema is judged with every resource's: store.conventions.record-schema.)
 */
import { check, checksOf, type SuiteDeclaration } from '../src/check/index.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = { rules: ['store.single-object', 'store.apikey-field'] };

const [single] = checksOf('store.single-object');
check(single, async (ctx) => {
  await ctx.item('get', async (it) => {
    const res = await it.client.store();
    if (Array.isArray(res.exchange.json)) {
      it.fail({ message: `store get returned a JSON array of ${(res.exchange.json as unknown[]).length}`, why: '§4 Responses: store get returns a single object, not a list', expected: 'one JSON object', actual: `an array of ${(res.exchange.json as unknown[]).length}`, evidence: [res.exchange] });
    }
    it.ok(res, 'store get');
  });
});

const [apikey] = checksOf('store.apikey-field');
check(apikey, async (ctx) => {
  await ctx.item('get', async (it) => {
    const res = await it.client.store();
    const store = it.ok(res, 'store get');
    if (typeof store.apikey !== 'string') {
      it.fail({ message: 'the store record has no string field apikey', expected: 'apikey: String', actual: store.apikey === undefined ? 'absent' : typeof store.apikey, evidence: [res.exchange] });
    }
  });
});
