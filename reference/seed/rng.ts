/**
 * Seeded randomness for the seed data: sfc32 streams derived from (seed, salt, index),
 * so a record's values depend only on the seed and its own position, never on how
 * many records of other resources were built before it. Not crypto: test data only.
 */

/** Mix 32-bit parts into one 32-bit hash (murmur-style finalisation per part). */
export function hash32(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x01000193);
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

/** FNV-1a of a string, used to salt a stream by resource name. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Any JS number (negative, fractional, > 2^32) to two 32-bit words. */
export function seedWords(seed: number): [number, number] {
  if (!Number.isFinite(seed)) return [0, 0];
  const t = Math.trunc(seed);
  return [t >>> 0, Math.floor(t / 4294967296) >>> 0];
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...parts: number[]) {
    this.a = hash32(0x9e3779b9, ...parts);
    this.b = hash32(0x243f6a88, ...parts);
    this.c = hash32(0xb7e15162, ...parts);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** sfc32 */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** [0, 1) */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** integer in [lo, hi], both inclusive */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(arr: readonly T[]): T {
    return arr[Math.floor(this.float() * arr.length)];
  }

  /** pick by weights: [[value, weight], ...] */
  weighted<T>(table: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of table) total += w;
    let x = this.float() * total;
    for (const [v, w] of table) {
      x -= w;
      if (x < 0) return v;
    }
    return table[table.length - 1][0];
  }

  /** k distinct elements (fewer if the array is shorter), in random order */
  sample<T>(arr: readonly T[], k: number): T[] {
    const n = arr.length;
    k = Math.min(k, n);
    if (k <= 0) return [];
    if (k * 4 < n) {
      const seen = new Set<number>();
      const out: T[] = [];
      while (out.length < k) {
        const j = Math.floor(this.float() * n);
        if (!seen.has(j)) { seen.add(j); out.push(arr[j]); }
      }
      return out;
    }
    return this.shuffle(arr.slice()).slice(0, k);
  }

  shuffle<T>(arr: T[]): T[] {
    for (let i = arr.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      const t = arr[i]; arr[i] = arr[j]; arr[j] = t;
    }
    return arr;
  }

  /** a random permutation of 0..n-1 */
  permutation(n: number): number[] {
    return this.shuffle(Array.from({ length: n }, (_, i) => i));
  }

  /** n decimal digits (may start with 0) */
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(Math.floor(this.float() * 10));
    return s;
  }

  /** n lowercase hex characters */
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += HEX[this.u32() & 0xff];
    return s.slice(0, n);
  }

  /** a lowercase hyphenated version-4-shaped GUID drawn from this stream */
  guid(): string {
    const w0 = this.u32(), w1 = this.u32(), w2 = this.u32(), w3 = this.u32();
    const b = [
      w0 >>> 24, (w0 >>> 16) & 0xff, (w0 >>> 8) & 0xff, w0 & 0xff,
      w1 >>> 24, (w1 >>> 16) & 0xff, ((w1 >>> 8) & 0x0f) | 0x40, w1 & 0xff,
      ((w2 >>> 24) & 0x3f) | 0x80, (w2 >>> 16) & 0xff, (w2 >>> 8) & 0xff, w2 & 0xff,
      w3 >>> 24, (w3 >>> 16) & 0xff, (w3 >>> 8) & 0xff, w3 & 0xff,
    ];
    return (
      HEX[b[0]] + HEX[b[1]] + HEX[b[2]] + HEX[b[3]] + '-' +
      HEX[b[4]] + HEX[b[5]] + '-' + HEX[b[6]] + HEX[b[7]] + '-' +
      HEX[b[8]] + HEX[b[9]] + '-' +
      HEX[b[10]] + HEX[b[11]] + HEX[b[12]] + HEX[b[13]] + HEX[b[14]] + HEX[b[15]]
    );
  }
}
