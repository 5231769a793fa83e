/**
 * src/client/reclaim.ts: the bytes of dropped (cut) answers are counted per
 * thread and, past RECLAIM_AFTER_BYTES, a full collection is scheduled — the
 * garbage a hostile stream leaves is freed before it piles up (the measured
 * effect is in test/meta/hostile-answers.test.ts: peak memory of a run whose
 * every product get streams endlessly).
 */
import { describe, expect, it } from 'vitest';
import { droppedAnswer, RECLAIM_AFTER_BYTES } from '../../src/client/reclaim.js';

describe('reclaiming the memory of dropped answers', () => {
  it('schedules a collection once the dropped bytes pass the threshold, then counts again from zero', async () => {
    expect(droppedAnswer(RECLAIM_AFTER_BYTES - 1)).toBe(false);
    // `gc` is obtainable in a worker thread (vitest's, as the run's): a collection is scheduled
    expect(droppedAnswer(1)).toBe(true);
    expect(droppedAnswer(RECLAIM_AFTER_BYTES / 2)).toBe(false);
    await new Promise((r) => setImmediate(r));
  });
});
