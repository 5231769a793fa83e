/**
 * The invariants judged on every answer (src/check/invariants): each judge
 * passes honest answers of the reference server, under either reading where
 * the spec is silent, and fails the one breach it is for, with the request,
 * expected and actual in its finding; answers that are not the run's own (a
 * wrong key, an error) are not judged at all. The tally keeps the violations
 * of the first askers in id order, whatever order the answers came in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../reference/server.js';
import type { Exchange } from '../../src/client/http.js';
import { REDACTED } from '../../src/client/redact.js';
import { JUDGES, answerOf, judgeAnswer, readingsOf, schemaCause, type InvariantReadings } from '../../src/check/invariants/judge.js';
import { invariantResults } from '../../src/run/invariants.js';
import { InvariantTally } from '../../src/check/invariants/tally.js';
import { observeFrom } from '../../src/check/observed.js';

const KEY = 'invariants-unit-key-5c1d';
type Rec = Record<string, any>;

let ref: ReferenceServer;
let products: Rec[];

async function post(path: string, body: Rec): Promise<unknown> {
  const res = await fetch(`${ref.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ authentication: { apiKey: KEY }, ...body }) });
  return res.json();
}

beforeAll(async () => {
  observeFrom(() => ({}));
  ref = await startReferenceServer({ apiKey: KEY });
  products = (await post('/api/v1/products/get', { pagination: { pageSize: '8' } })) as Rec[];
});
afterAll(() => ref?.close());

/** An exchange as the client keeps it: the key redacted in the request body. */
function exchange(path: string, body: Rec, json: unknown, status = 200, key: string = REDACTED): Exchange {
  return {
    request: { method: 'POST', url: `http://127.0.0.1:1${path}`, path, body: { authentication: { apiKey: key }, ...body } },
    response: { status, headers: {}, text: JSON.stringify(json), truncated: false },
    json,
  } as unknown as Exchange;
}

const AND = readingsOf({}, KEY);
const OR: InvariantReadings = { ...AND, combination: 'or' };
const GET = '/api/v1/products/get';

function findings(ex: Exchange, k: InvariantReadings = AND): Record<string, string | null> {
  const a = answerOf(ex, k);
  if (!a) return {};
  return Object.fromEntries(judgeAnswer(a, k).map((j) => [j.item.rule, j.finding ? j.finding.message : null]));
}
const failed = (f: Record<string, string | null>) => Object.keys(f).filter((rule) => f[rule] !== null);

describe('honest answers pass every invariant that applies', () => {
  it('a page, an id-filtered get, a filtered get and a count of the reference server', async () => {
    const ids = products.slice(0, 3).map((p) => p.id);
    const visible = products[0].visible;
    const byIds = await post(GET, { filters: { id: ids } });
    const filtered = await post(GET, { filters: { visible } });
    const count = await post('/api/v1/products/count', { filters: { id: ids } });
    const judged = [
      findings(exchange(GET, { pagination: { pageSize: '8' } }, products)),
      findings(exchange(GET, { filters: { id: ids } }, byIds)),
      findings(exchange(GET, { filters: { visible } }, filtered)),
      findings(exchange('/api/v1/products/count', { filters: { id: ids } }, count)),
    ];
    expect(judged.map(failed)).toEqual([[], [], [], []]);
    expect(Object.keys(judged[1]).sort()).toEqual(['invariants.ids-unique', 'invariants.only-asked-ids', 'invariants.page-bound', 'invariants.record-schema']);
    expect(judged[2]).toHaveProperty(['invariants.filter-satisfied'], null);
    expect(judged[3]).toEqual({ 'invariants.count-form': null, 'invariants.only-asked-ids': null });
  });

  it('ids asked in another letter case, and records named so, are the same ids', () => {
    const ids = products.slice(0, 2).map((p) => String(p.id).toUpperCase());
    expect(failed(findings(exchange(GET, { filters: { id: ids } }, products.slice(0, 2))))).toEqual([]);
  });

  it('answers that are not the run’s own are not judged: a wrong or near-miss key, an error, a cut answer', () => {
    expect(answerOf(exchange(GET, {}, products, 200, 'wrong-key'), AND)).toBeUndefined();
    expect(answerOf(exchange(GET, {}, products, 200, `${REDACTED}[cut-short]`), AND)).toBeUndefined();
    expect(answerOf(exchange(GET, {}, { error: 'x' }, 400), AND)).toBeUndefined();
    const cut = exchange(GET, {}, products);
    (cut.response as any).truncated = true;
    expect(answerOf(cut, AND)).toBeUndefined();
  });
});

