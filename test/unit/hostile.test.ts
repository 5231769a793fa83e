/**
 * Hostile answers, at the unit level against a tiny node:http server: whatever
 * comes back, the client returns a result naming what was wrong, and a check's
 * judgement of it (requireOk — what ctx.ok does — and Scope.create) is a clear
 * CheckFailure or TargetError carrying the exchange, so the report names the
 * request. Never a crash, never an unhandled rejection.
 *
 * Decisions, per answer:
 * - 200 with a body that is not JSON (plain text, cut JSON, an HTML error page),
 *   an empty 200, a 204, or JSON of the wrong shape: the answer is judged —
 *   non-conformant (CheckFailure). §4 Responses say what a get/count/create returns.
 * - a body larger than the client's cap: cut, not parsed, and a TargetError —
 *   the spec allows big answers (1000 pages of 65535 characters), so a cap of
 *   ours is no verdict on the target.
 * - a connection closed before the announced body ended, a 502 HTML page: no
 *   usable answer — TargetError (reads were retried first).
 * - valid JSON under a wrong content type: the spec names no response content
 *   type, so the JSON is judged on its merits (the header stays in the evidence).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckFailure, requireOk, Scope, TargetError } from '../../src/check/index.js';
import { Ledger, StoreClient, type CallResult } from '../../src/client/index.js';
import { SharedGate } from '../../src/client/gate.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let server: Server;
let base = '';
let handler: Handler = (_q, res) => res.end();
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const CAP = 64 * 1024;
const client = () => new StoreClient({
  baseUrl: base, apiKey: 'hostile-key-0001', timeoutMs: 2000, connections: 2, retries: 1, maxBodyBytes: CAP,
  ledger: new Ledger(undefined, 'sc0badf00d'),
});

const send = (status: number, type: string | undefined, body: string | Buffer): Handler => (_q, res) => {
  res.writeHead(status, type ? { 'content-type': type } : {});
  res.end(body);
};
const HTML = '<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>Back soon</h1></body></html>';

/** What a check makes of a call that must succeed: the error it throws (or the value). */
function judged<T>(result: CallResult<T>, what: string): { value?: T; error?: CheckFailure | TargetError } {
  try {
    return { value: requireOk(result, what) };
  } catch (e) {
    expect(e instanceof CheckFailure || e instanceof TargetError, `unexpected ${String(e)}`).toBe(true);
    return { error: e as CheckFailure | TargetError };
  }
}

function evidenceOf(e: CheckFailure | TargetError) {
  return e instanceof CheckFailure ? e.detail.evidence ?? [] : e.evidence;
}

