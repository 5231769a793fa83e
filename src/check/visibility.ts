/**
 * Read-after-write with a lagging replica in mind: a store whose reads see a
 * write a little later (a read replica behind the primary) is conformant, so a
 * read that should show a write is repeated until it does, or until a bounded
 * deadline (--visibility-timeout-ms, default 5 s): only a write never visible
 * in time is judged. The probe of consistency.readAfterWriteMs measures the
 * lag before the checks; the client then waits for each write (ClientOptions.visibility).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pollUntil } from '../client/poll.js';
import { runtime } from './runtime.js';

/**
 * The waits of one check that reached their deadline: a read that waited out
 * --visibility-timeout-ms, for a write never shown or for a condition that
 * could not hold (a change equal to what the record held); report.json
 * run.visibilityWaits adds them up. On a store without lag, each is seconds
 * of a run spent idle.
 */
export interface Waits { atDeadline: number }
const waiting = new AsyncLocalStorage<Waits>();

/** Run `fn` (a check's body) counting into `w` the waits of eventually() that reach their deadline. */
export function countingWaits<T>(w: Waits, fn: () => T): T {
  return waiting.run(w, fn);
}

/** The deadline of this run: RunConfig.visibilityTimeoutMs (--visibility-timeout-ms). */
export function visibilityDeadline(): number {
  return runtime().config.visibilityTimeoutMs;
}

/**
 * Read until `visible(result)` or the deadline; returns the last read either way
 * (the caller judges it) and how long the write took to show (undefined: never).
 * A read that throws (a target error) ends the wait at once.
 */
export async function eventually<T>(read: () => Promise<T>, visible: (result: T) => boolean, opts: { deadlineMs?: number } = {}): Promise<{ result: T; delayMs: number | undefined }> {
  const polled = await pollUntil(read, visible, opts.deadlineMs ?? visibilityDeadline());
  // not held: the wait ran to its deadline (a read that throws leaves before)
  if (!polled.held) {
    const w = waiting.getStore();
    if (w) w.atDeadline++;
  }
  return { result: polled.result, delayMs: polled.held ? polled.elapsedMs : undefined };
}
