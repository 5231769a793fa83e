/**
 * What a probe is and what it gets: the client, the run configuration, the
 * reads shared by every probe (counts, a default page per resource) and the
 * observations of earlier phases. A probe returns Observations; whatever goes
 * wrong inside it becomes `{value: null, detail: 'could not tell: …'}` in the
 * registry (index.ts), never an exception that stops the run.
 */
import type { StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import type { RunConfig } from '../config.js';
import type { HttpExchange, Observation } from '../report/types.js';
import { evidenceOf, OBSERVATION_EVIDENCE } from '../report/evidence.js';
import type { ObservationKey } from './registry.js';
import type { Shared } from './shared.js';

export { ProbeError, need } from './probe-error.js';

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
   * 1: reads only; 2: writes (records it creates and deletes, one resource per probe); 1 and 2 all
   * side by side, each resource read or written by one side at a time (schedule.ts);
   * 3: runs last and may refine keys phase 1 could not decide
   */
  phase: 1 | 2 | 3;
  /** sends create/update/delete: in --read-only runs it is not run and its keys say so */
  writes?: boolean;
  run(ctx: ProbeContext): Promise<Record<string, Observation>>;
}

/** Exchange → report evidence (already redacted by the client): the one conversion of src/report/evidence.ts. */
export function evidence(...exchanges: Array<Exchange | undefined>): HttpExchange[] {
  return evidenceOf(exchanges, OBSERVATION_EVIDENCE);
}

export function observation(value: unknown, detail: string, ...exchanges: Array<Exchange | undefined>): Observation {
  return { value, detail, evidence: evidence(...exchanges) };
}

export function couldNotTell(why: string, ...exchanges: Array<Exchange | undefined>): Observation {
  return observation(null, `could not tell: ${why}`, ...exchanges);
}

/** How the detail of an observation whose answer no honest reading explains begins. */
export const NO_READING = 'fits no reading: ';

/**
 * The target answered, and no honest reading explains the answer (a 5xx to a
 * well-formed request: HTTP's class for the server's own failure, not a way
 * any stack reads a client's request). Evidence, not a reading: the value is
 * null (checks assume the key's fallback) and the run gives no verdict on it
 * unless a check failed (src/run/report.ts), as a 5xx to a check's request does.
 */
export function fitsNoReading(why: string, ...exchanges: Array<Exchange | undefined>): Observation {
  return observation(null, `${NO_READING}${why}`, ...exchanges);
}

/** Did the probe get an answer no honest reading explains? */
export const isNoReading = (o: Pick<Observation, 'detail'> | undefined): boolean => !!o?.detail?.startsWith(NO_READING);

/**
 * A probe's request that got no answer it can read: none at all (a transport
 * failure, a time-out: could not tell) or a 5xx (fits no reading); undefined
 * when the answer is one to classify.
 */
export function unusableAnswer(ex: Exchange, what: string, problem?: string): Observation | undefined {
  if (!ex.response) return couldNotTell(`${what} got no answer${problem ? `: ${problem}` : ''}`, ex);
  if (ex.response.status < 500) return undefined;
  return fitsNoReading(`${what} was answered HTTP ${ex.response.status}: a server failure, not a reading of the request (a store refuses a request it does not take with a 4xx or carries it out; §7 leaves the status open, not the class)`, ex);
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