describe('each invariant fails its breach', () => {
  it('ids-unique: a record listed twice', () => {
    const f = findings(exchange(GET, {}, [...products.slice(0, 3), products[1]]));
    expect(failed(f)).toEqual(['invariants.ids-unique']);
    expect(f['invariants.ids-unique']).toMatch(/listing 1 id\(s\) more than once/);
  });

  it('record-schema: a Decimal as a JSON number in a get, a field missing in a create answer', () => {
    const bad = { ...products[0], price: 12.5 };
    expect(failed(findings(exchange(GET, {}, [bad])))).toEqual(['invariants.record-schema']);
    const { author: _a, ...noAuthor } = products[0];
    expect(failed(findings(exchange('/api/v1/products/create', { data: [{}] }, [noAuthor])))).toEqual(['invariants.record-schema']);
  });

  it('page-bound: more records than pageSize asked', () => {
    const f = findings(exchange(GET, { pagination: { pageSize: '5' } }, products.slice(0, 6)));
    expect(failed(f)).toEqual(['invariants.page-bound']);
    expect(f['invariants.page-bound']).toMatch(/answered 6 records, more than the pageSize 5 asked/);
  });

  it('count-form: a number, a negative count, no count', () => {
    for (const json of [{ count: 3 }, { count: '-1' }, {}, [{ count: '1' }]]) {
      expect(failed(findings(exchange('/api/v1/products/count', {}, json))), JSON.stringify(json)).toEqual(['invariants.count-form']);
    }
  });

  it('only-asked-ids: a record not asked, a count over the ids asked; not judged under OR beside another key', () => {
    const ids = products.slice(0, 2).map((p) => p.id);
    expect(failed(findings(exchange(GET, { filters: { id: ids } }, products.slice(0, 3))))).toEqual(['invariants.only-asked-ids']);
    expect(failed(findings(exchange('/api/v1/products/count', { filters: { id: ids } }, { count: '3' })))).toEqual(['invariants.only-asked-ids']);
    const f = findings(exchange(GET, { filters: { id: ids, visible: 'true' } }, products.slice(0, 3)), OR);
    expect(f).not.toHaveProperty(['invariants.only-asked-ids']);
    // ids compare ignoring case (GUIDs): a record answered under another letter case of an id asked was asked
    const flipped = products.slice(0, 2).map((p) => ({ ...p, id: p.id.toUpperCase() === p.id ? p.id.toLowerCase() : p.id.toUpperCase() }));
    expect(flipped.map((p) => p.id)).not.toEqual(ids);
    expect(findings(exchange(GET, { filters: { id: ids } }, flipped))['invariants.only-asked-ids']).toBeNull();
    expect(failed(findings(exchange(GET, { filters: { id: ids } }, [...flipped, products[2]])))).toEqual(['invariants.only-asked-ids']);
    // a count is judged against the distinct ids asked, ignoring case: the same id twice in two cases is one
    const twice = [ids[0], ids[0].toUpperCase() === ids[0] ? ids[0].toLowerCase() : ids[0].toUpperCase()];
    expect(failed(findings(exchange('/api/v1/products/count', { filters: { id: twice } }, { count: '2' })))).toEqual(['invariants.only-asked-ids']);
    expect(findings(exchange('/api/v1/products/count', { filters: { id: twice } }, { count: '1' }))['invariants.only-asked-ids']).toBeNull();
  });

  it('filter-satisfied: a record out of its filter; under OR a record satisfying another key is in', () => {
    const v = products[0].visible;
    const other = v === 'true' ? 'false' : 'true';
    const out: Rec = { ...products[1], visible: other };
    const f = findings(exchange(GET, { filters: { visible: v } }, [products[0], out]));
    expect(failed(f)).toEqual(['invariants.filter-satisfied']);
    expect(f['invariants.filter-satisfied']).toMatch(/1 record\(s\) that do not satisfy its filter/);
    // OR: visible or its own name; AND: both (it fails visible)
    const both = { filters: { visible: v, name: [out.name] } };
    expect(failed(findings(exchange(GET, both, [out]), OR))).toEqual([]);
    expect(failed(findings(exchange(GET, both, [out]), AND))).toEqual(['invariants.filter-satisfied']);
  });
});

