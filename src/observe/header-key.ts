/**
 * auth.headerKeyAccepted — §5.1 puts the key in the body ("No header or query
 * parameter carries it"). Does the target also accept it from a header alone?
 * A get with no authentication object in the body and the key in
 * `Authorization: Bearer …`, then in `X-Api-Key`. true when either answers
 * 2xx with a records array. An observation, not a failure: the spec does not
 * say a header key must be refused.
 *
 * The same requests (keyInHeaders) tell the preflight whether a target that
 * refused the key in the body takes it only from a header (src/run/preflight.ts):
 * then no check can run, and that is the verdict.
 *
 * The requests go through the run's client (its pool, --concurrency,
 * --max-rps, stop) with the key in a header only; headers are not recorded
 * and the answers are redacted like every other exchange.
 */
import type { StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { resources } from '../schema/model.js';
import { couldNotTell, observation, statusText, type Probe } from './types.js';

const KEY = 'auth.headerKeyAccepted';

/** The headers a key might be read from instead of the body, as the help and messages name them. */
export const KEY_HEADERS = [
  { name: 'Authorization: Bearer', header: 'authorization', value: (key: string) => `Bearer ${key}` },
  { name: 'X-Api-Key', header: 'x-api-key', value: (key: string) => key },
] as const;

export interface HeaderTry {
  /** the request header that carried the key */
  header: (typeof KEY_HEADERS)[number]['header'];
  name: (typeof KEY_HEADERS)[number]['name'];
  exchange: Exchange;
  /** the answer is what `served` looks for: the target took the key from this header */
  served: boolean;
}

/**
 * A request of `path` with the key in each header of KEY_HEADERS in turn (none
 * in the body); `untilServed`: stop at the first the target serves.
 */
export async function keyInHeaders(client: StoreClient, path: string, served: (ex: Exchange) => boolean, opts: { untilServed?: boolean } = {}): Promise<HeaderTry[]> {
  const tries: HeaderTry[] = [];
  for (const { name, header, value } of KEY_HEADERS) {
    const exchange = await client.keyInHeader(path, header, value);
    tries.push({ name, header, exchange, served: served(exchange) });
    if (opts.untilServed && tries.at(-1)!.served) break;
  }
  return tries;
}

/** A 2xx answer whose JSON `is` what the operation answers. */
export function answered2xx(is: (json: unknown) => boolean): (ex: Exchange) => boolean {
  return (ex) => !!ex.response && ex.response.status >= 200 && ex.response.status < 300 && is(ex.json);
}

export const headerKeyProbe: Probe = {
  name: 'key in a header',
  keys: [KEY],
  phase: 1,
  async run({ client }) {
    const r = resources().find((x) => !x.single)!;
    const tries = await keyInHeaders(client, `${r.prefix}/get`, answered2xx(Array.isArray));
    if (tries.every((t) => !t.exchange.response)) return { [KEY]: couldNotTell('neither header request got an answer', ...tries.map((t) => t.exchange)) };
    const which = tries.filter((t) => t.served).map((t) => t.name);
    const value = which.length > 0;
    const detail = value
      ? `a get of ${r.prefix} with no key in the body and the key in ${which.join(' / ')} was served (§5.1 puts the key in the body only)`
      : `a get of ${r.prefix} with the key only in a header is refused (${tries.map((t) => `${t.name} → ${statusText(t.exchange)}`).join(', ')})`;
    return { [KEY]: observation(value, detail, ...tries.map((t) => t.exchange)) };
  },
};
