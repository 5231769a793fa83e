/**
 * The embedded reference server: an in-memory implementation of the whole
 * Online Store Administration API (quirks included), with switchable benign
 * variants (variants.ts), faults (faults.ts) and transport faults, used by
 * `npm run conformance` with no target, by the meta-tests and by the
 * robustness tests. See reference/README.md.
 */
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { DEFAULT_TRANSPORT, resolveBehaviour, type Behaviour, type TransportFaults } from './behaviour.js';
import { ApiError, Engine, type EngineData, type Route } from './engine.js';
import { getFault, type Fault } from './faults.js';
import type { Rec, StaleRead } from './pipeline.js';
import type { ResourceModel, SchemaModel } from '../src/schema/model.js';
import { getVariant } from './variants.js';
import { jsonText } from './readings.js';

export type { Behaviour, TransportFaults } from './behaviour.js';

export interface ReferenceOptions {
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** default: random */
  apiKey?: string;
  /** data seed, default 1 */
  seed?: number;
  behaviour?: Partial<Behaviour>;
  /** a benign variant of variants.ts; `behaviour` is applied on top of it */
  variant?: string;
  /** fault names of faults.ts */
  faults?: string[];
  transport?: Partial<TransportFaults>;
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** the initial data (called again by reset()); default: reference/seed.ts at `seed` */
  data?: () => EngineData;
  /**
   * The resources served (default: the schema model of schemas/): a model built from other
   * schema documents serves other resources, with `data` holding their records.
   */
  model?: SchemaModel;
}

export interface RequestStats {
  total: number;
  /** by operation: get, count, create, update, delete; 'other' for unknown paths */
  byOperation: Record<string, number>;
  /** by URL path (no query string) */
  byPath: Record<string, number>;
  /** by HTTP status sent ('reset' for destroyed sockets) */
  byStatus: Record<string, number>;
  inFlight: number;
  peakInFlight: number;
  /** writes delayed by the slow-writes switch, and the sum of their delays (ms) */
  slowWrites: number;
  slowWriteMs: number;
  /** zero every counter */
  reset(): void;
}

export interface StoreSnapshot {
  /** resource name -> records, normalized form, storage order */
  records: Record<string, Rec[]>;
  store: Rec;
}

export interface ReferenceServer {
  url: string;
  apiKey: string;
  behaviour: Behaviour;
  stats: RequestStats;
  /** a deep copy of all records and the store */
  snapshot(): StoreSnapshot;
  /** back to the seeded data, stats zeroed */
  reset(): void;
  close(): Promise<void>;
}

const MAX_BODY = 32 * 1024 * 1024;
const WRITES = new Set(['create', 'update', 'delete']);

function newStats(): RequestStats {
  const s: RequestStats = {
    total: 0, byOperation: {}, byPath: {}, byStatus: {}, inFlight: 0, peakInFlight: 0, slowWrites: 0, slowWriteMs: 0,
    reset() {
      s.total = 0;
      s.slowWrites = 0;
      s.slowWriteMs = 0;
      s.byOperation = {};
      s.byPath = {};
      s.byStatus = {};
      s.peakInFlight = s.inFlight;
    },
  };
  return s;
}

/** mulberry32: small, seeded, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

const HTML_ERROR = '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>'
  + '<body><h1>Bad Gateway</h1><p>The upstream server did not answer.</p></body></html>\n';

/** Until the answer drains or closes (both listeners removed once either fires). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Does a get's body carry an array filter (other than the id)? Lookups of a lost create do. */
function hasArrayFilter(r: ResourceModel, raw: string): boolean {
  try {
    const filters = (JSON.parse(raw) as { filters?: Record<string, unknown> })?.filters ?? {};
    return Object.entries(filters).some(([k, v]) => k !== 'id' && Array.isArray(v) && r.filters.some((f) => f.key === k && f.filter === 'array'));
  } catch {
    return false;
  }
}

/** The answer's records under the ids of records held before (one each, in order). */
function underExistingIds(body: string, existing: Rec[]): string {
  const recs = JSON.parse(body) as Rec[];
  return JSON.stringify(recs.map((rec, i) => (existing.length ? { ...rec, id: existing[i % existing.length].id } : rec)));
}

