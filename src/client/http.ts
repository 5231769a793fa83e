/**
 * The transport: one keep-alive undici pool per target, a per-request timeout,
 * retries with backoff (and Retry-After) for idempotent reads only, a request
 * rate limit, and every exchange kept raw (status, headers, body text) beside
 * its parsed JSON so checks can judge the raw form and reports can show it.
 */
import { setMaxListeners } from 'node:events';
import { Agent, budgetTakenBy, PendingPost, postOn } from './undici.js';
import { answerBudgetFor, SharedGate } from './gate.js';
import { recordLatency, type LatencyTable } from './latency.js';
import { redactText, type Redactor } from './redact.js';

export interface HttpOptions {
  baseUrl: string;
  timeoutMs: number;
  /** connections kept open to the target (keep-alive pool size) */
  connections: number;
  /**
   * the run-wide bound on requests in flight, shared with other threads; each
   * request holds a slot while it is sent and answered (backoff pauses hold none)
   */
  gate?: SharedGate;
  /** at most this many requests per second from this client (0 = unlimited) */
  maxRps?: number;
  /** accept self-signed certificates (--insecure) */
  insecure?: boolean;
  /** retries for retryable requests (get, count) after a transport error or a 5xx/429 */
  retries?: number;
  /**
   * retries for retryable requests the target asked to come back later (429/503
   * with Retry-After): a throttling target is honoured longer (default max(retries, 6))
   */
  retriesAfterRetryAfter?: number;
  /** largest response body kept, in bytes; the rest is cut and flagged */
  maxBodyBytes?: number;
  redactor: Redactor;
  /** true while the request about to wait for a slot is a step of a long chain: it goes first (SharedGate.acquire) */
  urgent?: () => boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** body text as received (secrets redacted) */
  text: string;
  /**
   * true when the body was not taken in: cut (over maxBodyBytes, or over the
   * run's budget of answers in flight; `text` then holds its start only) or
   * nested too deep to parse. Such an answer is not judged (a target error).
   */
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
  /** true when the run was cancelled before the request left: the target never saw it */
  notSent?: true;
  attempts: number;
  durationMs: number;
  /**
   * not sent for the one that asked: the same read (path and body) was answered
   * for this check, item or probe, and is judged here too (src/client/shared-reads.ts)
   */
  sharedFrom?: string;
  /** when the answer ended (or the request gave up), on this thread's performance.now() clock: with durationMs, its span (src/client/chain.ts) */
  answeredAt?: number;
}

export interface HttpStats {
  requests: number;
  byOperation: Record<string, number>;
  inFlight: number;
  peakInFlight: number;
  retries: number;
  transportErrors: number;
  serverErrors: number;
  /** every answered attempt's round trip, per API path (src/client/latency.ts) */
  latency: LatencyTable;
}

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
/** the transport error code of a request not sent because its endpoint was given up (src/client/gate.ts EndpointBreaker) */
export const GIVEN_UP = 'GIVEN_UP';
const DEFAULT_MAX_BODY = 32 * 1024 * 1024;
/** what is kept of a cut answer, to show in evidence */
const SHOWN_OF_CUT = 64 * 1024;

export class Http {
  readonly stats: HttpStats = { requests: 0, byOperation: {}, inFlight: 0, peakInFlight: 0, retries: 0, transportErrors: 0, serverErrors: 0, latency: {} };
  /** called with every finished exchange (checks collect their evidence this way) */
  readonly listeners = new Set<(ex: Exchange) => void>();
  private readonly agent: InstanceType<typeof Agent>;
  private readonly origin: string;
  /** the base URL's path (https://host/store → /store), put before every API path */
  private readonly basePath: string;
  /** the base URL's query string (`?tenant=a`, or ''), kept on every request: some gateways route by it */
  private readonly query: string;
  /** the run's gate (in flight, pace), or this client's own when it has none (cleanup, sweep, tests) */
  private readonly gate: SharedGate;
  /** aborted by cancel(): in-flight requests end at once, new ones are not sent */
  private readonly stop = new AbortController();
  /** requests sent and not yet answered (cancel() abandons them) */
  private readonly live = new Set<PendingPost>();

