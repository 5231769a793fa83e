/**
 * Text values. Lengths are counted in code points, as JSON Schema maxLength
 * counts and as §8 "255 characters" reads most naturally.
 *
 * What the strings hold: ASCII, French accented letters (é è ê à ç ô Œ « »),
 * other scripts (Greek, Cyrillic, CJK, Hangul, Hebrew, Arabic), astral emoji,
 * quotes (' "), backslashes and <>& — everything a store name may hold and a
 * careless server may mangle (escaping, encoding, byte-counting).
 *
 * What they never hold, on purpose:
 * - control characters (tab, newline, NUL...) and format characters (ZWJ,
 *   BOM, bidi marks): the spec says nothing about them; a rejection would
 *   prove nothing;
 * - leading or trailing whitespace: servers commonly trim, the spec does not
 *   address trimming, and a trimmed value read back would be a false alarm;
 * - lone surrogates (not valid Unicode, cannot be sent as UTF-8);
 * - combining marks and characters that Unicode normalization (NFC) would
 *   change: every string is NFC already, so a server that normalizes stores
 *   exactly what was sent.
 *
 * - 4-byte characters (astral: emoji, 𝄞) unless asked for (`astral`): a
 *   store on MySQL's utf8mb3 refuses them or stores '?' (observation
 *   text.astral); only a check that judges under that reading sends them.
 *
 * Strings of a boundary length (exactly maxLength, maxLength - 1, the
 * minimum) use BMP characters only, so "255 characters" is unambiguous:
 * 255 code points = 255 UTF-16 units, whichever way the server counts.
 * Astral characters (emoji, 2 UTF-16 units each), when asked for, appear in
 * the other lengths.
 */
import fc from 'fast-check';
import { codePointLength } from '../src/values/normalize.js';

/** Shrinking may move a value to the first (usual) branch: a long boundary value can shrink to a short one. */
const CROSS_SHRINK = { withCrossShrink: true } as const;

const chars = (s: string): string[] => Array.from(s);
const range = (from: number, to: number): fc.Arbitrary<string> =>
  fc.integer({ min: from, max: to }).map((cp) => String.fromCodePoint(cp));

/** Character classes, exported so tests can check that a sample covers them. */
export const CHARACTER_CLASSES = {
  alnum: chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
  punctuation: chars('!#$%()*+,-./:;=?@[]^_`{|}~'),
  /** quotes, backslash and HTML/JSON-sensitive characters */
  special: chars(`'"\\<>&`),
  french: chars('éèêëàâçôîïùûüÿœŒÉÈÊÀÇÔ«»’'),
  scripts: chars('αβγδλΩЖжЯщ漢字中文ひらカナ한국어שלוםمرحبا★€£¥©™✓♥—…'),
  /** astral: 2 UTF-16 units each */
  emoji: chars('😀😂🎉🚀🧪🍁🐍💡👍🦄🀄𝄞𝔸'),
} as const;

/** Code point ranges that are NFC-stable, printable and free of combining marks. */
const WIDE_RANGES: Array<[number, number]> = [
  [0x00c0, 0x024f], // Latin-1 supplement letters and Latin extended A/B
  [0x0391, 0x03a1], // Greek capitals
  [0x0410, 0x044f], // Cyrillic
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xac00, 0xd7a3], // Hangul syllables
];

function charArb(bmpOnly: boolean): fc.Arbitrary<string> {
  const c = CHARACTER_CLASSES;
  const branches: Array<fc.WeightedArbitrary<string>> = [
    { arbitrary: fc.constantFrom(...c.alnum), weight: 10 },
    { arbitrary: fc.constant(' '), weight: 2 },
    { arbitrary: fc.constantFrom(...c.french), weight: 4 },
    { arbitrary: fc.constantFrom(...c.special), weight: 2 },
    { arbitrary: fc.constantFrom(...c.punctuation), weight: 1 },
    { arbitrary: fc.constantFrom(...c.scripts), weight: 2 },
    { arbitrary: fc.oneof(...WIDE_RANGES.map(([a, b]) => range(a, b))), weight: 1 },
  ];
  if (!bmpOnly) branches.push({ arbitrary: fc.constantFrom(...c.emoji), weight: 2 });
  return fc.oneof(...branches);
}

