/**
 * limits.longTextUnit (src/observe/text-bytes.ts): the reading of a long
 * text's limit told from fake answers — kept whole, refused (with the ASCII
 * control taken or refused), cut where the limit's bytes end, cut elsewhere,
 * no answer — and the requests it costs.
 */
import { describe, expect, it } from 'vitest';
import type { StoreClient } from '../../src/client/api.js';
import type { Exchange } from '../../src/client/http.js';
import type { RunConfig } from '../../src/config.js';
import { Shared } from '../../src/observe/shared.js';
import { isNoReading } from '../../src/observe/types.js';
import { longTextSubject, overBytesText, readingOfStored, textBytesProbe } from '../../src/observe/text-bytes.js';
import { cutToBytes } from '../../generators/text.js';
import { utf8Cut } from '../../reference/readings.js';

const MAX = longTextSubject()!.prop.maxLength!;
const FIELD = longTextSubject()!.prop.recordField ?? longTextSubject()!.prop.name;

/** What a fake store does with a long text: undefined refuses it (400), 'none' gives no answer. */
type Store = (content: string) => string | undefined | 'none';

const exchange = (path: string, body: unknown, status: number | undefined, json?: unknown): Exchange => ({
  request: { method: 'POST', url: `http://store${path}`, path, body },
  ...(status === undefined ? { transportError: { code: 'ECONNRESET', message: 'reset' } } : { response: { status, headers: {}, text: JSON.stringify(json ?? {}) } as never, json }),
  attempts: 1, durationMs: 1,
});

function fakeClient(store: Store) {
  const records = new Map<string, Record<string, unknown>>();
  const sent: string[] = [];
  let n = 0;
  const client = {
    async create(_r: unknown, items: Array<Record<string, unknown>>) {
      sent.push('create');
      const content = String(items[0][FIELD]);
      const kept = store(content);
      if (kept === 'none') return { ok: false, problem: 'ECONNRESET', exchange: exchange('/api/v1/pages/create', { data: items }, undefined) };
      if (kept === undefined) return { ok: false, problem: 'HTTP 400', exchange: exchange('/api/v1/pages/create', { data: items }, 400, { error: 'too long' }) };
      const rec = { ...items[0], id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, [FIELD]: kept };
      records.set(rec.id, rec);
      return { ok: true, value: [rec], exchange: exchange('/api/v1/pages/create', { data: items }, 200, [rec]) };
    },
    async get(_r: unknown, q: { filters: { id: string[] } }) {
      sent.push('get');
      const value = q.filters.id.map((id) => records.get(id)).filter(Boolean);
      return { ok: true, value, exchange: exchange('/api/v1/pages/get', q, 200, value) };
    },
    async delete(_r: unknown, ids: string[]) {
      sent.push('delete');
      for (const id of ids) records.delete(id);
      return { ok: true, value: { success: 'true' }, exchange: exchange('/api/v1/pages/delete', { filter: [{ id: ids }] }, 200, { success: 'true' }) };
    },
  };
  return { client: client as unknown as StoreClient, sent, records };
}

