/**
 * A probe answered in a way no honest reading explains (src/observe/types.ts
 * fitsNoReading): a store that answers HTTP 500 to a get filtered by a key no
 * resource has, and to a create holding a string one character over its
 * maximum — as the engine mutant "every error answered 500" did, when both
 * observations came back "could not tell" and the run said conformant. A 5xx
 * is the server's own failure, not a way of reading the request: the
 * observation keeps the answer as evidence and says it fits no reading, and
 * the run gives no verdict (exit 3) naming it, as when a check's request gets
 * a 5xx. The store is the reference server behind a small proxy that breaks
 * exactly those two answers; everything else passes through untouched (the
 * same run against the server itself is the control: exit 0).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStorecheck } from '../../reference/cli-process.js';
import { startReferenceServer, type ReferenceServer } from '../../reference/server.js';
import { UNKNOWN_FILTER_KEY } from '../../src/observe/unknown-filter.js';
import { TEXT_MAX_LENGTH } from '../../src/schema/model.js';

const KEY = 'no-reading-key-0123456789abcdef';
const ONLY = 'store.*';

/** Does this request carry what the proxy answers 500: the unknown filter key, or a string over the limit in a create? */
function breaks(path: string, body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as { filters?: Record<string, unknown>; data?: unknown[] };
  if (path.endsWith('/get') && b.filters && UNKNOWN_FILTER_KEY in b.filters) return true;
  // one character over the common limit (what the overlong-string probe sends); page content within its own limit passes
  const long = (v: unknown) => typeof v === 'string' && [...v].length === TEXT_MAX_LENGTH + 1;
  return path.endsWith('/create') && Array.isArray(b.data) && b.data.some((x) => x && typeof x === 'object' && Object.values(x).some(long));
}

async function read(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The store behind a proxy answering 500 to the two probes' requests; `broken` counts them. */
function proxy(upstream: string): Promise<{ server: Server; url: string; broken: string[] }> {
  const broken: string[] = [];
  const server = createServer(async (req, res) => {
    const raw = await read(req);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = undefined;
    }
    if (breaks(req.url ?? '', body)) {
      broken.push(req.url ?? '');
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"code":"INTERNAL_ERROR","message":"internal error"}}');
      return;
    }
    const answer = await fetch(upstream + (req.url ?? ''), { method: req.method, headers: { 'content-type': 'application/json' }, body: new Uint8Array(raw) });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, broken })));
}

describe('a probe answered in a way no honest reading explains', () => {
  let ref: ReferenceServer;
  let front: Awaited<ReturnType<typeof proxy>>;
  beforeAll(async () => {
    ref = await startReferenceServer({ apiKey: KEY });
    front = await proxy(ref.url);
  });
  afterAll(async () => {
    await new Promise((done) => front.server.close(done));
    await ref.close();
  });

  it('is evidence that fits no reading, and the run gives no verdict naming it', async () => {
    const run = await runStorecheck(['--depth', 'quick', '--seed', '1', '--only', ONLY, '--quiet'], { against: { url: front.url, apiKey: KEY } });
    const why = `exit ${run.code}\n${run.stderr.slice(-2000)}`;
    expect(front.broken.length, why).toBeGreaterThanOrEqual(2);
    const report = run.report!;
    expect(report, why).toBeDefined();
    for (const key of ['filters.unknownKey', 'limits.overlongString']) {
      const o = report.observations[key];
      expect(o.value, key).toBeNull();
      expect(o.detail, key).toMatch(/^fits no reading: .* was answered HTTP 500: a server failure/);
      // the answer is kept as evidence
      expect(o.evidence?.some((e) => e.response?.status === 500), key).toBe(true);
      expect(report.targetErrors.some((e) => e.message.startsWith(`observation ${key}: fits no reading`) && e.sample?.response?.status === 500), key).toBe(true);
    }
    expect(report.summary.failed, why).toBe(0);
    expect(report.summary.verdict, why).toBe('no-verdict');
    expect(report.summary.reason).toMatch(/fits no honest reading \(filters\.unknownKey, limits\.overlongString\)/);
    expect(run.code, why).toBe(3);
  }, 300_000);

  it('the same run against the store itself: a verdict (the control)', async () => {
    const run = await runStorecheck(['--depth', 'quick', '--seed', '1', '--only', ONLY, '--quiet'], { against: { url: ref.url, apiKey: KEY } });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(run.report!.observations['filters.unknownKey'].value).toBe('rejected');
    expect(run.report!.observations['limits.overlongString'].value).toBe('rejected');
  }, 300_000);
});