  constructor(private readonly opts: HttpOptions) {
    const base = new URL(opts.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.query = base.search;
    this.gate = opts.gate ?? SharedGate.create(Math.max(1, opts.connections), answerBudgetFor(opts.maxBodyBytes ?? DEFAULT_MAX_BODY));
    // every pause listens to the stop signal: no listener limit
    setMaxListeners(0, this.stop.signal);
    this.agent = new Agent({
      connections: Math.max(1, opts.connections),
      pipelining: 1,
      keepAliveTimeout: 10_000,
      connect: { rejectUnauthorized: !opts.insecure, timeout: opts.timeoutMs },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
  }

  /** The URL a path resolves to (base path and query kept: https://host/store?t=a + /api/v1/... → https://host/store/api/v1/...?t=a). */
  url(path: string): string {
    // apiUrl's result from the parts parsed once in the constructor: parsing the base URL again cost
    // ~20 µs of every request
    return `${this.origin}${this.basePath}${path}${this.query}`;
  }

  /**
   * POST a JSON body. `retryable` requests (get, count) are retried on transport
   * errors, 429 and 5xx; writes only on 429 and on 503 with Retry-After (the
   * target says it did not process them), never blindly otherwise (a lost create
   * answer is resolved by the caller, who looks the record up by its unique
   * slug or code).
   */
  async post(path: string, body: unknown, { retryable = false, headers }: { retryable?: boolean; headers?: Record<string, string> } = {}): Promise<Exchange> {
    const url = this.url(path);
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    const op = path.slice(path.lastIndexOf('/') + 1);
    // what exchanges show of the request: the payload with every secret replaced (parsed once per post)
    const shown = this.opts.redactor.shown(body);
    const started = performance.now();
    const retries = this.opts.retries ?? 3;
    const throttledRetries = this.opts.retriesAfterRetryAfter ?? Math.max(retries, 6);
    let exchange: Exchange | undefined;
    for (let attempt = 1; ; attempt++) {
      // an endpoint given up (by any thread) gets nothing more: the last time-out stays the evidence
      if (this.gate.endpoints.givenUp(path, true)) {
        if (exchange?.transportError?.code === 'TIMEOUT') {
          // the retry this time-out called for was not sent: say why, so the evidence explains the error
          if (!exchange.transportError.message.includes(' given up after ')) exchange.transportError.message += `; not retried: ${path} was given up after ${this.gate.endpoints.threshold} consecutive time-outs`;
        } else exchange = this.givenUpExchange(url, path, shown, attempt);
        break;
      }
      await this.throttle();
      const sentAt = Date.now();
      exchange = await this.gated((free) => this.once(url, path, payload, shown, op, headers, free), () => this.cancelledExchange(url, path, shown));
      exchange.attempts = attempt;
      if (this.cancelled) break;
      // a time-out that gave the endpoint up ends the request here: a retry would not be sent
      if (this.countTimeout(path, exchange)) break;
      const status = exchange.response?.status;
      this.adapt(status, sentAt);
      const retryAfter = exchange.response?.headers['retry-after'];
      // 429, and 503 with Retry-After, say the request was not processed: resent, writes too
      // (nothing was written, so a resent create cannot duplicate); any other failure of a write is
      // resolved by its caller, never by sending it again
      const notProcessed = status === 429 || (status === 503 && !!retryAfter);
      if (!retryable && !notProcessed) break;
      const allowed = notProcessed ? throttledRetries : retries;
      const transient = exchange.transportError !== undefined && !FINAL_TRANSPORT_CODES.has(exchange.transportError.code);
      const retry = attempt <= allowed && (transient || (status !== undefined && RETRYABLE_STATUS.has(status)));
      if (!retry) break;
      this.stats.retries++;
      await this.pause(backoffMs(attempt, retryAfter));
    }
    // a retried request that still got no answer says so: it was retried, and the last attempt failed too
    if (exchange!.transportError && !exchange!.notSent && exchange!.attempts > 1) exchange!.transportError.message += ` (after ${exchange!.attempts} attempts)`;
    exchange!.answeredAt = performance.now();
    exchange!.durationMs = exchange!.answeredAt - started;
    for (const listener of this.listeners) listener(exchange!);
    return exchange!;
  }

  /** The reason cancel() was given, once it was. */
  get cancelled(): string | undefined {
    return this.stop.signal.aborted ? String(this.stop.signal.reason) : undefined;
  }

  /**
   * Stop talking to the target: requests in flight end now, later ones are not
   * sent; both come back as transport error CANCELLED (a target error, never a
   * verdict). Used when the run is interrupted or reaches its deadline.
   */
  cancel(reason: string): void {
    if (this.stop.signal.aborted) return;
    this.stop.abort(reason);
    for (const request of this.live) request.abort(reason);
  }

  /**
   * The endpoint breaker (src/client/gate.ts EndpointBreaker): a time-out
   * counts towards giving `path` up, a complete answer starts the count again.
   * True when `path` is given up (by this time-out or an earlier one).
   */
  private countTimeout(path: string, exchange: Exchange): boolean {
    const endpoints = this.gate.endpoints;
    if (exchange.response) endpoints.answered(path);
    if (exchange.transportError?.code !== 'TIMEOUT') return false;
    if (endpoints.timedOut(path)) exchange.transportError.message += `; ${path} given up after ${endpoints.threshold} consecutive time-outs: nothing more is sent to it`;
    return endpoints.givenUp(path);
  }

  /** What a request to an endpoint the run gave up gets: not sent, a target error saying why. */
  private givenUpExchange(url: string, path: string, shown: unknown, attempts: number): Exchange {
    return {
      request: { method: 'POST', url, path, body: shown },
      transportError: { code: GIVEN_UP, message: `not sent: ${path} was given up after ${this.gate.endpoints.threshold} consecutive time-outs (no complete answer within ${this.opts.timeoutMs} ms)` },
      notSent: true,
      attempts,
      durationMs: 0,
    };
  }

  private cancelledExchange(url: string, path: string, shown: unknown): Exchange {
    return {
      request: { method: 'POST', url, path, body: shown },
      transportError: { code: 'CANCELLED', message: `not sent: ${this.cancelled}` },
      notSent: true,
      attempts: 1,
      durationMs: 0,
    };
  }

  /**
   * `send` within a slot of the shared gate (when there is one); `skipped` once cancelled. `send` may
   * give the slot back early with `free` (once the answer's bytes are in: its parsing is the client's
   * time, not the target's, and another request can be on the wire meanwhile).
   */
  private async gated(send: (free: () => void) => Promise<Exchange>, skipped: () => Exchange): Promise<Exchange> {
    const gate = this.opts.gate;
    if (!gate) return this.cancelled ? skipped() : send(() => undefined);
    if (!(await gate.acquire(() => this.cancelled !== undefined, this.opts.urgent?.() === true))) return skipped();
    let held = true;
    const since = performance.now();
    const free = () => {
      if (held) gate.release(performance.now() - since);
      held = false;
    };
    try {
      return this.cancelled ? skipped() : await send(free);
    } finally {
      free();
    }
  }

  /** sleep, cut short by cancel() */
  private pause(ms: number): Promise<void> {
    if (ms <= 0 || this.stop.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.stop.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.stop.signal.addEventListener('abort', done, { once: true });
    });
  }

  private async once(url: string, path: string, payload: string, shown: unknown, op: string, extraHeaders: Record<string, string> | undefined, free: () => void): Promise<Exchange> {
    const exchange: Exchange = { request: { method: 'POST', url, path, body: shown }, attempts: 1, durationMs: 0 };
    this.stats.requests++;
    this.stats.byOperation[op] = (this.stats.byOperation[op] ?? 0) + 1;
    this.stats.inFlight++;
    this.stats.peakInFlight = Math.max(this.stats.peakInFlight, this.stats.inFlight);
    // abandoned by its own timer (no complete answer in time) or by cancel()
    const pending = new PendingPost();
    /** bytes of this answer taken from the run's answer budget, given back once it is let go */
    let taken = 0;
    const timer = setTimeout(() => pending.abort(new DOMException(`no complete answer within ${this.opts.timeoutMs} ms`, 'TimeoutError')), this.opts.timeoutMs);
    const sent = performance.now();
    this.live.add(pending);
    try {
      const maxBody = this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
      const res = await postOn(this.agent, {
        origin: this.origin,
        path: this.basePath + path + this.query,
        headers: { ...extraHeaders, 'content-type': 'application/json; charset=utf-8', accept: 'application/json' },
        body: payload,
        timeoutMs: this.opts.timeoutMs,
        maxBodyBytes: maxBody,
        budget: { take: (n) => this.gate.takeBytes(n) },
        showOfCut: SHOWN_OF_CUT,
      }, pending);
      taken = res.taken;
      // the answer is all here: its parsing and redaction are not the target's time, nor a slot's
      const tookMs = performance.now() - sent;
      free();
      const { truncated, headers } = res;
      // a cut answer is never parsed: only its start is kept, to show
      const text = res.body.toString('utf8');
      if (res.status >= 500) this.stats.serverErrors++;
      if (truncated) {
        exchange.parseError = res.cut === 'budget'
          ? `cut: the answers being read together reached the client's budget of ${Math.round(this.gate.answerBudget / 2 ** 20)} MB; not judged`
          : `larger than the client's limit of ${maxBody} bytes; cut there and not judged`;
      } else if (text.length === 0) exchange.parseError = 'empty body';
      else {
        const deep = nestedDeeperThan(text, MAX_NESTING);
        if (deep) exchange.parseError = `JSON nested deeper than ${MAX_NESTING} levels: not parsed (a record of the spec is a few levels deep)`;
        else try {
          exchange.json = JSON.parse(text);
          // the store's apikey is learnt before this very answer's text is kept
          if (res.status >= 200 && res.status < 300) this.opts.redactor.learnFrom(path, exchange.json);
        } catch (e) {
          // a SyntaxError is an answer that is not JSON (judged); a RangeError is a parse the engine could
          // not finish (too large for it): not taken in, like a cut answer
          exchange.parseError = e instanceof RangeError ? `too large to parse (${e.message}); not judged` : `not JSON (${(e as Error).message})`;
        }
      }
      // too large or too deep to take in: not an answer to judge (isTargetError), never a crash
      const unread = truncated || exchange.parseError?.startsWith('JSON nested deeper') || exchange.parseError?.startsWith('too large to parse');
      const shownText = redactText(text, this.opts.redactor);
      exchange.response = { status: res.status, headers: redactHeaders(headers, this.opts.redactor), text: shownText, ...(unread ? { truncated: true } : {}) };
      if (exchange.json !== undefined && shownText === text) verbatim.add(exchange);
      recordLatency(this.stats.latency, path, tookMs);
    } catch (e) {
      taken = budgetTakenBy(e);
      this.stats.transportErrors++;
      exchange.transportError = this.cancelled
        ? { code: 'CANCELLED', message: `abandoned: ${this.cancelled}` }
        : describeTransportError(e, this.opts.timeoutMs);
    } finally {
      clearTimeout(timer);
      this.live.delete(pending);
      this.stats.inFlight--;
      this.gate.giveBytes(taken);
    }
    return exchange;
  }

  /** At most --max-rps starts a second, and the adaptive rate after a 429: the gate's pace (src/client/gate.ts). */
  private throttle(): Promise<void> {
    const rps = this.opts.maxRps ?? 0;
    return this.gate.pace(rps > 0 ? 1000 / rps : 0, (ms) => this.pause(ms), () => this.stop.signal.aborted);
  }

  private adapt(status: number | undefined, sentAt: number): void {
    this.gate.adapt(status, sentAt);
  }

  /** the current adaptive spacing between request starts, ms (0: not slowed down) */
  get adaptiveGap(): number {
    return this.gate.adaptiveGapMs;
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}

function describeTransportError(e: unknown, timeoutMs: number): { code: string; message: string } {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code ?? err.name ?? 'ERR_TRANSPORT';
  if (err.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { code: 'TIMEOUT', message: `no complete answer within ${timeoutMs} ms` };
  }
  const msg = err.cause?.message ?? err.message ?? String(e);
  if (TLS_TRUST_CODES.has(code)) {
    return { code, message: `TLS: the target's certificate is not trusted (${msg}); give its CA with NODE_EXTRA_CA_CERTS=<ca.pem>, or accept it with --insecure` };
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return { code, message: `TLS: the certificate does not name this host (${msg})` };
  if (/^ERR_SSL_|^EPROTO$/.test(code)) return { code, message: `TLS handshake failed (${msg}); is the target really HTTPS?` };
  return { code, message: msg };
}

/** Transport errors a retry cannot mend: an untrusted or misnamed certificate. */
const FINAL_TRANSPORT_CODES = new Set<string>();

/** OpenSSL verification codes that mean "valid certificate, but not one we trust". */
const TLS_TRUST_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID',
]);
for (const code of [...TLS_TRUST_CODES, 'ERR_TLS_CERT_ALTNAME_INVALID']) FINAL_TRANSPORT_CODES.add(code);

/** Exchanges whose kept text is the very text their JSON was parsed from (no secret was redacted in it). */
const verbatim = new WeakSet<Exchange>();

/**
 * Does parsing this exchange's `response.text` give its `json` again (the
 * text held no secret, so the redacted text is the text parsed)? A copy of
 * the records can then be parsed from the text (src/client/shared-reads.ts)
 * instead of cloned from the records, which may have been edited since.
 */
export function jsonIsParsedText(ex: Exchange): boolean {
  return verbatim.has(ex);
}

/** Deeper than any answer of the spec (records hold lists of objects at most a few levels down). */
export const MAX_NESTING = 64;

/**
 * Is the JSON text nested deeper than `max` arrays/objects? One pass, strings
 * skipped; checked before parsing, so a hostile answer cannot overflow the
 * stack of the parser or of anything that walks the value afterwards.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = stringEnd(text, i);
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/**
 * Where the string opened by the quote at `open` ends (its closing quote; the text's end if it has
 * none). Found by indexOf from quote to quote, not character by character: most of an answer's text
 * is inside strings. A quote after an odd run of backslashes is escaped.
 */
function stringEnd(text: string, open: number): number {
  for (let q = text.indexOf('"', open + 1); q !== -1; q = text.indexOf('"', q + 1)) {
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return text.length;
}

/**
 * The URL of an API path under a base URL: the base's path before it, the
 * base's query string (some gateways route by it) after it.
 */
export function apiUrl(baseUrl: string, path: string): string {
  const base = new URL(baseUrl);
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${path}${base.search}`;
}

/** Header values with every secret replaced (a target may echo the key in a header). */
function redactHeaders(headers: Record<string, string>, r: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = typeof v === 'string' ? r.text(v) : v;
  return out;
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