describe('the tally', () => {
  it('counts answers and judgements, keeps the first askers’ violations in id order, whatever the arrival order', () => {
    const dup = exchange(GET, {}, [products[0], products[0]]);
    const ok = exchange(GET, {}, products.slice(0, 2));
    const seen = (order: string[]) => {
      const t = new InvariantTally();
      for (const by of order) t.see(by === 'ok' ? ok : dup, by, AND);
      return t.toJSON();
    };
    const a = seen(['z.check#1', 'ok', 'b.check#2', 'a.check#3', 'c.check#4']);
    const b = seen(['c.check#4', 'a.check#3', 'ok', 'z.check#1', 'b.check#2']);
    const item = 'product.invariants.ids-unique#get';
    expect(a.answers).toBe(5);
    expect(a.items[item]).toMatchObject({ judged: 5, failed: 4 });
    expect(a.items[item].violations.map((v) => v.seenBy)).toEqual(['a.check#3', 'b.check#2', 'c.check#4']);
    expect(b.items[item].violations.map((v) => v.seenBy)).toEqual(a.items[item].violations.map((v) => v.seenBy));
    expect(a.items[item].violations[0].curl).toContain('curl');
  });

  it('one failure per cause: a record-schema cause the designed check reported is left to it; another is still reported, naming its asker', () => {
    const { author: _a, ...noAuthor } = products[0];
    const missing = exchange(GET, {}, [noAuthor, { ...products[1], author: undefined }]);
    const numeric = exchange(GET, { filters: { id: [products[2].id] } }, [{ ...products[2], price: 12.5 }]);
    const item = 'product.invariants.record-schema#get';
    const config = { seed: 1, depth: 'quick', baseUrl: 'http://127.0.0.1:1', embedded: true, readOnly: false, insecure: false, only: 'product.invariants.*' } as const;
    const result = (t: InvariantTally) => invariantResults(t, config).items.find((i) => i.id === item)!;
    const seen = (claims: string[][]) => {
      const worker = new InvariantTally();
      worker.see(missing, 'product.auth.invalid-key-no-change', AND);
      worker.see(numeric, 'product.filters.id#one', AND);
      // the claim travels from the check's tally to the run's, like the answers
      for (const causes of claims) worker.claim(item, 'product.conventions.record-schema', causes);
      const run = new InvariantTally();
      run.add(worker.toJSON());
      return run;
    };
    const missingCause = "(root) must have required property 'author'";
    expect(worker0Causes()).toContain(missingCause);
    // no claim: the first asker in id order, as before
    expect(result(seen([]))).toMatchObject({ status: 'failed', seenBy: ['product.auth.invalid-key-no-change', 'product.filters.id#one'] });
    // the missing author claimed: the number in price is still reported, by the asker that showed it
    const left = result(seen([[missingCause]]));
    expect(left.status).toBe('failed');
    expect(left.message).toMatch(/^the answer to a request of product\.filters\.id#one: /);
    expect(left.message).toMatch(/beside the causes product\.conventions\.record-schema reported, this one: \/price must be string/);
    // every cause claimed: not reported twice, and the reason says where it is
    const all = result(seen([[missingCause], worker0Causes(numeric).filter((c) => c !== missingCause)]));
    expect(all).toMatchObject({ status: 'not-judged' });
    expect(all.reason).toMatch(/each for a cause product\.conventions\.record-schema failed for .*one failure per cause, reported there/);

    function worker0Causes(ex: Exchange = missing): string[] {
      const t = new InvariantTally();
      t.see(ex, 'x', AND);
      return Object.keys(t.toJSON().items[item].byCause ?? {});
    }
  });

  it('a cause is a schema error without the positions in lists', () => {
    expect(schemaCause('/images/3/rank must match pattern "^[0-9]+$"')).toBe('/images/[n]/rank must match pattern "^[0-9]+$"');
    expect(schemaCause("(root) must have required property 'x'")).toBe("(root) must have required property 'x'");
  });

  it('has one judge per invariant rule of the catalogue', () => {
    expect(Object.keys(JUDGES).sort()).toEqual(['invariants.count-form', 'invariants.filter-satisfied', 'invariants.ids-unique', 'invariants.only-asked-ids', 'invariants.page-bound', 'invariants.record-schema']);
  });
});
