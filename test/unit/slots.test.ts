/**
 * How a run used its --concurrency slots (src/report/slots.ts, report.json
 * run.slots): the slot-time the gate was told of (src/client/gate.ts
 * slotsHeld), per request and as a share of the slots the sending phases had.
 */
import { describe, expect, it } from 'vitest';
import { SharedGate } from '../../src/client/gate.js';
import { slotsOf, slotsText } from '../../src/report/slots.js';

describe('the slots a run used', () => {
  it('the gate adds up the slot-time every thread gives back with its slots, and counts those requests', async () => {
    const gate = SharedGate.create(4);
    const twin = new SharedGate(gate.buffer);
    await gate.acquire();
    await twin.acquire();
    await twin.acquire();
    gate.release(40.25);
    twin.release(31.5);
    // a slot given back without its time (no request was sent in it) adds nothing
    twin.release();
    expect(gate.slotsHeld).toEqual({ ms: 71.75, requests: 2 });
    expect(twin.slotsHeld).toEqual({ ms: 71.75, requests: 2 });
    expect(gate.taken).toBe(0);
  });

  it('divides the slot-time by the requests (ms, 1 decimal) and by concurrency × the sending phases (2 decimals)', () => {
    // 4 800 requests of 42 ms each on 24 slots over 10 s of sending phases: 84 % of the slots taken
    expect(slotsOf({ ms: 4800 * 42, requests: 4800 }, 24, 10_000)).toEqual({ heldS: 201.6, meanHeldMs: 42, used: 0.84 });
    expect(slotsOf({ ms: 100, requests: 3 }, 2, 1_000)).toEqual({ heldS: 0.1, meanHeldMs: 33.3, used: 0.05 });
    // never more than all the slots (clocks of threads read at slightly different moments)
    expect(slotsOf({ ms: 2_100, requests: 10 }, 2, 1_000).used).toBe(1);
  });

  it('has no ratio where nothing held a slot or no phase took time', () => {
    expect(slotsOf({ ms: 0, requests: 0 }, 24, 0)).toEqual({ heldS: 0 });
    expect(slotsText(slotsOf({ ms: 0, requests: 0 }, 24, 0), 24)).toBe('');
  });

  it('reads as a phrase on the terminal\'s requests line', () => {
    expect(slotsText(slotsOf({ ms: 4800 * 42, requests: 4800 }, 24, 10_000), 24)).toBe('a slot held 42 ms a request · 84 % of 24 slots used');
  });
});
