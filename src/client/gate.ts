/**
 * A counting semaphore in shared memory: the run's bound on requests in flight
 * (--concurrency), shared by the main process and every vitest worker thread.
 *
 * Why shared: a fixed share per worker (concurrency ÷ workers) leaves slots
 * idle whenever one worker's file is waiting on a few slow requests while
 * another has many ready; near the end of a run, the last files are held to
 * their share of the pool. One counter lets any worker use any free slot.
 */
export class SharedGate {
  private readonly cells: Int32Array;

  /** `buffer` from `SharedGate.create(limit).buffer`, posted to another thread */
  constructor(readonly buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer);
  }

  static create(limit: number): SharedGate {
    const gate = new SharedGate(new SharedArrayBuffer(12));
    Atomics.store(gate.cells, LIMIT, Math.max(1, Math.floor(limit)));
    return gate;
  }

  get limit(): number {
    return Atomics.load(this.cells, LIMIT);
  }

  /** slots taken now, by every thread */
  get taken(): number {
    return Atomics.load(this.cells, TAKEN);
  }

  /**
   * Wait for a free slot. Returns false, without a slot, when `cancelled()`
   * turns true while waiting (the run is stopping).
   */
  async acquire(cancelled: () => boolean = () => false): Promise<boolean> {
    for (;;) {
      if (cancelled()) return false;
      const n = Atomics.load(this.cells, TAKEN);
      if (n < this.limit) {
        if (Atomics.compareExchange(this.cells, TAKEN, n, n + 1) === n) return true;
        continue;
      }
      // sleeps only while the count is still n, so a release in between is never missed;
      // the timeout lets a stopping run notice cancelled()
      Atomics.add(this.cells, WAITING, 1);
      try {
        const w = waitAsync(this.cells, TAKEN, n, 200);
        if (w.async) {
          // a pending waitAsync does not keep the event loop alive: this timer does, while it sleeps
          const alive = setTimeout(() => undefined, 250);
          try {
            await w.value;
          } finally {
            clearTimeout(alive);
          }
        }
      } finally {
        Atomics.sub(this.cells, WAITING, 1);
      }
    }
  }

  release(): void {
    Atomics.sub(this.cells, TAKEN, 1);
    // notify costs more than the rest together: only when someone sleeps (a waiter that registers
    // after this check sees the lowered count before it sleeps, so no wake-up is lost)
    if (Atomics.load(this.cells, WAITING) > 0) Atomics.notify(this.cells, TAKEN, 1);
  }
}

// Node 20 has Atomics.waitAsync (V8); the project's TypeScript lib (es2022) does not declare it
const waitAsync = (Atomics as unknown as {
  waitAsync(view: Int32Array, index: number, value: number, timeoutMs: number): { async: boolean; value: Promise<string> | string };
}).waitAsync;

const TAKEN = 0;
const LIMIT = 1;
const WAITING = 2;
