/**
 * Many random version-4 GUIDs at once (an id list longer than the IN-list
 * limits: 2 000 and more). fast-check's fc.uuid draws each part with its own
 * random integer and pads it through a mapper: 2 100 of them held a worker's
 * event loop ~20 ms. One seeded integer (drawn by the kit, so replayable)
 * drives a small generator instead: the same seed, the same GUIDs.
 */
import fc from 'fast-check';

/** `n` version-4 GUIDs (RFC 9562 §5.4: version nibble 4, variant bits 10), lower case, from `seed`. */
export function guidsFrom(seed: number, n: number): string[] {
  const next = mulberry32(seed);
  const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = hex(next());
    const b = hex((next() & 0xffff0fff) | 0x00004000);
    const c = hex((next() & 0x3fffffff) | 0x80000000);
    const d = hex(next());
    out.push(`${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`);
  }
  return out;
}

/** The seed of guidsFrom, as an arbitrary for the kit's seeded draws. */
export const guidSeedArb: fc.Arbitrary<number> = fc.integer();

/** mulberry32: a 32-bit generator, plenty for ids no record holds (what matters is that they are random and distinct). */
function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}
