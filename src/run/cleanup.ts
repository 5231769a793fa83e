/**
 * Deletes exactly what the ledger says a run created and did not delete —
 * at the end of a run (whatever happened: cleanUp, the run's phase), and in
 * `storecheck sweep` (cleanupLedger).
 *
 * Creates the ledger announced but never heard back from (a killed process, a
 * lost answer) are settled first: their records are looked up by the unique
 * run-tagged values the create carried, and whatever is found is deleted too.
 * Nothing counts as deleted on the target's word: every id the ledger holds is
 * read back, deleted if still there, and read back again; only ids a read-back
 * shows gone are deleted in the ledger. The rest is left behind, said so.
 */
import type { StoreClient } from '../client/api.js';
import { makeClient, redactorFor } from '../client/factory.js';
import { Ledger } from '../client/ledger.js';
import type { Redactor } from '../client/redact.js';
import { pollUntil } from '../client/poll.js';
import { shellQuote } from '../check/reproducer.js';
import type { RunConfig } from '../config.js';
import { readObservation } from '../observe/registry.js';
import { deletionRank } from '../schema/model.js';
import type { Terminal } from './terminal.js';

export interface CleanupResult {
  created: number;
  deleted: number;
  leftBehind: string[];
  requests: number;
  /** per resource, the ids deleted now */
  removed: Record<string, string[]>;
  /** per resource, ids the ledger held that were already gone (a delete whose answer was lost) */
  alreadyGone: Record<string, string[]>;
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
  /** how long a deletion may take to show in reads (a lagging store, observation consistency.readAfterWriteMs); 0: at once */
  settleMs?: number;
  /** the run's tag: only its ledger lines (a reused report dir keeps earlier runs' lines for sweep); undefined: every line */
  runTag?: string;
  /** the run's redactor (sweep: one made from the key) */
  redactor?: Redactor;
}

/** What the run left on the target: the cleanup's figures, or (--keep-data) what was kept and how to remove it. */
export type RunCleanup = Pick<CleanupResult, 'created' | 'deleted' | 'leftBehind' | 'requests'> & { kept?: number; sweep?: string };

/**
 * The run's cleanup phase: everything the ledger holds of this run is deleted
 * and read back — or, with --keep-data, kept and counted, with the command
 * that removes it later. A store whose reads lag its writes (the observed
 * consistency.readAfterWriteMs) shows a deletion a little later: cleanup reads
 * back until --visibility-timeout-ms.
 */
export async function cleanUp(config: RunConfig, observed: Readonly<Record<string, unknown>>, term: Terminal, redactor: Redactor): Promise<RunCleanup> {
  if (config.keepData) return keptRecords(config);
  term.line('cleaning up…');
  const lagged = readObservation(observed, 'consistency.readAfterWriteMs') > 0;
  const { baseUrl, apiKey, timeoutMs, insecure, maxRps, concurrency, ledgerFile, runTag } = config;
  const settleMs = lagged ? config.visibilityTimeoutMs : 0;
  return cleanupLedger({ baseUrl, apiKey, timeoutMs, insecure, maxRps, concurrency, ledgerFile, runTag, settleMs, redactor }, [config.ledgerFile]);
}

/** What a stopped run says of its cleanup, after why it stopped. */
export function afterStop(why: string, cleanup: RunCleanup, config: Pick<RunConfig, 'ledgerFile'>): string {
  if (cleanup.kept !== undefined) return `${why}; ${cleanup.kept} record(s) kept (--keep-data): ${cleanup.sweep}`;
  const left = cleanup.leftBehind.length;
  return `${why}; cleanup deleted ${cleanup.deleted} record(s)${left ? `, ${left} left behind (storecheck sweep --ledger ${config.ledgerFile})` : ', none left behind'}`;
}

/**
 * --keep-data: what the run leaves on the target, from its ledger lines — the
 * records created and not deleted (and creates never answered, which sweep
 * looks up) — and the command that removes them later.
 */
function keptRecords(config: RunConfig): RunCleanup & { kept: number; sweep: string } {
  const ledger = Ledger.load([config.ledgerFile], 'sweep', config.runTag);
  const kept = [...ledger.outstanding().values()].reduce((n, ids) => n + ids.length, 0);
  return { created: ledger.createdCount(), deleted: 0, leftBehind: [], requests: 0, kept, sweep: sweepCommand(config) };
}

/** The command that removes what the run left on the target (the key from STORE_API_KEY). */
export function sweepCommand(config: Pick<RunConfig, 'ledgerFile' | 'baseUrl'>): string {
  const arg = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s));
  return `storecheck sweep --ledger ${arg(config.ledgerFile)} --base-url ${arg(config.baseUrl)}`;
}

