/**
 * The preflight: before anything else, one store get. Can the target be
 * reached, is it the API, does it take the key? A run that cannot go on ends
 * here with a reason and an exit code (its report says why): unreachable,
 * failing or not the API → no verdict (3); the key refused → usage (2); the key
 * taken only from a header → non-conformant (1: every operation of the spec
 * fails for a conformant client; the one failed check says so).
 */
import type { StoreClient } from '../client/api.js';
import { apiUrl, type Exchange } from '../client/http.js';
import { STORE_GET_PATH } from '../client/redact.js';
import type { RunConfig } from '../config.js';
import { EXIT, type ExitCode } from '../exit.js';
import { answered2xx, keyInHeaders, type HeaderTry } from '../observe/header-key.js';
import type { CheckResult } from '../report/types.js';

/** How a run ends at its preflight. */
export type PreflightEnd =
  /** no check can run: the reason, and the store get that showed it */
  | { kind: 'stopped'; exitCode: ExitCode; reason: string; exchange: Exchange }
  /** the key works in a header only: the verdict, one failed check */
  | { kind: 'header-only'; exitCode: ExitCode; check: CheckResult };

/** undefined: the run goes on (or was stopped meanwhile: the stop decides then). */
export async function preflight(client: StoreClient, config: Pick<RunConfig, 'baseUrl'>, stopped: () => boolean): Promise<PreflightEnd | undefined> {
  const pre = await client.store();
  if (stopped()) return undefined;
  const stop = (exitCode: ExitCode, reason: string): PreflightEnd => ({ kind: 'stopped', exitCode, reason, exchange: pre.exchange });
  if (pre.exchange.transportError) {
    const { code, message } = pre.exchange.transportError;
    return stop(EXIT.noVerdict, `cannot reach ${config.baseUrl}: ${message} (${code})`);
  }
  const status = pre.exchange.response!.status;
  if (status === 401 || status === 403) {
    // a wrong key, or a target that reads the key from a header instead of the body (§5.1)?
    const tries = await keyInHeaders(client, STORE_GET_PATH, answered2xx(isObject), { untilServed: true });
    const found = tries.find((t) => t.served);
    if (found) return { kind: 'header-only', exitCode: EXIT.nonConformant, check: headerOnlyCheck(pre.exchange, found) };
    return stop(EXIT.usage, `the target rejected the API key (HTTP ${status} on ${apiUrl(config.baseUrl, STORE_GET_PATH)}): check --api-key / STORE_API_KEY`);
  }
  if (status >= 500) return stop(EXIT.noVerdict, `the target fails: HTTP ${status} on store get (after ${pre.exchange.attempts} attempt(s))${rootHint(pre.exchange)}`);
  // asked again before stopping: a flaky target answers an HTML error page now and then, a wrong one always
  let wrong = notTheApi(config.baseUrl, pre.exchange);
  for (let again = 0; wrong && again < 2; again++) {
    const retry = await client.store();
    wrong = retry.exchange.transportError ? wrong : notTheApi(config.baseUrl, retry.exchange);
  }
  return wrong ? stop(EXIT.noVerdict, wrong) : undefined;
}

const isObject = (json: unknown): boolean => !!json && typeof json === 'object' && !Array.isArray(json);

/**
 * Is the target the API at all? A redirect is never followed (the key would
 * travel to another URL); an HTML page, a body that is not JSON or a 404 to
 * the store get means --base-url is not the API root: no verdict, and a hint,
 * instead of hundreds of failures. JSON of the wrong shape is the API
 * answering wrongly, and is judged by the checks.
 */
export function notTheApi(baseUrl: string, ex: Exchange): string | undefined {
  const status = ex.response?.status ?? 0;
  const type = String(ex.response?.headers['content-type'] ?? '');
  const at = apiUrl(baseUrl, STORE_GET_PATH);
  if (status >= 300 && status < 400) {
    const to = ex.response?.headers.location;
    return `${at} answered a redirect (HTTP ${status}${to ? ` to ${to}` : ''}); storecheck never follows one (the key would travel with it): give the final API root as --base-url`;
  }
  if (status === 404) return `${at} answered 404: is --base-url the API root (the URL before /api/v1)?`;
  // a JSON error of another status is the API answering: the checks judge it; an HTML error page is not the API
  if (status >= 400 && /html/i.test(type)) return `${at} answered HTTP ${status} with an HTML page: is --base-url the API root (the URL before /api/v1)?`;
  if (ex.response?.truncated) {
    return `${at} answered too large to judge (${ex.parseError ?? 'cut'}): is --base-url the API root? (if the store record really is that large, raise --max-answer-mb)`;
  }
  // JSON of another shape is the API answering wrongly: the checks judge it (store.single-object)
  if (status >= 200 && status < 300 && (ex.parseError || /html/i.test(type)) && ex.json === undefined) {
    const what = /html/i.test(type) ? 'an HTML page' : `a body that is not JSON (${type || 'no content type'})`;
    return `${at} answered ${what}: is --base-url the API root? it answered ${type || 'no content type'}`;
  }
  return undefined;
}

/** A 5xx that says the path is not there (501 Not Implemented, an HTML error page): the hint to check --base-url. */
function rootHint(ex: Exchange): string {
  const status = ex.response?.status ?? 0;
  const html = /html/i.test(String(ex.response?.headers['content-type'] ?? ''));
  if (status !== 501 && !html) return '';
  return `; it answered ${status === 501 ? '501 Not Implemented' : 'an HTML page'}: is --base-url the API root (the URL before /api/v1)?`;
}

/**
 * The key works in a header but not in the body: every operation of the spec fails for a
 * conformant client, so the verdict is non-conformant, with the two exchanges as evidence.
 */
function headerOnlyCheck(body: Exchange, found: HeaderTry): CheckResult {
  const evidence = [body, found.exchange].map((ex) => ({
    request: { method: ex.request.method, url: ex.request.url, body: ex.request.body },
    response: ex.response && { status: ex.response.status, headers: ex.response.headers, body: ex.response.text.slice(0, 4000) },
  }));
  return {
    id: 'all.auth.key-in-body', title: 'the key travels in the JSON body as authentication.apiKey', resource: '*', rule: 'auth.key-in-body',
    group: 'auth', section: '§5 Authentication', level: 'must', status: 'failed',
    message: `the target refused the key in the body (HTTP ${body.response?.status}) but accepted it in the ${found.header} header: §5.1 says the key travels in the JSON body and no header carries it; no other check can run`,
    expected: 'the key accepted as authentication.apiKey in the body', actual: `accepted only in the ${found.header} header`, evidence,
  };
}
