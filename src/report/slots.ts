/**
 * How a run used its --concurrency slots (report.json run.slots): the
 * slot-time its requests held (src/client/gate.ts slotsHeld), per request
 * (the target's answer time as the client saw it) and as a share of the
 * slots the sending phases had. Together they split a run's wall: with every
 * slot taken it lasts requests × meanHeldMs ÷ concurrency; `used` below 1 is
 * time the run had too few requests ready to fill them.
 */
import type { Report } from './types.js';

export type Slots = NonNullable<Report['run']['slots']>;

/** The phases of report.run.phasesMs in which a run sends requests: all but start-up. */
export const SENDING_PHASES = ['preflight', 'probes', 'checks', 'cleanup'] as const;

/** How long a run was sending: the sum of its SENDING_PHASES. */
export function sendingMs(phasesMs: Record<(typeof SENDING_PHASES)[number], number>): number {
  return SENDING_PHASES.reduce((sum, k) => sum + phasesMs[k], 0);
}

/** `held`: the gate's slotsHeld; `sending`: sendingMs of the run's phases. */
export function slotsOf(held: { ms: number; requests: number }, concurrency: number, sending: number): Slots {
  const used = sending > 0 ? Math.min(1, held.ms / (concurrency * sending)) : undefined;
  return {
    heldS: Math.round(held.ms) / 1000,
    ...(held.requests > 0 ? { meanHeldMs: Math.round((10 * held.ms) / held.requests) / 10 } : {}),
    ...(used === undefined ? {} : { used: Math.round(100 * used) / 100 }),
  };
}

/** "a slot held 42.3 ms a request · 81 % of 24 slots used", or '' without figures. */
export function slotsText(slots: Slots | undefined, concurrency: number): string {
  if (!slots || slots.meanHeldMs === undefined) return '';
  return `a slot held ${slots.meanHeldMs} ms a request${slots.used === undefined ? '' : ` · ${Math.round(100 * slots.used)} % of ${concurrency} slots used`}`;
}
