/**
 * Near-miss keys (src/values/near-miss.ts): each case differs from the key in
 * the one way it says; the key's own form decides which cases exist (the
 * others say why not); the bash derivation a reproducer runs gives the very
 * key the run sent; the run's redactor shows each near-miss key as its
 * placeholder, in every form, and never the key; and a reproducer's body,
 * run through bash, holds the near-miss key again.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { NEAR_MISS, NEAR_MISS_CASES, changedChar, nearMissKeys, nearMissPlan, type NearMissCase } from '../../src/values/near-miss.js';
import { REDACTED, keyRedactor, nearMissShown } from '../../src/client/redact.js';
import { curlFor } from '../../src/check/reproducer.js';

const KEY = 'sk_Live-12345abcXYZ';
const live = (key: string) => new Map(nearMissKeys(key).flatMap((n) => ('key' in n ? [[n.case, n.key] as const] : [])));
const notJudged = (key: string) => new Map(nearMissKeys(key).flatMap((n) => ('notJudged' in n ? [[n.case, n.notJudged] as const] : [])));

const bash = (script: string, env: Record<string, string>) =>
  execFileSync('bash', ['--norc', '--noprofile', '-c', script], { env: { PATH: process.env.PATH, HOME: process.env.HOME, LC_ALL: 'C.UTF-8', ...env }, encoding: 'utf8' });

/** Per case, `$k` set to the key, the case's bash statements, the result printed: what a reproducer sends (one shell for all). */
function inBash(key: string, cases: NearMissCase[]): string[] {
  const script = cases.map((c) => `(k=$KEY; ${NEAR_MISS[c].bash}; printf '%s\\0' "$k")`).join('; ');
  return bash(script, { KEY: key }).split('\0').slice(0, -1);
}

describe('near-miss keys', () => {
  it('of an ordinary key: every case exists, differs from the key and from the others', () => {
    const keys = live(KEY);
    expect([...keys.keys()]).toEqual([...NEAR_MISS_CASES]);
    expect(keys.get('case-swapped')).toBe('SK_lIVE-12345ABCxyz');
    expect(keys.get('cut-short')).toBe('sk_Live-12345abcXY');
    expect(keys.get('extended')).toBe(`${KEY}s`);
    expect(keys.get('pad-start')).toBe(` ${KEY}`);
    expect(keys.get('pad-end')).toBe(`${KEY} `);
    expect(keys.get('changed-start')).toBe('tk_Live-12345abcXYZ');
    expect(keys.get('changed-middle')).toBe('sk_Live-13345abcXYZ');
    expect(keys.get('changed-end')).toBe('sk_Live-12345abcXYA');
    expect(new Set([KEY, ...keys.values()]).size).toBe(NEAR_MISS_CASES.length + 1);
  });

  it('a character is changed for one of its kind, wrapping at the end of its range', () => {
    expect(['a', 'z', 'A', 'Z', '0', '9', '_', 'é'].map(changedChar)).toEqual(['b', 'a', 'B', 'A', '1', '0', '0', '0']);
    // a '0' in a position where anything else becomes '0' would be no change: it becomes '1'
    expect(live('0000').get('changed-middle')).toBe('0010');
  });

  it('the key’s form decides which cases exist, and says why the others do not', () => {
    const digits = notJudged('1234567890');
    expect([...digits.keys()]).toEqual(['case-swapped']);
    expect(digits.get('case-swapped')).toMatch(/no letter/);
    const one = notJudged('k');
    expect([...one.keys()].sort()).toEqual(['changed-end', 'changed-middle', 'cut-short']);
    expect([...notJudged('kq').keys()]).toEqual(['changed-middle']);
    expect(nearMissKeys('').every((n) => 'notJudged' in n)).toBe(true);
    // code points, not UTF-16 units: an astral character is cut whole
    expect(live('ab😀').get('cut-short')).toBe('ab');
  });

  it('bash derives the very key the run sends (a reproducer never needs it written down)', () => {
    for (const key of [KEY, 'z9Z', 'abc def', `k'y"\\&$x`, '0000']) {
      const keys = live(key);
      expect(inBash(key, [...keys.keys()]), JSON.stringify(key)).toEqual([...keys.values()]);
    }
  });
});

describe('the run’s redactor knows the near-miss keys', () => {
  const r = keyRedactor(KEY);

  it('shows each as its placeholder, in every form, and the key as the key’s', () => {
    for (const [c, k] of live(KEY)) {
      const shown = nearMissShown(c);
      expect(r.text(`sent ${k}.`), c).toBe(`sent ${shown}.`);
      for (const form of [JSON.stringify(k).slice(1, -1), encodeURIComponent(k), Buffer.from(k).toString('base64')]) {
        const out = r.text(`<${form}>`);
        expect(out, `${c}: ${form}`).not.toContain(form);
      }
    }
    expect(r.text(KEY)).toBe(REDACTED);
  });

  it('leaves neither the key nor a near-miss key in a redacted request body', () => {
    for (const [c, k] of live(KEY)) {
      const body = JSON.stringify(r.shown({ authentication: { apiKey: k } }));
      for (const secret of [KEY, ...live(KEY).values()].map((s) => s.trim())) expect(body, c).not.toContain(secret);
    }
  });
});

