/**
 * --base-url as users give it (issue 22, defects 3 and 4): credentials in it are refused with exit 2
 * and never printed; a query string is kept on every request; the messages show the URL as given.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/cli.js';
import { runMain as run } from '../helpers/main-in-process.js';
import { StoreClient } from '../../src/client/index.js';
import { apiUrl } from '../../src/client/http.js';
import { notTheApi } from '../../src/run/preflight.js';


describe('credentials in --base-url', () => {
  const urls = ['http://alice:s3cr3t-pw@127.0.0.1:1/', 'https://alice@store.example.test/api', 'https://:only-pw@store.example.test', 'http://a:p@ss@w0rd@127.0.0.1:1/x'];

  it('are refused with exit 2 before any request, the reason plain, the URL shown without them (run and sweep)', async () => {
    for (const url of urls) {
      const r = await run(['--base-url', url, '--quiet'], { STORE_API_KEY: 'k-123456' });
      expect(r.code, r.out).toBe(2);
      expect(r.out).toMatch(/carries credentials .*the API takes its key in the JSON body/);
      expect(r.out).toContain('***@');
      for (const secret of ['alice', 's3cr3t-pw', 'only-pw', 'w0rd']) expect(r.out).not.toContain(secret);
      const s = await run(['sweep', '--base-url', url, '--ledger', 'no-such-ledger.jsonl'], { STORE_API_KEY: 'k-123456' });
      expect(s.out).not.toMatch(/alice|s3cr3t|only-pw|w0rd/);
    }
    // from the environment, the same
    const e = await run(['--quiet'], { STORE_API_KEY: 'k-123456', STORE_BASE_URL: urls[0] });
    expect(e.code).toBe(2);
    expect(e.out).not.toContain('s3cr3t-pw');
  });

  it('a URL that does not parse is shown without what looks like credentials too', async () => {
    const r = await run(['--base-url', 'http://bob:hunter2@exa mple.test/', '--quiet'], { STORE_API_KEY: 'k-123456' });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/not a URL/);
    expect(r.out).not.toMatch(/bob|hunter2/);
  });

  it('a fragment is refused (never sent to a server); a query string is accepted as given', async () => {
    await expect(resolveConfig({ 'base-url': 'https://s.example.test/#/admin', 'api-key': 'k' })).rejects.toThrow(/fragment/);
    const cfg = await resolveConfig({ 'base-url': 'https://s.example.test/gw?tenant=a&x=1', 'api-key': 'k' });
    expect(cfg.baseUrl).toBe('https://s.example.test/gw?tenant=a&x=1');
  });
});

describe('a query string in --base-url', () => {
  let server: Server;
  let base = '';
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('[]');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('is kept on every request, after the API path, the base path kept before it', async () => {
    seen.length = 0;
    const c = new StoreClient({ baseUrl: `${base}/gw/?tenant=a&route=b`, apiKey: 'secret-key-123', timeoutMs: 2000, connections: 1, retries: 0 });
    const r = await c.get('product', {});
    await c.count('product', {});
    await c.close();
    expect(seen).toEqual(['/gw/api/v1/products/get?tenant=a&route=b', '/gw/api/v1/products/count?tenant=a&route=b']);
    expect(r.exchange.request.url).toBe(`${base}/gw/api/v1/products/get?tenant=a&route=b`);
  });

  it('an HTML error page of any status, or an answer too large, at the store get: "is --base-url the API root?", never "not JSON"', () => {
    const at = (status: number, type: string, extra: object = {}) =>
      notTheApi('https://s.example.test', { request: { method: 'POST', url: '', path: '', body: {} }, attempts: 1, durationMs: 1, response: { status, headers: { 'content-type': type }, text: '' }, ...extra } as never);
    expect(at(405, 'text/html')).toMatch(/answered HTTP 405 with an HTML page: is --base-url the API root/);
    expect(at(400, 'application/json')).toBeUndefined();
    const huge = notTheApi('https://s.example.test', { request: { method: 'POST', url: '', path: '', body: {} }, attempts: 1, durationMs: 1, parseError: "larger than the client's limit of 1048576 bytes; cut there and not judged", response: { status: 200, headers: { 'content-type': 'application/json' }, text: '{"name":"xxx', truncated: true } } as never);
    expect(huge).toMatch(/answered too large to judge \(larger than the client's limit of 1048576 bytes.*raise --max-answer-mb/);
    expect(huge).not.toMatch(/not JSON/);
  });

  it('messages name the URL storecheck asked, not the base with a path glued after its query', () => {
    expect(apiUrl('https://s.example.test/gw?t=a', '/api/v1/store/get')).toBe('https://s.example.test/gw/api/v1/store/get?t=a');
    // the client's own URLs (built from the base parsed once) are apiUrl's
    for (const base of ['https://s.example.test/gw?t=a', 'http://127.0.0.1:8080', 'https://s.example.test/a/b//', 'https://s.example.test:8443/x?y=1&z=%20']) {
      const c = new StoreClient({ baseUrl: base, apiKey: 'k-0123456789', timeoutMs: 1000, connections: 1 });
      expect(c.http.url('/api/v1/products/get')).toBe(apiUrl(base, '/api/v1/products/get'));
      void c.close();
    }
    const ex = { request: { method: 'POST', url: '', path: '', body: {} }, attempts: 1, durationMs: 1, response: { status: 404, headers: {}, text: '' } };
    expect(notTheApi('https://s.example.test/gw?t=a', ex as never)).toMatch(/^https:\/\/s\.example\.test\/gw\/api\/v1\/store\/get\?t=a answered 404/);
  });
});
