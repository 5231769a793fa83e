/**
 * A counting semaphore in shared memory: the run's bound on requests in flight
 * (--concurrency), shared by the main process and every vitest worker thread;
 * and the run's pace: when the next request may start, and the adaptive
 * spacing a rate-limiting target (429) imposes — one for the whole run, so
 * every thread slows down together instead of each finding the limit alone.
 *
 * Why shared: a fixed share per worker (concurrency ÷ workers) leaves slots
 * idle whenever one worker's file is waiting on a few slow requests while
 * another has many ready; near the end of a run, the last files are held to
 * their share of the pool. One counter lets any worker use any free slot.
 */
export class SharedGate {
  private readonly cells: Int32Array;
  /** Date.now() when the gate was made: pace times are 0.1 ms ticks since then (the same clock in every thread) */
  private readonly base: number;

  /** the slot-time held by every request given back (µs) and how many were, all threads together */
  private readonly held: BigInt64Array;

  /** the endpoints given up after consecutive time-outs, run-wide (in the same shared memory) */
  readonly endpoints: EndpointBreaker;

  /** `buffer` from `SharedGate.create(limit).buffer`, posted to another thread */
  constructor(readonly buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer, 0, CELLS);
    this.base = new Float64Array(buffer, CELLS * 4, 1)[0];
    this.held = new BigInt64Array(buffer, CELLS * 4 + 8, 2);
    this.endpoints = new EndpointBreaker(new Int32Array(buffer, CELLS * 4 + 24, BREAKER_INTS));
  }

  /**
   * `limit`: requests in flight at most. `answerBytes`: bytes of answers
   * buffered at once, all threads together (default DEFAULT_ANSWER_BUDGET).
   * `giveUpAfter`: consecutive time-outs after which an endpoint is given up
   * (default GIVE_UP_AFTER).
   */
  static create(limit: number, answerBytes = DEFAULT_ANSWER_BUDGET, giveUpAfter = GIVE_UP_AFTER): SharedGate {
    const buffer = new SharedArrayBuffer(CELLS * 4 + 24 + BREAKER_INTS * 4);
    new Float64Array(buffer, CELLS * 4, 1)[0] = Date.now();
    const gate = new SharedGate(buffer);
    Atomics.store(gate.cells, LIMIT, Math.max(1, Math.floor(limit)));
    Atomics.store(gate.cells, LAST_SLOW, -1e9);
    Atomics.store(gate.cells, BYTES_LIMIT_KIB, Math.max(1, Math.ceil(answerBytes / 1024)));
    gate.endpoints.setThreshold(giveUpAfter);
    return gate;
  }

  /**
   * Take `bytes` of the run's answer budget for an answer being read (all
   * threads share it): false, and nothing taken, when it would go over — the
   * caller cuts that answer there. Counted in KiB, rounded up.
   */
  takeBytes(bytes: number): boolean {
    const kib = Math.ceil(bytes / 1024);
    if (Atomics.add(this.cells, BYTES_KIB, kib) + kib <= Atomics.load(this.cells, BYTES_LIMIT_KIB)) return true;
    Atomics.sub(this.cells, BYTES_KIB, kib);
    return false;
  }

  /** Give back what takeBytes took, once the answer is no longer buffered. */
  giveBytes(bytes: number): void {
    Atomics.sub(this.cells, BYTES_KIB, Math.ceil(bytes / 1024));
  }

  /** the answer budget, bytes */
  get answerBudget(): number {
    return Atomics.load(this.cells, BYTES_LIMIT_KIB) * 1024;
  }

  private ticks(): number {
    return Math.round((Date.now() - this.base) * 10);
  }

  /** the adaptive spacing between request starts, ms (0: not slowed down) */
  get adaptiveGapMs(): number {
    return Atomics.load(this.cells, GAP_US) / 1000;
  }

  /**
   * Wait for this request's turn to start: at least `minGapMs` (--max-rps) or
   * the adaptive spacing after the previous *actual* start of any thread. A
   * turn is claimed (one compare-and-swap) only when it is due, at the time it
   * is taken: a thread whose timers fire late (a busy event loop) starts late,
   * and the next turn counts from then — requests never bunch up into a burst.
   * `stopped`: the run is stopping (pause returns at once): no more waiting.
   */
  async pace(minGapMs: number, pause: (ms: number) => Promise<void>, stopped: () => boolean = () => false): Promise<void> {
    // claim no turn within the caller's synchronous code: what runs next may hold the loop before the send
    await Promise.resolve();
    for (;;) {
      const gap = Math.round(Math.max(minGapMs, this.adaptiveGapMs) * 10);
      if (gap <= 0 || stopped()) return;
      const next = Atomics.load(this.cells, NEXT);
      const now = this.ticks();
      if (now >= next) {
        if (Atomics.compareExchange(this.cells, NEXT, next, now + gap) === next) return;
        continue;
      }
      await pause((next - now) / 10);
    }
  }

  /**
   * The adaptive rate, for the whole run: a 429 grows the spacing between
   * request starts by SLOW_DOWN (at least 10 ms, at most 1 s) — only for a
   * request sent a little after the last slow-down (4 spacings, at least 50 ms):
   * the 429s of requests already under way say nothing new, and counting them
   * made one burst slow a run to a crawl; every other answer adds
   * RECOVERY_RPS ÷ rate to the rate, so it climbs back by RECOVERY_RPS requests
   * a second each second, whatever it is (additive increase, multiplicative
   * decrease): a rate growing by a share of itself overshot a limit by half.
   * `sentAt`: Date.now() when the request was sent.
   */
  adapt(status: number | undefined, sentAt: number): void {
    const gap = Atomics.load(this.cells, GAP_US);
    if (status === 429) {
      const last = Atomics.load(this.cells, LAST_SLOW);
      if (Math.round((sentAt - this.base) * 10) < last + Math.max(500, (gap / 1000) * 40)) return;
      if (Atomics.compareExchange(this.cells, LAST_SLOW, last, this.ticks()) !== last) return;
      Atomics.store(this.cells, GAP_US, Math.min(1_000_000, Math.max(10_000, Math.round(gap * SLOW_DOWN))));
    } else if (gap > 0) {
      const rate = 1e6 / gap;
      const faster = 1e6 / (rate + RECOVERY_RPS / rate);
      Atomics.store(this.cells, GAP_US, faster < 1_000 ? 0 : Math.round(faster));
    }
  }

  get limit(): number {
    return Atomics.load(this.cells, LIMIT);
  }

  /** the slot-time of every request given back with its time so far, all threads together: ms held, and how many requests */
  get slotsHeld(): { ms: number; requests: number } {
    return { ms: Number(Atomics.load(this.held, 0)) / 1000, requests: Number(Atomics.load(this.held, 1)) };
  }

  /** slots taken now, by every thread */
  get taken(): number {
    return Atomics.load(this.cells, TAKEN);
  }

  /**
   * Wait for a free slot. Returns false, without a slot, when `cancelled()`
   * turns true while waiting (the run is stopping).
   *
   * `urgent`: a step of a long chain (a check whose requests wait on answer
   * after answer: src/items/shard.ts longChainChecks). It takes the next slot
   * freed before any other request waiting: a chain of 40 round trips that
   * queues behind the bulk checks' requests at every step (50-150 of them at a
   * full gate) waits on 40 queues besides its 40 round trips, and ends the run
   * alone; served first, it waits on no queue.
   */
  async acquire(cancelled: () => boolean = () => false, urgent = false): Promise<boolean> {
    if (urgent) return this.acquireUrgent(cancelled);
    for (;;) {
      if (cancelled()) return false;
      const n = Atomics.load(this.cells, TAKEN);
      // a free slot goes to an urgent request waiting for one before any other
      if (n < this.limit && Atomics.load(this.cells, URGENT_WAITING) === 0) {
        if (Atomics.compareExchange(this.cells, TAKEN, n, n + 1) === n) return true;
        continue;
      }
      await this.sleep(n);
    }
  }

  /** acquire() for a step of a long chain: counted as waiting, so held back from the others, until it has its slot. */
  private async acquireUrgent(cancelled: () => boolean): Promise<boolean> {
    Atomics.add(this.cells, URGENT_WAITING, 1);
    try {
      for (;;) {
        if (cancelled()) return false;
        // the turn read before the count: a release in between moves it, and the wait returns at once
        const turn = Atomics.load(this.cells, URGENT_TURN);
        const n = Atomics.load(this.cells, TAKEN);
        if (n < this.limit) {
          if (Atomics.compareExchange(this.cells, TAKEN, n, n + 1) === n) return true;
          continue;
        }
        await sleeping(waitAsync(this.cells, URGENT_TURN, turn, 200));
      }
    } finally {
      // the last urgent waiter gone: the others may take what is still free
      if (Atomics.sub(this.cells, URGENT_WAITING, 1) === 1) this.wakeOthers(this.limit - Atomics.load(this.cells, TAKEN));
    }
  }

  /** Sleeps while the count is still `n` (a release in between is never missed), at most 200 ms. */
  private async sleep(n: number): Promise<void> {
    // the timeout lets a stopping run notice cancelled()
    Atomics.add(this.cells, WAITING, 1);
    try {
      await sleeping(waitAsync(this.cells, TAKEN, n, 200));
    } finally {
      Atomics.sub(this.cells, WAITING, 1);
    }
  }

  private wakeOthers(count: number): void {
    if (count > 0 && Atomics.load(this.cells, WAITING) > 0) Atomics.notify(this.cells, TAKEN, count);
  }

  /**
   * Give a slot back; `heldMs`: how long it was held (from the request's start
   * to its answer's last byte), added to the run's slot-time (slotsHeld).
   */
  release(heldMs?: number): void {
    if (heldMs !== undefined) {
      Atomics.add(this.held, 0, BigInt(Math.max(0, Math.round(heldMs * 1000))));
      Atomics.add(this.held, 1, 1n);
    }
    Atomics.sub(this.cells, TAKEN, 1);
    // notify costs more than the rest together: only when someone sleeps (a waiter that registers
    // after this check sees the lowered count before it sleeps, so no wake-up is lost)
    if (Atomics.load(this.cells, URGENT_WAITING) > 0) {
      Atomics.add(this.cells, URGENT_TURN, 1);
      Atomics.notify(this.cells, URGENT_TURN, 1);
    } else this.wakeOthers(1);
  }
}

