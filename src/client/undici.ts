/**
 * The pieces of undici the client uses — Agent (the keep-alive pool), its
 * Dispatcher#dispatch with a handler of our own, and undici's header parser —
 * loaded without undici's index. The index also loads fetch, WebSocket, cookies, caches, mocks and,
 * through them, Node's own bundled copy of undici: about 150 ms of start-up
 * CPU in every thread, and a run starts one client per vitest worker. The
 * version is pinned (package-lock.json); test/unit/client.test.ts exercises
 * these imports.
 *
 * Why a handler instead of Dispatcher#request: request() wraps every answer in
 * a Readable stream that the client then drains chunk by chunk through an
 * async iterator. Every answer is read whole (or up to the size limit) anyway,
 * so the handler collects the chunks as they arrive: a stream, an async
 * iterator and a few promises less per request.
 */
import { createRequire } from 'node:module';
import type { Agent as AgentClass, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

/** undici's Agent class (lib/dispatcher/agent.js is what the index re-exports). */
export const Agent: typeof AgentClass = require('undici/lib/dispatcher/agent.js');

/** undici's own header parser: lower-case names, repeated headers as arrays. */
const parseHeaders: (raw: Buffer[]) => Record<string, string | string[]> = require('undici/lib/core/util.js').parseHeaders;

export interface PostRequest {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** for the headers and for each gap between body chunks (undici's own timers) */
  timeoutMs: number;
  /** read at most this many body bytes; the rest is dropped and the answer marked truncated */
  maxBodyBytes: number;
}

export interface PostResponse {
  status: number;
  /** repeated headers joined with ', ' */
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
}

/**
 * A request that can be abandoned: abort(reason) rejects the pending promise
 * at once with `reason` and stops the exchange (now, or as soon as undici
 * hands the request its abort function, if it is still queued in the pool).
 */
export class PendingPost {
  private abortFn?: (reason: unknown) => void;
  private reason?: unknown;
  private reject?: (reason: unknown) => void;

  abort(reason: unknown): void {
    if (this.reason !== undefined) return;
    this.reason = reason ?? new Error('aborted');
    this.reject?.(this.reason);
    this.abortFn?.(this.reason);
  }

  /** @internal */
  bind(reject: (reason: unknown) => void): void {
    this.reject = reject;
  }

  /** @internal undici's abort for this request; used at once if abort() came first */
  connected(abort: (reason: unknown) => void): void {
    this.abortFn = abort;
    if (this.reason !== undefined) abort(this.reason);
  }
}

/** POST `req` through `dispatcher`, collecting the whole answer (up to its size limit). */
export function postOn(dispatcher: Dispatcher, req: PostRequest, pending = new PendingPost()): Promise<PostResponse> {
  return new Promise<PostResponse>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    pending.bind((reason) => settle(() => reject(reason)));
    let status = 0;
    let headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let abort: ((reason: unknown) => void) | undefined;
    const handler = {
      onConnect(abortFn: (reason: unknown) => void) {
        abort = abortFn;
        pending.connected(abortFn);
      },
      onHeaders(statusCode: number, rawHeaders: Buffer[]) {
        // 1xx answers are informational: the real one follows
        if (statusCode < 200) return true;
        status = statusCode;
        headers = {};
        for (const [k, v] of Object.entries(parseHeaders(rawHeaders))) headers[k] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
        return true;
      },
      onData(chunk: Buffer) {
        if (truncated) return true;
        size += chunk.length;
        if (size > req.maxBodyBytes) {
          truncated = true;
          chunks.push(chunk.subarray(0, Math.max(0, chunk.length - (size - req.maxBodyBytes))));
          settle(() => resolve({ status, headers, body: Buffer.concat(chunks), truncated: true }));
          // the rest is not read: the connection goes
          abort?.(new Error('answer larger than the client reads'));
          return true;
        }
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        settle(() => resolve({ status, headers, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), truncated: false }));
      },
      onError(err: unknown) {
        settle(() => reject(err));
      },
      onUpgrade() {
        settle(() => reject(new Error('the target answered with a protocol upgrade')));
      },
    };
    try {
      dispatcher.dispatch(
        { origin: req.origin, path: req.path, method: 'POST', headers: req.headers, body: req.body, headersTimeout: req.timeoutMs, bodyTimeout: req.timeoutMs },
        handler as unknown as Dispatcher.DispatchHandler,
      );
    } catch (e) {
      settle(() => reject(e));
    }
  });
}
