/**
 * The redactor (src/client/redact.ts): every form of a secret, only the store
 * get's apikey learnt, request bodies redacted structurally.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formScreen, keyRedactor, REDACTED, redactForms, Redactor, redactValue, screenedRedact, secretForms, secretReadings } from '../../src/client/redact.js';

describe('Redactor', () => {
  const key = 'k"\\<&é😀-x';

  it('replaces the key raw, JSON-escaped, \\u-escaped, HTML-escaped, URL-encoded and in base64', () => {
    const r = new Redactor(key);
    const b64 = Buffer.from(key).toString('base64');
    for (const form of [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key), b64, key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')]) {
      expect(r.text(`before ${form} after`), form).toBe(`before ${REDACTED} after`);
    }
    expect(secretForms(key).every((f) => f.length >= 4)).toBe(true);
  });

  it('replaces the key read back through another decoding: its UTF-8 bytes as latin-1 (a header), as windows-1252, garbled twice', () => {
    const k = 'clé-€-😀-q"<&';
    const r = new Redactor(k);
    const latin1 = Buffer.from(k, 'utf8').toString('latin1');
    // written out by hand, independently of the redactor's table: é → Ã©, € → â‚¬ (E2 82 AC), 😀 → ðŸ˜€ (F0 9F 98 80)
    const cp1252 = 'clÃ©-â‚¬-ðŸ˜€-q"<&';
    expect(secretReadings(k)).toEqual(expect.arrayContaining([k, latin1, cp1252, Buffer.from(latin1, 'utf8').toString('latin1')]));
    const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    for (const reading of [latin1, cp1252]) {
      for (const form of [reading, JSON.stringify(reading).slice(1, -1), html(reading), encodeURIComponent(reading), Buffer.from(reading).toString('base64')]) {
        expect(r.text(`before ${form} after`), form).toBe(`before ${REDACTED} after`);
      }
    }
    // numeric character references and base64url of the key as sent
    const refs = 'cl&#233;-&#8364;-&#128512;-q&quot;&lt;&amp;';
    expect(r.text(refs)).toBe(REDACTED);
    const b64url = Buffer.from(k).toString('base64url');
    expect(r.text(b64url)).toBe(REDACTED);
    // a latin-1-only key written back in latin-1 and read as UTF-8
    const l = 'naïve-key';
    expect(new Redactor(l).text(Buffer.from(l, 'latin1').toString('utf8'))).toBe(REDACTED);
  });

  it('learns the apikey of a store get answer only', () => {
    const r = new Redactor('the-key');
    r.learnFrom('/api/v1/products/get', { apikey: '":{"' });
    expect(r.list()).toEqual(['the-key']);
    r.learnFrom('/api/v1/store/get', { apikey: 'store-own-key' });
    expect(r.list()).toEqual(['the-key', 'store-own-key']);
  });

  it('redacts a request body by value: a secret holding quotes leaves a valid body with the placeholder', () => {
    const r = new Redactor(key);
    const body = { authentication: { apiKey: key }, data: [{ name: `x ${key} y` }] };
    const shown = r.shown(body) as typeof body;
    expect(shown).toEqual({ authentication: { apiKey: REDACTED }, data: [{ name: `x ${REDACTED} y` }] });
    expect(body.authentication.apiKey).toBe(key);
  });
});

describe('the screen in front of redactForms', () => {
  // keys with characters a pattern would read as syntax, quotes, surrogates, and the default key's shape
  const keys = ['ref-0123456789abcdef01234567', 'k"\\<&é😀-x', 'a.b*c+d?(e)[f]{g}|h^$/i'];

  // characters that can start, end or join the forms (quotes, escapes, a lone surrogate, the key's letters)
  const noise = fc.constantFrom('a', 'r', 'e', 'f', '-', '0', '"', '\\', '&', '%', ' ', '+', '=', 'é', '\ud83d', '😀');

  it('lets through exactly what redactForms would change: same result on texts made of forms, their parts and noise', () => {
    for (const key of keys) {
      const r = keyRedactor(key);
      r.add('store-apikey-é');
      const forms = (r as unknown as { forms: Array<readonly [string, string]> }).forms;
      const screen = formScreen(forms);
      // every form alone, amid other text
      expect(forms.map(([f]) => `<${f}>`).filter((t) => screenedRedact(t, forms, screen) !== redactForms(t, forms))).toEqual([]);
      const pieces = forms.flatMap(([f]) => [f, f.slice(0, 3), f.slice(1), f.slice(0, -1), f.slice(2, 6)]);
      const text = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ unit: noise, maxLength: 6 })), { maxLength: 12 }).map((xs) => xs.join(''));
      fc.assert(fc.property(text, (t) => {
        expect(screenedRedact(t, forms, screen)).toBe(redactForms(t, forms));
        expect(r.text(t)).toBe(redactForms(t, forms));
        expect(redactValue({ [t]: [t, { t }] }, forms)).toEqual({ [redactForms(t, forms)]: [redactForms(t, forms), { t: redactForms(t, forms) }] });
      }), { seed: 24, numRuns: 40 });
    }
  });

  it('stops a text with no form without searching it form by form, and still finds one form among many', () => {
    const r = keyRedactor('ref-0123456789abcdef01234567');
    expect(r.text('{"id":"3f2a","title":"nothing secret"}')).toBe('{"id":"3f2a","title":"nothing secret"}');
    const b64 = Buffer.from('ref-0123456789abcdef01234567').toString('base64');
    expect(r.text(`x ${b64} y`)).toBe(`x ${REDACTED} y`);
    // no forms: the screen matches nothing and nothing changes
    expect(screenedRedact('anything', [], formScreen([]))).toBe('anything');
  });
});
