/**
 * Memory given back promptly after a hostile answer. The bytes of an answer
 * the client cut (over --max-answer-mb or over the run's answer budget) are
 * garbage at once, but they live in socket read buffers that V8 frees only
 * when it next collects — and a target streaming endlessly can pass gigabytes
 * through a thread between two collections: the answer budget held (128 MB
 * buffered at once), yet the process's memory grew to several times that
 * (a quick run with every product get answered endlessly: 870–1 050 MB of
 * resident memory against 435 MB without the fault). So each thread counts
 * the bytes of the answers it dropped and, past RECLAIM_AFTER_BYTES since the
 * last time, asks V8 for a full collection. A run against an honest target
 * never cuts an answer and never collects here.
 *
 * `gc` is not exposed by default; it is obtained the way jest's leak
 * detector does (v8.setFlagsFromString('--expose-gc') and the `gc` of a new
 * context). Where that is refused, nothing is collected early.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** bytes of dropped answers a thread lets pass before it asks for a collection */
export const RECLAIM_AFTER_BYTES = 32 * 1024 * 1024;

let collect: (() => void) | undefined | null = null;
let dropped = 0;

function collector(): (() => void) | undefined {
  if (collect === null) {
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('gc');
      collect = typeof gc === 'function' ? (gc as () => void) : undefined;
    } catch {
      collect = undefined;
    }
  }
  return collect;
}

/**
 * An answer of `bytes` read bytes was dropped (cut): past RECLAIM_AFTER_BYTES
 * of them in this thread, a full collection runs (after the current turn, once
 * the answer's handler has let its chunks go). True when one was scheduled.
 */
export function droppedAnswer(bytes: number): boolean {
  dropped += bytes;
  if (dropped < RECLAIM_AFTER_BYTES) return false;
  dropped = 0;
  const gc = collector();
  if (!gc) return false;
  setImmediate(gc);
  return true;
}
