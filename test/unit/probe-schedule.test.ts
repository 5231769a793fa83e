/**
 * The probes' schedule (src/observe/schedule.ts): reading and writing probes
 * side by side, each resource read or written by one side at a time. A fake
 * client records when each request was sent; the probes are small scripts.
 */
import { describe, expect, it } from 'vitest';
import type { StoreClient } from '../../src/client/api.js';
import { ProbeSchedule } from '../../src/observe/schedule.js';
import type { Shared } from '../../src/observe/shared.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A client whose every call is logged, answered at once. */
function fakeClient(log: string[]): StoreClient {
  const call = (op: string) => async (res: unknown) => {
    log.push(`${op} ${typeof res === 'string' ? res : (res as { name: string }).name}`);
    return { ok: true, value: [] };
  };
  return {
    get: call('get'), count: call('count'), create: call('create'), update: call('update'), delete: call('delete'),
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
