/**
 * auth.headerKeyAccepted — §5.1 puts the key in the body ("No header or query
 * parameter carries it"). Does the target also accept it from a header alone?
 * A get with no authentication object in the body and the key in
 * `Authorization: Bearer …`, then in `X-Api-Key`. true when either answers
 * 2xx with a records array. An observation, not a failure: the spec does not
 * say a header key must be refused.
 *
 * The client never sends headers of its own choosing, so this probe makes its
 * two requests with undici directly; the key is in the headers only (not
 * recorded) and the answers are redacted like every other exchange.
 */
import { Agent, request } from 'undici';
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
    const url = client.http.url(path);
    const agent = new Agent({ connections: 2, connect: { rejectUnauthorized: !config.insecure, timeout: config.timeoutMs } });
    const send = async (header: string, value: string): Promise<Exchange> => {
      const ex: Exchange = { request: { method: 'POST', url, path, body: {} }, attempts: 1, durationMs: 0 };
      const started = performance.now();
      // counted with the client's requests, so the run's request count stays honest
      client.http.stats.requests++;
      client.http.stats.byOperation.get = (client.http.stats.byOperation.get ?? 0) + 1;
      try {
        const res = await request(url, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json', [header]: value },
          body: '{}',
          headersTimeout: config.timeoutMs,
          bodyTimeout: config.timeoutMs,
        });
        const text = client.redactor.text(await res.body.text());
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
        ex.response = { status: res.statusCode, headers, text };
        try {
          ex.json = JSON.parse(text);
        } catch {
          ex.parseError = 'not JSON';
        }
      } catch (e) {
        ex.transportError = { code: (e as { code?: string }).code ?? 'ERR_TRANSPORT', message: (e as Error).message };
      }
      ex.durationMs = performance.now() - started;
      for (const listener of client.http.listeners) listener(ex);
      return ex;
    };
    try {
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
    } finally {
      await agent.close().catch(() => undefined);
    }
  },
};
