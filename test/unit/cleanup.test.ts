/**
 * Cleanup and sweep settle what a crash leaves in the ledger, against the
 * reference server in-process:
 * - a create announced ('creating') whose answer never reached the ledger: its
 *   records are found by their run-tagged values and deleted;
 * - a value without the run tag is never looked up, so a record of the store
 *   that happens to match is never claimed;
 * - an id deleted before the crash but not yet marked so: counted as already
 *   gone, even by a target that answers 404 to unknown ids;
 * - a last ledger line cut by the crash is skipped;
 * - a reused report dir: a run's cleanup takes only its own ledger lines.
 */
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deletionLevels } from '../../src/client/cleanup.js';
import { Ledger } from '../../src/client/ledger.js';
import { cleanupLedger, unverifiedCount } from '../../src/run/cleanup.js';
import type { ReferenceOptions } from '../../reference/server.js';
import { call, start } from './reference-helpers.js';

const TAG = 'sc0c1ea4a1';
const tmp = () => join(mkdtempSync(join(tmpdir(), 'sc-cleanup-')), 'ledger.jsonl');

async function createCollection(srv: Awaited<ReturnType<typeof start>>, name: string): Promise<string> {
  const res = await call(srv, '/api/v1/products/collections/create', { data: [{ name, slug: name, description: 'd', seopagetitle: 't', seopagedescription: 'd', seometakeywords: 'k' }] });
  expect(res.status).toBe(200);
  return res.body[0].id;
}

const ids = (srv: Awaited<ReturnType<typeof start>>) => srv.snapshot().records.collection.map((x) => String(x.id));

describe('cleanupLedger settles a crash', () => {
  it('finds and deletes what an unanswered create stored, and resolves the intent in the ledger', async () => {
    const srv = await start();
    try {
      const file = tmp();
      const ledger = new Ledger(file, TAG);
      ledger.recordCreating('collection', 'name', [`${TAG}-lost-1`, `${TAG}-lost-2`]);
      // the target stored both; the process died before the answer reached the ledger
      const a = await createCollection(srv, `${TAG}-lost-1`);
      const b = await createCollection(srv, `${TAG}-lost-2`);
      expect(Ledger.load([file]).openIntents()).toHaveLength(1);
      const result = await cleanupLedger({ baseUrl: srv.url, apiKey: srv.apiKey, timeoutMs: 2000, insecure: false, ledgerFile: file }, [file]);
      expect(result.leftBehind).toEqual([]);
      expect(result.removed.collection?.sort()).toEqual([a, b].sort());
      expect(ids(srv)).not.toContain(a);
      expect(ids(srv)).not.toContain(b);
      const after = Ledger.load([file]);
      expect(after.openIntents()).toEqual([]);
      expect([...after.outstanding().values()].flat()).toEqual([]);
    } finally {
      await srv.close();
    }
  });

  it('never claims a record whose value lacks the run tag', async () => {
    const srv = await start();
    try {
      const theirs = await createCollection(srv, 'summer-sale');
      const file = tmp();
      // a hand-made intent line for a value without the tag (no ledger the client writes has one)
      writeFileSync(file, JSON.stringify({ op: 'creating', resource: 'collection', ids: [], intent: 'x-1', key: 'name', values: ['summer-sale'], runTag: TAG, at: new Date().toISOString() }) + '\n');
      const result = await cleanupLedger({ baseUrl: srv.url, apiKey: srv.apiKey, timeoutMs: 2000, insecure: false, ledgerFile: file }, [file]);
      expect(result.removed).toEqual({});
      expect(ids(srv)).toContain(theirs);
    } finally {
      await srv.close();
    }
  });

  it('an id deleted before the crash (no deleted line) is already gone, also for a target answering 404', async () => {
    const srv = await start({ behaviour: { deleteUnknownId: 'not-found' } });
    try {
      const id = await createCollection(srv, `${TAG}-gone`);
      const file = tmp();
      new Ledger(file, TAG).recordCreated('collection', [id]);
      await call(srv, '/api/v1/products/collections/delete', { filter: [{ id: [id] }] });
      const result = await cleanupLedger({ baseUrl: srv.url, apiKey: srv.apiKey, timeoutMs: 2000, insecure: false, ledgerFile: file }, [file]);
      expect(result.leftBehind).toEqual([]);
      expect(result.alreadyGone).toEqual({ collection: [id.toLowerCase()] });
      expect(result.removed).toEqual({});
    } finally {
      await srv.close();
    }
  });

  it('skips a last ledger line cut by the crash, and still refuses a broken line in the middle', () => {
    const file = tmp();
    new Ledger(file, TAG).recordCreated('collection', ['0b9c8a36-1111-4a4a-9c9c-000000000001']);
    appendFileSync(file, '{"op":"created","resource":"colle');
    expect([...Ledger.load([file]).outstanding().values()].flat()).toEqual(['0b9c8a36-1111-4a4a-9c9c-000000000001']);
    appendFileSync(file, '\n' + readFileSync(file, 'utf8').split('\n')[0] + '\n');
    expect(() => Ledger.load([file])).toThrow(/:2: not a ledger line/);
  });

  it('a report dir reused: a run cleans up its own lines, sweep sees every run\'s', () => {
    const file = tmp();
    new Ledger(file, 'scearlier1').recordCreated('collection', ['0b9c8a36-1111-4a4a-9c9c-000000000001']);
    new Ledger(file, TAG).recordCreated('collection', ['0b9c8a36-1111-4a4a-9c9c-000000000002']);
    expect([...Ledger.load([file], 'sweep', TAG).outstanding().values()].flat()).toEqual(['0b9c8a36-1111-4a4a-9c9c-000000000002']);
    expect([...Ledger.load([file]).outstanding().values()].flat()).toHaveLength(2);
  });
});

