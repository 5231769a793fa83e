/**
 * The client: key in the body only (§5.1), raw responses surfaced beside parsed
 * JSON, retries only for reads, read-only refusal, ledger ownership, redaction.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger, NotOwnedError, ReadOnlyViolation, StoreClient } from '../../src/client/index.js';
import { Agent, PendingPost, postOn } from '../../src/client/undici.js';
import fc from 'fast-check';
import { nestedDeeperThan } from '../../src/client/http.js';
import { SharedGate } from '../../src/client/gate.js';

interface Seen { url: string; headers: IncomingMessage['headers']; body: string }
let server: Server;
let base = '';
const seen: Seen[] = [];
let handler: (req: IncomingMessage, body: string, res: ServerResponse) => void = () => undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof value === 'string' ? value : JSON.stringify(value));
};

function client(extra: Partial<ConstructorParameters<typeof StoreClient>[0]> = {}) {
  return new StoreClient({ baseUrl: base, apiKey: 'secret-key-123', timeoutMs: 2000, connections: 2, retries: 2, ...extra });
}

describe('StoreClient', () => {
  it('puts the key in the JSON body as authentication.apiKey and nowhere else (§5.1)', async () => {
    seen.length = 0;
    handler = (_req, _b, res) => json(res, 200, [{ id: 'x' }]);
    const c = client();
    const r = await c.get('product', { filters: { name: ['a'] }, pagination: { pageNumber: 1, pageSize: 5 } });
    await c.close();
    expect(r.ok).toBe(true);
    const s = seen[0];
    expect(s.url).toBe('/api/v1/products/get');
    expect(JSON.parse(s.body)).toEqual({ authentication: { apiKey: 'secret-key-123' }, filters: { name: ['a'] }, pagination: { pageNumber: '1', pageSize: '5' } });
    expect(JSON.stringify(s.headers)).not.toContain('secret-key-123');
    expect(s.url).not.toContain('secret');
  });

  it('keeps a base path, and shows the request body with the key redacted, as a copy', async () => {
    seen.length = 0;
    handler = (_req, _b, res) => json(res, 200, [{ id: 'x' }]);
    const c = client({ baseUrl: `${base}/store/` });
    const filters = { name: ['secret-key-123 in a value', 'b'] };
    const r = await c.get('product', { filters });
    await c.close();
    expect(seen[0].url).toBe('/store/api/v1/products/get');
    const shown = r.exchange.request.body as { authentication: { apiKey: string }; filters: { name: string[] } };
    expect(shown.authentication.apiKey).toBe('$STORE_API_KEY');
    expect(shown.filters.name).toEqual(['$STORE_API_KEY in a value', 'b']);
    filters.name.push('changed later');
    expect(shown.filters.name).toHaveLength(2);
    expect(JSON.stringify(r.exchange)).not.toContain('secret-key-123');
  });

  it('keeps the raw response (status, headers, text) beside the parsed JSON, redacted', async () => {
    handler = (_req, _b, res) => json(res, 200, '{"id":"1","apikey":"secret-key-123","price":"1,50"}', { 'x-extra': 'yes' });
    const c = client();
    const r = await c.store();
    await c.close();
    expect(r.exchange.response?.status).toBe(200);
    expect(r.exchange.response?.headers['x-extra']).toBe('yes');
    expect(r.exchange.response?.text).toBe('{"id":"1","apikey":"$STORE_API_KEY","price":"1,50"}');
    expect((r.exchange.json as any).price).toBe('1,50');
    expect(JSON.stringify(r.exchange.request.body)).not.toContain('secret-key-123');
  });

  it("learns the store's apikey value as a secret", async () => {
    handler = (_req, _b, res) => json(res, 200, { id: '1', apikey: 'store-own-key-999' });
    const c = client();
    await c.store();
    expect(c.redactor.text('x store-own-key-999 y')).toBe('x $STORE_API_KEY y');
    await c.close();
  });

  it('names a non-JSON body, an HTML error page and a wrong shape without throwing', async () => {
    const c = client();
    handler = (_req, _b, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html>oops</html>'); };
    const html = await c.get('product');
    expect(html.ok).toBe(false);
    expect(html.problem).toMatch(/not JSON/);
    handler = (_req, _b, res) => json(res, 200, '[{"id":');
    expect((await c.get('product')).problem).toMatch(/not JSON/);
    handler = (_req, _b, res) => json(res, 200, { records: [] });
    expect((await c.get('product')).problem).toMatch(/expected an array of records/);
    handler = (_req, _b, res) => json(res, 200, { count: 3 });
    expect((await c.count('product')).problem).toMatch(/\{count: String\}/);
    await c.close();
  });

  it('retries get on 503 (honouring Retry-After) but never resends a create', async () => {
    let n = 0;
    handler = (_req, _b, res) => (++n < 3 ? json(res, 503, { error: 'busy' }, { 'retry-after': '0' }) : json(res, 200, []));
    // run tag 'sc': a lookup only claims values carrying the run's tag ('sc-x')
    const c = client({ ledger: new Ledger(undefined, 'sc') });
    const r = await c.get('product');
    expect(r.ok).toBe(true);
    expect(r.exchange.attempts).toBe(3);
    seen.length = 0;
    handler = (req, _b, res) => (req.url!.endsWith('/create') ? json(res, 503, { error: 'busy' }) : json(res, 200, [{ id: '22222222-2222-2222-2222-222222222222', name: 'sc-x' }]));
    const w = await c.create('collection', [{ name: 'sc-x' }]);
    expect(w.ok).toBe(false);
    expect(seen.filter((s) => s.url.endsWith('/create'))).toHaveLength(1);
    // the lost answer is resolved by looking the record up by its unique value, and it is owned
    const lookup = seen.find((s) => s.url.endsWith('/get'))!;
    expect(JSON.parse(lookup.body).filters).toEqual({ name: ['sc-x'] });
    expect(w.recovered).toEqual(['22222222-2222-2222-2222-222222222222']);
    await c.close();
  });

  it('resends a write answered 429, or 503 with Retry-After (not processed), and slows down after a 429', async () => {
    let creates = 0;
    handler = (req, _b, res) => {
      if (!req.url!.endsWith('/create')) return json(res, 200, []);
      creates++;
      if (creates === 1) return json(res, 429, { error: 'slow down' });
      if (creates === 2) return json(res, 503, { error: 'busy' }, { 'retry-after': '0' });
      return json(res, 200, [{ id: '55555555-5555-5555-5555-555555555555', name: 'sc-r' }]);
    };
    const c = client({ ledger: new Ledger(undefined, 'sc') });
    const w = await c.create('collection', [{ name: 'sc-r' }]);
    expect(w.ok).toBe(true);
    expect(creates).toBe(3);
    expect(w.exchange.attempts).toBe(3);
    expect(c.http.adaptiveGap).toBeGreaterThan(0);
    await c.close();
  });

  it('a create answered with a record that does not carry the run\'s tag (one that existed before) is never owned', async () => {
    const ledger = new Ledger(undefined, 'sc');
    const c = client({ ledger });
    const theirs = '66666666-6666-6666-6666-666666666666';
    handler = (req, _b, res) => (req.url!.endsWith('/create') ? json(res, 200, [{ id: theirs, name: 'their own record' }]) : json(res, 200, []));
    const w = await c.create('collection', [{ name: 'sc-mine' }]);
    expect(w.ok).toBe(false);
    expect(w.problem).toMatch(/without the run's tag/);
    expect(w.foreign).toEqual([theirs]);
    expect(ledger.owns('collection', theirs)).toBe(false);
    await expect(c.delete('collection', [theirs])).rejects.toThrow();
    // the create stays open for cleanup, which looks up what really carries the tag
    expect(ledger.openIntents()).toHaveLength(1);
    await c.close();
  });

  it('an answer nested deeper than any record of the spec is not parsed (no stack overflow), an answer over the cap is cut', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    handler = (_req, _b, res) => json(res, 200, deep);
    const c = client({ maxBodyBytes: 1024 * 1024 });
    const r = await c.get('product');
    expect(r.ok).toBe(false);
    expect(r.exchange.parseError).toMatch(/nested deeper than 64/);
    handler = (_req, _b, res) => json(res, 200, `[${'"x",'.repeat(400_000)}"x"]`);
    const big = await c.get('product');
    expect(big.exchange.response?.truncated).toBe(true);
    expect(big.exchange.response!.text.length).toBeLessThanOrEqual(1024 * 1024);
    await c.close();
  });

  it('nesting depth: strings and escapes do not count', () => {
    expect(nestedDeeperThan('{"a":"[[[[[[","b":[[1]]}', 3)).toBe(false);
    expect(nestedDeeperThan('{"a":"\\"","b":[[[[1]]]]}', 3)).toBe(true);
    // a backslash escaping a backslash ends its run: the quote after it closes the string
    expect(nestedDeeperThan('{"a":"x\\\\","b":[[[[1]]]]}', 3)).toBe(true);
    expect(nestedDeeperThan('{"a":"x\\\\\\"[[[[","b":1}', 3)).toBe(false);
    // a string never closed: nothing after its quote counts
    expect(nestedDeeperThan('[["[[[[[[', 3)).toBe(false);
    // as deep as the JSON itself says, on generated values with strings full of brackets and escapes
    const depthOf = (v: unknown): number => (v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (v, max) => {
      expect(nestedDeeperThan(JSON.stringify(v), max)).toBe(depthOf(v) > max);
    }), { seed: 24, numRuns: 300 });
  });

  it('a lost create never claims records another create of the run already owns (equal tagged values)', async () => {
    const ledger = new Ledger(undefined, 'sc');
    const c = client({ ledger });
    const first = '33333333-3333-3333-3333-333333333333';
    const second = '44444444-4444-4444-4444-444444444444';
    handler = (_req, _b, res) => json(res, 200, [{ id: first, name: 'sc-same' }]);
    expect((await c.create('collection', [{ name: 'sc-same' }])).ok).toBe(true);
    // the second create of the same values loses its answer; the lookup finds both records
    handler = (req, _b, res) => (req.url!.endsWith('/create') ? json(res, 502, { error: 'gateway' }) : json(res, 200, [{ id: first, name: 'sc-same' }, { id: second, name: 'sc-same' }]));
    const lost = await c.create('collection', [{ name: 'sc-same' }]);
    expect(lost.recovered).toEqual([second]);
    await c.close();
  });

  describe('ownership of what a create answered (no read-back of its own)', () => {
    const mine = ['a1111111-1111-1111-1111-111111111111', 'a2222222-2222-2222-2222-222222222222', 'a3333333-3333-3333-3333-333333333333'];
    const theirs = 'b9999999-9999-9999-9999-999999999999';
    /** the store: creates answered under `ids`; gets by id list `held` (what the store really has under those ids) */
    function store(ids: string[], held: Record<string, string>) {
      handler = (req, body, res) => {
        const b = JSON.parse(body);
        if (req.url!.endsWith('/create')) return json(res, 200, b.data.map((x: { name: string }, i: number) => ({ id: ids[i], name: x.name })));
        if (req.url!.endsWith('/delete')) return json(res, 200, { success: 'true' });
        const asked: string[] = b.filters?.id ?? [];
        return json(res, 200, asked.filter((id) => id in held).map((id) => ({ id, name: held[id] })));
      };
    }
    const sent = (path: string) => seen.filter((x) => x.url.endsWith(path)).length;

    it('a create is one request; its intent resolves once a get shows every id carrying the tag, and no read-back precedes a write', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sc-own-'));
      const ledger = new Ledger(join(dir, 'ledger.jsonl'), 'sc');
      const c = client({ ledger });
      store(mine.slice(0, 2), { [mine[0]]: 'sc-a', [mine[1]]: 'sc-b' });
      seen.length = 0;
      expect((await c.create('collection', [{ name: 'sc-a' }, { name: 'sc-b' }])).ok).toBe(true);
      expect(seen.map((x) => x.url.split('/').pop())).toEqual(['create']);
      expect(ledger.owns('collection', mine[0])).toBe(true);
      expect(ledger.openIntents()).toEqual([expect.objectContaining({ answered: true })]);
      // a crash now: the ledger file keeps the intent open (its ids not yet shown), with the ids owned
      expect(Ledger.load([join(dir, 'ledger.jsonl')], 'x', 'sc').openIntents()).toHaveLength(1);
      await c.byIds('collection', [mine[0]]);
      expect(ledger.openIntents()).toHaveLength(1);
      await c.get('collection', { filters: { name: ['sc-b'] } }).catch(() => undefined);
      await c.byIds('collection', [mine[1]]);
      expect(ledger.openIntents()).toEqual([]);
      expect(Ledger.load([join(dir, 'ledger.jsonl')], 'x', 'sc').openIntents()).toEqual([]);
      seen.length = 0;
      expect((await c.delete('collection', mine.slice(0, 2))).ok).toBe(true);
      expect(seen.map((x) => x.url.split('/').pop())).toEqual(['delete']);
      await c.close();
    });

    it('an id a get shows without the tag is disowned: writes to it are refused unsent, and the intent stays open in the file', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sc-own-'));
      const file = join(dir, 'ledger.jsonl');
      const ledger = new Ledger(file, 'sc');
      const c = client({ ledger });
      store([mine[0], theirs], { [mine[0]]: 'sc-a', [theirs]: 'their own record' });
      expect((await c.create('collection', [{ name: 'sc-a' }, { name: 'sc-b' }])).ok).toBe(true);
      await c.byIds('collection', [mine[0], theirs]);
      expect(ledger.owns('collection', theirs)).toBe(false);
      expect(ledger.isDisowned('collection', theirs)).toBe(true);
      seen.length = 0;
      const del = await c.delete('collection', [theirs]);
      const upd = await c.update('collection', [{ id: theirs, name: 'sc-x' }]);
      expect([del.ok, upd.ok]).toEqual([false, false]);
      expect(del.problem).toMatch(/without the run's tag under that id/);
      expect(seen).toEqual([]);
      // cleanup (a ledger loaded from the file) still looks up what the create really stored
      const loaded = Ledger.load([file], 'x', 'sc');
      expect(loaded.openIntents()).toHaveLength(1);
      expect(loaded.owns('collection', theirs)).toBe(false);
      expect(loaded.owns('collection', mine[0])).toBe(true);
      await c.close();
    });

    it('the first write to an id no get has shown reads it back first; writes started together share one read-back', async () => {
      const ledger = new Ledger(undefined, 'sc');
      const c = client({ ledger });
      store([...mine, theirs], { [mine[0]]: 'sc-a', [mine[1]]: 'sc-b', [mine[2]]: 'sc-c', [theirs]: 'their own record' });
      await c.create('collection', ['sc-a', 'sc-b', 'sc-c', 'sc-d'].map((name) => ({ name })));
      seen.length = 0;
      const [d1, u2, d4] = await Promise.all([
        c.delete('collection', [mine[0]]),
        c.update('collection', [{ id: mine[1], name: 'sc-b2' }]),
        c.delete('collection', [theirs]),
      ]);
      expect(sent('/get')).toBe(1);
      expect(JSON.parse(seen.find((x) => x.url.endsWith('/get'))!.body).filters.id.sort()).toEqual([mine[0], mine[1], theirs].sort());
      expect([d1.ok, u2.ok, d4.ok]).toEqual([true, true, false]);
      expect(sent('/delete')).toBe(1);
      // confirmed once: no second read-back
      seen.length = 0;
      await c.update('collection', [{ id: mine[1], name: 'sc-b3' }]);
      expect(sent('/get')).toBe(0);
      await c.close();
    });

    it('ids an ownership read-back leaves unlisted are asked again alone before they count as harmless (a page smaller than the list)', async () => {
      const ledger = new Ledger(undefined, 'sc');
      const c = client({ ledger });
      store([mine[0], theirs], { [mine[0]]: 'sc-a', [theirs]: 'their own record' });
      await c.create('collection', [{ name: 'sc-a' }, { name: 'sc-b' }]);
      // pages of one record: the first read-back lists only the first id asked
      const inner = handler;
      handler = (req, body, res) => {
        if (!req.url!.endsWith('/get')) return inner(req, body, res);
        const asked: string[] = JSON.parse(body).filters.id;
        const held: Record<string, string> = { [mine[0]]: 'sc-a', [theirs]: 'their own record' };
        return json(res, 200, asked.filter((id) => id in held).slice(0, 1).map((id) => ({ id, name: held[id] })));
      };
      seen.length = 0;
      const del = await c.delete('collection', [mine[0], theirs]);
      expect(del.ok).toBe(false);
      expect(sent('/get')).toBe(2);
      expect(sent('/delete')).toBe(0);
      await c.close();
    });
  });

  it('reports a timeout as a transport error', async () => {
    handler = () => undefined; // never answers
    const c = client({ timeoutMs: 200, retries: 0 });
    const r = await c.count('product');
    expect(r.exchange.transportError?.code).toBe('TIMEOUT');
    await c.close();
  });

  it('a read that timed out on every attempt says how many were made', async () => {
    handler = () => undefined; // never answers
    const c = client({ timeoutMs: 100, retries: 1 });
    const r = await c.count('product');
    expect(r.exchange.transportError?.code).toBe('TIMEOUT');
    expect(r.exchange.attempts).toBe(2);
    expect(r.exchange.transportError?.message).toMatch(/no complete answer within 100 ms \(after 2 attempts\)$/);
    await c.close();
  });

  it('gives its slot of the gate back once the answer is in, before parsing it (the parse is the client\'s time)', async () => {
    handler = (_req, _b, res) => json(res, 200, [{ id: 'x', name: 'n' }]);
    const gate = SharedGate.create(1);
    const c = client({ gate });
    const parse = JSON.parse;
    const takenAtParse: number[] = [];
    JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      if (text.includes('"name":"n"')) takenAtParse.push(gate.taken);
      return parse(text, reviver);
    }) as typeof JSON.parse;
    try {
      const r = await c.get('product');
      expect(r.ok).toBe(true);
    } finally {
      JSON.parse = parse;
      await c.close();
    }
    expect(takenAtParse).toEqual([0]);
    expect(gate.taken).toBe(0);
  });

  it('a retry not sent because another request gave the endpoint up says so in the time-out it keeps', async () => {
    handler = () => undefined; // never answers
    const gate = SharedGate.create(8);
    gate.endpoints.setThreshold(2);
    const a = client({ timeoutMs: 150, retries: 3, gate });
    // both time out once at about the same moment; one of them gives the endpoint up, the other's retry is not sent
    const [x, y] = await Promise.all([a.count('product'), a.count('product')]);
    const messages = [x, y].map((r) => r.exchange.transportError?.message ?? '');
    expect(messages.every((m) => / given up after 2 consecutive time-outs/.test(m)), messages.join('\n')).toBe(true);
    expect(messages.some((m) => /not retried: \/api\/v1\/products\/count was given up/.test(m)), messages.join('\n')).toBe(true);
    await a.close();
  });

  it('gives an endpoint up after 3 consecutive time-outs, for every client sharing the gate: nothing more is sent to it, the others still answer', async () => {
    // the product count hangs (a silent socket); every other path answers
    handler = (req, _body, res) => {
      if (!req.url?.endsWith('/products/count')) json(res, 200, { count: '1' });
    };
    const gate = SharedGate.create(8);
    const a = client({ timeoutMs: 150, retries: 3, gate });
    const b = client({ timeoutMs: 150, retries: 3, gate: new SharedGate(gate.buffer) });
    const before = seen.length;
    const t0 = Date.now();
    // three attempts time out (the read is retried); the third gives the endpoint up: no fourth
    const first = await a.count('product');
    expect(first.exchange.transportError?.code).toBe('TIMEOUT');
    expect(first.exchange.transportError?.message).toMatch(/\/api\/v1\/products\/count given up after 3 consecutive time-outs/);
    const later = await Promise.all([a.count('product'), b.count('product'), b.count('product')]);
    for (const r of later) {
      expect(r.exchange.transportError?.code).toBe('GIVEN_UP');
      expect(r.exchange.notSent).toBe(true);
      expect(r.problem).toMatch(/not sent: \/api\/v1\/products\/count was given up after 3 consecutive time-outs \(no complete answer within 150 ms\)/);
    }
    // three time-outs and two backoff pauses (at most 100 and 200 ms), then nothing more to wait for
    expect(Date.now() - t0).toBeLessThan(3 * 150 + 300 + 1000);
    expect(seen.slice(before).filter((x) => x.url.endsWith('/products/count'))).toHaveLength(3);
    expect((await b.count('tax')).ok).toBe(true);
    expect(gate.endpoints.givenUpEndpoints()).toEqual([{ path: '/api/v1/products/count', timeouts: 3, refused: 3 }]);
    await a.close();
    await b.close();
  });

  it('refuses writes in read-only mode before sending anything', async () => {
    seen.length = 0;
    const c = client({ readOnly: true });
    await expect(c.create('product', [{}])).rejects.toBeInstanceOf(ReadOnlyViolation);
    await expect(c.raw('/api/v1/products/delete', {})).rejects.toBeInstanceOf(ReadOnlyViolation);
    expect(seen).toHaveLength(0);
    await c.close();
  });

  it('a create cancelled before it was sent leaves no open intent; one cut off in flight stays open for cleanup', async () => {
    seen.length = 0;
    const ledger = new Ledger(undefined, 'tg');
    const stopped = client({ ledger });
    stopped.http.cancel('stopped by the test');
    const r = await stopped.create('collection', [{ name: 'tg-a', slug: 'tg-a' }]);
    await stopped.close();
    expect(r.exchange.notSent).toBe(true);
    expect(seen).toHaveLength(0);
    expect(ledger.openIntents()).toEqual([]);
    // in flight when the run stops: the target may have stored it, so cleanup must look
    handler = () => undefined;
    const cut = client({ ledger });
    const pending = cut.create('collection', [{ name: 'tg-b', slug: 'tg-b' }]);
    while (seen.length === 0) await new Promise((res) => setTimeout(res, 5));
    cut.http.cancel('stopped by the test');
    const lost = await pending;
    await cut.close();
    expect(lost.exchange.notSent).toBeUndefined();
    expect(lost.exchange.transportError?.code).toBe('CANCELLED');
    expect(ledger.openIntents().map((i) => i.values)).toEqual([['tg-b']]);
  });

  it('records created ids in the ledger and refuses to touch ids it does not own', async () => {
    handler = (_req, body, res) => json(res, 200, JSON.parse(body).data.map((_: unknown, i: number) => ({ id: `00000000-0000-0000-0000-00000000000${i}` })));
    const ledger = new Ledger(undefined, 't');
    const c = client({ ledger });
    await c.create('collection', [{ name: 'a' }, { name: 'b' }]);
    expect(ledger.owns('collection', '00000000-0000-0000-0000-000000000001')).toBe(true);
    await expect(c.delete('collection', ['11111111-1111-1111-1111-111111111111'])).rejects.toBeInstanceOf(NotOwnedError);
    await expect(c.update('collection', [{ id: '11111111-1111-1111-1111-111111111111' }])).rejects.toBeInstanceOf(NotOwnedError);
    await c.close();
  });
});

