/**
 * Secrets never leave memory: the API key, and the store's `apikey` value
 * (§5.2: the store record contains it), are replaced wherever they would be
 * written — request bodies, response texts, messages, reports, terminal.
 */

export const REDACTED = '$STORE_API_KEY';

export class Redactor {
  private secrets = new Set<string>();

  constructor(...secrets: Array<string | undefined>) {
    for (const s of secrets) this.add(s);
  }

  add(secret: string | undefined): void {
    // very short secrets would redact innocent text; the key is never that short in practice
    if (secret && secret.length >= 4) this.secrets.add(secret);
  }

  /** Learn secrets from a parsed response: a store object's `apikey`. */
  learnFrom(json: unknown): void {
    if (json && typeof json === 'object' && !Array.isArray(json)) {
      const apikey = (json as Record<string, unknown>).apikey;
      if (typeof apikey === 'string') this.add(apikey);
    }
  }

  list(): string[] {
    return [...this.secrets];
  }

  text(s: string): string {
    let out = s;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /**
   * A request body as exchanges show it: `payload` is its JSON text (or the raw
   * text sent, when `body` is a string); the result is a copy with every secret
   * replaced, parsed from the text already serialised instead of serialising again.
   */
  payload(payload: string, body: unknown): unknown {
    if (this.secrets.size === 0) return body;
    if (typeof body === 'string') return this.text(body);
    return JSON.parse(this.text(payload));
  }
}

export function redactText(s: string, r: Redactor): string {
  return r.text(s);
}
