/**
 * The run's cleanup phase and what it reports, and the engine of `storecheck
 * sweep` (cleanupLedger): delete exactly what the ledger says a run created
 * and no read-back has shown gone yet — at the end of a run (whatever
 * happened), and later from the ledger files.
 *
 * The work is src/client/cleanup.ts's, in bulk: creates the ledger announced
 * but never heard back from (a killed process, a lost answer) are settled
 * first (looked up by their run-tagged values); then every id still
 * outstanding is read back, deleted if there and the run's own, and read back
 * again. Most ids are settled before the end: each check file's worker reads
 * back (and deletes) what the file created once the file is done, and the
 * main process what its probes created while the checks run
 * (src/check/file-cleanup.ts) — the end-of-run cleanup reads back only what
 * those could not.
 *
 * What is left is told apart: `leftBehind`, records a read-back showed still
 * there; `unverified`, records no usable read-back could speak for (a
 * time-out, an endpoint given up, an answer cut or padded), with the reason.
 */
import { cleanOutstanding, DEFAULT_CLEANUP_LIMITS, emptyCleaned, readBackOutstanding, settleIntents, type CleanupLimits, type Cleaned, type Unverified } from '../client/cleanup.js';
import { makeClient, redactorFor } from '../client/factory.js';
import type { SharedGate } from '../client/gate.js';
import type { Exchange } from '../client/http.js';
import { Ledger } from '../client/ledger.js';
import type { Redactor } from '../client/redact.js';
import { cleanupLimitsOf } from '../check/file-cleanup.js';
import { shellQuote } from '../check/reproducer.js';
import type { RunConfig } from '../config.js';
import type { Terminal } from './terminal.js';

export type { Unverified };

export interface CleanupResult {
  /** records the run created: the ledger's, and those found by looking up unanswered creates */
  created: number;
  /** of them, the ones a read-back showed gone (during the run or in this cleanup) */
  deleted: number;
  /** records a read-back showed still there: `resource:id (why)` */
  leftBehind: string[];
  /** records whose removal no usable read-back could show, by resource and reason */
  unverified: Unverified[];
  requests: number;
  /** per resource, the ids deleted now */
  removed: Record<string, string[]>;
  /** per resource, ids the ledger held that a read-back showed gone before any delete of this cleanup */
  alreadyGone: Record<string, string[]>;
  /** keep: records a read-back showed still on the target (nothing deleted) */
  kept: number;
}

export interface CleanupTarget {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  insecure: boolean;
  ledgerFile?: string;
  /** the run's --max-rps (0 = unlimited) */
  maxRps?: number;
  /** the run's --concurrency: cleanup never has more requests in flight */
  concurrency?: number;
  /** the run's --max-answer-mb, in bytes: a read-back answer over it is cut (and read again in halves) */
  maxAnswerBytes?: number;
  /** the run's tag: only its ledger lines (a reused report dir keeps earlier runs' lines for sweep); undefined: every line */
  runTag?: string;
  /** the run's redactor (sweep: one made from the key) */
  redactor?: Redactor;
  /** the run's gate: its bound on requests in flight, its pace, and the endpoints it gave up (nothing more is sent to them) */
  gate?: SharedGate;
  /** list sizes and the settle time (default: DEFAULT_CLEANUP_LIMITS) */
  limits?: Partial<CleanupLimits>;
  /** --keep-data: read back and count what is still there, delete nothing */
  keep?: boolean;
  /** sees every exchange of the cleanup (the run's critical path) */
  observe?: (ex: Exchange) => void;
  /** told, before any request, what is still to settle: records not yet read back gone, and unanswered creates */
  onStart?: (todo: { created: number; outstanding: number; intents: number }) => void;
}

/** What the run left on the target: the cleanup's figures, or (--keep-data) what was kept and how to remove it. */
export type RunCleanup = Pick<CleanupResult, 'created' | 'deleted' | 'leftBehind' | 'unverified' | 'requests'> & { kept?: number; sweep?: string };

