/**
 * Read until a condition holds or a deadline passes: how storecheck waits for
 * a store whose reads lag its writes (a read replica behind the primary).
 * Pauses start at 50 ms and double up to 800 ms, so a store that lags a little
 * costs a few reads and one that never shows the write costs about a dozen.
 */
import { sleep } from './http.js';

const FIRST_PAUSE = 50;
const MAX_PAUSE = 800;

export interface Polled<T> {
  /** the last read, whether the condition held or not */
  result: T;
  /** the condition held on it */
  held: boolean;
  /** ms from the first read's start to the last read's end */
  elapsedMs: number;
  /** more than one read was needed */
  repeated: boolean;
}

export interface PollPauses {
  /** the first pause (default 50 ms); it doubles up to maxPauseMs */
  firstPauseMs?: number;
  /** default 800 ms; a measurement keeps it small, for a delay known to the nearest few ms */
  maxPauseMs?: number;
}

export interface PollOptions<T> extends PollPauses {
  /** a read after which waiting is pointless (e.g. one never sent: the run stopped, its endpoint was given up): the wait ends, not held */
  hopeless?: (result: T) => boolean;
}

/** `read` until `done(result)` or `deadlineMs` (or a `hopeless` read); a read that throws ends the wait with its error. */
export async function pollUntil<T>(read: () => Promise<T>, done: (result: T) => boolean, deadlineMs: number, pauses: PollOptions<T> = {}): Promise<Polled<T>> {
  const started = performance.now();
  const first = pauses.firstPauseMs ?? FIRST_PAUSE;
  let reads = 0;
  for (let pause = first; ; pause = Math.min(pauses.maxPauseMs ?? MAX_PAUSE, pause * 2)) {
    const result = await read();
    const elapsedMs = Math.round(performance.now() - started);
    const repeated = ++reads > 1;
    if (done(result)) return { result, held: true, elapsedMs, repeated };
    if (elapsedMs + pause > deadlineMs || pauses.hopeless?.(result)) return { result, held: false, elapsedMs, repeated };
    await sleep(pause);
  }
}
