import { describe, expect, it } from 'vitest';
import { chainOf, inSequence, longestChain, sideBySide, spanOf, type Chain, type Span } from '../../src/client/chain.js';
import type { Exchange } from '../../src/client/http.js';
import { mkdtempSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { criticalPathOf, fileChain, lanesChain, readFileChains } from '../../src/run/critical-path.js';
import type { FileChains } from '../../src/check/chains.js';
import { Scope } from '../../src/check/scope.js';
import { CheckFailure } from '../../src/check/failure.js';
import type { StoreClient } from '../../src/client/api.js';
import { cleanOutstanding } from '../../src/client/cleanup.js';
import { Ledger } from '../../src/client/ledger.js';

const read = (start: number, end: number): Span => ({ start, end, write: false });
const write = (start: number, end: number): Span => ({ start, end, write: true });
const chain = (roundTrips: number, ms = roundTrips * 10, writes = 0, writeMs = 0): Chain => ({ roundTrips, ms, writes, writeMs });

function exchange(path: string, durationMs: number, notSent = false): Exchange {
  return { request: { method: 'POST', url: `http://x${path}`, path, body: {} }, attempts: 1, durationMs, ...(notSent ? { notSent: true as const } : {}) };
}

describe('longestChain: requests each sent after the previous was answered', () => {
  it('counts requests one after another as one round trip each', () => {
    expect(longestChain([read(0, 10), read(10, 20), read(25, 30)])).toEqual({ roundTrips: 3, ms: 25, writes: 0, writeMs: 0 });
  });

  it('counts requests in flight together once', () => {
    // three rounds: a batch of four side by side, then two side by side, then one
    const spans = [read(0, 10), read(1, 12), read(2, 9), read(0, 11), read(12, 20), read(13, 21), read(21, 30)];
    expect(longestChain(spans).roundTrips).toBe(3);
  });

  it('a request that waited in a queue for a slot overlaps the one it waited for', () => {
    // the second was asked for at 1 while the first was in flight: it counts as the same round
    expect(longestChain([read(0, 10), read(1, 20)]).roundTrips).toBe(1);
  });

  it('finds the longest chain whatever the order the requests are given in', () => {
    const spans = [read(40, 50), read(0, 45), read(0, 10), read(20, 30), read(10, 20), read(30, 40)];
    expect(longestChain(spans)).toMatchObject({ roundTrips: 5, ms: 50 });
    expect(longestChain([...spans].reverse())).toMatchObject({ roundTrips: 5, ms: 50 });
  });

  it('of two chains as long, the one that took longer', () => {
    expect(longestChain([read(0, 10), read(10, 20), read(0, 5), read(5, 50)])).toMatchObject({ roundTrips: 2, ms: 50 });
  });

  it('the chain of writes apart, by their time', () => {
    // reads between writes do not join the chain of writes; the longer of two chains of writes wins
    const spans = [write(0, 400), read(400, 410), write(410, 1300), write(0, 100), write(100, 200), write(200, 300)];
    expect(longestChain(spans)).toMatchObject({ roundTrips: 5, writes: 2, writeMs: 1290 });
  });

  it('nothing, or only requests never sent: no chain', () => {
    expect(longestChain([])).toEqual({ roundTrips: 0, ms: 0, writes: 0, writeMs: 0 });
    expect(spanOf(exchange('/api/v1/catalog/products/get', 0, true), 100)).toBeUndefined();
  });

  it('an exchange spans its duration up to its answer; creates, updates and deletes are writes', () => {
    expect(spanOf(exchange('/api/v1/catalog/products/get', 30), 100)).toEqual({ start: 70, end: 100, write: false });
    for (const op of ['create', 'update', 'delete']) expect(spanOf(exchange(`/api/v1/catalog/products/${op}`, 5), 10)?.write).toBe(true);
    expect(spanOf(exchange('/api/v1/catalog/products/count', 5), 10)?.write).toBe(false);
  });

  it('a check\'s exchanges carry their own answer time: their chain', () => {
    const at = (path: string, durationMs: number, answeredAt: number) => ({ ...exchange(path, durationMs), answeredAt });
    // create, read back; two gets side by side; a delete
    const exchanges = [at('/p/create', 30, 30), at('/p/get', 30, 60), at('/p/get', 30, 95), at('/p/get', 32, 97), at('/p/delete', 30, 130), exchange('/p/get', 5)];
    expect(chainOf(exchanges)).toEqual({ roundTrips: 4, ms: 122, writes: 2, writeMs: 60 });
  });
});

describe('combining chains', () => {
  it('one after another they add up; side by side the longest wins, writes apart', () => {
    expect(inSequence(chain(2, 20, 1, 100), chain(3, 30, 2, 50))).toEqual(chain(5, 50, 3, 150));
    expect(sideBySide([chain(2, 20, 5, 900), chain(4, 30, 1, 100)])).toEqual(chain(4, 30, 5, 900));
    expect(sideBySide([])).toEqual(chain(0, 0));
  });
});

describe('the run\'s critical path', () => {
  const file = (worker: string, checks: Array<[string, number]>, end = 0): FileChains => ({
    worker, checks: checks.map(([id, n]) => ({ id, ...chain(n) })), end: chain(end),
  });

  it('a file is its longest check, then what followed its last check', () => {
    expect(fileChain(file('w1', [['a', 3], ['b', 7], ['c', 2]], 2)).roundTrips).toBe(9);
  });

  it('a fixture built for no check comes before the checks that waited for it', () => {
    expect(fileChain({ ...file('w1', [['a', 3], ['b', 1]], 2), fixtures: [chain(4), chain(6)] }).roundTrips).toBe(6 + 3 + 2);
  });

  it('a worker\'s files add up; the workers run side by side', () => {
    const files = [file('w1', [['a', 3]], 1), file('w2', [['b', 10]]), file('w1', [['c', 5]], 2)];
    expect(lanesChain(files)).toEqual({ chain: chain(11, 110), lanes: 2 });
  });

  it('preflight, probes, the longest lane and cleanup one after another; the longest checks named', () => {
    const files = [file('w1', [['a', 3], ['b', 8]], 1), file('w2', [['c', 4]]), file('w2', [['d', 6]], 1)];
    const cp = criticalPathOf({ preflight: chain(1), probes: chain(6), mainDuringChecks: chain(2), cleanup: chain(3, 30, 2, 700) }, files);
    expect(cp).toEqual({
      roundTrips: 1 + 6 + 11 + 3,
      ms: 210,
      byPhase: { preflight: 1, probes: 6, checks: 11, cleanup: 3 },
      lanes: 2,
      longestChecks: [{ id: 'b', roundTrips: 8, ms: 80 }, { id: 'd', roundTrips: 6, ms: 60 }, { id: 'c', roundTrips: 4, ms: 40 }, { id: 'a', roundTrips: 3, ms: 30 }],
      writes: { count: 2, ms: 700 },
    });
  });

  it('reads only this run\'s lines of chains.jsonl (a reused report dir), skips a line cut short, and removes the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chains-'));
    const line = (runTag: string, id: string) => JSON.stringify({ runTag, ...file('w1', [[id, 2]]) });
    writeFileSync(join(dir, 'chains.jsonl'), [line('scearlier0', 'old'), line('scthisrun0', 'a'), '{"runTag":"scthisrun0","wor', line('scthisrun0', 'b'), ''].join('\n'));
    expect(readFileChains(dir, 'scthisrun0').map((f) => f.checks[0].id)).toEqual(['a', 'b']);
    expect(existsSync(join(dir, 'chains.jsonl'))).toBe(false);
    expect(readFileChains(dir, 'scthisrun0')).toEqual([]);
  });

  it('the main process\'s requests during the checks count when they are the longer chain', () => {
    const cp = criticalPathOf({ preflight: chain(0), probes: chain(0), mainDuringChecks: chain(9), cleanup: chain(0) }, [file('w1', [['a', 4]])]);
    expect(cp.byPhase.checks).toBe(9);
  });
});

