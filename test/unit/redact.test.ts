/**
 * The redactor (src/client/redact.ts): every form of a secret, only the store
 * get's apikey learnt, request bodies redacted structurally.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, secretForms, secretReadings } from '../../src/client/redact.js';

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