/** Awaits a waitAsync that went to sleep; a pending waitAsync does not keep the event loop alive: a timer does meanwhile. */
async function sleeping(w: { async: boolean; value: Promise<string> | string }): Promise<void> {
  if (!w.async) return;
  const alive = setTimeout(() => undefined, 250);
  try {
    await w.value;
  } finally {
    clearTimeout(alive);
  }
}

// Node 20 has Atomics.waitAsync (V8); the project's TypeScript lib (es2022) does not declare it
const waitAsync = (Atomics as unknown as {
  waitAsync(view: Int32Array, index: number, value: number, timeoutMs: number): { async: boolean; value: Promise<string> | string };
}).waitAsync;

const TAKEN = 0;
const LIMIT = 1;
const WAITING = 2;
/** when the next request may start (0.1 ms ticks since `base`) */
const NEXT = 3;
/** the adaptive spacing between starts, µs */
const GAP_US = 4;
/** when the spacing last grew (ticks) */
const LAST_SLOW = 5;
/** bytes of answers buffered now, all threads (KiB), and the most allowed */
const BYTES_KIB = 6;
const BYTES_LIMIT_KIB = 7;
/** urgent requests waiting for a slot, and the turn a release moves to wake one */
const URGENT_WAITING = 8;
const URGENT_TURN = 9;
const CELLS = 10;