async function probe(store: Store) {
  const fake = fakeClient(store);
  const config = { runTag: 'sc00000000', visibilityTimeoutMs: 0 } as RunConfig;
  const o = (await textBytesProbe.run({ client: fake.client, config, shared: new Shared(fake.client, config), results: {} }))['limits.longTextUnit'];
  return { o, sent: fake.sent, left: fake.records.size };
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const chars = (s: string) => Array.from(s).length;

describe('a text cut where its UTF-8 bytes end', () => {
  it('the checks\' cut (generators) and the reference server\'s (reference/readings.ts, written apart) agree at every byte count, 1- to 4-byte characters', () => {
    const text = 'aé€😀b\u0301漢🧪zß'.repeat(3);
    for (let n = 0; n <= bytes(text) + 1; n++) {
      const cut = cutToBytes(text, n);
      expect(utf8Cut(text, n), `${n} bytes`).toBe(cut);
      // whole characters, within the bytes, and no shorter than it must be: one more character would not fit
      expect(text.startsWith(cut)).toBe(true);
      expect(bytes(cut)).toBeLessThanOrEqual(n);
      if (cut !== text) expect(bytes(Array.from(text).slice(0, chars(cut) + 1).join(''))).toBeGreaterThan(n);
    }
  });
});

describe('the probe text: the smallest that the readings answer differently', () => {
  it('is the limit in characters and one byte over it in UTF-8', () => {
    const t = overBytesText(MAX, 'sc00000000-x-bytes-0');
    expect(chars(t)).toBe(MAX);
    expect(bytes(t)).toBe(MAX + 1);
    expect(cutToBytes(t, MAX)).toBe(t.slice(0, -1));
  });
  it('readingOfStored: whole, cut where the bytes end, or neither', () => {
    const t = overBytesText(MAX, 'p');
    expect(readingOfStored(t, t, MAX)).toBe('characters');
    expect(readingOfStored(t, t.slice(0, -1), MAX)).toBe('bytes cut');
    expect(readingOfStored(t, t.slice(0, -2), MAX)).toBeUndefined();
    expect(readingOfStored(t, `${t.slice(0, -1)}\ufffd`, MAX)).toBeUndefined();
  });
});

describe('limits.longTextUnit from fake answers', () => {
  it("kept whole: 'characters', in 3 requests (create, read-back, delete), nothing left", async () => {
    const { o, sent, left } = await probe((c) => c);
    expect(o.value).toBe('characters');
    expect(o.detail).toMatch(/65535 characters \(65536 bytes\).*stored whole/);
    expect(sent).toEqual(['create', 'get', 'delete']);
    expect(left).toBe(0);
  });
  it("refused over the limit's bytes, the limit in ASCII taken: 'bytes refused', the control deleted", async () => {
    const { o, sent, left } = await probe((c) => (bytes(c) > MAX ? undefined : c));
    expect(o.value).toBe('bytes refused');
    expect(o.detail).toMatch(/is refused \(HTTP 400\) while 65535 ASCII characters \(65535 bytes\) are taken/);
    expect(sent).toEqual(['create', 'create', 'get', 'delete']);
    expect(left).toBe(0);
  });
  it('refused, and the limit in ASCII refused too: could not tell', async () => {
    const { o, sent } = await probe(() => undefined);
    expect(o.value).toBeNull();
    expect(o.detail).toMatch(/^could not tell: .*no content at the limit is taken/);
    expect(sent).toEqual(['create', 'create']);
  });
  it("cut where the limit's bytes end (a character boundary): 'bytes cut'", async () => {
    const { o } = await probe((c) => cutToBytes(c, MAX));
    expect(o.value).toBe('bytes cut');
    expect(o.detail).toMatch(/cut to 65534 characters \(65534 bytes\), where 65535 bytes end/);
  });
  it('cut elsewhere (65535 UTF-16 units minus 100; 65000 characters): fits no reading, no value', async () => {
    for (const cut of [(c: string) => c.slice(0, MAX - 100), (c: string) => Array.from(c).slice(0, 65000).join('')]) {
      const { o } = await probe(cut);
      expect(o.value).toBeNull();
      expect(isNoReading(o)).toBe(true);
      expect(o.detail).toMatch(/neither whole nor cut where 65535 bytes end/);
    }
  });
  it('no answer: could not tell; a create answered without its record read back: could not tell', async () => {
    const none = await probe(() => 'none');
    expect(none.o.value).toBeNull();
    expect(none.o.detail).toMatch(/^could not tell: .*got no answer/);
    const other = await probe((c) => (c.length > 10 ? undefined : c));
    expect(other.o.value).toBeNull();
  });
  it('evidence holds sizes, not the 64 KiB body', async () => {
    const { o } = await probe((c) => c);
    expect(o.evidence?.length).toBe(2);
    expect(JSON.stringify(o).length).toBeLessThan(20_000);
  });
});
