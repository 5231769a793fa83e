/**
 * The transport: one keep-alive undici pool per target, a per-request timeout,
 * retries with backoff (and Retry-After) for idempotent reads only, a request
 * rate limit, and every exchange kept raw (status, headers, body text) beside
 * its parsed JSON so checks can judge the raw form and reports can show it.
 */
import { Agent, request as undiciRequest } from 'undici';
import { redactText, type Redactor } from './redact.js';

export interface HttpOptions {
  baseUrl: string;
  timeoutMs: number;
  /** connections kept open to the target (keep-alive pool size) */
  connections: number;
  /** at most this many requests per second from this client (0 = unlimited) */
  maxRps?: number;
  /** accept self-signed certificates (--insecure) */
  insecure?: boolean;
  /** retries for retryable requests (get, count) */
  retries?: number;
  /** largest response body kept, in bytes; the rest is cut and flagged */
  maxBodyBytes?: number;
  redactor: Redactor;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** body text as received (secrets redacted) */
  text: string;
  /** true when the body exceeded maxBodyBytes and was cut */
  truncated?: boolean;
}

/** One request and what came back: the unit of evidence in reports. */
export interface Exchange {
  request: { method: 'POST'; url: string; path: string; body: unknown };
  response?: RawResponse;
  /** parsed JSON of the response body, when it parsed */
  json?: unknown;
  /** why the body did not parse as JSON */
  parseError?: string;
  /** transport failure: timeout, reset, refused, TLS... */
  transportError?: { code: string; message: string };
  attempts: number;
  durationMs: number;
}

export interface HttpStats {
  requests: number;
  byOperation: Record<string, number>;
  inFlight: number;
  peakInFlight: number;
  retries: number;
  transportErrors: number;
  serverErrors: number;
}

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const DEFAULT_MAX_BODY = 32 * 1024 * 1024;

export class Http {
  readonly stats: HttpStats = { requests: 0, byOperation: {}, inFlight: 0, peakInFlight: 0, retries: 0, transportErrors: 0, serverErrors: 0 };
  /** called with every finished exchange (checks collect their evidence this way) */
  readonly listeners = new Set<(ex: Exchange) => void>();
  private readonly agent: Agent;
  private readonly base: URL;
  private nextSlot = 0;

  constructor(private readonly opts: HttpOptions) {
    this.base = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl.slice(0, -1) : opts.baseUrl);
    this.agent = new Agent({
      connections: Math.max(1, opts.connections),
      pipelining: 1,
      keepAliveTimeout: 10_000,
      connect: { rejectUnauthorized: !opts.insecure, timeout: opts.timeoutMs },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
  }

  /** The URL a path resolves to (base path kept: https://host/store + /api/v1/...). */
  url(path: string): string {
    const basePath = this.base.pathname === '/' ? '' : this.base.pathname.replace(/\/$/, '');
    return `${this.base.origin}${basePath}${path}`;
  }

  /**
   * POST a JSON body. `retryable` requests (get, count) are retried on transport
   * errors, 429 and 5xx; writes are never resent blindly (a lost create answer is
   * resolved by the caller, who looks the record up by its unique slug or code).
   */
  async post(path: string, body: unknown, { retryable = false }: { retryable?: boolean } = {}): Promise<Exchange> {
    const url = this.url(path);
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    const op = path.slice(path.lastIndexOf('/') + 1);
    const started = performance.now();
    const maxAttempts = retryable ? 1 + (this.opts.retries ?? 2) : 1;
    let exchange: Exchange | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      await this.throttle();
      exchange = await this.once(url, path, payload, body, op);
      exchange.attempts = attempt;
      const status = exchange.response?.status;
      const retry = attempt < maxAttempts && (exchange.transportError !== undefined || (status !== undefined && RETRYABLE_STATUS.has(status)));
      if (!retry) break;
      this.stats.retries++;
      await sleep(backoffMs(attempt, exchange.response?.headers['retry-after']));
    }
    exchange!.durationMs = performance.now() - started;
    for (const listener of this.listeners) listener(exchange!);
    return exchange!;
  }

  private async once(url: string, path: string, payload: string, body: unknown, op: string): Promise<Exchange> {
    const redacted = this.opts.redactor.value(body);
    const exchange: Exchange = { request: { method: 'POST', url, path, body: redacted }, attempts: 1, durationMs: 0 };
    this.stats.requests++;
    this.stats.byOperation[op] = (this.stats.byOperation[op] ?? 0) + 1;
    this.stats.inFlight++;
    this.stats.peakInFlight = Math.max(this.stats.peakInFlight, this.stats.inFlight);
    try {
      const res = await undiciRequest(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json' },
        body: payload,
        headersTimeout: this.opts.timeoutMs,
        bodyTimeout: this.opts.timeoutMs,
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      const { text, truncated } = await readBody(res.body, this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
      if (res.statusCode >= 500) this.stats.serverErrors++;
      exchange.response = { status: res.statusCode, headers, text: redactText(text, this.opts.redactor), ...(truncated ? { truncated } : {}) };
      if (truncated) exchange.parseError = `body larger than ${this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY} bytes; not parsed`;
      else if (text.length === 0) exchange.parseError = 'empty body';
      else {
        try {
          exchange.json = JSON.parse(text);
          this.opts.redactor.learnFrom(exchange.json);
        } catch (e) {
          exchange.parseError = `not JSON (${(e as Error).message})`;
        }
      }
    } catch (e) {
      this.stats.transportErrors++;
      exchange.transportError = describeTransportError(e, this.opts.timeoutMs);
    } finally {
      this.stats.inFlight--;
    }
    return exchange;
  }

  /** Spread requests so that at most maxRps start per second. */
  private async throttle(): Promise<void> {
    const rps = this.opts.maxRps ?? 0;
    if (rps <= 0) return;
    const now = performance.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / rps;
    if (slot > now) await sleep(slot - now);
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}

async function readBody(body: AsyncIterable<Buffer> & { destroy?: () => void }, limit: number): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy?.();
      chunks.push(chunk.subarray(0, Math.max(0, chunk.length - (size - limit))));
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

function describeTransportError(e: unknown, timeoutMs: number): { code: string; message: string } {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code ?? err.name ?? 'ERR_TRANSPORT';
  if (err.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { code: 'TIMEOUT', message: `no complete answer within ${timeoutMs} ms` };
  }
  const msg = err.cause?.message ?? err.message ?? String(e);
  return { code, message: msg };
}

/** Exponential backoff with jitter; a Retry-After header (seconds or HTTP date) wins, capped at 10 s. */
export function backoffMs(attempt: number, retryAfter?: string): number {
  if (retryAfter) {
    const secs = Number(retryAfter);
    if (Number.isFinite(secs)) return Math.min(10_000, Math.max(0, secs * 1000));
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.min(10_000, Math.max(0, at - Date.now()));
  }
  return Math.min(2_000, 100 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
