/**
 * Read-after-write with a lagging replica in mind: a store whose reads see a
 * write a little later (a read replica behind the primary) is conformant, so a
 * read that should show a write is repeated until it does, or until a bounded
 * deadline (--visibility-timeout-ms, default 5 s): only a write never visible
 * in time is judged. The largest delay seen is reported as the observation
 * consistency.readAfterWriteMs.
 */
import { runtime } from './runtime.js';

export const DEFAULT_VISIBILITY_MS = 5_000;
/** first pause between reads; doubles up to MAX_PAUSE */
const FIRST_PAUSE = 50;
const MAX_PAUSE = 800;

let largest = 0;

/** The largest read-after-write delay this worker saw, ms (0: every write visible at once). */
export function largestVisibilityDelay(): number {
  return largest;
}

/** The deadline of this run: RunConfig.visibilityTimeoutMs, or 5 s. */
export function visibilityDeadline(): number {
  return runtime().config.visibilityTimeoutMs ?? DEFAULT_VISIBILITY_MS;
}

/**
 * Read until `visible(result)` or the deadline; returns the last read either way
 * (the caller judges it) and how long the write took to show (undefined: never).
 * A read that throws (a target error) ends the wait at once.
 */
export async function eventually<T>(read: () => Promise<T>, visible: (result: T) => boolean, opts: { deadlineMs?: number } = {}): Promise<{ result: T; delayMs: number | undefined }> {
  const deadline = opts.deadlineMs ?? visibilityDeadline();
  const started = performance.now();
  let pause = FIRST_PAUSE;
  for (;;) {
    const result = await read();
    const elapsed = performance.now() - started;
    if (visible(result)) {
      const delayMs = Math.round(elapsed);
      // only a repeated read says the store lagged; the first read's own latency is no lag
      if (pause > FIRST_PAUSE) largest = Math.max(largest, delayMs);
      return { result, delayMs };
    }
    if (elapsed + pause > deadline) return { result, delayMs: undefined };
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(MAX_PAUSE, pause * 2);
  }
}
