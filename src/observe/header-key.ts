/**
 * auth.headerKeyAccepted — §5.1 puts the key in the body ("No header or query
 * parameter carries it"). Does the target also accept it from a header alone?
 * A get with no authentication object in the body and the key in
 * `Authorization: Bearer …`, then in `X-Api-Key`. true when either answers
 * 2xx with a records array. An observation, not a failure: the spec does not
 * say a header key must be refused.
 *
 * The two requests go through the run's client (its pool, --concurrency,
 * --max-rps, stop) with the key in a header only; headers are not recorded
 * and the answers are redacted like every other exchange.
 */
import type { Exchange } from '../client/http.js';
import { resources } from '../schema/model.js';
import { couldNotTell, observation, statusText, type Probe } from './types.js';

const KEY = 'auth.headerKeyAccepted';

export const headerKeyProbe: Probe = {
  name: 'key in a header',
  keys: [KEY],
  phase: 1,
  async run({ client, config }) {
    const r = resources().find((x) => !x.single)!;
    const path = `${r.prefix}/get`;
    const send = (header: string, value: string): Promise<Exchange> => client.raw(path, {}, { retryable: true, headers: { [header]: value } });
    const bearer = await send('authorization', `Bearer ${config.apiKey}`);
    const xApiKey = await send('x-api-key', config.apiKey);
    const accepted = (ex: Exchange) => !!ex.response && ex.response.status >= 200 && ex.response.status < 300 && Array.isArray(ex.json);
    if (!bearer.response && !xApiKey.response) return { [KEY]: couldNotTell('neither header request got an answer', bearer, xApiKey) };
    const which = [accepted(bearer) ? 'Authorization: Bearer' : '', accepted(xApiKey) ? 'X-Api-Key' : ''].filter(Boolean);
    const value = which.length > 0;
    const detail = value
      ? `a get of ${r.prefix} with no key in the body and the key in ${which.join(' / ')} was served (§5.1 puts the key in the body only)`
      : `a get of ${r.prefix} with the key only in a header is refused (Authorization: Bearer → ${statusText(bearer)}, X-Api-Key → ${statusText(xApiKey)})`;
    return { [KEY]: observation(value, detail, bearer, xApiKey) };
  },
};
