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
import { Ledger } from '../../src/client/ledger.js';
import { cleanupLedger } from '../../src/run/cleanup.js';
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