/**
 * The run's cleanup phase: everything the ledger holds of this run is deleted
 * and read back — or, with --keep-data, kept and counted, with the command
 * that removes it later. It goes through the run's gate: within --concurrency,
 * and nothing is sent to an endpoint the run gave up. A store whose reads lag
 * its writes (the observed consistency.readAfterWriteMs) shows a deletion a
 * little later: cleanup reads back until --visibility-timeout-ms.
 */
export async function cleanUp(config: RunConfig, observed: Readonly<Record<string, unknown>>, term: Terminal, redactor: Redactor, gate?: SharedGate, observe?: (ex: Exchange) => void): Promise<RunCleanup> {
  const { baseUrl, apiKey, timeoutMs, insecure, maxRps, concurrency, maxAnswerBytes, ledgerFile, runTag } = config;
  const limits = cleanupLimitsOf(observed, config.visibilityTimeoutMs);
  const keep = config.keepData === true;
  // most records were read back gone as their check files ended: say what is left to do
  const onStart = ({ created, outstanding, intents }: { created: number; outstanding: number; intents: number }) =>
    term.line(`${keep ? 'reading back what --keep-data keeps…' : 'cleaning up…'} ${outstanding} of the ${created} record(s) the run created not yet read back gone${intents ? `, ${intents} unanswered create(s) to look up` : ''}`);
  const result = await cleanupLedger({ baseUrl, apiKey, timeoutMs, insecure, maxRps, concurrency, maxAnswerBytes, ledgerFile, runTag, limits, redactor, gate, onStart, keep, observe }, [config.ledgerFile]);
  if (keep) return keptRecords(result, config);
  const { kept: _none, ...cleaned } = result;
  return cleaned;
}

/** What a stopped run says of its cleanup, after why it stopped. */
export function afterStop(why: string, cleanup: RunCleanup, config: Pick<RunConfig, 'ledgerFile'>): string {
  if (cleanup.kept !== undefined) return `${why}; ${cleanup.kept} record(s) kept (--keep-data): ${cleanup.sweep}`;
  const left = cleanup.leftBehind.length;
  const unsure = unverifiedCount(cleanup.unverified);
  const notes = [left ? `${left} left behind` : '', unsure ? `${unsure} could not be verified` : ''].filter(Boolean).join(', ');
  return `${why}; cleanup deleted ${cleanup.deleted} record(s)${notes ? `, ${notes} (storecheck sweep --ledger ${config.ledgerFile})` : ', none left behind'}`;
}

/** How many records the groups hold (the ids, or for an unanswered create the values it would carry). */
export function unverifiedCount(groups: readonly Unverified[] | undefined): number {
  return (groups ?? []).reduce((n, g) => n + (g.ids.length || (g.values?.length ?? 0)), 0);
}

/**
 * --keep-data: what the run leaves on the target — the records a read-back
 * showed still there (those the checks deleted themselves are not counted),
 * what could not be read back — and the command that removes them later.
 */
function keptRecords(result: CleanupResult, config: RunConfig): RunCleanup & { kept: number; sweep: string } {
  const { created, deleted, leftBehind, unverified, requests, kept } = result;
  return { created, deleted, leftBehind, unverified, requests, kept, sweep: sweepCommand(config) };
}

/** The command that removes what the run left on the target (the key from STORE_API_KEY). */
export function sweepCommand(config: Pick<RunConfig, 'ledgerFile' | 'baseUrl'>): string {
  const arg = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s));
  return `storecheck sweep --ledger ${arg(config.ledgerFile)} --base-url ${arg(config.baseUrl)}`;
}

/** Without the run's --concurrency (a caller that gives none): requests in flight at once. */
const DEFAULT_CONCURRENCY = 4;

