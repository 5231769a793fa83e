/**
 * filters.dateOnlyBound (src/observe/date-only.ts): the store's reading is the
 * one most DateTime fields show, so one key departing from it is outvoted (the
 * filter checks then fail that key, test/meta/reading-faults.test.ts), while
 * a tie or a single field that tells falls back to the first field asked,
 * saying so. Against the reference server: the default, the whole-day
 * variant, the local fault on the first field asked and its mirror.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StoreClient } from '../../src/client/api.js';
import { Ledger } from '../../src/client/ledger.js';
import type { RunConfig } from '../../src/config.js';
import { DATE_ONLY_FIELDS, dateOnlyBoundProbe, decide, type Told } from '../../src/observe/date-only.js';
import { Shared } from '../../src/observe/shared.js';
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../../reference/server.js';

const KEY = 'date-only-test-key-0123456789';
let open: Array<{ srv: ReferenceServer; client: StoreClient }> = [];
afterEach(async () => {
  for (const { srv, client } of open) {
    await client.close();
    await srv.close();
  }
  open = [];
});

async function probe(opts: ReferenceOptions = {}) {
  const srv = await startReferenceServer({ apiKey: KEY, ...opts });
  const client = new StoreClient({ baseUrl: srv.url, apiKey: KEY, timeoutMs: 10_000, connections: 8, retries: 0, ledger: new Ledger(undefined, 'sc0d0e0001') });
  open.push({ srv, client });
  const config = { runTag: 'sc0d0e0001' } as RunConfig;
  srv.stats.reset();
  const o = (await dateOnlyBoundProbe.run({ client, config, shared: new Shared(client, config), results: {} }))['filters.dateOnlyBound'];
  return { o, gets: srv.stats.byOperation.get ?? 0 };
}

/** The fields the detail says read each way. */
const readAs = (detail: string, how: string) => new RegExp(`(\\d+) ${how}(?: \\(([^)]*)\\))?`).exec(detail);

describe('filters.dateOnlyBound against the reference server', () => {
  it('the default server: midnight, every field asked agreeing; two filtered gets per field', async () => {
    const { o, gets } = await probe();
    expect(o.value, o.detail).toBe('midnight');
    expect(o.detail).toMatch(new RegExp(`^${DATE_ONLY_FIELDS} DateTime field\\(s\\) told: ${DATE_ONLY_FIELDS} read a date-only bound as the day's midnight`));
    expect(readAs(o.detail!, 'as the whole day')?.[1]).toBe('0');
    // a default page of each of the 5 resources asked (file, holding the cap, goes last and is not needed), two gets per field
    expect(gets).toBe(DATE_ONLY_FIELDS + 2 * DATE_ONLY_FIELDS);
    expect(o.evidence).toHaveLength(2);
  });

  it('the whole-day variant: the whole day, every field agreeing', async () => {
    const { o } = await probe({ variant: 'date-only-whole-day' });
    expect(o.value, o.detail).toBe('whole day');
    expect(readAs(o.detail!, "read a date-only bound as the day's midnight")?.[1]).toBe('0');
  });

  it('order createdon_max reading the whole day on a midnight store: outvoted, named as departing', async () => {
    const { o } = await probe({ faults: ['date-only-whole-day:order.createdon_max'] });
    expect(o.value, o.detail).toBe('midnight');
    expect(readAs(o.detail!, 'as the whole day')?.slice(1)).toEqual(['1', 'order createdon']);
    expect(o.detail).toMatch(/departing: order createdon: \{createdon_max: '[0-9-]{10}'\} returned a record of /);
    // the first field agreeing with the majority, then the departing one's pair
    expect(o.evidence).toHaveLength(4);
    expect(o.evidence?.[2].request.url).toMatch(/\/api\/v1\/orders\/get$/);
  });

  it('the mirror: order createdon_max reading midnight on a whole-day store, outvoted', async () => {
    const { o } = await probe({ faults: ['order-createdon-max-midnight'] });
    expect(o.value, o.detail).toBe('whole day');
    expect(readAs(o.detail!, "read a date-only bound as the day's midnight")?.slice(1)).toEqual(['1', 'order createdon']);
  });

  it('a date-only bound refused on every key: could not tell, saying it was not accepted', async () => {
    const { o } = await probe({ faults: ['date-only-bound-rejected'] });
    expect(o.value).toBeNull();
    expect(o.detail).toMatch(/^could not tell: a date-only bound on \/api\/v1\/[a-z/]+ [a-z]+ was not accepted/);
  });
});

describe('decide: the majority, a tie or a single field falling back to the first', () => {
  const told = (where: string, value?: 'midnight' | 'whole day'): Told => ({ where, value, said: `${where} said`, exchanges: [] });

  it('the majority wins over the first field asked, and the others are departing', () => {
    const got = decide([told('a', 'whole day'), told('b', 'midnight'), told('c', 'midnight')])!;
    expect(got.value).toBe('midnight');
    expect(got.departing.map((t) => t.where)).toEqual(['a']);
    expect(got.how).toMatch(/3 DateTime field\(s\) told: 2 .*midnight \(b, c\), 1 as the whole day \(a\); the reading most fields show$/);
  });
  it('a tie: the first field that tells decides, and the detail says so', () => {
    const got = decide([told('x'), told('a', 'whole day'), told('b', 'midnight')])!;
    expect(got.value).toBe('whole day');
    expect(got.how).toMatch(/a tie: the first field asked \(a\) decides$/);
  });
  it('one field telling: its reading, said to stand alone; none: undefined', () => {
    const got = decide([told('x'), told('a', 'midnight')])!;
    expect(got.value).toBe('midnight');
    expect(got.how).toMatch(/only one field could tell: its reading \(a\) stands$/);
    expect(decide([told('x'), told('y')])).toBeUndefined();
  });
});