/**
 * The canary switch (transport.echoKey): a careless target that echoes the
 * key it was sent — in headers on every answer (URL-encoded, base64, and its
 * UTF-8 bytes raw, which a client reads as latin-1), and in every error message
 * (raw, HTML-escaped, URL-encoded, base64, read as latin-1, and the request
 * body as sent). storecheck must let none of it reach an output.
 */
function echoKey(raw: string, status: number, body: string, headers: Record<string, string> | undefined): { body: string; headers: Record<string, string> } {
  let key = '';
  try {
    const k = (JSON.parse(raw) as { authentication?: { apiKey?: unknown } })?.authentication?.apiKey;
    if (typeof k === 'string') key = k;
  } catch {
    // not JSON: nothing to echo
  }
  if (!key) return { body, headers: headers ?? {} };
  const b64 = Buffer.from(key, 'utf8').toString('base64');
  const html = key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  // the key's UTF-8 bytes as the header's bytes (Node writes header strings as latin-1): a client reads them back
  // as latin-1, the key with its non-ASCII characters garbled; a body that read them as latin-1 says the same
  const latin1 = Buffer.from(key, 'utf8').toString('latin1');
  const out = { ...headers, 'x-echo-key': `url=${encodeURIComponent(key)}; b64=${b64}`, 'x-echo-key-raw': latin1 };
  if (status < 400) return { body, headers: out };
  const echo = ` [echo: key ${key} | html ${html} | url ${encodeURIComponent(key)} | b64 ${b64} | latin-1 ${latin1} | request ${raw}]`;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } };
    if (parsed?.error && typeof parsed.error === 'object') {
      parsed.error.message = `${parsed.error.message ?? ''}${echo}`;
      return { body: JSON.stringify(parsed), headers: out };
    }
  } catch {
    // a text error: appended as text
  }
  return { body: `${body}${echo}`, headers: out };
}

