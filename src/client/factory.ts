/**
 * The one place a run's configuration becomes a client. Three places make one:
 * the run's main process (preflight, probes), every vitest worker (the
 * checks), and the cleanup (at the end of a run, and `storecheck sweep`). What
 * they share comes from the config (ClientTarget); what differs between them
 * is a parameter each names (ClientPlace): its pool size, the run-wide gate,
 * the ledger, retries, waiting for a lagging store.
 *
 * The key enters here and goes two ways only: into request bodies (the
 * client) and into the run's one redactor, made once from it (redactorFor),
 * which the client, the terminal and the report writers all use.
 */
import { StoreClient, type ClientOptions } from './api.js';
import type { SharedGate } from './gate.js';
import type { Ledger } from './ledger.js';
import { keyRedactor, type Redactor } from './redact.js';

/** What a client takes from the run's config (RunConfig has these fields): the target and the limits every request obeys. */
export interface ClientTarget {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  /** --insecure: accept a self-signed certificate */
  readonly insecure: boolean;
  /** --max-rps, the whole run's (0 = unlimited) */
  readonly maxRps?: number;
  /** --max-answer-mb, in bytes: an answer over it is cut while it streams */
  readonly maxAnswerBytes?: number;
  /** --read-only: writes are refused before they are sent */
  readonly readOnly?: boolean;
}

/** What differs between the places that make a client. */
export interface ClientPlace {
  /** the run's one redactor (redactorFor); it learns the store's apikey from the client's answers */
  redactor: Redactor;
  /** connections kept open to the target */
  connections: number;
  /** the run-wide gate (requests in flight, pace, answer bytes), shared with the workers; without one the client has its own */
  gate?: SharedGate;
  /** where creates and deletes are recorded (what the run owns) */
  ledger?: Ledger;
  /** retries of retryable requests (the transport's default without it) */
  retries?: number;
  /** a store whose reads lag its writes: wait for each write to show (ClientOptions.visibility) */
  visibility?: ClientOptions['visibility'];
  /** reads sent once and shared within the process (ClientOptions.sharedReads) */
  sharedReads?: ClientOptions['sharedReads'];
  /** whether the request about to wait for a slot is a step of a long chain (ClientOptions.urgent) */
  urgent?: ClientOptions['urgent'];
}

/** The run's redactor: made once from the key (and the near-miss keys derived from it), used by every output of the process. */
export function redactorFor(target: Pick<ClientTarget, 'apiKey'>): Redactor {
  return keyRedactor(target.apiKey);
}

/** ClientOptions of `target` for `place`. */
export function clientOptions(target: ClientTarget, place: ClientPlace): ClientOptions {
  // a redactor made for another key would let this one through: it always knows the key it sends
  place.redactor.add(target.apiKey);
  return {
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    timeoutMs: target.timeoutMs,
    insecure: target.insecure,
    maxRps: target.maxRps ?? 0,
    ...(target.maxAnswerBytes ? { maxBodyBytes: target.maxAnswerBytes } : {}),
    ...(target.readOnly ? { readOnly: true } : {}),
    ...place,
  };
}

/** The client of `target` for `place`. */
export function makeClient(target: ClientTarget, place: ClientPlace): StoreClient {
  return new StoreClient(clientOptions(target, place));
}
