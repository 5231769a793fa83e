/**
 * §5.3 "Behavior for a missing or invalid key: not shown", §7 "Error response
 * shape … not shown":
 *   auth.invalidKeyStatus  — HTTP status of a get whose authentication.apiKey is wrong
 *   auth.missingKeyStatus  — HTTP status of a get without an authentication object
 *   errors.shape           — the shape of the wrong-key answer ('json {error:{code,message}}',
 *                            'json {success,message}', 'text', 'html'…), with a sample body
 *   http.contentType       — the content type of a successful get
 */
import { resources } from '../schema/model.js';
import { couldNotTell, observation, statusOf, statusText, type Probe } from './types.js';
import { WRONG_KEY, carriesData, shapeFamily, shapeOf } from './shared.js';
import type { Exchange } from '../client/http.js';

function answered(ex: Exchange): string {
  const data = ex.json !== undefined ? carriesData(ex.json) : undefined;
  return `${statusText(ex)}${data ? ` with ${data}` : ''}`;
}

function sample(ex: Exchange): string {
  const t = ex.response?.text ?? '';
  return t.length > 300 ? `${t.slice(0, 300)}…` : t;
}

export const authProbe: Probe = {
  name: 'authentication errors',
  keys: ['auth.invalidKeyStatus', 'auth.missingKeyStatus', 'errors.shape', 'http.contentType'],
  phase: 1,
  async run({ client, shared }) {
    const r = resources().find((x) => !x.single)!;
    const [wrong, missing, unknown] = await Promise.all([
      client.get(r, { key: { kind: 'other', key: WRONG_KEY } }),
      client.get(r, { key: { kind: 'missing' } }),
      client.raw('/api/v1/storecheck-no-such-resource/get', client.body({})),
    ]);
    const out: Record<string, ReturnType<typeof observation>> = {};
    const w = wrong.exchange;
    const m = missing.exchange;
    out['auth.invalidKeyStatus'] = statusOf(w) === null
      ? couldNotTell(`a get with a wrong key got no answer: ${w.transportError?.message}`, w)
      : observation(statusOf(w), `a get of ${r.prefix} with a wrong authentication.apiKey was answered ${answered(w)}`, w);
    out['auth.missingKeyStatus'] = statusOf(m) === null
      ? couldNotTell(`a get without authentication got no answer: ${m.transportError?.message}`, m)
      : observation(statusOf(m), `a get of ${r.prefix} without an authentication object was answered ${answered(m)}`, m);
    if (statusOf(w) === null) out['errors.shape'] = couldNotTell('the wrong-key get got no answer', w);
    else if (wrong.ok) out['errors.shape'] = couldNotTell(`the wrong-key get was answered ${answered(w)}, not an error`, w);
    else {
      const same = shapeFamily(unknown) === shapeFamily(w) ? 'the same family as' : `unlike (${shapeOf(unknown)})`;
      out['errors.shape'] = observation(shapeOf(w), `a wrong key is answered ${statusText(w)} with ${shapeOf(w)}, ${same} an unknown path (${statusText(unknown)}); sample: ${sample(w)}`, w, unknown);
    }
    try {
      const page = await shared.page(r.name);
      const type = page.exchange.response?.headers['content-type'];
      out['http.contentType'] = type ? observation(type, `a successful get of ${r.prefix} is answered with content-type ${type}`, page.exchange) : couldNotTell('a successful get had no content-type header', page.exchange);
    } catch (e) {
      out['http.contentType'] = couldNotTell((e as Error).message);
    }
    return out;
  },
};