describe('a scope deletes in as few round trips as references allow', () => {
  it('the lists of one resource side by side; a referenced resource after the records referencing it', async () => {
    const log: string[] = [];
    let inFlight = 0;
    let peak = 0;
    const client = {
      async delete(resource: string, ids: string[]) {
        log.push(`start ${resource} ${ids.length}`);
        peak = Math.max(peak, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        log.push(`end ${resource}`);
        return { ok: true, exchange: {} };
      },
    } as unknown as StoreClient;
    const scope = new Scope(client, 100);
    scope.adopt('category', Array.from({ length: 30 }, (_, i) => `c${i}`));
    scope.adopt('product', Array.from({ length: 250 }, (_, i) => `p${i}`));
    expect(await scope.close()).toEqual([]);
    // products (3 lists of at most 100) all in flight together, then the categories they reference
    expect(log.slice(0, 3)).toEqual(['start product 100', 'start product 100', 'start product 50']);
    expect(log.indexOf('start category 30')).toBeGreaterThan(log.lastIndexOf('end product'));
    expect(peak).toBe(3);
    expect(scope.ids('product')).toEqual([]);
  });
});

describe('a scope creates its batches side by side', () => {
  /** A store taking at most `limit` items a create (413 above it), answering after 5-9 ms (so batches end out of order); `refuse(n)`: the n-th create sent is refused. */
  function store(limit: number, refuse?: (n: number) => boolean) {
    const log: Array<{ n: number; items: number; inFlight: number }> = [];
    let inFlight = 0;
    let made = 0;
    let n = 0;
    const client = {
      async create(_r: unknown, items: Array<{ k: number }>) {
        const me = n++;
        log.push({ n: me, items: items.length, inFlight: ++inFlight });
        await new Promise((r) => setTimeout(r, 5 + ((me * 7) % 5)));
        inFlight--;
        if (items.length > limit) return { ok: false, problem: 'HTTP 413', exchange: { response: { status: 413 } } };
        if (refuse?.(me)) return { ok: false, problem: `HTTP 400 (create #${me})`, exchange: { response: { status: 400 }, json: { error: 'no' } } };
        const records = items.map((x) => ({ id: `id-${made++}`, k: x.k }));
        return { ok: true, value: records, exchange: { response: { status: 200 }, json: records } };
      },
    } as unknown as StoreClient;
    return { client, log };
  }
  const items = (n: number) => Array.from({ length: n }, (_, k) => ({ k }));

  it('1 001 items where the store takes 10: 101 creates in flight together, the records in the order sent', async () => {
    const s = store(10);
    const scope = new Scope(s.client, 10);
    const got = await scope.create('product', items(1001));
    expect(s.log.length).toBe(101);
    expect(Math.max(...s.log.map((l) => l.inFlight))).toBe(101);
    expect(got.map((x) => x.k)).toEqual(items(1001).map((x) => x.k));
    expect(scope.ids('product')).toEqual(got.map((x) => x.id));
  });

  it('a 413 splits a batch in halves, side by side too', async () => {
    const s = store(3);
    const scope = new Scope(s.client, null);
    const got = await scope.create('product', items(10));
    expect(got.map((x) => x.k)).toEqual(items(10).map((x) => x.k));
    // 10 → 5 + 5 → (2 + 3) + (2 + 3): 7 creates, 4 of them holding records
    expect(s.log.length).toBe(7);
    expect(scope.ids('product')).toHaveLength(10);
  });

  it('one batch refused: every other batch settles first, what they created is kept for deletion, the first refusal is thrown', async () => {
    const s = store(10, (n) => n === 2 || n === 4);
    const scope = new Scope(s.client, 10);
    const err = await scope.create('product', items(50)).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(CheckFailure);
    // the first batch refused (#2), though #4 may have been answered first
    expect((err as CheckFailure).message).toMatch(/not accepted: HTTP 400 \(create #2\)/);
    expect(s.log.length).toBe(5);
    // batches 0, 1 and 3 created 30 records: all of them deleted when the scope closes
    expect(scope.ids('product')).toHaveLength(30);
  });
});

describe('cleanup reads back every resource at once', () => {
  it('first read-backs side by side whatever references what; deletes after, in deletion order', async () => {
    const log: string[] = [];
    const tag = 'sc0c1ea0up';
    const there = new Set(['p2', 'c1']);
    const client = {
      async byIds(resource: string, ids: string[]) {
        log.push(`get ${resource}`);
        await new Promise((r) => setTimeout(r, 5));
        const value = ids.filter((id) => there.has(id)).map((id) => ({ id, name: `${tag}-${id}` }));
        return { ok: true, value, exchange: {} };
      },
      async delete(resource: string, ids: string[]) {
        log.push(`delete ${resource}`);
        for (const id of ids) there.delete(id);
        return { ok: true, exchange: {} };
      },
    } as unknown as StoreClient;
    const ledger = new Ledger(undefined, tag);
    ledger.recordCreated('product', ['p1', 'p2']);
    ledger.recordCreated('category', ['c1']);
    const cleaned = await cleanOutstanding(client, ledger, { readList: 100, deleteList: 100, settleMs: 0 });
    // both resources read back before anything else; what is still there is deleted and read again, the
    // products before the category they may reference
    expect(log.slice(0, 2).sort()).toEqual(['get category', 'get product']);
    expect(log.indexOf('get category')).toBeLessThan(log.indexOf('delete product'));
    expect(log.filter((l) => l.startsWith('delete'))).toEqual(['delete product', 'delete category']);
    expect(log.slice(-2)).toEqual(['delete category', 'get category']);
    expect(cleaned.alreadyGone).toEqual({ product: ['p1'] });
    expect(cleaned.removed).toEqual({ product: ['p2'], category: ['c1'] });
    expect(ledger.outstanding().size).toBe(0);
  });
});
