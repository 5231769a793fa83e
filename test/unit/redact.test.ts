/**
 * The redactor (src/client/redact.ts): every form of a secret, only the store
 * get's apikey learnt, request bodies redacted structurally.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, secretForms } from '../../src/client/redact.js';

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
