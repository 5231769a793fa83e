/**
 * Secrets never leave memory: the API key, the near-miss keys derived from it
 * (src/values/near-miss.ts: sent by the auth checks, each as revealing as the
 * key), and the store's `apikey` value (§5.2: the store record contains it),
 * are replaced wherever they would be written — request bodies, response
 * texts, messages, reports, terminal — in every form a target or a renderer
 * may give them: every reading of their bytes (UTF-8, latin-1, windows-1252)
 * in every encoding (raw, JSON-escaped with and without \u escapes,
 * HTML-escaped and character references, URL-encoded, base64 and base64url).
 * The key is shown as $STORE_API_KEY, a near-miss key as what it is made of
 * ($STORE_API_KEY[cut-short], a padded key as the placeholder padded), so
 * evidence says which key was sent and a reproducer can send it again.
 */
import { nearMissKeys, nearMissPlaceholder, type NearMissCase } from '../values/near-miss.js';

/**
 * What a secret is replaced with wherever it would be written, and what a
 * reproducer's body carries in the key's place: the shell variable the key
 * comes from, so a printed curl runs as written. The one place it is spelled.
 */
export const REDACTED = '$STORE_API_KEY';

/** The path whose answer carries the store record (the only answer whose `apikey` is a secret). */
export const STORE_GET_PATH = '/api/v1/store/get';

const MIN_SECRET = 4;

/** JSON string escaping with every non-ASCII (and every control) character as \uXXXX. */
function jsonAsciiEscaped(s: string): string {
  return JSON.stringify(s).slice(1, -1).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** JSON string escaping with every character as \uXXXX (some serialisers escape all). */
function jsonAllEscaped(s: string): string {
  return [...s].map((c) => [...c].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('');
}

function htmlEscaped(s: string, apos: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, apos);
}

/**
 * The windows-1252 characters of bytes 0x80–0x9f (where it departs from
 * latin-1); the five bytes it leaves undefined read as their latin-1 control.
 */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function cp1252(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) out += b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b);
  return out;
}

/**
 * Every string a secret can be read back as, whatever decoding a target or a
 * client applied on the way: as sent (UTF-8); its UTF-8 bytes read as latin-1
 * (how Node and undici read header bytes) and as windows-1252 (what browsers and
 * many frameworks call "latin1"), once and twice over (a store that garbled it
 * once, echoed in a header read as latin-1 again); its latin-1 bytes read as
 * UTF-8 (a store that wrote it back in latin-1, when every character fits).
 */
export function secretReadings(secret: string): string[] {
  const utf8 = Buffer.from(secret, 'utf8');
  const latin1 = utf8.toString('latin1');
  const readings = new Set([secret, latin1, cp1252(utf8), Buffer.from(latin1, 'utf8').toString('latin1'), cp1252(Buffer.from(cp1252(utf8), 'utf8'))]);
  if (/^[\u0000-\u00ff]*$/.test(secret)) readings.add(Buffer.from(secret, 'latin1').toString('utf8'));
  return [...readings];
}

/** Non-ASCII characters as numeric HTML character references (`&#233;` or `&#xe9;`). */
function htmlNumeric(s: string, hex: boolean): string {
  return [...s].map((c) => {
    const cp = c.codePointAt(0)!;
    if (cp < 0x80) return c;
    return hex ? `&#x${cp.toString(16)};` : `&#${cp};`;
  }).join('');
}

