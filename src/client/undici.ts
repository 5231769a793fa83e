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
import { droppedAnswer } from './reclaim.js';

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
  /**
   * The run's budget for answers buffered at once: each chunk is taken from it
   * as it arrives (given back by the caller once the answer is let go); a
   * chunk it cannot take cuts the answer there, as if too large.
   */
  budget?: { take(bytes: number): boolean };
  /** of a cut answer, only this many bytes are kept (default: all that was read) */
  showOfCut?: number;
}

export interface PostResponse {
  status: number;
  /** repeated headers joined with ', ' */
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  /** why it was cut: over maxBodyBytes, or over the run's budget of answers in flight */
  cut?: 'size' | 'budget';
  /** bytes taken from the budget (the caller gives them back) */
  taken: number;
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
    pending.bind((reason) => settle(() => reject(withTaken(reason, taken))));
    let status = 0;
    let headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    /** bytes taken from the budget for this answer */
    let taken = 0;
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
        // nothing more is buffered once the answer is settled (cut, or abandoned by a timeout)
        if (truncated || settled) return true;
        const over = size + chunk.length > req.maxBodyBytes;
        const keep = over ? chunk.subarray(0, Math.max(0, req.maxBodyBytes - size)) : chunk;
        const cut: PostResponse['cut'] = over ? 'size' : req.budget && !req.budget.take(keep.length) ? 'budget' : undefined;
        if (cut) {
          truncated = true;
          // what is kept of a cut answer is only shown (a prefix), never parsed: no more of it is buffered
          if (cut === 'size' && (!req.budget || req.budget.take(keep.length))) {
            chunks.push(keep);
            if (req.budget) taken += keep.length;
          }
          // only the start of a cut answer is kept (to show): no copy of the rest is made
          settle(() => resolve({ status, headers, body: Buffer.concat(chunks, Math.min(size + (cut === 'size' ? keep.length : 0), req.showOfCut ?? Infinity)), truncated: true, cut, taken }));
          // the rest is not read: the connection goes
          abort?.(new Error('answer larger than the client reads'));
          // what was read of it is garbage now: let it go, and reclaim it before a stream of such answers piles it up
          chunks.length = 0;
          droppedAnswer(size + chunk.length);
          return true;
        }
        size += keep.length;
        if (req.budget) taken += keep.length;
        chunks.push(keep);
        return true;
      },
      onComplete() {
        settle(() => resolve({ status, headers, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), truncated: false, taken }));
      },
      onError(err: unknown) {
        settle(() => reject(withTaken(err, taken)));
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

/** The bytes an answer that failed had taken from the budget, carried on its error (the caller gives them back). */
function withTaken(err: unknown, taken: number): unknown {
  if (taken > 0 && err && typeof err === 'object') (err as { budgetTaken?: number }).budgetTaken = taken;
  return err;
}

/** What a failed request had taken from the answer budget. */
export function budgetTakenBy(err: unknown): number {
  return err && typeof err === 'object' ? (err as { budgetTaken?: number }).budgetTaken ?? 0 : 0;
}
