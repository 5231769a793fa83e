/**
 * Long generated strings shortened for reading (issue 22): first and last characters and the
 * length, whole code points, nothing else of a value or message changed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LONG_STRING, charCount, cutString, shortJson, shortenQuoted } from '../../src/report/shorten.js';
import { LONG_VALUE } from '../fixtures/reports/build.js';

describe('cutString', () => {
  it('leaves a string of up to LONG_STRING code points alone (a GUID, a date, a 48-emoji string)', () => {
    expect(cutString('0b6c1e2a-51f4-4d2e-9a53-1c1f0e7c2b11')).toBeUndefined();
    expect(cutString('😀'.repeat(LONG_STRING))).toBeUndefined();
    expect(cutString('x'.repeat(LONG_STRING + 1))).toEqual({ head: 'x'.repeat(20), tail: 'x'.repeat(10), length: LONG_STRING + 1 });
  });

  it('keeps whole code points: an emoji is never split into half a surrogate pair', () => {
    const c = cutString('😀'.repeat(60))!;
    expect(c.head).toBe('😀'.repeat(20));
    expect(c.tail).toBe('😀'.repeat(10));
    expect(c.length).toBe(60);
    expect(charCount(LONG_VALUE)).toBe(72);
  });
});

describe('shortenQuoted: the values a message quotes', () => {
  it('shortens a long JSON string literal to its start, end and length; the rest of the message as it was', () => {
    const msg = `coupon count with code=[${JSON.stringify(LONG_VALUE)}] answered 0 while get returned 1 record(s)`;
    const s = shortenQuoted(msg);
    expect(s.shortened).toBe(1);
    expect(s.text).toBe(`coupon count with code=["sc7f3a9c01-9dhe1m03V…Éw#3KFRôz«" (72 chars)] answered 0 while get returned 1 record(s)`);
    expect(s.html).toContain('<span class="cut" title="42 characters not shown">…</span>');
    expect(s.html).toContain('<span class="len"> (72 chars)</span>');
  });

  it('escapes the value for HTML and keeps its JSON escapes (a quote inside stays \\")', () => {
    const value = `<script>"x"</script>${'y'.repeat(60)}`;
    const s = shortenQuoted(`got ${JSON.stringify(value)}`);
    expect(s.html).not.toContain('<script>');
    expect(s.html).toContain('&lt;script&gt;\\&quot;x\\&quot;&lt;/script&gt;');
    expect(s.text).toBe(`got "<script>\\"x\\"</script>…${'y'.repeat(10)}" (80 chars)`);
  });

  it('leaves short values, text that is not a JSON string, and values the message measured itself', () => {
    expect(shortenQuoted('name="abc" and "def"')).toEqual({ text: 'name="abc" and "def"', html: 'name=&quot;abc&quot; and &quot;def&quot;', shortened: 0 });
    const measured = `sent "${'a'.repeat(50)}…" (255 code points)`;
    expect(shortenQuoted(measured).shortened).toBe(0);
    const notJson = `"${'a'.repeat(30)}\\q${'b'.repeat(30)}"`;
    expect(shortenQuoted(notJson).shortened).toBe(0);
  });
});

describe('shortJson: an expected or actual value', () => {
  it('prints exactly as JSON.stringify(value, null, 2) when no string is long', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }).filter((v) => !/"[^"]{40,}"/.test(JSON.stringify(v))), (v) => {
      expect(shortJson(v, Infinity)).toEqual({ text: JSON.stringify(v, null, 2), html: expect.any(String), shortened: 0, truncated: false });
    }), { numRuns: 200 });
  });

  it('shortens long strings (values and keys) and counts them', () => {
    const s = shortJson({ code: [LONG_VALUE], name: 'x'.repeat(255), id: '0b6c1e2a-51f4-4d2e-9a53-1c1f0e7c2b11' }, 10_000);
    expect(s.shortened).toBe(2);
    expect(s.text).toBe([
      '{',
      '  "code": [',
      '    "sc7f3a9c01-9dhe1m03V…Éw#3KFRôz«" (72 chars)',
      '  ],',
      `  "name": "${'x'.repeat(20)}…${'x'.repeat(10)}" (255 chars),`,
      '  "id": "0b6c1e2a-51f4-4d2e-9a53-1c1f0e7c2b11"',
      '}',
    ].join('\n'));
  });

  it('stops at max characters, saying how many lines were left off', () => {
    const s = shortJson(Array.from({ length: 100 }, (_, i) => i), 50);
    expect(s.truncated).toBe(true);
    expect(s.text.split('\n').at(-1)).toMatch(/^… \(\d+ more lines not shown\)$/);
    expect(s.text.length).toBeLessThan(100);
  });

  it('undefined, NaN and dates as JSON.stringify has them', () => {
    expect(shortJson(undefined, 100).text).toBe('undefined');
    expect(shortJson({ a: undefined, b: NaN, c: [undefined] }, 100).text).toBe(JSON.stringify({ a: undefined, b: NaN, c: [undefined] }, null, 2));
    const d = new Date(0);
    expect(shortJson({ d }, 100).text).toBe(JSON.stringify({ d }, null, 2));
  });
});