type Srv = Awaited<ReturnType<typeof start>>;

/** `n` collections carrying the run tag, in one create; their ids. */
async function tagged(srv: Srv, n: number, label = 'c'): Promise<string[]> {
  const data = Array.from({ length: n }, (_, i) => {
    const v = `${TAG}-${label}-${i}`;
    return { name: v, slug: v, description: 'd', seopagetitle: 't', seopagedescription: 'd', seometakeywords: 'k' };
  });
  const res = await call(srv, '/api/v1/products/collections/create', { data });
  expect(res.status).toBe(200);
  return res.body.map((x: { id: string }) => x.id);
}

/** A ledger file holding `ids` as created by the run. */
function ledgerOf(ids: string[]): string {
  const file = tmp();
  new Ledger(file, TAG).recordCreated('collection', ids);
  return file;
}

const outstanding = (file: string) => [...Ledger.load([file]).outstanding().values()].flat();
const target = (srv: Srv, extra: Partial<Parameters<typeof cleanupLedger>[0]> = {}) => ({ baseUrl: srv.url, apiKey: srv.apiKey, timeoutMs: 2000, insecure: false, concurrency: 8, ...extra });

describe('cleanup tells records proven to remain from records it could not verify', () => {
  // the store holds none of the records (deleted before the cleanup), but its read-backs cannot be trusted
  const untrusted: Array<[string, ReferenceOptions['transport'], Partial<Parameters<typeof cleanupLedger>[0]>, RegExp]> = [
    ['answers cut at the size limit', { hugeGetMb: 2, hugeGetResource: 'collection' }, { maxAnswerBytes: 256 * 1024 }, /not taken in .*larger than the client's limit/],
    ['answers padded with records never asked for', { padGets: 2 }, {}, /listed records never asked for/],
    ['answers that never come (a silent socket)', { silentPath: '/api/v1/products/collections/get' }, { timeoutMs: 300 }, /TIMEOUT|given up after 3 consecutive time-outs/],
  ];
  for (const [what, transport, extra, reason] of untrusted) {
    it(`get-by-id ${what}: could not verify N, never left behind, still outstanding for sweep`, async () => {
      const srv = await start({ transport });
      try {
        const ids = await tagged(srv, 30);
        const file = ledgerOf(ids);
        await call(srv, '/api/v1/products/collections/delete', { filter: [{ id: ids }] });
        const t0 = Date.now();
        const result = await cleanupLedger(target(srv, { ...extra, ledgerFile: file }), [file]);
        expect(result.leftBehind).toEqual([]);
        expect(unverifiedCount(result.unverified)).toBe(30);
        for (const g of result.unverified) expect(g.reason).toMatch(reason);
        expect(result.deleted).toBe(0);
        expect(outstanding(file)).toHaveLength(30);
        // a hung endpoint costs a few time-outs, not one per list or id
        if (transport?.silentPath) expect(Date.now() - t0).toBeLessThan(4 * 300 + 1500);
      } finally {
        await srv.close();
      }
    });
  }

  it('a delete that removes nothing leaves them left behind (read back), none unverified', async () => {
    const srv = await start({ faults: ['delete-nothing'] });
    try {
      const ids = await tagged(srv, 30);
      const file = ledgerOf(ids);
      const result = await cleanupLedger(target(srv, { ledgerFile: file }), [file]);
      expect(result.leftBehind).toHaveLength(30);
      expect(result.leftBehind[0]).toMatch(/^collection:[0-9a-f-]{36} \(the target answered success, yet it is still there when read back\)$/);
      expect(result.unverified).toEqual([]);
      expect(outstanding(file)).toHaveLength(30);
    } finally {
      await srv.close();
    }
  });

  it('an unanswered create whose lookup gets no answer: its records could not be verified, with the values looked up', async () => {
    const srv = await start({ transport: { silentPath: '/api/v1/products/collections/get' } });
    try {
      const file = tmp();
      new Ledger(file, TAG).recordCreating('collection', 'name', [`${TAG}-lost-1`, `${TAG}-lost-2`]);
      const result = await cleanupLedger(target(srv, { ledgerFile: file, timeoutMs: 300 }), [file]);
      expect(result.leftBehind).toEqual([]);
      expect(result.unverified).toEqual([expect.objectContaining({ resource: 'collection', ids: [], values: [`${TAG}-lost-1`, `${TAG}-lost-2`] })]);
      expect(result.unverified[0].reason).toMatch(/^an unanswered create's records could not be looked up by name: /);
      expect(unverifiedCount(result.unverified)).toBe(2);
    } finally {
      await srv.close();
    }
  });
});

describe('cleanup in bulk', () => {
  it('2 400 records: three read-backs, three deletes, three read-backs (lists of the get cap), all read back gone', async () => {
    const srv = await start();
    try {
      const ids = [...(await tagged(srv, 1200, 'a')), ...(await tagged(srv, 1200, 'b'))];
      const file = ledgerOf(ids);
      srv.stats.reset();
      const result = await cleanupLedger(target(srv, { ledgerFile: file }), [file]);
      expect(result.leftBehind).toEqual([]);
      expect(result.unverified).toEqual([]);
      expect(result.removed.collection).toHaveLength(2400);
      expect(result.deleted).toBe(2400);
      expect(result.requests).toBe(9);
      expect(srv.stats.byOperation).toEqual({ get: 6, delete: 3 });
      expect(srv.snapshot().records.collection.filter((x) => String(x.name).startsWith(TAG))).toEqual([]);
      expect(outstanding(file)).toEqual([]);
    } finally {
      await srv.close();
    }
  });

  it('a target capping pages below the list: records a capped answer hid are never taken as gone', async () => {
    // half the records were deleted before (by the checks); the target answers at most 500 a page
    const srv = await start({ variant: 'page-size-max-500' });
    try {
      const ids = await tagged(srv, 1200);
      await call(srv, '/api/v1/products/collections/delete', { filter: [{ id: ids.filter((_, i) => i % 2) }] });
      const file = ledgerOf(ids);
      const result = await cleanupLedger(target(srv, { ledgerFile: file }), [file]);
      expect(result.alreadyGone.collection).toHaveLength(600);
      expect(result.removed.collection).toHaveLength(600);
      expect(result.leftBehind).toEqual([]);
      expect(srv.snapshot().records.collection.filter((x) => String(x.name).startsWith(TAG))).toEqual([]);
    } finally {
      await srv.close();
    }
  });

  it('a target refusing delete filters over 10 ids: lists halved until taken, every record removed', async () => {
    const srv = await start({ variant: 'max-batch-10' });
    try {
      const ids = [...(await tagged(srv, 10, 'a')), ...(await tagged(srv, 10, 'b')), ...(await tagged(srv, 10, 'c'))];
      const file = ledgerOf(ids);
      const result = await cleanupLedger(target(srv, { ledgerFile: file }), [file]);
      expect(result.removed.collection).toHaveLength(30);
      expect(result.leftBehind).toEqual([]);
      // 30 refused, then 15 and 15 refused, then lists of 7: 5 taken — with the read-backs, a dozen requests
      expect(result.requests).toBeLessThanOrEqual(12);
    } finally {
      await srv.close();
    }
  });

  it('resources side by side, each after every resource whose records reference it (products before categories and collections)', () => {
    expect(deletionLevels(['category', 'collection', 'coupon', 'product', 'blog-post'])).toEqual([['product', 'blog-post', 'coupon'], ['collection', 'category']]);
    expect(deletionLevels(['category'])).toEqual([['category']]);
    expect(deletionLevels(['category', 'product'])).toEqual([['product'], ['category']]);
  });
});
