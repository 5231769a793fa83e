/**
 * The probes' schedule (src/observe/schedule.ts): reading and writing probes
 * side by side, each resource read or written by one side at a time. A fake
 * client records when each request was sent; the probes are small scripts.
 * Then the real probes against the reference server: no write on a resource
 * while a reading probe that read it runs, and the two sides overlap.
 */
import { describe, expect, it } from 'vitest';
import { StoreClient } from '../../src/client/api.js';
import { Ledger } from '../../src/client/ledger.js';
import type { RunConfig } from '../../src/config.js';
import { PROBES, probeObservations, type Probe } from '../../src/observe/index.js';
import { ProbeSchedule } from '../../src/observe/schedule.js';
import type { Shared } from '../../src/observe/shared.js';
import { startReferenceServer } from '../../reference/server.js';

const KEY = 'probe-schedule-key-0123456789';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A client whose every call is logged, answered at once. */
function fakeClient(log: string[]): StoreClient {
  const call = (op: string) => async (res: unknown) => {
    log.push(`${op} ${typeof res === 'string' ? res : (res as { name: string }).name}`);
    return { ok: true, value: [] };
  };
  return {
    get: call('get'), count: call('count'), byIds: call('byIds'), create: call('create'), update: call('update'), delete: call('delete'),
    raw: async (path: string) => { log.push(`raw ${path}`); return {}; },
  } as unknown as StoreClient;
}

/** A probe's end, settled when `done()` is called. */
function probeEnd(): { end: Promise<void>; done: () => void } {
  let done!: () => void;
  const end = new Promise<void>((resolve) => (done = resolve));
  return { end, done };
}

describe('reading and writing probes side by side', () => {
  it('a write waits for the reading probe holding its resource, not for one holding another', async () => {
    const log: string[] = [];
    const s = new ProbeSchedule(Promise.resolve());
    const reader = probeEnd();
    const onCollection = probeEnd();
    const onCoupon = probeEnd();
    await s.client(fakeClient(log), 'read', reader.end).get('collection');
    const writes = [
      s.client(fakeClient(log), 'write', onCollection.end).create('collection', []),
      s.client(fakeClient(log), 'write', onCoupon.end).create('coupon', []),
    ];
    await writes[1];
    for (let i = 0; i < 5; i++) await tick();
    expect(log).toEqual(['get collection', 'create coupon']);
    reader.done();
    await writes[0];
    expect(log).toEqual(['get collection', 'create coupon', 'create collection']);
  });

  it('a read by ids claims the resource as a get does', async () => {
    const log: string[] = [];
    const s = new ProbeSchedule(Promise.resolve());
    const writer = probeEnd();
    await s.client(fakeClient(log), 'write', writer.end).create('collection', []);
    const late = s.client(fakeClient(log), 'read', probeEnd().end).byIds('collection', ['x']);
    for (let i = 0; i < 5; i++) await tick();
    expect(log).toEqual(['create collection']);
    writer.done();
    await late;
    expect(log).toEqual(['create collection', 'byIds collection']);
  });

  it('a read of a resource a writing probe holds waits for that probe to end; reads of others do not', async () => {
    const log: string[] = [];
    const s = new ProbeSchedule(Promise.resolve());
    const writer = probeEnd();
    await s.client(fakeClient(log), 'write', writer.end).create('collection', []);
    const reader = s.client(fakeClient(log), 'read', probeEnd().end);
    const late = reader.get('collection');
    await reader.count('order');
    for (let i = 0; i < 5; i++) await tick();
    expect(log).toEqual(['create collection', 'count order']);
    writer.done();
    await late;
    expect(log).toEqual(['create collection', 'count order', 'get collection']);
  });

  it('no write before the reading probes have chosen (writesMayBegin), and a probe\'s own later writes wait with its first', async () => {
    const log: string[] = [];
    let begin!: () => void;
    const s = new ProbeSchedule(new Promise<void>((resolve) => (begin = resolve)));
    const w = s.client(fakeClient(log), 'write', probeEnd().end);
    const both = Promise.all([w.delete('collection', []), w.update('collection', [])]);
    await s.client(fakeClient(log), 'read', probeEnd().end).get('order');
    for (let i = 0; i < 5; i++) await tick();
    expect(log).toEqual(['get order']);
    begin();
    await both;
    expect(log.slice(1).sort()).toEqual(['delete collection', 'update collection']);
  });

  it('a raw write claims the resource of its path; a raw read claims nothing', async () => {
    const log: string[] = [];
    const s = new ProbeSchedule(Promise.resolve());
    const reader = probeEnd();
    await s.client(fakeClient(log), 'read', reader.end).get('order');
    const raw = s.client(fakeClient(log), 'write', probeEnd().end).raw('/api/v1/orders/create', {});
    await s.client(fakeClient(log), 'write', probeEnd().end).raw('/api/v1/orders/get', {});
    for (let i = 0; i < 5; i++) await tick();
    expect(log).toEqual(['get order', 'raw /api/v1/orders/get']);
    reader.done();
    await raw;
    expect(log).toEqual(['get order', 'raw /api/v1/orders/get', 'raw /api/v1/orders/create']);
  });

  it('a writing probe that writes a second resource is refused (it could wait for readers that wait for it)', async () => {
    const log: string[] = [];
    const w = new ProbeSchedule(Promise.resolve()).client(fakeClient(log), 'write', probeEnd().end);
    await w.create('collection', []);
    await expect(w.create('coupon', [])).rejects.toThrow(/writes one resource/);
    expect(log).toEqual(['create collection']);
  });

  it("a reading probe's shared page holds the resource, its counts do not", async () => {
    const log: string[] = [];
    const s = new ProbeSchedule(Promise.resolve());
    const inner = fakeClient(log);
    const shared = {
      client: inner,
      page(this: Shared, name: string) { return this.client.get(name); },
      count(name: string) { log.push(`shared count ${name}`); return Promise.resolve(1); },
      counts() { return Promise.resolve(new Map()); },
    } as unknown as Shared;
    const reader = probeEnd();
    const client = s.client(inner, 'read', reader.end);
    const view = s.shared(shared, client, 'read', reader.end);
    await view.count('collection');
    await view.page('coupon');
    const writes = [s.client(inner, 'write', probeEnd().end).create('collection', []), s.client(inner, 'write', probeEnd().end).create('coupon', [])];
    await writes[0];
    for (let i = 0; i < 5; i++) await tick();
    expect(log).toEqual(['shared count collection', 'get coupon', 'create collection']);
    reader.done();
    await writes[1];
    expect(log.at(-1)).toBe('create coupon');
  });
});

