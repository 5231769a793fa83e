/**
 * Reads sent once and shared (src/client/shared-reads.ts): only reads the run
 * cannot change are shared — a resource it does not write, or a refused read
 * with a key that is not the run's — never a write, never a read of a resource
 * it writes with its own key, never an answer that is no usable verdict.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StoreClient } from '../../src/client/index.js';
import { SharedReads } from '../../src/client/shared-reads.js';
import { chainOf } from '../../src/client/chain.js';
import { toEvidence } from '../../src/report/evidence.js';
import { exchangeText } from '../../src/report/common.js';

const KEY = 'secret-key-123';
let server: Server;
let base = '';
let sent: string[] = [];
let answer: (path: string, body: string) => { status: number; value: unknown } = () => ({ status: 200, value: [] });
const empty = (path: string) => ({ status: 200, value: path.endsWith('/count') ? { count: '0' } : [] });

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      sent.push(`${req.url} ${body}`);
      const a = answer(req.url ?? '', body);
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.value));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  sent = [];
  answer = empty;
});

function clients(budget?: number) {
  let asker = 'first';
  const reads = new SharedReads(KEY, () => asker, budget);
  const c = new StoreClient({ baseUrl: base, apiKey: KEY, timeoutMs: 2000, connections: 2, retries: 0, sharedReads: reads });
  return { c, reads, ask: (who: string) => (asker = who) };
}

describe('SharedReads', () => {
  it('sends a read of a resource the run does not write once, and names who sent it on the answers it shares', async () => {
    const { c, reads, ask } = clients();
    const first = await c.get('order');
    ask('second');
    const [again, count] = await Promise.all([c.get('order'), c.count('order')]);
    const other = await c.get('order', { pagination: { pageSize: 5 } });
    await c.close();
    expect(sent).toHaveLength(3); // the get once, the count, the get with other pagination
    expect(first.exchange.sharedFrom).toBeUndefined();
    expect(again.exchange.sharedFrom).toBe('first');
    expect(again.exchange.response).toEqual(first.exchange.response);
    expect(count.exchange.sharedFrom).toBeUndefined();
    expect(other.exchange.sharedFrom).toBeUndefined();
    expect(reads.hits).toBe(1);
    // the shared answer is named in its evidence, and is on the sender's chain, not the asker's
    expect(toEvidence(again.exchange).sharedFrom).toBe('first');
    // and the views (report.md, report.html, junit.xml) say so beside the request
    expect(exchangeText(toEvidence(again.exchange), 1000).request).toContain('not sent again: the answer to this request sent for first');
    expect(exchangeText(toEvidence(first.exchange), 1000).request).not.toContain('not sent again');
    expect(chainOf([again.exchange]).roundTrips).toBe(0);
    expect(chainOf([first.exchange]).roundTrips).toBe(1);
  });

  it('shares the store get and requests sent together (the second waits for the first)', async () => {
    answer = () => ({ status: 200, value: { id: 's' } });
    const { c } = clients();
    const [a, b] = await Promise.all([c.store(), c.store()]);
    await c.close();
    expect(sent).toHaveLength(1);
    expect([a.exchange.sharedFrom, b.exchange.sharedFrom].filter(Boolean)).toEqual(['first']);
  });

  it('never shares a read of a resource the run writes with its own key, nor a write', async () => {
    answer = (path) => ({ status: 200, value: path.endsWith('/count') ? { count: '0' } : [] });
    const { c } = clients();
    await c.get('product');
    await c.get('product');
    await c.count('coupon');
    await c.count('coupon');
    await c.raw('/api/v1/orders/create', c.body({ data: [] }));
    await c.raw('/api/v1/orders/create', c.body({ data: [] }));
    await c.close();
    expect(sent).toHaveLength(6);
  });

  it('shares a read with another key only when it was refused: a served one may leak what is there at that moment', async () => {
    const wrong = { kind: 'other' as const, key: 'not-the-key' };
    answer = (_p, body) => (body.includes('not-the-key') ? { status: 401, value: { error: 'no' } } : { status: 200, value: [] });
    const { c } = clients();
    await c.get('product', { key: wrong });
    const again = await c.get('product', { key: wrong });
    expect(again.exchange.sharedFrom).toBe('first');
    expect(sent).toHaveLength(1);
    // a missing key served with a 2xx: sent each time
    await c.get('product', { key: { kind: 'missing' } });
    await c.get('product', { key: { kind: 'missing' } });
    await c.close();
    expect(sent).toHaveLength(3);
  });

  it('does not share an answer that is no usable verdict (a 5xx, a 429): the next asker sends its own', async () => {
    let n = 0;
    answer = () => (n++ === 0 ? { status: 503, value: 'busy' } : { status: 200, value: [] });
    const { c } = clients();
    await c.get('order');
    const second = await c.get('order');
    const third = await c.get('order');
    await c.close();
    expect(sent).toHaveLength(2);
    expect(second.exchange.sharedFrom).toBeUndefined();
    expect(third.exchange.sharedFrom).toBe('first');
  });

  it('keeps no more answer text than its budget: the oldest answers make way', async () => {
    answer = (path) => ({ status: 200, value: [{ id: path, text: 'x'.repeat(200) }] });
    const { c } = clients(600);
    await c.get('order');
    await c.get('customer');
    await c.get('tax');
    await c.get('tax');
    await c.get('order');
    await c.close();
    // order was dropped to keep tax within the budget, so it is sent again; tax is shared
    expect(sent.map((s) => s.split(' ')[0])).toEqual(['/api/v1/orders/get', '/api/v1/customers/get', '/api/v1/taxes/get', '/api/v1/orders/get']);
  });

  it('hands what one process kept to another (the probes\' answers to each worker), which shares them as its own', async () => {
    const main = clients();
    main.ask('the probes');
    await main.c.count('order');
    await main.c.get('product', { key: { kind: 'missing' } }); // served: not kept
    const worker = clients();
    // what crosses between threads is a structured clone
    worker.reads.seed(structuredClone(main.reads.kept()));
    const again = await worker.c.count('order');
    await main.c.close();
    await worker.c.close();
    expect(sent).toHaveLength(2);
    expect(again.value).toBe(0);
    expect(again.exchange.sharedFrom).toBe('the probes');
  });

  it('gives each asker its own records: one that sorts or edits what it got changes no other\'s', async () => {
    answer = () => ({ status: 200, value: [{ id: 'b' }, { id: 'a' }] });
    const { c } = clients();
    const first = await c.get('order');
    (first.value as Array<{ id: string }>).reverse()[0].id = 'edited';
    const second = await c.get('order');
    (second.value as Array<{ id: string }>).pop();
    const third = await c.get('order');
    await c.close();
    expect(sent).toHaveLength(1);
    expect(third.value).toEqual([{ id: 'b' }, { id: 'a' }]);
  });

  it('gives the store get\'s askers its records as answered, apikey included, while every text shows it redacted', async () => {
    const storeKey = 'store-own-apikey-456';
    answer = () => ({ status: 200, value: { id: 's', apikey: storeKey, name: 'Shop' } });
    const { c } = clients();
    const first = await c.store();
    first.value!.name = 'edited';
    const again = await c.store();
    const third = await c.store();
    await c.close();
    expect(sent).toHaveLength(1);
    expect(again.exchange.sharedFrom).toBe('first');
    // the text held a secret: the records are a copy of what was parsed, not a parse of the redacted text
    expect(again.value).toEqual({ id: 's', apikey: storeKey, name: 'Shop' });
    expect(third.value).toEqual({ id: 's', apikey: storeKey, name: 'Shop' });
    expect(again.value).not.toBe(third.value);
    for (const ex of [first.exchange, again.exchange]) expect(ex.response!.text).not.toContain(storeKey);
  });

  it('parses each asker\'s records from the answer\'s text when it held no secret', async () => {
    answer = () => ({ status: 200, value: { count: '3' } });
    const { c } = clients();
    const first = await c.count('order');
    const again = await c.count('order');
    await c.close();
    expect(again.exchange.json).toEqual(first.exchange.json);
    expect(again.exchange.json).not.toBe(first.exchange.json);
    expect(again.value).toBe(3);
  });
});
