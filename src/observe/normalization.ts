/**
 * text.normalization, collation.normalization — what a store does with a
 * String written in one Unicode normalization form when the other is asked
 * (§2 says nothing of normalization; UAX #15: e + U+0301 and the precomposed
 * é are canonically equivalent).
 *
 * Rides in the stored-text probe's creates (one collection more, created
 * beside the other two, deleted with them): a name holding 'Cafe' + U+0301,
 * then two gets side by side by the name filter —
 *   as sent    {name: [the name as sent]}       control
 *   other form {name: [the name NFC-normalized]} found: canonical equivalents compare equal
 * The record either get returns shows how it was stored: as sent ('kept':
 * databases store the code points they are given; PHP, .NET and Node do not
 * normalize request strings by default), or NFC ('nfc': a stack normalizing
 * its input). On a store that stores NFC the control is the other form, and
 * the name as sent finding the record says its filter values are normalized too.
 */
import type { Rec, StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { pollUntil } from '../client/poll.js';
import type { Observation } from '../report/types.js';
import type { PayloadPropModel, ResourceModel } from '../schema/model.js';
import { looseText } from '../values/index.js';
import type { Shared } from './shared.js';
import { couldNotTell, is2xx, observation, statusText, unusableAnswer } from './types.js';

export const STORE = 'text.normalization';
export const COMPARE = 'collation.normalization';

/** The decomposed sequence the probe writes: e + U+0301 (COMBINING ACUTE ACCENT). */
const DECOMPOSED = 'Cafe\u0301';

type Got = Awaited<ReturnType<StoreClient['get']>>;

/** The record of `id` in a get's answer, if it lists it. */
const recordIn = (got: Got, id: string): Rec | undefined => (got.value ?? []).find((x) => String(x?.id).toLowerCase() === id.toLowerCase());

/**
 * The two gets by the name filter, side by side, polled until one lists the record (a lagging replica
 * shows it later); the one that did not list it is asked once more, after: two requests side by side
 * can straddle the moment a lagging replica shows the write, and only a get sent once the record was
 * seen says the filter does not find it.
 */
async function findBoth(client: StoreClient, shared: Shared, r: ResourceModel, key: string, values: [string, string], id: string): Promise<[Got, Got]> {
  const one = (v: string) => client.get(r, { filters: { [key]: [v] } });
  const read = () => Promise.all(values.map(one)) as Promise<[Got, Got]>;
  const got = (await pollUntil(read, (x) => x.some((g) => !!recordIn(g, id)), shared.config.visibilityTimeoutMs)).result;
  const missing = got.findIndex((g) => !recordIn(g, id));
  if (missing >= 0 && got.some((g) => !!recordIn(g, id))) got[missing] = await one(values[missing]);
  return got;
}

const pathOf = (ev: Exchange[]) => ev[ev.length - 1].request.path;

/** A get listing a record whose field no collation equates with the value asked: the filter was not applied. */
const unfiltered = (g: Got, field: string, asked: string) => (g.value ?? []).some((x) => typeof x?.[field] !== 'string' || looseText(x[field]) !== looseText(asked));

/** The two observations from the record as stored and what each get found. */
function judge(sent: string, nfc: string, field: string, key: string, [asSent, asNfc]: [Got, Got], id: string, ev: Exchange[]): Record<string, Observation> {
  const both = (o: Observation) => ({ [STORE]: o, [COMPARE]: o });
  for (const g of [asSent, asNfc]) if (!g.ok) return both(couldNotTell(`a get by ${key} failed: ${g.problem}`, ...ev));
  if (unfiltered(asSent, field, sent) || unfiltered(asNfc, field, nfc)) return both(couldNotTell(`a get by ${key} listed records whose ${field} is another value: the filter was not applied`, ...ev));
  const rec = recordIn(asSent, id) ?? recordIn(asNfc, id);
  if (!rec) return both(couldNotTell(`neither {${key}: [the ${field} as sent]} nor {${key}: [it NFC-normalized]} lists the record created with ${JSON.stringify(sent)}`, ...ev));
  const stored = rec[field];
  const form = stored === sent ? 'kept' : stored === nfc ? 'nfc' : undefined;
  if (!form) return both(couldNotTell(`a ${field} holding e + U+0301, ${JSON.stringify(sent)}, was stored as ${JSON.stringify(stored)}: neither as sent nor NFC-normalized`, ...ev));
  const storedSaid = form === 'kept' ? 'stored as sent (e + U+0301)' : `stored NFC-normalized (é, U+00E9): ${JSON.stringify(stored)}`;
  // the control: the form stored; the other form finding the record says canonical equivalents are one value
  const [control, other] = form === 'kept' ? [asSent, asNfc] : [asNfc, asSent];
  const otherSaid = form === 'kept' ? 'the precomposed form (é)' : 'the form sent (e + U+0301)';
  const storeObs = observation(form, `a ${field} holding e + U+0301, ${JSON.stringify(sent)}, is ${storedSaid} (${ev[0].request.path})`, ...ev);
  if (!recordIn(control, id)) return { [STORE]: storeObs, [COMPARE]: couldNotTell(`{${key}: [the ${field} as stored]} did not list the record`, ...ev) };
  const found = !!recordIn(other, id);
  return {
    [STORE]: storeObs,
    [COMPARE]: observation(found ? 'insensitive' : 'sensitive', `{${key}: [the ${field} in ${otherSaid}]} ${found ? 'finds' : 'does not find'} the record whose ${field} is ${storedSaid}: canonical equivalents ${found ? 'compare equal' : 'are told apart'} (${pathOf(ev)})`, ...ev),
  };
}

/**
 * Create one record of `res` whose `prop` holds a combining sequence and find
 * it by its filter in both normalization forms; the ids created are pushed to
 * `ids` (the caller deletes them).
 */
export async function normalizationOf(client: StoreClient, shared: Shared, res: ResourceModel, prop: PayloadPropModel, ids: string[]): Promise<Record<string, Observation>> {
  const field = prop.recordField ?? prop.name;
  const both = (o: Observation) => ({ [STORE]: o, [COMPARE]: o });
  const key = res.filters.find((f) => f.filter === 'array' && f.valueKind === 'string' && f.field === field && !f.aliasOf)?.key;
  if (!key) return both(couldNotTell(`${res.title} has no String array filter on ${field}`));
  const sent = `${shared.label('text', 2)} ${DECOMPOSED}`;
  const nfc = sent.normalize('NFC');
  const created = await client.create(res, [shared.payload(res, 'text', 2, { [prop.name]: sent })]);
  ids.push(...(created.value ?? []).map((x) => x?.id).filter((x): x is string => typeof x === 'string'), ...(created.recovered ?? []));
  const what = 'a create of a name holding e + U+0301';
  const unusable = unusableAnswer(created.exchange, what, created.problem);
  if (unusable) return both(unusable);
  if (!is2xx(created.exchange)) return both(couldNotTell(`${what} was refused: ${statusText(created.exchange)}`, created.exchange));
  const id = (created.value ?? []).map((x) => x?.id).find((x): x is string => typeof x === 'string') ?? created.recovered?.[0];
  if (!id) return both(couldNotTell(`${what} was answered ${statusText(created.exchange)} without a record id`, created.exchange));
  const gets = await findBoth(client, shared, res, key, [sent, nfc], id);
  return judge(sent, nfc, field, key, gets, id, [created.exchange, ...gets.map((g) => g.exchange)]);
}