describe('postOn (undici dispatch handler)', () => {
  const post = (agent: InstanceType<typeof Agent>, pending?: PendingPost, maxBodyBytes = 1 << 20) =>
    postOn(agent, { origin: base, path: '/x', headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5000, maxBodyBytes }, pending);

  it('collects status, joined repeated headers and the body; cuts a body over the limit', async () => {
    handler = (_q, _b, res) => {
      res.writeHead(201, [['content-type', 'application/json'], ['x-twice', 'a'], ['x-twice', 'b']]);
      res.end('{"ok":"1","pad":"' + 'z'.repeat(100) + '"}');
    };
    const agent = new Agent({ connections: 1 });
    try {
      const whole = await post(agent);
      expect(whole).toMatchObject({ status: 201, truncated: false, headers: { 'x-twice': 'a, b' } });
      expect(JSON.parse(whole.body.toString('utf8')).ok).toBe('1');
      const cut = await post(agent, undefined, 10);
      expect(cut.truncated).toBe(true);
      expect(cut.body.toString('utf8')).toBe('{"ok":"1",');
    } finally {
      await agent.close();
    }
  });

  it('takes every chunk from the answer budget; cuts the answer where the budget runs out, keeping none of it', async () => {
    handler = (_q, _b, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[' + '"x",'.repeat(20_000) + '"y"]');
    };
    const agent = new Agent({ connections: 1 });
    try {
      const gate = SharedGate.create(4, 16 * 1024);
      const budget = { take: (n: number) => gate.takeBytes(n) };
      const req = (b?: typeof budget) => postOn(agent, { origin: base, path: '/x', headers: {}, body: '{}', timeoutMs: 5000, maxBodyBytes: 1 << 20, budget: b });
      const cut = await req(budget);
      expect(cut).toMatchObject({ truncated: true, cut: 'budget' });
      expect(cut.taken).toBeLessThanOrEqual(16 * 1024);
      gate.giveBytes(cut.taken);
      // given back: a small answer fits again, and takes exactly its size
      handler = (_q, _b, res) => res.end('[]');
      const small = await req(budget);
      expect(small).toMatchObject({ truncated: false, taken: 2 });
      gate.giveBytes(small.taken);
      expect(gate.takeBytes(16 * 1024)).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it('abort() rejects at once, also a request still queued behind a busy connection', async () => {
    const held: ServerResponse[] = [];
    handler = (_q, _b, res) => void held.push(res);
    const agent = new Agent({ connections: 1 });
    try {
      const first = new PendingPost();
      const queued = new PendingPost();
      const a = post(agent, first);
      const b = post(agent, queued);
      await new Promise((r) => setTimeout(r, 50));
      // rejected with the abort's reason, not the 5 s timeout's: the queued request did not wait for the first
      queued.abort('stop');
      await expect(b).rejects.toBe('stop');
      first.abort('stop');
      await expect(a).rejects.toBe('stop');
    } finally {
      for (const res of held) res.destroy();
      await agent.destroy();
    }
  });
});