/**
 * Bytes of answers buffered at once by default, all threads together: 128 MB
 * (or twice --max-answer-mb when that is more). A target answering hundreds
 * of MB to every request can then never hold more than this in the client's
 * memory, whatever --concurrency allows in flight; the answers of a conformant
 * store (at most 1000 records a get) are a few MB each.
 */
export const DEFAULT_ANSWER_BUDGET = 128 * 1024 * 1024;

/** The budget of answer bytes buffered at once when the largest answer read is `maxAnswerBytes`: at least two of them. */
export function answerBudgetFor(maxAnswerBytes: number): number {
  return Math.max(DEFAULT_ANSWER_BUDGET, 2 * maxAnswerBytes);
}

/**
 * Consecutive time-outs after which an endpoint is given up for the rest of
 * the run. One time-out can be a hiccup and two a slow moment under load;
 * three in a row — each a whole --timeout-ms without a complete answer — is
 * an endpoint that hangs (a stuck upstream, a silent socket), and every
 * further request to it would cost another --timeout-ms for nothing.
 */
export const GIVE_UP_AFTER = 3;

/** An endpoint the run gave up on, as the breaker holds it. */
export interface GivenUpEndpoint {
  /** the API path (`/api/v1/products/get`) */
  path: string;
  /** consecutive time-outs that gave it up */
  timeouts: number;
  /** requests not sent to it since (every thread) */
  refused: number;
}

/**
 * The run-wide record of consecutive time-outs per endpoint (a path), in
 * shared memory so every thread gives an endpoint up together: a table of
 * BREAKER_SLOTS slots, each found by a hash of its path (open addressing,
 * claimed by compare-and-swap) and holding the path's consecutive time-outs,
 * whether it was given up, the requests refused since, and the path's bytes
 * (for the report). A complete answer of any status resets the count; a
 * given-up endpoint stays given up for the run. A path that finds the table
 * full is never given up (the table holds far more paths than the API has).
 */
export class EndpointBreaker {
  constructor(private readonly cells: Int32Array) {}

  setThreshold(n: number): void {
    Atomics.store(this.cells, 0, Math.max(1, Math.floor(n)));
  }

  /** consecutive time-outs that give an endpoint up */
  get threshold(): number {
    return Atomics.load(this.cells, 0) || GIVE_UP_AFTER;
  }

