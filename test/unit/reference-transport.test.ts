/**
 * Transport faults for the robustness tests: seeded, deterministic, and by
 * default only on get/count.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReferenceOptions, ReferenceServer } from '../../reference/server.js';
import { call, payloadFor, referenceIds, res, start } from './reference-helpers.js';

async function withServer(opts: ReferenceOptions, fn: (srv: ReferenceServer) => Promise<void>) {
  const srv = await start(opts);
  try {
    await fn(srv);
  } finally {
    await srv.close();
  }
}

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const rawPost = (srv: ReferenceServer, path: string, init: RequestInit = {}) =>
  fetch(srv.url + path, { method: 'POST', body: JSON.stringify({ authentication: { apiKey: srv.apiKey } }), ...init });

describe('transport faults', () => {
  it('latencyMs delays every answer', () => withServer({ transport: { latencyMs: 120 } }, async (srv) => {
    const t0 = Date.now();
    expect((await call(srv, '/api/v1/taxes/count')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
  }));

  // 1 s: longer than sending the 33 MB body takes, so a 413 answered without the delay would show
  it('latencyMs delays error answers too: a wrong key, an unknown path, a body too large', () => withServer({ transport: { latencyMs: 1000 } }, async (srv) => {
    const timed = async (send: () => Promise<number>) => {
      const t0 = Date.now();
      const status = await send();
      return { status, ms: Date.now() - t0 };
    };
    const all = await Promise.all([
      timed(async () => (await call(srv, '/api/v1/taxes/count', {}, { key: 'wrong' })).status),
      timed(async () => (await call(srv, '/api/v1/nothing/here')).status),
      timed(async () => (await rawPost(srv, '/api/v1/taxes/get', { body: JSON.stringify({ pad: 'x'.repeat(33 * 1024 * 1024) }) }).catch(() => ({ status: 0 }))).status),
    ]);
    expect(all.map((t) => t.status)).toEqual([401, 404, 413]);
    for (const t of all) expect(t.ms).toBeGreaterThanOrEqual(990);
  }));

  it('slowWriteMinMs..MaxMs delays every create, update and delete (seeded, within the range), not reads', async () => {
    const writes = async (seed: number) => {
      const delays: number[] = [];
      await withServer({ transport: { slowWriteMinMs: 30, slowWriteMaxMs: 70, seed } }, async (srv) => {
        const refs = await referenceIds(srv);
        expect((await call(srv, '/api/v1/products/categories/get', { filters: { id: [refs.category] } })).status).toBe(200);
        expect(srv.stats.slowWrites).toBe(0);
        for (let i = 0; i < 2; i++) {
          const before = srv.stats.slowWriteMs;
          const t = Date.now();
          const created = await call(srv, '/api/v1/products/categories/create', { data: [payloadFor(res('category'), refs)] });
          expect(created.status).toBe(200);
          const id = created.body[0].id;
          expect((await call(srv, '/api/v1/products/categories/update', { data: [{ id, name: `renamed-${i}` }] })).status).toBe(200);
          expect((await call(srv, '/api/v1/products/categories/delete', { filter: [{ id: [id] }] })).status).toBe(200);
          const spent = srv.stats.slowWriteMs - before;
          expect(spent).toBeGreaterThanOrEqual(3 * 30);
          expect(spent).toBeLessThanOrEqual(3 * 70);
          expect(Date.now() - t).toBeGreaterThanOrEqual(spent - 5);
          delays.push(spent);
        }
        expect(srv.stats.slowWrites).toBe(6);
      });
      return delays;
    };
    const a = await writes(3);
    expect(await writes(3)).toEqual(a);
    expect(await writes(4)).not.toEqual(a);
  });

  it('the slow-writes switch moves no other seeded fault', async () => {
    const statuses = async (slow: boolean) => {
      const out: number[] = [];
      await withServer({ transport: { rate503: 0.5, allOperations: true, seed: 5, ...(slow ? { slowWriteMinMs: 1, slowWriteMaxMs: 3 } : {}) } }, async (srv) => {
        for (let i = 0; i < 12; i++) {
          out.push((await call(srv, '/api/v1/taxes/count')).status);
          out.push((await call(srv, '/api/v1/products/categories/create', { data: [payloadFor(res('category'), {})] })).status);
        }
      });
      return out;
    };
    expect(await statuses(true)).toEqual(await statuses(false));
  });

  it('rate503 answers get/count with 503 + Retry-After; writes are untouched by default', () => withServer({ transport: { rate503: 1, retryAfterSeconds: 1 } }, async (srv) => {
    const got = await call(srv, '/api/v1/taxes/get');
    expect(got.status).toBe(503);
    expect(got.headers.get('retry-after')).toBe('1');
    expect((await call(srv, '/api/v1/taxes/count')).status).toBe(503);
    const created = await call(srv, '/api/v1/products/categories/create', { data: [payloadFor(res('category'), {})] });
    expect(created.status).toBe(200);
  }));

  it('allOperations extends the rate faults to writes, which then change nothing', () => withServer({ transport: { rate503: 1, allOperations: true } }, async (srv) => {
    const before = srv.snapshot();
    const created = await call(srv, '/api/v1/products/categories/create', { data: [payloadFor(res('category'), {})] });
    expect(created.status).toBe(503);
    expect(created.headers.get('retry-after')).toBe('0');
    expect(srv.snapshot()).toEqual(before);
  }));

  it('resetRate destroys the socket', () => withServer({ transport: { resetRate: 1 } }, async (srv) => {
    await expect(rawPost(srv, '/api/v1/taxes/get')).rejects.toThrow();
    expect(srv.stats.byStatus.reset).toBe(1);
  }));

  it('truncateRate sends half of the JSON body', () => withServer({ transport: { truncateRate: 1 } }, async (srv) => {
    const r = await rawPost(srv, '/api/v1/taxes/get');
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(text.startsWith('[')).toBe(true);
  }));

  it('htmlErrorRate answers 200 text/html', () => withServer({ transport: { htmlErrorRate: 1 } }, async (srv) => {
    const r = await rawPost(srv, '/api/v1/taxes/count');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await r.text()).toContain('<html>');
  }));

  it('slowMs outlasts a client timeout', () => withServer({ transport: { slowMs: 800 } }, async (srv) => {
    await expect(rawPost(srv, '/api/v1/taxes/get', { signal: AbortSignal.timeout(150) })).rejects.toThrow();
  }));

  it('dripPath answers one path 200 and then a byte every dripEveryMs, never ending; other paths answer', () => withServer({ transport: { dripPath: '/api/v1/taxes/get', dripEveryMs: 40 } }, async (srv) => {
    const ac = new AbortController();
    const r = await rawPost(srv, '/api/v1/taxes/get', { signal: ac.signal });
    expect(r.status).toBe(200);
    const reader = r.body!.getReader();
    let bytes = 0;
    const t0 = Date.now();
    while (Date.now() - t0 < 300) bytes += (await reader.read()).value?.length ?? 0;
    // '[' at once, then one space each 40 ms: a handful, never a whole answer
    expect(bytes).toBeGreaterThanOrEqual(4);
    expect(bytes).toBeLessThan(20);
    ac.abort();
    await reader.cancel().catch(() => undefined);
    expect((await call(srv, '/api/v1/taxes/count')).status).toBe(200);
    expect(srv.stats.byStatus.drip).toBe(1);
  }));

  it('padGets lists records held before in every get of a resource, the id filter included (not the store get)', () => withServer({ transport: { padGets: 2 } }, async (srv) => {
    const held = srv.snapshot().records.tax.slice(0, 2).map((x) => x.id);
    const asked = '0b9c8a36-1111-4a4a-9c9c-000000000001';
    const got = await call(srv, '/api/v1/taxes/get', { filters: { id: [asked] } });
    expect(got.body.map((x: { id: string }) => x.id)).toEqual(held);
    expect(Array.isArray((await call(srv, '/api/v1/store/get')).body)).toBe(false);
  }));

  it('silentPath reads requests to one path and never answers them; other paths answer', () => withServer({ transport: { silentPath: '/api/v1/taxes/count' } }, async (srv) => {
    await expect(rawPost(srv, '/api/v1/taxes/count', { signal: AbortSignal.timeout(300) })).rejects.toThrow(/timeout|abort/i);
    expect((await call(srv, '/api/v1/taxes/get')).status).toBe(200);
    expect(srv.stats.byStatus.silent).toBe(1);
  }));

  it('the same seed gives the same fault sequence; another seed another one', async () => {
    const sequence = async (seed: number) => {
      let statuses: number[] = [];
      await withServer({ transport: { rate503: 0.5, seed } }, async (srv) => {
        for (let i = 0; i < 24; i++) {
          statuses.push((await call(srv, '/api/v1/taxes/count')).status);
          await call(srv, '/api/v1/products/categories/create', { data: [payloadFor(res('category'), {})] });
        }
      });
      const out = statuses;
      statuses = [];
      return out;
    };
    const a = await sequence(7);
    expect(a).toContain(503);
    expect(a).toContain(200);
    expect(await sequence(7)).toEqual(a);
    expect(await sequence(8)).not.toEqual(a);
  });

  it('stats record peak in-flight requests under concurrency', () => withServer({ transport: { latencyMs: 50 } }, async (srv) => {
    await Promise.all(Array.from({ length: 8 }, () => call(srv, '/api/v1/taxes/count')));
    expect(srv.stats.peakInFlight).toBeGreaterThanOrEqual(4);
    expect(srv.stats.inFlight).toBe(0);
    expect(srv.stats.byOperation.count).toBe(8);
  }));

  it.skipIf(!hasOpenssl())('serves HTTPS when given a certificate and key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storecheck-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
      await withServer({ tls: { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) } }, async (srv) => {
        expect(srv.url).toMatch(/^https:\/\//);
        const body = JSON.stringify({ authentication: { apiKey: srv.apiKey } });
        const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
          const req = httpsRequest(srv.url + '/api/v1/taxes/count', { method: 'POST', rejectUnauthorized: false, headers: { 'content-type': 'application/json' } }, (r) => {
            let text = '';
            r.on('data', (c) => (text += c));
            r.on('end', () => resolve({ status: r.statusCode ?? 0, text }));
          });
          req.on('error', reject);
          req.end(body);
        });
        expect(reply.status).toBe(200);
        expect(JSON.parse(reply.text).count).toMatch(/^[0-9]+$/);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reset() restores the seeded data and zeroes the stats', () => withServer({}, async (srv) => {
    const refs = await referenceIds(srv);
    const before = srv.snapshot();
    await call(srv, '/api/v1/products/categories/delete', { filter: [{ id: [refs.category] }] });
    expect(srv.snapshot()).not.toEqual(before);
    srv.reset();
    expect(srv.snapshot().records.category.length).toBe(before.records.category.length);
    expect(srv.stats.total).toBe(0);
  }));
});