/** encodeURIComponent plus the five characters RFC 3986 reserves and it leaves alone. */
function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Every encoding a renderer or a target may give one reading of a secret. */
function encodingsOf(s: string): string[] {
  const b64 = Buffer.from(s, 'utf8').toString('base64');
  const json = JSON.stringify(s).slice(1, -1);
  const forms = [
    s,
    json,
    jsonAsciiEscaped(s),
    jsonAllEscaped(s),
    // a JSON-escaped form escaped once more (a body quoted inside an error message)
    JSON.stringify(json).slice(1, -1),
    JSON.stringify(jsonAsciiEscaped(s)).slice(1, -1),
  ];
  for (const apos of ['&#39;', '&#x27;', '&apos;']) {
    const h = htmlEscaped(s, apos);
    forms.push(h, h.replace(/&quot;/g, '&#34;'), htmlNumeric(h, false), htmlNumeric(h, true));
    // an HTML page showing JSON: escaped for JSON, then for HTML
    forms.push(htmlEscaped(json, apos));
  }
  const url = encodeURIComponent(s);
  forms.push(url, url.replace(/%20/g, '+'), encodeURI(s), rfc3986(s), rfc3986(s).replace(/%20/g, '+'));
  forms.push(b64, b64.replace(/=+$/, ''), b64.replace(/\+/g, '-').replace(/\//g, '_'), b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
  return forms;
}

/**
 * Every form of a secret worth redacting — every encoding of every reading —
 * longest first (a longer form is replaced before a shorter one inside it),
 * each at least 4 characters.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>(secretReadings(secret).flatMap(encodingsOf));
  // upper- and lower-case percent escapes are the same URL
  for (const f of [...forms]) if (/%[0-9A-F]{2}/.test(f)) forms.add(f.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  return [...forms].filter((f) => f.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
}

/** A form of a secret, alone (replaced by $STORE_API_KEY) or with the placeholder it is replaced by. */
export type SecretForm = string | readonly [form: string, placeholder: string];

/** Replace every form of every secret in `s` (forms longest first). */
export function redactForms(s: string, forms: readonly SecretForm[]): string {
  let out = s;
  for (const f of forms) {
    const [form, placeholder] = typeof f === 'string' ? [f, REDACTED] : f;
    if (out.includes(form)) out = out.split(form).join(placeholder);
  }
  return out;
}

/**
 * A screen for redactForms: one pattern of the forms' first MIN_SECRET characters. A string it does
 * not match holds no form (every form starts with one of them), so it is returned as it is after one
 * scan instead of one search per form (dozens: every encoding of every reading of the key and of each
 * near-miss key); a string it matches goes through redactForms unchanged. Most texts a run writes
 * (every answer's body, every string of every request body) hold no secret but the request's key.
 */
export function formScreen(forms: readonly SecretForm[]): RegExp {
  const starts = new Set(forms.map((f) => (typeof f === 'string' ? f : f[0]).slice(0, MIN_SECRET)));
  // no flags: test() keeps no lastIndex between calls; code units, as includes() compares them
  return new RegExp([...starts].map((p) => p.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')).join('|') || '(?!)');
}

/** redactForms behind its screen: the same result, without the per-form searches where no form can be. */
export function screenedRedact(s: string, forms: readonly SecretForm[], screen: RegExp): string {
  return forms.length && screen.test(s) ? redactForms(s, forms) : s;
}

/** A deep copy of a JSON value with every form of every secret replaced, in strings and keys. */
export function redactValue<T>(value: T, forms: readonly SecretForm[], screen: RegExp = formScreen(forms)): T {
  if (!forms.length) return value;
  const redact = (s: string) => screenedRedact(s, forms, screen);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[redact(k)] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

export class Redactor {
  private secrets = new Set<string>();
  private forms: Array<readonly [string, string]> = [];
  /** formScreen(forms), remade whenever a secret is added */
  private screen: RegExp = formScreen([]);

  constructor(...secrets: Array<string | undefined>) {
    for (const s of secrets) this.add(s);
  }

  /** `placeholder`: what the secret is shown as ($STORE_API_KEY; a near-miss key, what it is made of). */
  add(secret: string | undefined, placeholder: string = REDACTED): void {
    // very short secrets would redact innocent text; the key is never that short in practice
    if (!secret || secret.length < MIN_SECRET || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    const known = new Set(this.forms.map(([f]) => f));
    // a form two secrets share keeps the placeholder of the one added first (the key before its near misses)
    const mine = secretForms(secret).filter((f) => !known.has(f)).map((f) => [f, placeholder] as const);
    this.forms = [...this.forms, ...mine].sort((a, b) => b[0].length - a[0].length);
    this.screen = formScreen(this.forms);
  }

  /**
   * Learn the store's apikey from the answer of a store get (§5.2) — and from
   * no other answer: a target must not be able to make any text a "secret"
   * (and so corrupt the client's own request bodies) by answering `apikey`.
   */
  learnFrom(path: string, json: unknown): void {
    if (!path.endsWith(STORE_GET_PATH)) return;
    if (json && typeof json === 'object' && !Array.isArray(json)) {
      const apikey = (json as Record<string, unknown>).apikey;
      if (typeof apikey === 'string') this.add(apikey);
    }
  }

  list(): string[] {
    return [...this.secrets];
  }

  text(s: string): string {
    return screenedRedact(s, this.forms, this.screen);
  }

  /**
   * A request body as exchanges show it: a copy of `body` (or of the raw text
   * sent) with every secret replaced inside its strings — structurally, so a
   * secret holding `"` or `\` is found as the value it is, and the reproducer
   * built from it carries the $STORE_API_KEY placeholder in a valid body.
   */
  shown(body: unknown): unknown {
    if (this.secrets.size === 0) return body;
    if (typeof body === 'string') return this.text(body);
    return redactValue(body, this.forms, this.screen);
  }
}

export function redactText(s: string, r: Redactor): string {
  return r.text(s);
}

/** How a near-miss key is shown wherever it would be written (messages name it so). */
export function nearMissShown(c: NearMissCase): string {
  return nearMissPlaceholder(c, REDACTED);
}

/** The redactor of a key: the key, and every near-miss key the auth checks derive from it, each with its placeholder. */
export function keyRedactor(apiKey: string): Redactor {
  const r = new Redactor(apiKey);
  for (const n of nearMissKeys(apiKey)) if ('key' in n) r.add(n.key, nearMissPlaceholder(n.case, REDACTED));
  return r;
}