describe('a reproducer sends the near-miss key again', () => {
  const r = keyRedactor(KEY);

  it('its body, built by bash from $STORE_API_KEY, holds the near-miss key the run sent', () => {
    for (const [c, k] of live(KEY)) {
      const sent = { authentication: { apiKey: k }, filters: { id: ['x'] } };
      const script = curlFor({ request: { method: 'POST', url: 'http://127.0.0.1:1/api/v1/products/get', path: '/api/v1/products/get', body: r.shown(sent) } })
        .replace(/\ncurl [^\n]*--data-binary "(.*)"$/s, '\nprintf %s "$1"');
      const out = bash(script, { STORE_API_KEY: KEY });
      expect(JSON.parse(out), c).toEqual(sent);
    }
  });
});

describe('which near-miss keys each resource sends on an operation (nearMissPlan)', () => {
  const LIST = ['product', 'blog-post', 'coupon', 'page', 'collection', 'category', 'order', 'customer', 'shipping-method', 'tax', 'payment-method', 'user', 'file', 'country'];
  const WRITABLE = LIST.slice(0, 6);
  const union = (plan: Map<string, string[]>) => new Set([...plan.values()].flat());

  it('every resource sends one at least, and every case is sent by some resource, at every seed', () => {
    for (let seed = 0; seed < 200; seed++) {
      for (const [op, places] of [['count', LIST], ['create', WRITABLE], ['get', ['store']]] as const) {
        const plan = nearMissPlan(NEAR_MISS_CASES, places, 1, seed, op);
        expect([...plan.keys()]).toEqual([...places]);
        for (const [p, cases] of plan) {
          expect(cases.length, `${op} ${p} at seed ${seed}`).toBeGreaterThan(0);
          expect(new Set(cases).size, `${op} ${p} at seed ${seed}: no case twice`).toBe(cases.length);
        }
        expect(union(plan).size, `${op} at seed ${seed}`).toBe(NEAR_MISS_CASES.length);
      }
    }
  });

  it('sends no more than that: one case per resource where the resources outnumber the cases, eight over six writable ones', () => {
    expect([...nearMissPlan(NEAR_MISS_CASES, LIST, 1, 42, 'get').values()].every((c) => c.length === 1)).toBe(true);
    expect([...nearMissPlan(NEAR_MISS_CASES, WRITABLE, 1, 42, 'update').values()].map((c) => c.length).sort()).toEqual([1, 1, 1, 1, 2, 2]);
    // which resources send two moves with the seed: each of them does at some seed
    const twice = new Set(Array.from({ length: 60 }, (_, seed) => [...nearMissPlan(NEAR_MISS_CASES, WRITABLE, 1, seed, 'update')].filter(([, c]) => c.length === 2).map(([p]) => p)).flat());
    expect([...twice].sort()).toEqual([...WRITABLE].sort());
    expect([...nearMissPlan(NEAR_MISS_CASES, ['store'], 1, 42, 'get').values()].map((c) => c.length)).toEqual([8]);
  });

  it('moves the cases between resources with the seed and the operation, the same seed the same plan', () => {
    const at = (seed: number, op: string) => nearMissPlan(NEAR_MISS_CASES, LIST, 1, seed, op).get('order')![0];
    expect(at(7, 'count')).toBe(at(7, 'count'));
    const seen = new Set(Array.from({ length: 200 }, (_, seed) => at(seed, 'count')));
    expect(seen.size).toBe(NEAR_MISS_CASES.length);
    expect(new Set(Array.from({ length: 20 }, (_, i) => at(5, `op${i}`))).size).toBeGreaterThan(1);
  });

  it('at deep depth (every case per resource) sends the whole cross product; over only the cases the key has', () => {
    for (const cases of nearMissPlan(NEAR_MISS_CASES, LIST, Number.MAX_SAFE_INTEGER, 3, 'get').values()) expect([...cases].sort()).toEqual([...NEAR_MISS_CASES].sort());
    const live = NEAR_MISS_CASES.filter((c) => c !== 'case-swapped');
    const plan = nearMissPlan(live, LIST, 1, 3, 'get');
    expect(union(plan).has('case-swapped')).toBe(false);
    expect(union(plan).size).toBe(live.length);
    expect([...nearMissPlan([], LIST, 1, 3, 'get').values()].every((c) => c.length === 0)).toBe(true);
  });
});
