/**
 * The one way an exchange becomes evidence in a report (checks, items and
 * observations alike): the request as sent (already redacted by the client),
 * the response status, headers and body text, or the transport error — long
 * bodies cut, long arrays and strings in the request shortened so a report
 * stays readable and bounded. The report's own form (HttpExchange) is made
 * here, where the report is defined, so checks and probes both depend on the
 * report and neither on the other.
 */
import type { Exchange } from '../client/http.js';
import type { HttpExchange } from './types.js';

export interface EvidenceLimits {
  /** response body characters kept */
  body: number;
  /** characters kept of a string in the request */
  string: number;
  /** items kept of an array in the request */
  array: number;
}

/** Checks show more of an answer than observations do (a failure is read closely; observations are many). */
export const CHECK_EVIDENCE: EvidenceLimits = { body: 16_000, string: 2_000, array: 200 };
export const OBSERVATION_EVIDENCE: EvidenceLimits = { body: 4_096, string: 300, array: 12 };

export function toEvidence(ex: Exchange, limits: EvidenceLimits = CHECK_EVIDENCE): HttpExchange {
  const text = ex.response?.text ?? '';
  const error = ex.transportError ? `${ex.transportError.code}: ${ex.transportError.message}` : ex.parseError;
  return {
    request: { method: ex.request.method, url: ex.request.url, body: trimValue(ex.request.body, limits) },
    ...(ex.response
      ? {
        response: {
          status: ex.response.status,
          headers: ex.response.headers,
          body: text.length > limits.body ? `${text.slice(0, limits.body)}… [${text.length - limits.body} more characters]` : text,
        },
      }
      : {}),
    ...(error ? { error } : {}),
    ...(ex.sharedFrom !== undefined ? { sharedFrom: ex.sharedFrom } : {}),
  };
}

export function evidenceOf(exchanges: ReadonlyArray<Exchange | undefined>, limits: EvidenceLimits = CHECK_EVIDENCE): HttpExchange[] {
  return exchanges.filter((x): x is Exchange => !!x).map((ex) => toEvidence(ex, limits));
}

/** Keep a value readable: long strings shortened, long arrays cut, structure kept (depth-bounded). */
export function trimValue(v: unknown, limits: Pick<EvidenceLimits, 'string' | 'array'> = CHECK_EVIDENCE, depth = 0): unknown {
  if (typeof v === 'string') return v.length > limits.string ? `${v.slice(0, limits.string)}… [${v.length} characters]` : v;
  if (depth > 8) return v && typeof v === 'object' ? '[…]' : v;
  if (Array.isArray(v)) {
    const head = v.slice(0, limits.array).map((x) => trimValue(x, limits, depth + 1));
    return v.length > limits.array ? [...head, `… ${v.length - limits.array} more`] : head;
  }
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trimValue(x, limits, depth + 1)]));
  return v;
}
