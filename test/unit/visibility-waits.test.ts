/**
 * report.json run.visibilityWaits: a wait of eventually() (src/check/visibility.ts)
 * that reaches its deadline is counted for the check it ran in; one that sees
 * its write, or ends on a target error, is not.
 */
import { describe, expect, it } from 'vitest';
import { countingWaits, eventually, type Waits } from '../../src/check/visibility.js';

describe('waits at the visibility deadline', () => {
  it('a condition that never holds waits out the deadline and is counted; one that holds is not', async () => {
    const w: Waits = { atDeadline: 0 };
    const [never, soon] = await countingWaits(w, () => Promise.all([
      eventually(async () => 1, (x) => x === 2, { deadlineMs: 120 }),
      (async () => {
        let n = 0;
        return eventually(async () => ++n, (x) => x >= 2, { deadlineMs: 5_000 });
      })(),
    ]));
    expect(never.delayMs).toBeUndefined();
    expect(soon.delayMs).toBeDefined();
    expect(w.atDeadline).toBe(1);
  });

  it('each check counts its own waits, and a wait outside any check is counted nowhere', async () => {
    const a: Waits = { atDeadline: 0 };
    const b: Waits = { atDeadline: 0 };
    await Promise.all([
      countingWaits(a, () => eventually(async () => 0, () => false, { deadlineMs: 60 })),
      countingWaits(b, () => eventually(async () => 0, () => true, { deadlineMs: 60 })),
      eventually(async () => 0, () => false, { deadlineMs: 60 }),
    ]);
    expect([a.atDeadline, b.atDeadline]).toEqual([1, 0]);
  });

  it('a read that throws ends the wait with its error, not counted as one at the deadline', async () => {
    const w: Waits = { atDeadline: 0 };
    await expect(countingWaits(w, () => eventually(async () => { throw new Error('no answer'); }, () => false, { deadlineMs: 60 }))).rejects.toThrow('no answer');
    expect(w.atDeadline).toBe(0);
  });
});