  /** Has the run given this endpoint up? Counts the request as refused when `refuse`. */
  givenUp(path: string, refuse = false): boolean {
    const at = this.slot(path, false);
    if (at < 0 || Atomics.load(this.cells, at + GIVEN_UP) === 0) return false;
    if (refuse) Atomics.add(this.cells, at + REFUSED, 1);
    return true;
  }

  /** A request to `path` timed out: true when this time-out gave the endpoint up. */
  timedOut(path: string): boolean {
    const at = this.slot(path, true);
    // given up already: the count stays what gave it up
    if (at < 0 || Atomics.load(this.cells, at + GIVEN_UP) !== 0) return false;
    const n = Atomics.add(this.cells, at + CONSECUTIVE, 1) + 1;
    return n >= this.threshold && Atomics.compareExchange(this.cells, at + GIVEN_UP, 0, 1) === 0;
  }

  /** A complete answer came from `path`: its count of consecutive time-outs starts again (unless it was given up). */
  answered(path: string): void {
    const at = this.slot(path, false);
    if (at < 0 || Atomics.load(this.cells, at + GIVEN_UP) !== 0) return;
    if (Atomics.load(this.cells, at + CONSECUTIVE) !== 0) Atomics.store(this.cells, at + CONSECUTIVE, 0);
  }

  /** Every endpoint given up so far, in the order of the table. */
  givenUpEndpoints(): GivenUpEndpoint[] {
    const out: GivenUpEndpoint[] = [];
    for (let i = 0; i < BREAKER_SLOTS; i++) {
      const at = 1 + i * SLOT_INTS;
      if (Atomics.load(this.cells, at + GIVEN_UP) === 0) continue;
      out.push({ path: this.pathAt(at), timeouts: Atomics.load(this.cells, at + CONSECUTIVE), refused: Atomics.load(this.cells, at + REFUSED) });
    }
    return out;
  }

  /** The index of the path's slot (claimed when `claim`), -1 when it has none. */
  private slot(path: string, claim: boolean): number {
    const hash = hashOf(path);
    for (let probe = 0; probe < BREAKER_SLOTS; probe++) {
      const at = 1 + ((hash + probe) % BREAKER_SLOTS) * SLOT_INTS;
      const held = Atomics.load(this.cells, at + HASH);
      if (held === hash) return at;
      if (held !== 0) continue;
      if (!claim) return -1;
      const was = Atomics.compareExchange(this.cells, at + HASH, 0, hash);
      if (was === 0) {
        this.writePath(at, path);
        return at;
      }
      if (was === hash) return at;
    }
    return -1;
  }

  private writePath(at: number, path: string): void {
    const bytes = Buffer.from(path, 'utf8').subarray(0, PATH_INTS * 4);
    const padded = Buffer.alloc(PATH_INTS * 4);
    bytes.copy(padded);
    for (let i = 0; i < PATH_INTS; i++) Atomics.store(this.cells, at + PATH + i, padded.readInt32LE(i * 4));
    Atomics.store(this.cells, at + PATH_LENGTH, bytes.length);
  }

  private pathAt(at: number): string {
    const bytes = Buffer.alloc(PATH_INTS * 4);
    for (let i = 0; i < PATH_INTS; i++) bytes.writeInt32LE(Atomics.load(this.cells, at + PATH + i), i * 4);
    return bytes.subarray(0, Atomics.load(this.cells, at + PATH_LENGTH)).toString('utf8');
  }
}

/** FNV-1a of the path, never 0 (0 marks a free slot), as a non-negative int32. */
function hashOf(path: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    h ^= path.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 1) || 1;
}

/** slots of the breaker table: the API has about 60 endpoints, probes of unknown paths add a few */
const BREAKER_SLOTS = 256;
/** a slot: the hash, consecutive time-outs, given up (0/1), requests refused since, the path's length and bytes */
const HASH = 0;
const CONSECUTIVE = 1;
const GIVEN_UP = 2;
const REFUSED = 3;
const PATH_LENGTH = 4;
const PATH = 5;
/** a path's bytes kept for the report (longer ones are cut there; the hash tells them apart) */
const PATH_INTS = 32;
const SLOT_INTS = PATH + PATH_INTS;
/** the threshold, then the slots */
const BREAKER_INTS = 1 + BREAKER_SLOTS * SLOT_INTS;

/** A 429 multiplies the spacing by this (the rate by 1/1.4 ≈ 0.71): the run then averages about 85 % of a limit. */
export const SLOW_DOWN = 1.4;
/** After a slow-down the rate climbs back by this many requests a second, each second. */
const RECOVERY_RPS = 3;