/** How long each reading probe holds on after its last request (recording()). */
const HOLD_MS = 400;

/** When each probe called the client for what, and when the probe ended. */
interface Touch { probe: string; side: 'read' | 'write'; resource: string; at: number }

const WRITES = new Set(['create', 'update', 'delete']);

/** A client whose get, count and writes say when they were answered. */
function recordingClient(client: StoreClient, probe: string, touches: Touch[]): StoreClient {
  return new Proxy(client, {
    get: (target, prop, receiver) => {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      if (!['get', 'count', ...WRITES].includes(String(prop))) return (v as (...a: unknown[]) => unknown).bind(target);
      return async (res: unknown, ...rest: unknown[]) => {
        const out = await (v as (...a: unknown[]) => Promise<unknown>).call(target, res, ...rest);
        // a call's time: when its answer came (a read is judged on what the store held then)
        touches.push({ probe, side: WRITES.has(String(prop)) ? 'write' : 'read', resource: typeof res === 'string' ? res : (res as { name: string }).name, at: performance.now() });
        return out;
      };
    },
  });
}

/** The probes, each recording its calls (through the schedule's client) and when it ended. */
function recording(probes: readonly Probe[], touches: Touch[], ends: Map<string, number>): Probe[] {
  return probes.map((p) => ({
    ...p,
    async run(ctx) {
      const client = recordingClient(ctx.client, p.name, touches);
      const shared = new Proxy(ctx.shared, { get: (t, prop, receiver) => (prop === 'client' ? client : Reflect.get(t, prop, receiver)) });
      try {
        const out = await p.run({ ...ctx, client, shared });
        // a reading probe holds what it read a little longer than its requests take: a write that does
        // not wait for it lands inside, whatever the machine's speed
        if (p.phase === 1) await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
        return out;
      } finally {
        ends.set(p.name, performance.now());
      }
    },
  }));
}

/** Writes answered while a reading probe held their resource: from its first read's answer to its end. */
function clashes(touches: Touch[], ends: Map<string, number>): string[] {
  const reading = (t: Touch) => t.side === 'read' && PROBES.find((p) => p.name === t.probe)?.phase === 1;
  const held = new Map<string, { probe: string; resource: string; from: number; to: number }>();
  for (const t of touches.filter(reading)) {
    const k = `${t.probe} ${t.resource}`;
    held.set(k, { probe: t.probe, resource: t.resource, from: Math.min(held.get(k)?.from ?? Infinity, t.at), to: ends.get(t.probe)! });
  }
  return touches.filter((t) => t.side === 'write').flatMap((w) => [...held.values()]
    .filter((h) => h.resource === w.resource && w.at > h.from && w.at < h.to)
    .map((h) => `${w.probe} wrote ${w.resource} while ${h.probe} read it`));
}

describe('the probes against the reference server', () => {
  it("no probe writes a resource between a reading probe's first read of it and that probe's end, and reads and writes overlap", async () => {
    const srv = await startReferenceServer({ apiKey: KEY, transport: { latencyMs: 5 } });
    const client = new StoreClient({ baseUrl: srv.url, apiKey: KEY, timeoutMs: 10_000, connections: 24, retries: 0, ledger: new Ledger(undefined, 'sc0bse0002') });
    try {
      const touches: Touch[] = [];
      const ends = new Map<string, number>();
      const config = {
        baseUrl: srv.url, apiKey: KEY, embedded: true, reportDir: '/tmp', ledgerFile: '/tmp/unused', runTag: 'sc0bse0002', seed: 1,
        depth: 'quick', readOnly: false, concurrency: 24, workers: 1, timeoutMs: 10_000, maxRps: 0, insecure: false,
        deadlineMs: 60_000, visibilityTimeoutMs: 5_000, maxAnswerBytes: 32 * 1024 * 1024, shrinkMs: 60_000,
      } satisfies RunConfig;
      await probeObservations(client, config, recording(PROBES.filter((p) => p.phase !== 3), touches, ends));
      expect(clashes(touches, ends)).toEqual([]);
      // side by side: some write was answered before the last reading probe ended
      const lastRead = Math.max(...[...ends].filter(([name]) => PROBES.find((p) => p.name === name)?.phase === 1).map(([, at]) => at));
      expect(touches.some((t) => t.side === 'write' && t.at < lastRead)).toBe(true);
    } finally {
      await client.close();
      await srv.close();
    }
  });
});
