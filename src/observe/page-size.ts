/**
 * pagination.defaultPageSize and pagination.maxPageSize (§4 "Pagination
 * defaults: not shown"; §8 "at most 1000").
 *
 * On the resource holding the most records (count c):
 *   - a get without pagination returns n records: n < c → the default page size is n;
 *     n = c → only "at least c" is known;
 *   - a get asking pageSize 5000 (1000 if 5000 is refused) returns m: m < c → the
 *     largest page is m; m = c ≥ 1000 → m (above 1000 the §8 cap is not applied);
 *     m = c < 1000 → only "at least c" is known.
 * When a size stays undecided and the run may write, phase 3 (bigSetProbe) makes
 * a resource big enough: it creates collections up to 1001 records (in batches
 * the observed limits.maxDataItems allows, bounded in requests), measures again
 * and deletes them. A read-only run reports null with what is known.
 */
import type { Exchange } from '../client/http.js';
import type { StoreClient } from '../client/api.js';
import type { Observation } from '../report/types.js';
import { GET_CAP, resource, type ResourceModel } from '../schema/model.js';
import { couldNotTell, is2xx, observation, type Probe } from './types.js';
import type { Shared } from './shared.js';

const DEF = 'pagination.defaultPageSize';
const MAX = 'pagination.maxPageSize';
const PENDING = 'page-size.pending';
/** the §8 cap is only visible on more records than this (the schema model's) */
export const CAP = GET_CAP;
/** at most this many create requests to grow a big enough set */
const MAX_CREATES = 120;

interface Sizes {
  def: Observation;
  max: Observation;
  pendingDef: boolean;
  pendingMax: boolean;
}

async function measure(client: StoreClient, r: ResourceModel, count: number, scoped: string): Promise<Sizes> {
  const where = `${r.prefix}/get (${count} records${scoped})`;
  const [d, m5000] = await Promise.all([client.get(r), client.get(r, { pagination: { pageSize: 5000 } })]);
  let def: Observation;
  let pendingDef = false;
  if (!d.ok) def = couldNotTell(`a get without pagination failed: ${d.problem}`, d.exchange);
  else if (d.value!.length < count) def = observation(d.value!.length, `a get without pagination returned ${d.value!.length} of the ${count} records on ${where}`, d.exchange);
  else {
    pendingDef = true;
    def = couldNotTell(`a get without pagination returned all ${count} records on ${where}: the default page size is at least ${count}`, d.exchange);
  }
  let m = m5000;
  let asked = 5000;
  const ex: Exchange[] = [m5000.exchange];
  if (!m5000.ok && !m5000.exchange.transportError && is2xx(m5000.exchange) === false && (m5000.exchange.response?.status ?? 500) < 500) {
    m = await client.get(r, { pagination: { pageSize: CAP } });
    asked = CAP;
    ex.push(m.exchange);
  }
  let max: Observation;
  let pendingMax = false;
  const refused = asked === CAP ? ' (pageSize 5000 was refused)' : '';
  if (!m.ok) max = couldNotTell(`a get with pageSize ${asked} failed: ${m.problem}`, ...ex);
  else {
    const got = m.value!.length;
    if (got < count) max = observation(got, `pageSize ${asked} returned ${got} of the ${count} records on ${where}${refused}`, ...ex);
    else if (count >= CAP) {
      const beyond = got > CAP ? `: every record came back, beyond the §8 cap of ${CAP}` : '';
      max = observation(got, `pageSize ${asked} returned ${got} of the ${count} records on ${where}${refused}${beyond}`, ...ex);
    } else {
      pendingMax = true;
      max = couldNotTell(`pageSize ${asked} returned all ${count} records on ${where}: the largest page is at least ${count}`, ...ex);
    }
  }
  return { def, max, pendingDef, pendingMax };
}

export const pageSizeProbe: Probe = {
  name: 'page sizes',
  keys: [DEF, MAX],
  phase: 1,
  async run({ client, shared, config }) {
    const all = (await shared.byCount(1)).sort((a, b) => b.count - a.count);
    if (!all.length) return { [DEF]: couldNotTell('no resource holds records'), [MAX]: couldNotTell('no resource holds records') };
    const { r, count } = all[0];
    const s = await measure(client, r, count, ', the largest resource');
    shared.notes.set(PENDING, { def: s.pendingDef, max: s.pendingMax });
    const hint = config.readOnly ? ' (a run that may write creates records to decide; this one is --read-only)' : '';
    if (s.pendingDef) s.def.detail += hint;
    if (s.pendingMax) s.max.detail += hint;
    return { [DEF]: s.def, [MAX]: s.max };
  },
};

/** The batch size the target is known to accept, from limits.maxDataItems. */
function batchSize(o: Observation | undefined): number {
  if (!o) return 10;
  if (typeof o.value === 'number' && o.value > 0) return Math.min(o.value, 100);
  return o.value === null && !String(o.detail ?? '').startsWith('could not tell') ? 100 : 10;
}

export const bigSetProbe: Probe = {
  name: 'page sizes on created records',
  keys: [DEF, MAX],
  phase: 3,
  async run({ client, shared, config, results }) {
    const pending = shared.notes.get(PENDING) as { def: boolean; max: boolean } | undefined;
    if (config.readOnly || !pending || (!pending.def && !pending.max)) return {};
    return growAndMeasure(client, shared, batchSize(results['limits.maxDataItems']), pending);
  },
};

async function growAndMeasure(client: StoreClient, shared: Shared, chunk: number, pending: { def: boolean; max: boolean }): Promise<Record<string, Observation>> {
  const r = resource('collection');
  const out: Record<string, Observation> = {};
  const fail = (why: string, ...ex: Exchange[]) => {
    if (pending.def) out[DEF] = couldNotTell(why, ...ex);
    if (pending.max) out[MAX] = couldNotTell(why, ...ex);
    return out;
  };
  const before = await client.count(r);
  if (!before.ok) return fail(`count of ${r.prefix} failed: ${before.problem}`, before.exchange);
  const missing = CAP + 1 - before.value!;
  const requests = Math.ceil(Math.max(0, missing) / chunk);
  if (requests > MAX_CREATES) return fail(`no resource holds enough records, and growing ${r.prefix} to ${CAP + 1} would take ${requests} create requests of ${chunk}`);
  const created: string[] = [];
  try {
    let firstCreate: Exchange | undefined;
    for (let i = 0; i < missing; i += chunk) {
      const n = Math.min(chunk, missing - i);
      const items = Array.from({ length: n }, (_, j) => shared.payload(r, 'bigset', i + j));
      const res = await client.create(r, items);
      firstCreate ??= res.exchange;
      created.push(...(res.value ?? []).map((x) => x?.id).filter((id): id is string => typeof id === 'string'), ...(res.recovered ?? []));
      if (!res.ok) return fail(`creating records to reach ${CAP + 1} ${r.title} records failed: ${res.problem}`, res.exchange);
    }
    const now = await client.count(r);
    if (!now.ok) return fail(`count of ${r.prefix} failed: ${now.problem}`, now.exchange);
    const s = await measure(client, r, now.value!, `, ${created.length} of them created by storecheck for this probe and deleted after`);
    if (pending.def) out[DEF] = s.def;
    if (pending.max) out[MAX] = s.max;
    return out;
  } finally {
    await shared.deleteOwned(r, created, chunk).catch(() => undefined);
  }
}