export async function cleanupLedger(target: CleanupTarget, ledgerFiles: string[]): Promise<CleanupResult> {
  // the run's cleanup writes its ledger lines under the run's tag; sweep under its own
  const loaded = Ledger.load(ledgerFiles, target.runTag ?? 'sweep', target.runTag);
  const ledger = target.ledgerFile ? loaded.withFile(target.ledgerFile) : loaded;
  // only what cleanup needs of the run's limits: it reads back and deletes ids, never --read-only's refusal
  // (a read-only run created nothing)
  const { baseUrl, apiKey, timeoutMs, insecure, maxRps, maxAnswerBytes } = target;
  const client = makeClient({ baseUrl, apiKey, timeoutMs, insecure, maxRps, maxAnswerBytes }, {
    redactor: target.redactor ?? redactorFor(target),
    // resources and lists side by side, within --concurrency (the run's gate, when given, bounds them)
    connections: Math.max(1, target.concurrency ?? DEFAULT_CONCURRENCY),
    ...(target.gate ? { gate: target.gate } : {}),
    retries: 3,
    ledger,
  });
  if (target.observe) client.http.listeners.add(target.observe);
  target.onStart?.({ created: loaded.createdCount(), outstanding: countIds(loaded.outstanding()), intents: loaded.openIntents().filter((x) => !x.answered).length });
  try {
    const settle = target.keep ? readBackOutstanding : cleanOutstanding;
    const limits = { ...DEFAULT_CLEANUP_LIMITS, ...target.limits };
    // the ids the ledger holds first: their read-back shows each carrying the run's tag, which settles the
    // creates whose answers gave them (no lookup needed); then the creates still open (unanswered, or
    // answered with ids that were not the run's) are looked up by their tagged values, and what that finds
    const cleaned = await settle(client, ledger, limits);
    const before = ledger.outstanding();
    const intents = emptyCleaned();
    await settleIntents(client, ledger, intents);
    const found = newIds(before, ledger.outstanding());
    const more = found.size ? await settle(client, ledger, limits, found) : emptyCleaned();
    return resultOf(joinCleaned(intents, cleaned, more), ledger, client.http.stats.requests);
  } finally {
    await client.close();
  }
}

/** The ids `after` holds that `before` did not, by resource. */
function newIds(before: Map<string, string[]>, after: Map<string, string[]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [resource, ids] of after) {
    const had = new Set(before.get(resource) ?? []);
    const fresh = ids.filter((id) => !had.has(id));
    if (fresh.length) out.set(resource, fresh);
  }
  return out;
}

/** Several cleanups' outcomes as one. */
function joinCleaned(...parts: Cleaned[]): Cleaned {
  const out = emptyCleaned();
  for (const p of parts) {
    for (const key of ['removed', 'alreadyGone', 'kept'] as const) for (const [r, ids] of Object.entries(p[key])) (out[key][r] ??= []).push(...ids);
    out.leftBehind.push(...p.leftBehind);
    out.unverified.push(...p.unverified);
    out.found += p.found;
  }
  return out;
}

/** The figures of a cleanup: created and deleted from the ledger as it now stands (every read-back of the run counted). */
function resultOf(c: Cleaned, ledger: Ledger, requests: number): CleanupResult {
  const created = ledger.createdCount();
  return {
    created,
    deleted: created - countIds(ledger.outstanding()),
    leftBehind: c.leftBehind.map((r) => `${r.resource}:${r.id} (${r.why})`),
    unverified: groupUnverified(c.unverified),
    requests,
    removed: c.removed,
    alreadyGone: c.alreadyGone,
    kept: Object.values(c.kept).reduce((n, ids) => n + ids.length, 0),
  };
}

function countIds(byResource: Map<string, string[]>): number {
  return [...byResource.values()].reduce((n, ids) => n + ids.length, 0);
}

/** One group per resource and reason, the ids of its lists together. */
function groupUnverified(all: Unverified[]): Unverified[] {
  const groups = new Map<string, Unverified>();
  for (const u of all) {
    const key = `${u.resource}\u0000${u.reason}`;
    const g = groups.get(key);
    if (!g) groups.set(key, { ...u, ids: [...u.ids], ...(u.values ? { values: [...u.values] } : {}) });
    else {
      g.ids.push(...u.ids);
      if (u.values) g.values = [...(g.values ?? []), ...u.values];
    }
  }
  return [...groups.values()];
}