export async function cleanupLedger(target: CleanupTarget, ledgerFiles: string[], batch = 50): Promise<CleanupResult> {
  const loaded = Ledger.load(ledgerFiles, 'sweep', target.runTag);
  const ledger = target.ledgerFile ? loaded.withFile(target.ledgerFile) : loaded;
  // only what cleanup needs of the run's limits: it reads back and deletes ids, never --read-only's refusal
  // (a read-only run created nothing) nor --max-answer-mb (its answers are pages of the asked ids)
  const { baseUrl, apiKey, timeoutMs, insecure, maxRps } = target;
  const client = makeClient({ baseUrl, apiKey, timeoutMs, insecure, maxRps }, {
    redactor: target.redactor ?? redactorFor(target),
    connections: Math.max(1, Math.min(4, target.concurrency ?? 4)),
    retries: 3,
    ledger,
  });
  const result: CleanupResult = { created: loaded.createdCount(), deleted: 0, leftBehind: [], requests: 0, removed: {}, alreadyGone: {} };
  try {
    // creates never heard back from: find what they stored (only run-tagged values are looked up)
    for (const intent of ledger.openIntents()) {
      // a lookup answered with something unusable (an HTML page with status 200 is not retried by the
      // transport) is asked again: an open intent given up on is a record possibly left behind
      let found = await client.findTagged(intent.resource, intent.key, intent.values, intent.runTag);
      for (let attempt = 1; attempt < 3 && !found.ok; attempt++) found = await client.findTagged(intent.resource, intent.key, intent.values, intent.runTag);
      if (!found.ok) {
        result.leftBehind.push(`${intent.resource}: records with ${intent.key} in [${intent.values.join(', ')}] may exist (the create's answer was lost and the lookup failed)`);
        continue;
      }
      ledger.recordCreated(intent.resource, found.ids, intent.intent);
      result.created += found.ids.length;
    }
    const outstanding = ledger.outstanding();
    // records that reference others go first (products before their categories and collections)
    const resources = [...outstanding.keys()].sort((a, b) => deletionRank(a) - deletionRank(b));
    for (const resource of resources) {
      const ids = outstanding.get(resource)!;
      for (let i = 0; i < ids.length; i += batch) {
        const chunk = ids.slice(i, i + batch);
        const { deleted, absent: gone, problem } = await deleteChunk(client, resource, chunk, target.settleMs ?? 0);
        if (deleted.length) {
          (result.removed[resource] ??= []).push(...deleted);
          ledger.recordDeleted(resource, deleted);
        }
        if (gone.length) {
          (result.alreadyGone[resource] ??= []).push(...gone);
          // settled: a later sweep has nothing to do for them
          ledger.recordDeleted(resource, gone);
        }
        // deleted by the run (its checks, or this cleanup), a read-back showing each one gone
        result.deleted += deleted.length + gone.length;
        const left = chunk.filter((id) => !deleted.includes(id) && !gone.includes(id));
        result.leftBehind.push(...left.map((id) => `${resource}:${id} (${problem})`));
      }
    }
  } finally {
    result.requests = client.http.stats.requests;
    await client.close();
  }
  return result;
}

/**
 * Delete a chunk (three tries, then one id at a time). Ids a look then finds
 * absent are `absent`: deleted by an earlier attempt whose answer was lost, or
 * by the run before it was killed (a target answering 404 for unknown ids lands
 * here too).
 */
async function deleteChunk(client: StoreClient, resource: string, chunk: string[], settleMs: number): Promise<{ deleted: string[]; absent: string[]; problem: string }> {
  let problem = '';
  const deleted: string[] = [];
  // look first: a target that answers success for unknown ids would otherwise make ids deleted
  // earlier (by the run, before it was killed) look removed now
  const gone = await absent(client, resource, chunk);
  let rest = chunk.filter((id) => !gone.includes(id));
  for (let attempt = 0; attempt < 3 && rest.length; attempt++) {
    try {
      const res = await client.delete(resource, rest);
      if (res.ok) {
        // read back: a success answer is not a deletion (a lagging store shows it within settleMs)
        const asked = rest;
        const now = (await pollUntil(() => absent(client, resource, asked), (gone) => gone.length === asked.length, settleMs)).result;
        deleted.push(...now);
        rest = rest.filter((id) => !now.includes(id));
        if (!rest.length) return { deleted, absent: gone, problem: '' };
        problem = `the target answered success, yet ${rest.length} record(s) are still there when read back`;
        continue;
      }
      problem = res.problem ?? '';
      // a target with a smaller batch limit, or one refusing unknown ids: one id at a time
      if (res.exchange.response?.status === 400 && rest.length > 1) {
        for (const id of rest) {
          const one = await client.delete(resource, [id]);
          if (!one.ok) problem = one.problem ?? '';
        }
        const now = await absent(client, resource, rest);
        deleted.push(...now);
        rest = rest.filter((id) => !now.includes(id));
      }
    } catch (e) {
      problem = (e as Error).message;
    }
  }
  const late = rest.length ? await absent(client, resource, rest) : [];
  return { deleted: [...deleted, ...late], absent: gone, problem };
}

/**
 * The ids of `ids` a get with the id filter does not return — none when the
 * get fails, or when its answer is not a whole page of the asked ids (a
 * target ignoring the filter and answering other records proves nothing).
 */
async function absent(client: StoreClient, resource: string, ids: string[]): Promise<string[]> {
  const got = await client.byIds(resource, ids);
  if (!got.ok) return [];
  const asked = new Set(ids.map((id) => id.toLowerCase()));
  const returned = (got.value ?? []).map((x) => String(x?.id).toLowerCase());
  // an answer full of ids never asked for: the filter was not applied, and absence cannot be read from it
  if (returned.some((id) => !asked.has(id))) return [];
  const present = new Set(returned);
  return ids.filter((id) => !present.has(id.toLowerCase()));
}
