/**
 * How many check files a run keeps in flight (src/run/workers.ts): --workers
 * given is obeyed; otherwise the default. Never more than the files holding a
 * selected check, never fewer than one.
 */
import { describe, expect, it } from 'vitest';
import { chooseWorkers } from '../../src/run/workers.js';

describe('chooseWorkers', () => {
  it('takes the default and says so', () => {
    expect(chooseWorkers({ workers: 3 }, 18)).toEqual({ count: 3, by: 'default' });
  });
  it('obeys --workers and says it was given', () => {
    expect(chooseWorkers({ workers: 9, workersGiven: true }, 18)).toEqual({ count: 9, by: 'given' });
  });
  it('never takes more workers than files holding a selected check (nor fewer than one)', () => {
    expect(chooseWorkers({ workers: 3 }, 2)).toEqual({ count: 2, by: 'default' });
    expect(chooseWorkers({ workers: 8, workersGiven: true }, 3)).toEqual({ count: 3, by: 'given' });
    expect(chooseWorkers({ workers: 3 }, 0).count).toBe(1);
  });
});
