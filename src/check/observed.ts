/**
 * The observations a process judges under, read without the worker runtime:
 * `observed(key)` is the value probed, or the registry's fallback
 * (src/observe/registry.ts). In a worker the runtime installs itself as the
 * source (src/check/runtime.ts); this module imports nothing of vitest, so
 * what reads observations through it — the filter oracle, the invariants —
 * can be loaded by the main process too, which passes its readings explicitly.
 */
import { readObservation, type ObservationKey, type ObservationValue, type ObservedValues } from '../observe/registry.js';

let source: (() => ObservedValues | Record<string, unknown>) | undefined;

/** Where `observed` reads from: the worker runtime's observations (set once, when runtime.ts loads). */
export function observeFrom(values: () => ObservedValues | Record<string, unknown>): void {
  source = values;
}

/**
 * An observation probed before the run (src/observe/registry.ts), or the
 * registry's fallback when it was not probed or the probe could not tell.
 */
export function observed<K extends ObservationKey>(key: K): ObservationValue<K> {
  if (!source) throw new Error(`storecheck: observation ${key} read outside a run's worker (no observations installed)`);
  return readObservation(source(), key);
}

/**
 * Was the observation probed (a value of its own, not the registry's
 * fallback)? A check that judges a value class under a reading (docs/value-classes.md)
 * does so only when the store was seen to take it, never under a fallback.
 */
export function probed(key: ObservationKey): boolean {
  if (!source) throw new Error(`storecheck: observation ${key} read outside a run's worker (no observations installed)`);
  const v = (source() as Record<string, unknown>)[key];
  return v !== undefined && v !== null;
}
