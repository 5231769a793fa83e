/**
 * What a probe is and what it gets: the client, the run configuration, the
 * reads shared by every probe (counts, a default page per resource) and the
 * observations of earlier phases. A probe returns Observations; whatever goes
 * wrong inside it becomes `{value: null, detail: 'could not tell: …'}` in the
 * registry (index.ts), never an exception that stops the run.
 */
import type { CallResult, StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import type { RunConfig } from '../config.js';
import type { HttpExchange, Observation } from '../report/types.js';
import type { ObservationKey } from './registry.js';
import type { Shared } from './shared.js';

export interface ProbeContext {
  client: StoreClient;
  config: RunConfig;
  shared: Shared;
  /** observations of earlier phases (phase 3 reads phase 1 and 2) */
  results: Readonly<Record<string, Observation>>;
}

export interface Probe {
  /** a short name, used in details when the probe itself breaks */
  name: string;
  /** the observation keys it answers */
  keys: readonly ObservationKey[];
  /**
   * 1: reads only, all concurrent; 2: writes (collections it creates and deletes), concurrent;
   * 3: runs last and may refine keys phase 1 could not decide
   */
  phase: 1 | 2 | 3;
  /** sends create/update/delete: in --read-only runs it is not run and its keys say so */
  writes?: boolean;
  run(ctx: ProbeContext): Promise<Record<string, Observation>>;
}

/** A probe could not decide: the message becomes the detail, the exchanges the evidence. */
export class ProbeError extends Error {
  constructor(message: string, readonly exchanges: Exchange[] = []) {
    super(message);
    this.name = 'ProbeError';
  }
}

const MAX_BODY = 4_096;

/** Exchange → report evidence (already redacted by the client); bodies cut at ~4 KB. */
export function evidence(...exchanges: Array<Exchange | undefined>): HttpExchange[] {
  return exchanges.filter((x): x is Exchange => !!x).map((ex) => {
    const text = ex.response?.text ?? '';
    return {
      request: { method: ex.request.method, url: ex.request.url, body: trimValue(ex.request.body) },
      ...(ex.response
        ? {
          response: {
            status: ex.response.status,
            headers: ex.response.headers,
            body: text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}… [${text.length - MAX_BODY} more characters]` : text,
          },
        }
        : {}),
      ...(ex.transportError ? { error: `${ex.transportError.code}: ${ex.transportError.message}` } : ex.parseError ? { error: ex.parseError } : {}),
    };
  });
}

/** Request bodies in evidence stay readable: long arrays (1001 ids, 100 items) and strings shortened. */
function trimValue(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return v.length > 300 ? `${v.slice(0, 300)}… [${v.length} characters]` : v;
  if (Array.isArray(v)) {
    const head = v.slice(0, 12).map((x) => trimValue(x, depth + 1));
    return v.length > 12 ? [...head, `… ${v.length - 12} more`] : head;
  }
  if (v && typeof v === 'object' && depth < 6) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trimValue(x, depth + 1)]));
  return v;
}

export function observation(value: unknown, detail: string, ...exchanges: Array<Exchange | undefined>): Observation {
  return { value, detail, evidence: evidence(...exchanges) };
}

export function couldNotTell(why: string, ...exchanges: Array<Exchange | undefined>): Observation {
  return observation(null, `could not tell: ${why}`, ...exchanges);
}

/** The value of a call that must work for the probe to go on; otherwise a ProbeError naming it. */
export function need<T>(result: CallResult<T>, what: string): T {
  if (result.ok) return result.value as T;
  throw new ProbeError(`${what}: ${result.problem ?? 'failed'}`, [result.exchange]);
}

/** Is it a 2xx answer? */
export function is2xx(ex: Exchange): boolean {
  const s = ex.response?.status;
  return s !== undefined && s >= 200 && s <= 299;
}

/** The HTTP status, or a word for no answer. */
export function statusOf(ex: Exchange): number | null {
  return ex.response?.status ?? null;
}

export function statusText(ex: Exchange): string {
  if (ex.transportError) return `no answer (${ex.transportError.code})`;
  return `HTTP ${ex.response!.status}`;
}
