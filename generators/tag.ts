/**
 * The run tag: a short marker put at the start of every unique property a run
 * creates (names, slugs, codes...), so the run can find — and clean up — its
 * own records and never touch anyone else's.
 */
import { randomBytes } from 'node:crypto';

export const RUN_TAG_RE = /^sc[0-9a-f]{8}$/;

/** FNV-1a, 32 bits: a stable hash for deriving a tag from a seed. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (const ch of s) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * 'sc' + 8 lowercase hex digits, e.g. 'sc3fa9c1d2'. With a seed (a fast-check
 * seed, a run id) the tag is derived from it, so a replayed run tags alike;
 * without one it is random.
 */
export function newRunTag(seed?: number | string): string {
  const hex = seed === undefined
    ? randomBytes(4).toString('hex')
    : fnv1a(`storecheck:${String(seed)}`).toString(16).padStart(8, '0');
  return `sc${hex}`;
}

/** Does this value carry the run tag (at its start, where generators put it)? */
export function isRunTagged(value: unknown, tag: string): boolean {
  return typeof value === 'string' && tag.length > 0 && value.startsWith(tag);
}
