/**
 * Secrets never leave memory: the API key, the near-miss keys derived from it
 * (src/values/near-miss.ts: sent by the auth checks, each as revealing as the
 * key), and the store's `apikey` value (§5.2: the store record contains it),
 * are replaced wherever they would be written — request bodies, response
 * texts, messages, reports, terminal — in every form a target or a renderer
 * may give them: raw, JSON-escaped (with and without \u escapes),
 * HTML-escaped, URL-encoded and base64. The key is shown as $STORE_API_KEY, a
 * near-miss key as what it is made of ($STORE_API_KEY[cut-short], a padded
 * key as the placeholder padded), so evidence says which key was sent and a
 * reproducer can send it again.
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
 * Every form of a secret worth redacting, longest first (a longer form is
 * replaced before a shorter one inside it), each at least 4 characters.
 */
export function secretForms(secret: string): string[] {
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  const forms = new Set<string>([
    secret,
    JSON.stringify(secret).slice(1, -1),
    jsonAsciiEscaped(secret),
    jsonAllEscaped(secret),
    // a JSON-escaped form escaped once more (a body quoted inside an error message)
    JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1),
    htmlEscaped(secret, '&#39;'),
    htmlEscaped(secret, '&#x27;'),
    htmlEscaped(secret, '&apos;'),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    encodeURI(secret),
    b64,
    b64.replace(/=+$/, ''),
    b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
  ]);
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

/** A deep copy of a JSON value with every form of every secret replaced, in strings and keys. */
export function redactValue<T>(value: T, forms: readonly SecretForm[]): T {
  if (!forms.length) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactForms(v, forms);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[redactForms(k, forms)] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

export class Redactor {
  private secrets = new Set<string>();
  private forms: Array<readonly [string, string]> = [];

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
    return redactForms(s, this.forms);
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
    return redactValue(body, this.forms);
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