const CASES: Array<{ name: string; handler: Handler; kind: 'failure' | 'target-error'; problem: RegExp }> = [
  { name: 'a 200 that is not JSON', handler: send(200, 'text/plain', 'Service OK'), kind: 'failure', problem: /not JSON/ },
  { name: 'cut JSON (a complete answer, half the array)', handler: send(200, 'application/json', '[{"id":"3f2a","name":"Sh'), kind: 'failure', problem: /not JSON/ },
  { name: 'an HTML error page with status 200', handler: send(200, 'text/html', HTML), kind: 'failure', problem: /not JSON.*<!DOCTYPE html>/s },
  { name: 'an empty 200', handler: send(200, 'application/json', ''), kind: 'failure', problem: /empty body/ },
  { name: 'a 204 No Content', handler: (_q, res) => { res.writeHead(204); res.end(); }, kind: 'failure', problem: /HTTP 204.*empty body/ },
  { name: 'an object where an array is due', handler: send(200, 'application/json', '{"records":[]}'), kind: 'failure', problem: /expected an array of records, got \{"records":\[\]\}/ },
  { name: 'a body over the client cap', handler: send(200, 'application/json', JSON.stringify([{ id: 'x', content: 'y'.repeat(CAP * 3) }])), kind: 'target-error', problem: /larger than the client's limit of 65536 bytes/ },
  { name: 'a 502 HTML page', handler: send(502, 'text/html', HTML), kind: 'target-error', problem: /HTTP 502/ },
  {
    name: 'a connection closed mid-body',
    handler: (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('[{"id":"a"');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    kind: 'target-error',
    problem: /no answer/,
  },
];

describe('hostile answers to a get', () => {
  it.each(CASES)('$name → $kind naming the request', async ({ handler: h, kind, problem }) => {
    handler = h;
    const c = client();
    const res = await c.get('product', { filters: { name: ['x'] } });
    await c.close();
    expect(res.ok).toBe(false);
    expect(res.problem).toMatch(problem);
    expect(res.exchange.request.url).toBe(`${base}/api/v1/products/get`);
    const { error } = judged(res, 'product get');
    expect(error).toBeInstanceOf(kind === 'failure' ? CheckFailure : TargetError);
    expect(error!.message).toMatch(/^product get: /);
    const ev = evidenceOf(error!);
    expect(ev).toHaveLength(1);
    expect(ev[0].request.url).toBe(`${base}/api/v1/products/get`);
    expect(ev[0].request.path).toBe('/api/v1/products/get');
  });

  it('valid JSON under a wrong content type is judged as JSON (the spec names no content type)', async () => {
    handler = send(200, 'text/html', '[{"id":"a"}]');
    const c = client();
    const res = await c.get('product');
    await c.close();
    expect(res.ok).toBe(true);
    expect(res.exchange.response?.headers['content-type']).toBe('text/html');
  });

  it('a count answered with HTML, a number, or a non-integer string fails naming the count', async () => {
    const c = client();
    for (const [h, re] of [
      [send(200, 'text/html', HTML), /not JSON/],
      [send(200, 'application/json', '{"count":7}'), /\{count: String\}/],
      [send(200, 'application/json', '{"count":"7.5"}'), /integer/],
    ] as const) {
      handler = h;
      const res = await c.count('product');
      expect(res.ok).toBe(false);
      expect(res.problem).toMatch(re);
      expect(judged(res, 'product count').error).toBeInstanceOf(CheckFailure);
      expect(res.exchange.request.path).toBe('/api/v1/products/count');
    }
    await c.close();
  });
});

describe('hostile answers to a create (what Scope.create, used by every writing check, makes of them)', () => {
  // the create carries a run-tagged unique value, so a lost answer is looked up, and sent again only
  // when the lookup finds nothing stored
  const item = { name: 'sc0badf00d-hostile-1', slug: 'sc0badf00d-hostile-1' };

  it.each(CASES.filter((c) => c.name !== 'a body over the client cap'))('$name → $kind, and the records are looked up before the create is sent again', async ({ name, handler: h, kind }) => {
    const seen: string[] = [];
    handler = (req, res) => {
      seen.push(req.url ?? '');
      // the lookup (a get) gets a clean empty answer; the create gets the hostile one
      if (req.url?.endsWith('/get')) return send(200, 'application/json', '[]')(req, res);
      h(req, res);
    };
    const c = client();
    const scope = new Scope(c, null);
    const err = await scope.create('collection', [item]).then(() => undefined, (e: unknown) => e);
    await c.close();
    expect(err).toBeInstanceOf(kind === 'failure' ? CheckFailure : TargetError);
    const ev = evidenceOf(err as CheckFailure | TargetError);
    expect(ev[0].request.path).toBe('/api/v1/products/collections/create');
    expect((err as Error).message).toMatch(/create/);
    // an answer without ids is followed by a lookup; when it was no usable answer at all (lost, 5xx, not
    // JSON) the outcome is unknown and, the lookup finding nothing, the create is sent again (twice at
    // most). JSON of the wrong shape is an answer: judged as it is, never resent
    const sends = name === 'an object where an array is due' ? 1 : 3;
    expect(seen.filter((u) => u.endsWith('/create'))).toHaveLength(sends);
    expect(seen.filter((u) => u.endsWith('/get'))).toHaveLength(sends);
  });

  it('a create whose answer was unusable but which stored the record: the lookup owns it, the ledger records it, the scope deletes it', async () => {
    const deleted: unknown[] = [];
    handler = (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      if (req.url?.endsWith('/create')) return send(200, 'text/html', HTML)(req, res);
      if (req.url?.endsWith('/get')) return send(200, 'application/json', JSON.stringify([{ id: '0b9c8a36-1111-4a4a-9c9c-000000000001', name: item.name }]))(req, res);
      if (req.url?.endsWith('/delete')) { deleted.push(req.url); return send(200, 'application/json', '{"success":"true"}')(req, res); }
      res.end();
    };
    const ledger = new Ledger(undefined, 'sc0badf00d');
    const c = new StoreClient({ baseUrl: base, apiKey: 'hostile-key-0001', timeoutMs: 2000, connections: 2, retries: 1, ledger });
    const res = await c.create('collection', [item]);
    expect(res.ok).toBe(false);
    expect(res.recovered).toEqual(['0b9c8a36-1111-4a4a-9c9c-000000000001']);
    expect(ledger.owns('collection', '0b9c8a36-1111-4a4a-9c9c-000000000001')).toBe(true);
    expect(ledger.openIntents()).toEqual([]);
    await c.close();
  });

  it('a lookup never claims a record whose unique value lacks the run tag', async () => {
    handler = (req, res) => {
      if (req.url?.endsWith('/create')) { req.socket.destroy(); return; }
      // the store answers the lookup with a record of the same name that is not ours
      send(200, 'application/json', JSON.stringify([{ id: '0b9c8a36-2222-4a4a-9c9c-000000000002', name: 'shop-collection' }]))(req, res);
    };
    const ledger = new Ledger(undefined, 'sc0badf00d');
    const c = new StoreClient({ baseUrl: base, apiKey: 'hostile-key-0001', timeoutMs: 2000, connections: 2, retries: 1, ledger });
    const res = await c.create('collection', [{ name: 'shop-collection', slug: 'shop-collection' }]);
    expect(res.ok).toBe(false);
    expect(res.recovered ?? []).toEqual([]);
    expect(ledger.createdCount()).toBe(0);
    await c.close();
  });
});

describe('updates and deletes: only the run\'s own records, and lost answers resolved', () => {
  const ID = '0b9c8a36-3333-4a4a-9c9c-000000000003';
  const TAG = 'sc0badf00d';
  /** a client whose ledger owns ID (its create answer carried the tag), and the requests the server saw */
  function owned(resource: string, h: (path: string, res: ServerResponse, n: number) => void) {
    const seen: string[] = [];
    handler = (req, res) => {
      seen.push(req.url ?? '');
      h(req.url ?? '', res, seen.filter((u) => u === req.url).length);
    };
    const ledger = new Ledger(undefined, TAG);
    ledger.recordCreated(resource, [ID]);
    const c = new StoreClient({ baseUrl: base, apiKey: 'hostile-key-0001', timeoutMs: 2000, connections: 2, retries: 0, ledger });
    return { c, seen, ledger };
  }
  const json = (res: ServerResponse, body: unknown) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
  /** every update and delete answer lost; the get shows what the case says */
  const allLost = (resource: string, shown: () => unknown[]) => owned(resource, (path, res) => (path.endsWith('/get') ? json(res, shown()) : void res.socket?.destroy()));

  it('a get by id showing a record without the run tag under an owned id: update and delete refused, never sent', async () => {
    const { c, seen } = owned('collection', (path, res) => (path.endsWith('/get') ? json(res, [{ id: ID, name: 'the shop\'s own collection' }]) : json(res, { success: 'true' })));
    const up = await c.update('collection', [{ id: ID, name: `${TAG}-x` }]);
    const del = await c.delete('collection', [ID]);
    await c.close();
    for (const r of [up, del]) {
      expect(r.ok).toBe(false);
      expect(r.problem).toMatch(/refused to (update|delete) .*without the run's tag/);
    }
    expect(seen.filter((u) => !u.endsWith('/get'))).toEqual([]);
  });

  it('confirmed once per id: a record showing the tag is written to, and not asked about again', async () => {
    const { c, seen } = owned('collection', (path, res) => (path.endsWith('/get') ? json(res, [{ id: ID, name: `${TAG}-mine` }]) : path.endsWith('/update') ? json(res, [{ id: ID, name: `${TAG}-y` }]) : json(res, { success: 'true' })));
    expect((await c.update('collection', [{ id: ID, name: `${TAG}-y` }])).ok).toBe(true);
    expect((await c.delete('collection', [ID])).ok).toBe(true);
    await c.close();
    expect(seen.map((u) => u.split('/').pop())).toEqual(['get', 'update', 'delete']);
  });

  it('an update whose answer was lost is sent again; of a versioned record, only when a read-back does not show it', async () => {
    const lostFirst = (path: string, res: ServerResponse, n: number, shown: string) => {
      if (path.endsWith('/get')) return json(res, [{ id: ID, title: shown, name: shown }]);
      if (n === 1) return void res.socket?.destroy();
      json(res, [{ id: ID, title: shown, name: shown }]);
    };
    const plain = owned('collection', (p, res, n) => lostFirst(p, res, n, `${TAG}-old`));
    expect((await plain.c.update('collection', [{ id: ID, name: `${TAG}-new` }])).ok).toBe(true);
    await plain.c.close();
    expect(plain.seen.filter((u) => u.endsWith('/update'))).toHaveLength(2);
    // the blog post shows the new title when read back: the update was applied, a resend would add a version
    const versioned = owned('blog-post', (p, res, n) => lostFirst(p, res, n, `${TAG}-new`));
    const res = await versioned.c.update('blog-post', [{ id: ID, title: `${TAG}-new` }]);
    await versioned.c.close();
    expect(res.ok).toBe(false);
    expect(res.applied).toBe(true);
    expect(versioned.seen.filter((u) => u.endsWith('/update'))).toHaveLength(1);
  });

  it('writes whose every answer is lost: done when a read-back shows them applied, not when it does not', async () => {
    let record: unknown[] = [{ id: ID, name: `${TAG}-new` }];
    const up = allLost('collection', () => record);
    const applied = await up.c.update('collection', [{ id: ID, name: `${TAG}-new` }]);
    expect(applied).toMatchObject({ ok: false, applied: true });
    record = [{ id: ID, name: `${TAG}-old` }];
    const notApplied = await up.c.update('collection', [{ id: ID, name: `${TAG}-new` }]);
    expect(notApplied.ok).toBe(false);
    expect(notApplied.applied).toBeUndefined();
    await up.c.close();
    expect(up.seen.filter((u) => u.endsWith('/update'))).toHaveLength(6);
    // a delete: gone when read back, or still there
    let listed: unknown[] = [];
    const del = allLost('collection', () => listed);
    expect(await del.c.delete('collection', [ID])).toMatchObject({ ok: false, applied: true });
    listed = [{ id: ID, name: `${TAG}-mine` }];
    expect((await del.c.delete('collection', [ID])).applied).toBeUndefined();
    await del.c.close();
  });

  it('an update whose every answer is lost, supplying a property no record shows (product fileid): applied when the shown ones are', async () => {
    const { c, seen } = allLost('product', () => [{ id: ID, name: `${TAG}-new`, sku: `${TAG}-sku` }]);
    const up = await c.update('product', [{ id: ID, name: `${TAG}-new`, sku: `${TAG}-sku`, fileid: '05b755bb-82ce-41af-badc-277fa5e2f04c' }]);
    await c.close();
    expect(up).toMatchObject({ ok: false, applied: true });
    expect(seen.filter((u) => u.endsWith('/update'))).toHaveLength(3);
  });

  it('a delete whose answer was lost is sent again (it is idempotent)', async () => {
    const { c, seen } = owned('collection', (path, res, n) => {
      if (path.endsWith('/get')) return json(res, [{ id: ID, name: `${TAG}-mine` }]);
      if (n === 1) return void res.socket?.destroy();
      json(res, { success: 'true' });
    });
    expect((await c.delete('collection', [ID])).ok).toBe(true);
    await c.close();
    expect(seen.filter((u) => u.endsWith('/delete'))).toHaveLength(2);
  });
});

describe('a hostile transport', () => {
  it('503 with Retry-After: reads retried up to 6 times; without it, up to --retries; writes never', async () => {
    let n = 0;
    const c = new StoreClient({ baseUrl: base, apiKey: 'hostile-key-0001', timeoutMs: 2000, connections: 1, retries: 2 });
    handler = (_q, res) => { n++; res.writeHead(503, { 'retry-after': '0', 'content-type': 'application/json' }); res.end('{}'); };
    expect((await c.count('product')).exchange.attempts).toBe(7);
    expect(n).toBe(7);
    handler = (req, res) => { n++; send(503, 'application/json', '{}')(req, res); };
    n = 0;
    const plain = await c.count('product');
    expect(plain.exchange.attempts).toBe(3);
    expect(requireOk.bind(null, plain, 'product count')).toThrow(TargetError);
    n = 0;
    await c.raw('/api/v1/products/update', { data: [] });
    expect(n).toBe(1);
    await c.close();
  });

  it('cancel(): the request in flight ends at once as CANCELLED, later ones are not sent', async () => {
    let n = 0;
    handler = () => { n++; }; // never answers
    const c = new StoreClient({ baseUrl: base, apiKey: 'hostile-key-0001', timeoutMs: 10_000, connections: 1, retries: 3 });
    const pending = c.get('product');
    await new Promise((r) => setTimeout(r, 100));
    const t0 = performance.now();
    c.http.cancel('interrupted by SIGINT');
    const first = await pending;
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(first.exchange.transportError).toEqual({ code: 'CANCELLED', message: 'abandoned: interrupted by SIGINT' });
    const later = await c.count('product');
    expect(later.exchange.transportError?.code).toBe('CANCELLED');
    expect(n).toBe(1);
    expect(judged(later, 'product count').error).toBeInstanceOf(TargetError);
    await c.close();
  });

  it('--max-rps: starts stay 1000/rps ms apart even when a busy event loop fires the timers late', async () => {
    // The starts are taken where the client makes them: when the gate gives a request its turn, on the
    // gate's own clock (Date.now). Arrivals at a server in this same process were measured before; on a
    // loaded machine the process waits for a core and the server reads requests sent 100 ms apart
    // moments apart (gaps of 11-60 ms in 5 of 6 runs side by side at a load of 17): a flake, not the
    // client. An arrival still cannot precede its send, so the server's last arrival bounds the span.
    const arrivals: number[] = [];
    handler = (req, res) => { arrivals.push(Date.now()); send(200, 'application/json', '{"count":"1"}')(req, res); };
    const gate = SharedGate.create(4);
    const starts: number[] = [];
    const pace = gate.pace.bind(gate);
    gate.pace = async (...args: Parameters<SharedGate['pace']>) => {
      await pace(...args);
      starts.push(Date.now());
    };
    const c = new StoreClient({ baseUrl: base, apiKey: 'hostile-key-0001', timeoutMs: 2000, connections: 4, maxRps: 10, gate });
    const all = Promise.all(Array.from({ length: 6 }, () => c.count('product')));
    // hold the event loop for 350 ms: four turns are due meanwhile, and must not go out together
    const until = performance.now() + 350;
    while (performance.now() < until) { /* busy */ }
    await all;
    await c.close();
    expect(starts).toHaveLength(6);
    expect(arrivals).toHaveLength(6);
    // Date.now is whole milliseconds and the gate counts in 0.1 ms ticks of it: 100 ms apart, give or take 1
    const gaps = starts.slice(1).map((t, i) => t - starts[i]);
    for (const g of gaps) expect(g, `gaps between starts: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(99);
    expect(Math.max(...arrivals) - starts[0]).toBeGreaterThanOrEqual(5 * 99);
  });
});

describe('no unhandled rejection', () => {
  it('none was raised by any case above', () => {
    expect(unhandled).toEqual([]);
  });
});