const ASTRAL_CHAR = charArb(false);
const BMP_CHAR = charArb(true);

/** Replace whitespace at the edges (length kept): see "leading or trailing whitespace" above. */
function fixEdges(s: string, leading: boolean): string {
  // whitespace is BMP: one UTF-16 unit at either edge
  let out = s;
  if (leading && /\s/.test(out.charAt(0))) out = `x${out.slice(1)}`;
  if (/\s/.test(out.charAt(out.length - 1))) out = `${out.slice(0, -1)}x`;
  return out;
}

const ASTRAL_RE = /[\u{10000}-\u{10FFFF}]/gu;

/** Astral characters swapped for BMP ones (length in code points kept). */
function toBmp(s: string): string {
  const f = CHARACTER_CLASSES.french;
  return s.replace(ASTRAL_RE, (c) => f[c.codePointAt(0)! % f.length]);
}

/** `length` code points: the chunk repeated (rotated by `offset`), built with String#repeat (fast for 65535). */
function tile(chunk: readonly string[], length: number, offset = 0): string {
  const k = offset % chunk.length;
  const rotated = k === 0 ? chunk : [...chunk.slice(k), ...chunk.slice(0, k)];
  return rotated.join('').repeat(Math.floor(length / rotated.length)) + rotated.slice(0, length % rotated.length).join('');
}

export interface TextOptions {
  /** at least this many code points, prefix included (default 1) */
  minLength?: number;
  /** at most this many code points, prefix included */
  maxLength: number;
  /** starts every string (the run tag of unique properties) and counts toward maxLength */
  prefix?: string;
  /** favour boundary lengths (maxLength, maxLength - 1, the minimum) much more */
  boundary?: boolean;
  /** 4-byte characters too (emoji): only where a check judges them under the observed text.astral */
  astral?: boolean;
  /**
   * at most this many UTF-8 bytes, prefix included: a long text column may count bytes (a MySQL TEXT
   * column holds 65535 bytes: the text-bytes reading, docs/value-classes.md), so its values stay within both
   */
  maxBytes?: number;
}

/**
 * The longest start of `s` whose UTF-8 takes at most `bytes` bytes (whole code points); `s` itself when it fits:
 * what a column counting bytes keeps of a longer text when it cuts rather than refuses (MySQL's TEXT outside
 * strict mode cuts to a character boundary), and how generated long text stays valid under the text-bytes reading.
 */
export function cutToBytes(s: string, bytes: number | undefined): string {
  if (bytes === undefined || Buffer.byteLength(s, 'utf8') <= bytes) return s;
  let used = 0;
  let end = 0;
  for (const ch of s) {
    used += Buffer.byteLength(ch, 'utf8');
    if (used > bytes) break;
    end += ch.length;
  }
  return s.slice(0, end);
}

/**
 * Strings of minLength..maxLength code points (prefix included), boundary
 * lengths weighted in. Shrinks towards short ASCII.
 */