/** A rate limit of `rps` requests a second (bursts of up to `rps`): take() is false when over it. */
function tokenBucket(rps: number): { take(): boolean } {
  let tokens = rps;
  let last = performance.now();
  return {
    take() {
      const now = performance.now();
      tokens = Math.min(rps, tokens + ((now - last) / 1000) * rps);
      last = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

async function defaultData(seed: number, b: Behaviour, model: SchemaModel | undefined): Promise<() => EngineData> {
  const { seedData } = await import('./seed.js');
  return () => seedData(seed, { bigResource: b.bigResource, bigCount: b.bigCount, ...(model ? { model } : {}) });
}

/** What the parts of a running server share: the engine, the switches, the counters. */
interface ServerContext {
  engine: Engine;
  faults: Fault[];
  transport: TransportFaults;
  stats: RequestStats;
  /** the transport faults' seeded draws, in arrival order */
  random: () => number;
  /** the slow-writes switch's draws: its own stream, so switching it on moves no other seeded fault */
  writeRandom: () => number;
  limiter: { take(): boolean };
  /** the records held before the run (the lying switches answer with their ids or add them) */
  before: { records: Record<string, Rec[]> };
}

const bump = (m: Record<string, number>, k: string) => { m[k] = (m[k] ?? 0) + 1; };

/** The engine and the switches, from the options (a variant, behaviour on top of it, faults, transport, data). */
async function serverContext(opts: ReferenceOptions): Promise<{ ctx: ServerContext; apiKey: string; behaviour: Behaviour }> {
  const variant = opts.variant ? getVariant(opts.variant) : undefined;
  const behaviour = resolveBehaviour(variant?.behaviour, opts.behaviour);
  const faults = (opts.faults ?? []).map(getFault);
  const transport: TransportFaults = { ...DEFAULT_TRANSPORT, ...opts.transport };
  const apiKey = opts.apiKey ?? randomBytes(24).toString('base64url');
  const data = opts.data ?? (await defaultData(opts.seed ?? 1, behaviour, opts.model));
  const engine = new Engine({ apiKey, behaviour, faults: faults.map((f) => f.hooks), data, ...(opts.model ? { model: opts.model } : {}) });
  const lying = transport.createAnswersExistingIds || transport.updateAnswersExistingIds || transport.getAddsForeignRecord || transport.padGets > 0;
  const ctx: ServerContext = {
    engine, faults, transport, stats: newStats(), random: prng(transport.seed), writeRandom: prng(transport.seed ^ 0x5105e), limiter: tokenBucket(transport.limitRps),
    before: lying ? engine.snapshot() : { records: {} },
  };
  return { ctx, apiKey, behaviour };
}

/**
 * A concurrency fault (faults.ts `stale`): the records an update names (or,
 * for a create, the resource's id counter) are read, the server pauses, and
 * the write then works from what it read.
 */
async function staleRead(ctx: ServerContext, r: ResourceModel, op: string, raw: string): Promise<StaleRead | undefined> {
  const f = ctx.faults.find((x) => x.stale?.resource === r.name && (x.stale.part === 'id-counter') === (op === 'create'))?.stale;
  if (!f) return undefined;
  if (f.part === 'id-counter') {
    const count = ctx.engine.size(r);
    await sleep(f.pauseMs);
    return { records: new Map(), part: f.part, count };
  }
  let ids: unknown[] = [];
  try {
    const data = (JSON.parse(raw) as { data?: unknown })?.data;
    if (Array.isArray(data)) ids = data.map((x) => (x && typeof x === 'object' ? (x as Rec).id : undefined));
  } catch {
    return undefined;
  }
  const records = ctx.engine.peek(r, ids);
  await sleep(f.pauseMs);
  return { records, part: f.part };
}

/** The request body, or undefined when it was too large (answered 413). */
async function readBody(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) {
      if (ctx.transport.latencyMs > 0) await sleep(ctx.transport.latencyMs);
      send(ctx, res, 413, 'application/json', JSON.stringify({ error: { code: 'BODY_TOO_LARGE', message: 'request body too large' } }));
      req.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The transport faults decided before the request is processed (latency, a
 * slow answer, a reset, a rate limit, 429, 503, an HTML page): one draw per
 * fault kind per eligible request, in arrival order. True when the request
 * was answered (or dropped) here; `truncate` is the draw of the truncation
 * decided after processing.
 */
async function beforeProcessing(ctx: ServerContext, route: Route | undefined, req: IncomingMessage, res: ServerResponse): Promise<{ answered: boolean; truncate: number }> {
  const { transport, stats, engine } = ctx;
  const eligible = !!route && (transport.allOperations || route.op === 'get' || route.op === 'count');
  const draw = eligible ? [ctx.random(), ctx.random(), ctx.random(), ctx.random(), ctx.random(), ctx.random()] : [1, 1, 1, 1, 1, 1];
  const [d503, dReset, dTruncate, dHtml, dSlow, d429] = draw;
  const answered = { answered: true, truncate: dTruncate };
  if (transport.latencyMs > 0) await sleep(transport.latencyMs);
  if (transport.slowMs > 0 && dSlow < transport.slowRate) await sleep(transport.slowMs);
  if (res.destroyed) return answered;
  if (dReset < transport.resetRate) {
    bump(stats.byStatus, 'reset');
    req.socket.destroy();
    return answered;
  }
  if (transport.limitRps > 0 && !ctx.limiter.take()) {
    bump(stats.byStatus, '429');
    send(ctx, res, 429, 'application/json', JSON.stringify({ error: { code: 'RATE_LIMITED', message: `more than ${transport.limitRps} requests a second` } }), { 'retry-after': '1' });
    return answered;
  }
  if (d429 < transport.rate429) {
    bump(stats.byStatus, '429');
    send(ctx, res, 429, 'application/json', JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'too many requests' } }), { 'retry-after': String(transport.retryAfterSeconds) });
    return answered;
  }
  if (d503 < transport.rate503) {
    const e = engine.errorResponse(new ApiError(503, 'UNAVAILABLE', 'service temporarily unavailable'));
    const body = typeof e.body === 'string' ? e.body : JSON.stringify(e.body);
    send(ctx, res, 503, e.contentType, body, { 'retry-after': String(transport.retryAfterSeconds) });
    return answered;
  }
  if (dHtml < transport.htmlErrorRate) {
    send(ctx, res, 200, 'text/html', HTML_ERROR);
    return answered;
  }
  return { answered: false, truncate: dTruncate };
}

/** Hostile answers to the gets of resources (the store get, the preflight's, is left alone): true when one was sent. */
async function hostileGet(ctx: ServerContext, route: Route | undefined, res: ServerResponse): Promise<boolean> {
  const { transport } = ctx;
  const resourceGet = route?.op === 'get' && !route.resource.single ? route.resource.name : undefined;
  const of = (only: string | undefined) => !!resourceGet && (!only || only === resourceGet);
  if (transport.hugeGetMb > 0 && of(transport.hugeGetResource)) {
    await streamHuge(ctx, res, transport.hugeGetMb);
    return true;
  }
  if (transport.deepNesting > 0 && of(transport.deepNestingResource)) {
    send(ctx, res, 200, 'application/json', '['.repeat(transport.deepNesting) + ']'.repeat(transport.deepNesting));
    return true;
  }
  return false;
}

/** The answer as the switches bend it after processing: the key echoed, lying ids, a foreign record. */
function bentAnswer(ctx: ServerContext, route: Route | undefined, raw: string, out: { status: number; body: unknown; headers?: Record<string, string> }): { body: string; headers: Record<string, string> | undefined } {
  const { transport, engine } = ctx;
  let body = typeof out.body === 'string' ? out.body : jsonText(engine.behaviour, JSON.stringify(out.body));
  let headers = out.headers;
  if (transport.echoKey) ({ body, headers } = echoKey(raw, out.status, body, headers));
  const held = route ? ctx.before.records[route.resource.name] ?? [] : [];
  if (transport.createAnswersExistingIds && route?.op === 'create' && out.status === 200) body = underExistingIds(body, held);
  if (transport.updateAnswersExistingIds && route?.op === 'update' && out.status === 200) body = underExistingIds(body, held);
  if (transport.getAddsForeignRecord && route?.op === 'get' && out.status === 200 && held.length && hasArrayFilter(route.resource, raw)) {
    body = JSON.stringify([...(JSON.parse(body) as Rec[]), engine.pipeline.renderGet(route.resource, held[0])]);
  }
  if (transport.padGets > 0 && route?.op === 'get' && !route.resource.single && out.status === 200 && held.length) {
    body = JSON.stringify([...(JSON.parse(body) as Rec[]), ...held.slice(0, transport.padGets).map((x) => engine.pipeline.renderGet(route.resource, x))]);
  }
  return { body, headers };
}

/** One request: counted, read, shaken by the transport faults, processed by the engine, answered. */
async function handle(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { engine, stats, transport } = ctx;
  const url = new URL(req.url ?? '/', 'http://reference.invalid');
  const path = url.pathname;
  const route = engine.route(path);
  stats.total++;
  bump(stats.byPath, path);
  bump(stats.byOperation, route?.op ?? 'other');

  const raw = await readBody(ctx, req, res);
  if (raw === undefined || hangs(ctx, path, res)) return;
  const { answered, truncate } = await beforeProcessing(ctx, route, req, res);
  if (answered || (await hostileGet(ctx, route, res))) return;
  if (transport.slowWriteMaxMs > 0 && route && WRITES.has(route.op)) await slowWrite(ctx);

  const stale = route?.op === 'update' || route?.op === 'create' ? await staleRead(ctx, route.resource, route.op, raw) : undefined;
  const out = engine.handle({ method: req.method ?? 'GET', path, query: url.searchParams, headers: req.headers, body: raw, ...(stale ? { stale } : {}) });
  // the work is done; the answer is lost (drawn only when the switch is on: other seeded draws stay as they were)
  if (transport.dropWriteAnswerRate > 0 && route && WRITES.has(route.op) && ctx.random() < transport.dropWriteAnswerRate) {
    bump(stats.byStatus, 'dropped');
    req.socket.destroy();
    return;
  }
  const bent = bentAnswer(ctx, route, raw, out);
  const body = truncate < transport.truncateRate ? bent.body.slice(0, Math.floor(bent.body.length / 2)) : bent.body;
  send(ctx, res, out.status, out.contentType === 'application/json' ? engine.behaviour.jsonContentType : out.contentType, body, bent.headers);
}

/** The slow-writes switch: this write takes slowWriteMinMs..slowWriteMaxMs (uniform, seeded) before it is carried out. */
async function slowWrite(ctx: ServerContext): Promise<void> {
  const { slowWriteMinMs: min, slowWriteMaxMs: max } = ctx.transport;
  const ms = Math.round(min + ctx.writeRandom() * Math.max(0, max - min));
  ctx.stats.slowWrites++;
  ctx.stats.slowWriteMs += ms;
  await sleep(ms);
}

/**
 * The hanging endpoints (transport.dripPath, .silentPath): true when this
 * request is one of theirs — answered with a drip that never ends, or not at
 * all. Either lasts until the client hangs up (or the server closes).
 */
function hangs(ctx: ServerContext, path: string, res: ServerResponse): boolean {
  const { transport, stats } = ctx;
  if (transport.silentPath && path === transport.silentPath) {
    bump(stats.byStatus, 'silent');
    return true;
  }
  if (!transport.dripPath || path !== transport.dripPath) return false;
  bump(stats.byStatus, 'drip');
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.write('[');
  const timer = setInterval(() => res.write(' '), Math.max(1, transport.dripEveryMs));
  res.once('close', () => clearInterval(timer));
  return true;
}

/** A JSON array `mb` MB long (Infinity: endless), streamed as the client reads it; ends when the client hangs up. */
async function streamHuge(ctx: ServerContext, res: ServerResponse, mb: number): Promise<void> {
  bump(ctx.stats.byStatus, 'huge');
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  const chunk = Buffer.from(`{"id":"${'0'.repeat(36)}","name":"${'x'.repeat(1000)}"},`.repeat(1000));
  const total = Number.isFinite(mb) ? mb * 1024 * 1024 : Infinity;
  res.write('[');
  for (let sent = 0; sent + chunk.length < total && !res.destroyed;) {
    sent += chunk.length;
    if (!res.write(chunk)) await drained(res);
  }
  if (!res.destroyed) res.end('{}]');
}

/** `type`: a media type (sent with charset=utf-8), or a whole content-type header with its parameters (Behaviour.jsonContentType). */
function send(ctx: ServerContext, res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  bump(ctx.stats.byStatus, String(status));
  if (res.destroyed) return;
  const buf = Buffer.from(body, 'utf8');
  res.writeHead(status, { 'content-type': type.includes(';') ? type : `${type}; charset=utf-8`, 'content-length': String(buf.length), ...headers });
  res.end(buf);
}

/** The HTTP listener: requests in flight counted, an error of the server answered 500 (or the socket closed). */
function listenerOf(ctx: ServerContext): (req: IncomingMessage, res: ServerResponse) => void {
  const { stats } = ctx;
  return (req, res) => {
    stats.inFlight++;
    if (stats.inFlight > stats.peakInFlight) stats.peakInFlight = stats.inFlight;
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        stats.inFlight--;
      }
    };
    res.once('close', finish);
    handle(ctx, req, res).catch((err) => {
      if (!res.headersSent && !res.destroyed) {
        send(ctx, res, 500, 'application/json', JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: String(err?.message ?? err) } }));
      } else {
        res.destroy();
      }
    }).finally(() => {
      if (res.destroyed || res.writableEnded) finish();
    });
  };
}

/** An HTTP(S) server listening on the options' host and port, and the URL it is reached at. */
async function listen(opts: ReferenceOptions, listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server: Server = opts.tls
    ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, listener)
    : createHttpServer(listener);
  server.keepAliveTimeout = 10_000;
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return { server, url: `${opts.tls ? 'https' : 'http'}://${shownHost}:${port}` };
}

export async function startReferenceServer(opts: ReferenceOptions = {}): Promise<ReferenceServer> {
  const { ctx, apiKey, behaviour } = await serverContext(opts);
  const { server, url } = await listen(opts, listenerOf(ctx));
  return {
    url,
    apiKey,
    behaviour,
    stats: ctx.stats,
    snapshot: () => ctx.engine.snapshot(),
    reset() {
      ctx.engine.load();
      ctx.stats.reset();
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
