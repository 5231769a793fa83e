/**
 * The shape write probes share: create records carrying the probe's cases in
 * one request, read them back by id in one get, and delete whatever was
 * created when the probe ends, whatever happened on the way. A probe names
 * the resource and the items; what comes back is the create's outcome
 * (an answer no reading can be taken from, a refusal, or the records as
 * stored), in the order of the items sent.
 */
import type { Rec } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { pollUntil } from '../client/poll.js';
import type { Observation } from '../report/types.js';
import type { ResourceModel } from '../schema/model.js';
import type { Shared } from './shared.js';
import { couldNotTell, is2xx, observation, statusText, unusableAnswer } from './types.js';

export interface Written {
  /** the create request */
  exchange: Exchange;
  /** the observation an answer no reading can be taken from gives (none, a 5xx); undefined otherwise */
  unusable?: Observation;
  /** answered with a 4xx: the store does not take the items */
  refused: boolean;
  /** the ids the create answered (or recovered), in the order of the items */
  ids: string[];
  /** each item's record as a get by id shows it (undefined: not listed) */
  stored: Array<Rec | undefined>;
  /** the read-back, when there was one */
  readBack?: Exchange;
}

/** A probe's write: create the items (one request) and read them back by id (one get). */
export type ProbeWrite = (items: Rec[], what: string) => Promise<Written>;

/** Every exchange of a write, for evidence. */
export const exchangesOf = (w: Written): Exchange[] => (w.readBack ? [w.exchange, w.readBack] : [w.exchange]);

/** Read records back by id in one get, polled until every one is listed (a lagging replica shows them a little later). */
async function readBackAll(shared: Shared, r: ResourceModel, ids: string[]): Promise<{ records: Map<string, Rec>; exchange: Exchange }> {
  const read = async () => {
    const got = await shared.client.get(r, { filters: { id: ids } });
    const records = new Map<string, Rec>();
    for (const x of got.value ?? []) if (x && typeof x.id === 'string') records.set(x.id.toLowerCase(), x);
    return { records, exchange: got.exchange };
  };
  const p = await pollUntil(read, (x) => ids.every((id) => x.records.has(id.toLowerCase())), shared.config.visibilityTimeoutMs);
  return p.result;
}

async function writeAndRead(shared: Shared, r: ResourceModel, items: Rec[], what: string): Promise<Written> {
  const created = await shared.client.create(r, items);
  const exchange = created.exchange;
  const ids = (created.value ?? []).map((x) => x?.id).filter((id): id is string => typeof id === 'string').concat(created.recovered ?? []);
  const unusable = unusableAnswer(exchange, what, created.problem);
  if (unusable) return { exchange, unusable, refused: false, ids, stored: [] };
  if (!is2xx(exchange)) return { exchange, refused: true, ids, stored: [] };
  if (!ids.length) return { exchange, refused: false, ids, stored: items.map(() => undefined) };
  const back = await readBackAll(shared, r, ids);
  return { exchange, refused: false, ids, stored: items.map((_, i) => (ids[i] ? back.records.get(ids[i].toLowerCase()) : undefined)), readBack: back.exchange };
}

/** One case of a probe's create: an answer no reading can be taken from, a refusal of it, or its record as stored. */
export type CaseOutcome =
  | { kind: 'unusable'; observation: Observation }
  | { kind: 'refused'; writes: Written[] }
  | { kind: 'stored'; rec: Rec | undefined; writes: Written[] };

/**
 * The cases of a probe in one create, read back in one get; when the store
 * refuses that create, each case alone tells which it does not take (one
 * create more per case). Outcomes in the order of the cases.
 */
export async function writeCases(write: ProbeWrite, items: Rec[], what: (i?: number) => string): Promise<CaseOutcome[]> {
  const all = await write(items, what());
  if (all.unusable) return items.map(() => ({ kind: 'unusable', observation: all.unusable! }));
  if (!all.refused) return items.map((_, i) => ({ kind: 'stored', rec: all.stored[i], writes: [all] }));
  if (items.length === 1) return [{ kind: 'refused', writes: [all] }];
  const out: CaseOutcome[] = [];
  for (const [i, item] of items.entries()) {
    const alone = await write([item], what(i));
    if (alone.unusable) out.push({ kind: 'unusable', observation: alone.unusable });
    else out.push(alone.refused ? { kind: 'refused', writes: [all, alone] } : { kind: 'stored', rec: alone.stored[0], writes: [all, alone] });
  }
  return out;
}

/**
 * Run a probe's writes on one resource: `body` gets `write(items, what)`,
 * which creates the items and reads them back; every record any write
 * created is deleted when `body` ends, returns or throws.
 */
export async function withProbeWrites<T>(shared: Shared, r: ResourceModel, body: (write: ProbeWrite) => Promise<T>): Promise<T> {
  const ids: string[] = [];
  try {
    return await body(async (items, what) => {
      const w = await writeAndRead(shared, r, items, what);
      ids.push(...w.ids);
      return w;
    });
  } finally {
    if (ids.length) await shared.deleteOwned(r, ids).catch(() => undefined);
  }
}

/**
 * A case's outcome as an observation: an unusable answer as such, a refusal
 * as 'refused', a record read back by `stored` (what its field holds, or
 * undefined when the case is not found by its id).
 */
export function caseObservation(o: CaseOutcome, said: string, where: string, stored: (got: unknown, ev: ReturnType<typeof exchangesOf>) => Observation): Observation {
  if (o.kind === 'unusable') return o.observation;
  const ev = o.writes.flatMap(exchangesOf);
  if (o.kind === 'refused') return observation('refused', `${said} is refused: ${statusText(o.writes[o.writes.length - 1].exchange)}${o.writes.length > 1 ? ' (sent alone, after a create of all the cases was refused)' : ''} (${where})`, ...ev);
  if (!o.rec) return couldNotTell(`${said} was not found by its id (${where})`, ...ev);
  return stored(o.rec, ev);
}