export function textArb(opts: TextOptions): fc.Arbitrary<string> {
  const prefix = opts.prefix ?? '';
  const minLength = opts.minLength ?? 1;
  const { maxLength } = opts;
  const pLen = codePointLength(prefix);
  if (!(Number.isInteger(maxLength) && maxLength >= 0)) throw new RangeError(`textArb: bad maxLength ${maxLength}`);
  if (pLen > maxLength) throw new RangeError(`textArb: prefix of ${pLen} code points exceeds maxLength ${maxLength}`);
  if (minLength > maxLength) throw new RangeError(`textArb: minLength ${minLength} > maxLength ${maxLength}`);
  const minBody = Math.max(0, minLength - pLen);
  const maxBody = maxLength - pLen;
  // a string that ends up at a boundary length holds BMP characters only (see above)
  // (body.length > length: some character takes two UTF-16 units, i.e. is astral)
  // and every string fits maxLength in UTF-16 units too, so a target that counts that way
  // (many databases and runtimes do) is not pushed over a limit the spec states in characters
  const bodyBytes = opts.maxBytes === undefined ? undefined : opts.maxBytes - Buffer.byteLength(prefix, 'utf8');
  const build = (body: string, length: number) =>
    prefix + fixEdges(cutToBytes((length >= maxBody - 1 || prefix.length + body.length > maxLength) && body.length > length ? toBmp(body) : body, bodyBytes), pLen === 0);

  const exact = (len: number): fc.Arbitrary<string> =>
    len === 0
      ? fc.constant(build('', 0))
      : fc.array(BMP_CHAR, { minLength: 1, maxLength: Math.min(len, 256), size: 'max' }).map((chunk) => build(tile(chunk, len), len));

  const boundaryLengths = [...new Set([maxBody, maxBody - 1, minBody])].filter((n) => n >= minBody && n <= maxBody);
  const heavy = opts.boundary === true;
  const ANY_CHAR = opts.astral ? ASTRAL_CHAR : BMP_CHAR;
  const branches: Array<fc.WeightedArbitrary<string>> = [
    // the usual case: short to medium strings of any characters, astral included
    { arbitrary: fc.array(ANY_CHAR, { minLength: minBody, maxLength: maxBody, size: 'medium' }).map((cps) => build(cps.join(''), cps.length)), weight: heavy ? 1 : 8 },
    ...boundaryLengths.map((len) => ({ arbitrary: exact(len), weight: heavy ? 4 : 1 })),
  ];
  if (maxBody - minBody > 64) {
    // any length up to the maximum, cheaply: a random chunk tiled to a random length
    branches.push({
      arbitrary: fc
        .tuple(fc.integer({ min: minBody, max: maxBody }), fc.array(ANY_CHAR, { minLength: 1, maxLength: 64 }))
        .map(([len, chunk]) => build(tile(chunk, len), len)),
      weight: 1,
    });
  }
  return fc.oneof(CROSS_SHRINK, ...branches);
}

const PATTERNS = {
  ascii: `Storecheck "quoted" 'single' back\\slash <b>&amp; 0123456789 ~!@#$%^*()_+-={}[]|:;?,./ `,
  /** BMP only, 2- and 3-byte UTF-8: 255 of them are 255 characters but up to 765 bytes */
  multibyte: 'Élève «déjà» ça où Œuvre’ 漢字かなカナ 한국어 Ωμέγα Жж עברית عربي ★€£ ',
  /**
   * 1- to 4-byte UTF-8, astral characters (emoji, U+1D11E) among them: 255 of
   * them are 255 characters but more than 255 UTF-16 units and 765 bytes — a
   * limit counted in UTF-16 units (JavaScript's length, SQL Server's nvarchar)
   * or in bytes cuts them. Only where a store was seen keeping 4-byte characters.
   */
  astral: 'Emoji 😀🚀 é 𝄞 漢字 🧪 ok 🎉 ',
} as const;

export type FixedTextStyle = keyof typeof PATTERNS;

/**
 * A deterministic string of exactly `length` code points (prefix included),
 * BMP characters only (but the `astral` style): for boundary payloads and
 * over-limit probes.
 * `offset` rotates the pattern so several fixed texts differ.
 */
export function fixedText(length: number, opts: { prefix?: string; style?: FixedTextStyle; offset?: number; maxBytes?: number } = {}): string {
  const prefix = opts.prefix ?? '';
  const pLen = codePointLength(prefix);
  if (pLen > length) throw new RangeError(`fixedText: prefix of ${pLen} code points exceeds length ${length}`);
  const pattern = Array.from(PATTERNS[opts.style ?? 'ascii']);
  const bytes = opts.maxBytes === undefined ? undefined : opts.maxBytes - Buffer.byteLength(prefix, 'utf8');
  return prefix + fixEdges(cutToBytes(tile(pattern, length - pLen, opts.offset ?? 0), bytes), pLen === 0);
}

/**
 * A loose identity for text: case, accents and compatibility forms folded,
 * edges trimmed. Two strings with the same key may be one value to a server
 * with a case- or accent-insensitive collation (the spec names no collation),
 * so generators keep such strings apart where distinctness matters.
 */
export function looseKey(s: string): string {
  // ASCII: NFKD changes nothing and there is no mark to drop
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase().trim();
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}
