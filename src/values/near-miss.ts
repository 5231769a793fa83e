/**
 * Near-miss keys: the configured key almost right — the mistakes a key
 * comparison that is not exact lets through (a case-insensitive collation, a
 * trim, a prefix or length-bounded compare, a loop that skips a position).
 * §5.1: the key is the String in authentication.apiKey; a key that differs
 * from it in any way is not the key. Each case is derived from the key alone;
 * the key's own form decides which cases exist (a key without letters has no
 * case variant, a key of one character cannot be cut), and a case that does
 * not exist is said so, never guessed. The same derivation is written for
 * bash (`bash`), so a reproducer can send the near-miss key without the key
 * ever being written down.
 */

export const NEAR_MISS_CASES = [
  'case-swapped', 'cut-short', 'extended', 'pad-start', 'pad-end', 'changed-start', 'changed-middle', 'changed-end',
] as const;
export type NearMissCase = (typeof NEAR_MISS_CASES)[number];

export type NearMissKey = { case: NearMissCase; key: string } | { case: NearMissCase; notJudged: string };

interface Derivation {
  /** what was done to the key, for item titles and messages */
  says: string;
  derive(chars: string[]): string | { notJudged: string };
  /** bash statements turning `$k` (the key) into this near-miss key, in a UTF-8 locale */
  bash: string;
}

/**
 * One character changed for another of its kind: a letter for the next letter
 * of the same case, a digit for the next digit (z → a, Z → A, 9 → 0), anything
 * else for '0' — so a store that checks the key's alphabet before comparing
 * still has to compare.
 */
export function changedChar(c: string): string {
  const code = c.charCodeAt(0);
  if (c.length === 1 && ((code >= 97 && code < 122) || (code >= 65 && code < 90) || (code >= 48 && code < 57))) return String.fromCharCode(code + 1);
  return ({ z: 'a', Z: 'A', '9': '0' } as Record<string, string>)[c] ?? '0';
}

/** The same change in bash: tr over ASCII letters and digits, '0' for anything tr leaves alone. */
const changeAt = (index: string) => `i=$(( ${index} )); c=\${k:i:1}; r=$(printf %s "$c" | LC_ALL=C tr 'a-zA-Z0-9' 'b-zaB-ZA1-90'); [ "$r" = "$c" ] && r=0; k=\${k:0:i}$r\${k:i+1}`;

function changed(at: (n: number) => number, least: number, why: string): Derivation['derive'] {
  return (chars) => {
    if (chars.length < least) return { notJudged: why.replace('{n}', String(chars.length)) };
    const i = at(chars.length);
    return [...chars.slice(0, i), changedChar(chars[i]), ...chars.slice(i + 1)].join('');
  };
}

const swapCase = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());

export const NEAR_MISS: Readonly<Record<NearMissCase, Derivation>> = {
  'case-swapped': {
    says: 'the key with the case of every letter swapped',
    derive: (chars) => {
      const swapped = chars.map(swapCase).join('');
      return swapped === chars.join('') ? { notJudged: 'the key has no letter with an upper and a lower case: it has no case variant' } : swapped;
    },
    bash: 'k=${k~~}',
  },
  'cut-short': {
    says: 'the key without its last character',
    derive: (chars) => (chars.length < 2 ? { notJudged: 'the key has one character: cut short it is no key at all (a missing key is judged by auth.missing-key-no-records)' } : chars.slice(0, -1).join('')),
    bash: 'k=${k%?}',
  },
  extended: {
    says: 'the key with its first character repeated at its end',
    derive: (chars) => [...chars, chars[0]].join(''),
    bash: 'k=$k${k:0:1}',
  },
  'pad-start': { says: 'the key after a space', derive: (chars) => ` ${chars.join('')}`, bash: 'k=" $k"' },
  'pad-end': { says: 'the key followed by a space', derive: (chars) => `${chars.join('')} `, bash: 'k="$k "' },
  'changed-start': { says: 'the key with its first character changed', derive: changed(() => 0, 1, ''), bash: changeAt('0') },
  'changed-middle': {
    says: 'the key with its middle character changed',
    derive: changed((n) => Math.floor(n / 2), 3, 'the key has {n} character(s): no middle apart from its ends'),
    bash: changeAt('${#k} / 2'),
  },
  'changed-end': {
    says: 'the key with its last character changed',
    derive: changed((n) => n - 1, 2, 'the key has one character: its end is its start (judged as changed-start)'),
    bash: changeAt('${#k} - 1'),
  },
};

/** Every near-miss case of a key: the near-miss key, or why the key's form has none (code points, not UTF-16 units). */
export function nearMissKeys(key: string): NearMissKey[] {
  const chars = [...key];
  return NEAR_MISS_CASES.map((c) => {
    const d = chars.length ? NEAR_MISS[c].derive(chars) : { notJudged: 'no key is configured' };
    return typeof d === 'string' ? { case: c, key: d } : { case: c, notJudged: d.notJudged };
  });
}

/**
 * What a near-miss key is shown as wherever it would be written, given the
 * key's own placeholder: padded keys as the placeholder padded (the text reads,
 * and a reproducer sends, exactly what was sent), the others as
 * `<placeholder>[<case>]`.
 */
export function nearMissPlaceholder(c: NearMissCase, placeholder: string): string {
  if (c === 'pad-start') return ` ${placeholder}`;
  if (c === 'pad-end') return `${placeholder} `;
  return `${placeholder}[${c}]`;
}

/**
 * Which near-miss cases each place (a resource) sends on one operation in a
 * run. Every case costs one request per place and operation, so a standard
 * run does not send the cross product: each place gets `perPlace` cases (where
 * the places are fewer than the cases, some places one more, until every case
 * has a place), consecutive in a rotation of the cases that starts where
 * the run's seed and the operation say. So every place is judged with a near-miss key on every operation in
 * every run, every case is sent on every operation by some place in every
 * run, and the seed moves each case from place to place between runs; with
 * `perPlace` ≥ the cases (deep depth) every place sends every case.
 */
export function nearMissPlan<C extends string>(cases: readonly C[], places: readonly string[], perPlace: number, seed: number, op: string): Map<string, C[]> {
  const plan = new Map<string, C[]>();
  if (!cases.length || !places.length) {
    for (const p of places) plan.set(p, []);
    return plan;
  }
  // as many sends as the places' share, or as the cases when there are fewer places than cases
  const k = Math.min(cases.length, Math.max(1, perPlace));
  const sends = Math.max(k * places.length, cases.length);
  const base = Math.floor(sends / places.length);
  const extra = sends % places.length;
  const turn = rotation(`${seed}:${op}`);
  let at = turn % cases.length;
  // which places send one more moves with the seed too
  const shift = turn % places.length;
  places.forEach((p, i) => {
    const n = Math.min(cases.length, base + ((i + shift) % places.length < extra ? 1 : 0));
    plan.set(p, Array.from({ length: n }, (_, j) => cases[(at + j) % cases.length]));
    at += n;
  });
  return plan;
}

/** FNV-1a of a string: where a run's rotation starts (the same seed and operation, the same start). */
function rotation(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
