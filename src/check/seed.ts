/**
 * Seeds: every value a check or a fixture draws comes from the run seed mixed
 * with a label (a check id, an item id, a fixture's name), so the same run
 * seed draws the same values whatever runs beside it, and `--seed` replays a
 * run. Suites never seed a generator themselves: they draw through
 * `ctx.sample`, `ctx.property` or a fixture's `sample` (src/check/fixture.ts).
 */
import * as fc from 'fast-check';

/** A stable seed: the run seed mixed with a label (FNV-1a). */
export function mixSeed(seed: number, label: string): number {
  let h = 0x811c9dc5 ^ (seed | 0);
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** `n` values of `arb` drawn from the run seed mixed with `label`. */
export function drawMany<T>(arb: fc.Arbitrary<T>, runSeed: number, label: string, n: number): T[] {
  return fc.sample(arb, { seed: mixSeed(runSeed, label), numRuns: n });
}

/** One value of `arb` drawn from the run seed mixed with `label` (the same label, the same value). */
export function drawOne<T>(arb: fc.Arbitrary<T>, runSeed: number, label: string): T {
  return drawMany(arb, runSeed, label, 1)[0];
}
