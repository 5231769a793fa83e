/**
 * The observation probes (src/observe) against the reference server and every
 * benign variant: each observation equals the variant's truth
 * (reference/variants.ts expectedObservations). Plus: --read-only sends no
 * write, probes clean up what they create, and a broken probe or target never
 * throws out of probeObservations.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StoreClient } from '../../src/client/api.js';
import { Ledger } from '../../src/client/ledger.js';
import type { RunConfig } from '../../src/config.js';
import { OBSERVATION_KEYS, probeObservations, type Probe } from '../../src/observe/index.js';
import { isNoReading, unusableAnswer } from '../../src/observe/types.js';
import type { Exchange } from '../../src/client/http.js';
import type { Observation } from '../../src/report/types.js';
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../../reference/server.js';
import { DEFAULT_OBSERVATIONS, VARIANTS, expectedObservations } from '../../reference/variants.js';
import { sameObservation } from '../../reference/prove.js';

const KEY = 'observe-test-key-0123456789';
let open: Array<{ srv: ReferenceServer; client: StoreClient }> = [];

afterEach(async () => {
  for (const { srv, client } of open) {
    await client.close();
    await srv.close();
  }
  open = [];
});

async function probe(opts: ReferenceOptions & { readOnly?: boolean } = {}) {
  const srv = await startReferenceServer({ apiKey: KEY, ...opts });
  const ledger = new Ledger(undefined, 'sc0bse0001');
  const client = new StoreClient({ baseUrl: srv.url, apiKey: KEY, timeoutMs: 10_000, connections: 8, retries: 0, readOnly: opts.readOnly, ledger });
  open.push({ srv, client });
  const config = {
    baseUrl: srv.url, apiKey: KEY, embedded: true, reportDir: '/tmp', ledgerFile: '/tmp/unused', runTag: 'sc0bse0001', seed: 1,
    depth: 'quick', readOnly: opts.readOnly === true, concurrency: 8, workers: 1, timeoutMs: 10_000, maxRps: 0, insecure: false,
    deadlineMs: 60_000, visibilityTimeoutMs: 5_000, maxAnswerBytes: 32 * 1024 * 1024, shrinkMs: 60_000,
  } satisfies RunConfig;
  const before = srv.snapshot();
  srv.stats.reset();
  const obs = await probeObservations(client, config);
  return { srv, obs, before, after: srv.snapshot(), ledger };
}

const values = (obs: Record<string, Observation>) => Object.fromEntries(Object.entries(obs).map(([k, o]) => [k, o.value]));

describe('observations equal the truth of the reference server', () => {
  it('default server', async () => {
    const { obs } = await probe();
    for (const [key, want] of Object.entries(DEFAULT_OBSERVATIONS)) expect(obs[key]?.value, `${key}: ${obs[key]?.detail}`).toEqual(want);
    // the extras, as the reference README documents them
    expect(values(obs)).toMatchObject({
      'users.countPath': '/api/v1/users/count',
      'errors.shape': 'json {error:{code,message}}',
      'delete.unknownId': 'ignored',
      'update.unknownId': 'error 404',
      'operation.notOffered': 404,
      'auth.headerKeyAccepted': false,
    });
    expect(String(obs['http.contentType'].value)).toMatch(/^application\/json/);
  });

  for (const v of VARIANTS) {
    it(`variant ${v.name}`, async () => {
      const { obs } = await probe({ variant: v.name });
      for (const [key, want] of Object.entries(expectedObservations[v.name])) {
        const got = obs[key]?.value;
        // a measured delay is expected within bounds (Between), everything else exactly
        expect(sameObservation(want, got), `${v.name} ${key}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)} (${obs[key]?.detail})`).toBe(true);
      }
    });
  }

  it('error shapes of the error variants', async () => {
    expect((await probe({ variant: 'error-403-flat' })).obs['errors.shape'].value).toBe('json {success,message}');
    expect((await probe({ variant: 'error-text-400' })).obs['errors.shape'].value).toBe('text');
  });
});

describe('every observation carries evidence and a detail', () => {
  it('default server', async () => {
    const { obs } = await probe();
    expect(Object.keys(obs).sort()).toEqual([...OBSERVATION_KEYS].sort());
    for (const [key, o] of Object.entries(obs)) {
      expect(o.detail, key).toBeTruthy();
      expect(o.evidence?.length, key).toBeGreaterThan(0);
      for (const ex of o.evidence!) {
        expect(JSON.stringify(ex), key).not.toContain(KEY);
        expect((ex.response?.body ?? '').length, key).toBeLessThanOrEqual(4_200);
      }
    }
  });
});

describe('writes', () => {
  it('probes delete every record they create (the store ends as it began)', async () => {
    const { before, after, ledger } = await probe();
    for (const [name, list] of Object.entries(before.records)) expect(after.records[name].length, name).toBe(list.length);
    // ids still outstanding in memory are the probe GUIDs that never existed (the ledger file marks them done)
    for (const [name, ids] of ledger.outstanding()) {
      const left = new Set(after.records[name].map((x) => String(x.id).toLowerCase()));
      for (const id of ids) expect(left.has(id), `${name} ${id}`).toBe(false);
    }
  });

  it('a small store: records are created to decide the page sizes, then deleted', async () => {
    const { obs, before, after } = await probe({ variant: 'small-store' });
    expect(obs['pagination.defaultPageSize'].value).toBe(100);
    expect(obs['pagination.maxPageSize'].value).toBe(1000);
    expect(after.records.collection.length).toBe(before.records.collection.length);
  });

  it('--read-only: nothing but get and count is sent; write probes say so', async () => {
    const { srv, obs } = await probe({ readOnly: true });
    expect(Object.keys(srv.stats.byOperation).sort()).toEqual(['count', 'get', 'other'].filter((k) => k in srv.stats.byOperation).sort());
    expect(srv.stats.byOperation.create ?? 0).toBe(0);
    expect(srv.stats.byOperation.update ?? 0).toBe(0);
    expect(srv.stats.byOperation.delete ?? 0).toBe(0);
    for (const key of ['update.semantics', 'limits.overlongString', 'limits.maxDataItems', 'delete.unknownId', 'update.unknownId', 'operation.notOffered']) {
      expect(obs[key].value, key).toBeNull();
      expect(obs[key].detail, key).toMatch(/^not probed: read-only/);
    }
    // the read probes still answer
    expect(obs['pagination.firstPageNumber'].value).toBe(1);
    expect(obs['order.default'].value).toBe('createdon asc');
  });

  it('--read-only on a small store: undecidable page sizes are null with what is known', async () => {
    const { obs, srv } = await probe({ readOnly: true, variant: 'small-store' });
    expect(srv.stats.byOperation.create ?? 0).toBe(0);
    expect(obs['pagination.defaultPageSize'].value).toBeNull();
    expect(obs['pagination.defaultPageSize'].detail).toMatch(/could not tell: .*at least 60/);
    expect(obs['pagination.maxPageSize'].value).toBeNull();
  });
});

describe('robustness: a probe never throws out of probeObservations', () => {
  it('a probe that throws yields null with "could not tell"', async () => {
    const srv = await startReferenceServer({ apiKey: KEY });
    const client = new StoreClient({ baseUrl: srv.url, apiKey: KEY, timeoutMs: 5_000, connections: 2 });
    open.push({ srv, client });
    const broken: Probe = { name: 'broken', keys: ['order.default', 'errors.shape'], phase: 1, run: async () => { throw new Error('boom'); } };
    const obs = await probeObservations(client, { readOnly: false, runTag: 'sc00000000' } as RunConfig, [broken]);
    expect(obs['order.default']).toMatchObject({ value: null, detail: 'could not tell: the broken probe failed: boom' });
    expect(obs['errors.shape'].value).toBeNull();
  });

  it('a target failing every get and count: every key is null, nothing throws', async () => {
    const { obs } = await probe({ transport: { rate503: 1 } });
    for (const key of ['pagination.firstPageNumber', 'pagination.defaultPageSize', 'order.default', 'filters.combination', 'pages.titleFilterKey']) {
      expect(obs[key].value, key).toBeNull();
      expect(obs[key].detail, key).toMatch(/^could not tell/);
    }
  });

  it('normalization: a name filter that is not applied tells nothing; one that ignores accents equates e + U+0301 with é', async () => {
    // (filter-ignored: every collection listed whatever the name asked: neither reading can be read from it)
    const ignored = (await probe({ faults: ['filter-ignored:collection.name'] })).obs;
    expect(ignored['collation.normalization'].value, ignored['collation.normalization'].detail).toBeNull();
    expect(ignored['collation.normalization'].detail).toMatch(/not applied/);
    const accents = (await probe({ faults: ['accents-ignored:collection.name'] })).obs;
    expect(accents['collation.normalization'].value, accents['collation.normalization'].detail).toBe('insensitive');
    expect(accents['text.normalization'].value).toBe('kept');
  });

  it('faults show in the observations instead of breaking them', async () => {
    const { obs } = await probe({ faults: ['wrong-key-accepted', 'cap-not-applied'] });
    expect(obs['auth.invalidKeyStatus'].value).toBe(200);
    expect(obs['auth.invalidKeyStatus'].detail).toMatch(/with an array of \d+ record/);
    expect(obs['pagination.maxPageSize'].value).toBe(1200);
    expect(obs['pagination.maxPageSize'].detail).toMatch(/beyond the §8 cap/);
  });
});

describe('an answer no honest reading explains (fitsNoReading)', () => {
  const ex = (status: number | undefined) => ({
    request: { method: 'POST', path: '/api/v1/products/get', body: {} },
    ...(status === undefined ? { transportError: { code: 'ECONNRESET', message: 'reset' } } : { response: { status, headers: {}, body: '{}' } }),
  }) as unknown as Exchange;

  it('a 5xx fits no reading, no answer could not tell, any other status is the probe\'s to classify', () => {
    expect(isNoReading(unusableAnswer(ex(500), 'a get'))).toBe(true);
    expect(unusableAnswer(ex(503), 'a get')?.detail).toMatch(/^fits no reading: a get was answered HTTP 503: a server failure/);
    expect(unusableAnswer(ex(500), 'a get')?.value).toBeNull();
    expect(unusableAnswer(ex(undefined), 'a get', 'ECONNRESET')?.detail).toBe('could not tell: a get got no answer: ECONNRESET');
    expect(isNoReading(unusableAnswer(ex(undefined), 'a get'))).toBe(false);
    for (const status of [200, 400, 404, 422]) expect(unusableAnswer(ex(status), 'a get'), String(status)).toBeUndefined();
  });
});

describe('filters.guidVersion: a refusal of the form told from one of an unknown id', () => {
  // a client answering a get by id with a status chosen by the GUID asked
  const fake = (status: (id: string) => number) => ({
    get: async (_r: unknown, q: { filters: { id: string[] } }) => {
      const code = status(q.filters.id[0]);
      const exchange = { request: { method: 'POST', path: '/api/v1/products/get', body: q }, response: { status: code, headers: {}, body: code < 300 ? '[]' : '{}' } } as unknown as Exchange;
      return { ok: code < 300, value: code < 300 ? [] : undefined, exchange, problem: code < 300 ? undefined : `HTTP ${code}` };
    },
  });
  const run = async (status: (id: string) => number) => {
    const { guidVersionProbe } = await import('../../src/observe/guid-version.js');
    const { Shared } = await import('../../src/observe/shared.js');
    const client = fake(status) as unknown as StoreClient;
    const config = { runTag: 'sc00000000' } as RunConfig;
    return (await guidVersionProbe.run({ client, config, shared: new Shared(client, config), results: {} }))['filters.guidVersion'];
  };
  const MAX = /^f{8}-(f{4}-){3}f{12}$/;

  it("the max GUID taken: 'any'", async () => expect((await run(() => 200)).value).toBe('any'));
  it("the max GUID refused, a version-4 GUID no record has taken: 'version 4'", async () => {
    const o = await run((id) => (MAX.test(id) ? 400 : 200));
    expect(o.value).toBe('version 4');
    expect(o.evidence).toHaveLength(2);
  });
  it('both refused: could not tell (an unknown id may be what is refused, not the form)', async () => {
    const o = await run(() => 404);
    expect(o.value).toBeNull();
    expect(o.detail).toMatch(/^could not tell: .*an unknown id/);
  });
  it('a 5xx fits no reading', async () => expect(isNoReading(await run(() => 500))).toBe(true));
});

describe('filters.unknownPredefinedValue: what a Predefined filter gets for a value no enumeration has', () => {
  // a client whose resources each hold 3 records, answering the filtered get with `status` (per resource) and `records` records
  const fake = (status: (resource: string) => number, records = 0) => ({
    count: async () => ({ ok: true, value: 3, exchange: {} as Exchange }),
    get: async (r: { name: string; prefix: string }, q: unknown) => {
      const code = status(r.name);
      const exchange = { request: { method: 'POST', path: `${r.prefix}/get`, body: q }, response: { status: code, headers: {}, body: code < 300 ? '[]' : '{}' } } as unknown as Exchange;
      const value = code < 300 ? Array.from({ length: records }, (_, i) => ({ id: `r${i}` })) : undefined;
      return { ok: code < 300, value, exchange, problem: code < 300 ? undefined : `HTTP ${code}` };
    },
  });
  const run = async (status: number | ((resource: string) => number), records = 0) => {
    const { unknownPredefinedProbe } = await import('../../src/observe/unknown-predefined.js');
    const { Shared } = await import('../../src/observe/shared.js');
    const client = fake(typeof status === 'number' ? () => status : status, records) as unknown as StoreClient;
    const config = { runTag: 'sc00000000' } as RunConfig;
    return (await unknownPredefinedProbe.run({ client, config, shared: new Shared(client, config), results: {} }))['filters.unknownPredefinedValue'];
  };

  it("refused (400, 422) by every key: 'refused', the first key's answer as evidence", async () => {
    for (const status of [400, 422]) {
      const o = await run(status);
      expect(o.value).toBe('refused');
      expect(o.evidence).toHaveLength(1);
      expect(o.detail).toMatch(/^5 Predefined key\(s\) told: 5 refused/);
    }
  });
  it('one key departing from the others — the first asked among them — is outvoted and named, its answer kept as evidence', async () => {
    const { resources } = await import('../../src/schema/model.js');
    const first = resources().find((r) => r.filters.some((f) => f.valueKind === 'predefined'))!.name;
    const o = await run((name) => (name === first ? 400 : 200));
    expect(o.value).toBe('matches-nothing');
    expect(o.detail).toMatch(/1 refused the value, 4 matched no record; the reading most keys show/);
    expect(o.detail).toContain('departing:');
    expect(o.evidence).toHaveLength(2);
  });
  it('a tie falls back to the first key asked', async () => {
    const { decideUnknownPredefined } = await import('../../src/observe/unknown-predefined.js');
    const t = (where: string, value?: 'refused' | 'matches-nothing') => ({ where, value, said: where, exchange: {} as Exchange });
    expect(decideUnknownPredefined([t('a', 'refused'), t('b', 'matches-nothing'), t('c')])?.value).toBe('refused');
    expect(decideUnknownPredefined([t('a', 'matches-nothing'), t('b', 'refused')])?.value).toBe('matches-nothing');
    expect(decideUnknownPredefined([t('a'), t('b')])).toBeUndefined();
  });
  it("2xx with no record: 'matches-nothing'", async () => expect((await run(200)).value).toBe('matches-nothing'));
  it('2xx with records: could not tell (no record can hold a value no enumeration has)', async () => {
    const o = await run(200, 2);
    expect(o.value).toBeNull();
    expect(o.detail).toMatch(/^could not tell: .*with 2 records/);
  });
  it('a 5xx fits no reading', async () => expect(isNoReading(await run(503))).toBe(true));
});

describe('time.dateTimeRange: one reading from the two cases, before 1970 and after 2038', () => {
  const o = (value: unknown, detail: string): Observation => ({ value, detail, evidence: [] });
  it('alike: that reading, both details said', async () => {
    const { joined } = await import('../../src/observe/timestamp-range.js');
    expect(joined([o('full', 'a'), o('full', 'b')])).toMatchObject({ value: 'full', detail: 'a; b' });
    expect(joined([o('changed', 'a'), o('changed', 'b')]).value).toBe('changed');
  });
  it('one side taken, the other not (a 32-bit time_t, a TIMESTAMP only on one side): could not tell, no reading picked', async () => {
    const { joined } = await import('../../src/observe/timestamp-range.js');
    const got = joined([o('full', 'before 1970 stored'), o('refused', 'after 2038 refused')]);
    expect(got.value).toBeNull();
    expect(got.detail).toMatch(/^could not tell: no one reading — before 1970 stored; after 2038 refused$/);
  });
  it('a case that could not tell (or fits no reading) decides the whole', async () => {
    const { joined } = await import('../../src/observe/timestamp-range.js');
    expect(joined([o('full', 'a'), o(null, 'could not tell: x')]).detail).toBe('could not tell: x');
  });
});
