/**
 * Cleanup overlapping the checks: what a check file's checks and fixtures
 * created is read back (and, where still there, deleted) as soon as the file
 * is done — in its worker, while the other workers' files still run — instead
 * of all at the end of the run. The end-of-run cleanup (src/run/cleanup.ts)
 * then reads back only what these could not settle.
 *
 * Every id a read-back shows gone is deleted in the ledger file; anything else
 * (still there, or not verifiable: a time-out, an endpoint given up) stays
 * outstanding for the end-of-run cleanup, which reports it. A worker runs one
 * file at a time, so what its ledger holds outstanding when a file ends was
 * created by files that are done.
 */
import type { StoreClient } from '../client/api.js';
import { cleanOutstanding, type CleanupLimits } from '../client/cleanup.js';
import type { Ledger } from '../client/ledger.js';
import { GET_CAP } from '../schema/model.js';
import { readObservation } from '../observe/registry.js';
import { currentRuntime } from './runtime.js';

/**
 * Cleanup's list sizes from what the target showed: read-backs of at most the
 * largest page it honours (never above the get cap), delete filters of at most
 * the data limit it showed (or as large as a read-back when none was found);
 * a store whose reads lag its writes shows a deletion within
 * --visibility-timeout-ms.
 */
export function cleanupLimitsOf(observations: Readonly<Record<string, unknown>>, visibilityTimeoutMs: number): CleanupLimits {
  const readList = Math.max(1, Math.min(GET_CAP, readObservation(observations, 'pagination.maxPageSize')));
  const maxItems = readObservation(observations, 'limits.maxDataItems');
  const lagged = readObservation(observations, 'consistency.readAfterWriteMs') > 0;
  return { readList, deleteList: typeof maxItems === 'number' && maxItems > 0 ? maxItems : readList, settleMs: lagged ? visibilityTimeoutMs : 0 };
}

/**
 * Read back and delete what `ledger` holds outstanding, through `client`;
 * settles what it can and never throws (the end-of-run cleanup has the rest).
 * Nothing when the run keeps its data, is read-only, or was stopped.
 */
export async function settleOutstanding(client: StoreClient, ledger: Ledger, limits: CleanupLimits, config: { readonly keepData?: boolean; readonly readOnly?: boolean }): Promise<void> {
  if (config.keepData || config.readOnly || client.http.cancelled !== undefined) return;
  if (!ledger.outstanding().size) return;
  await cleanOutstanding(client, ledger, limits).catch(() => undefined);
}

/** A check file is done (the setup file's afterAll, after the file's own): settle what this worker created. */
export async function settleFileRecords(): Promise<void> {
  const rt = currentRuntime();
  if (!rt) return;
  await settleOutstanding(rt.client, rt.ledger, cleanupLimitsOf(rt.observations, rt.config.visibilityTimeoutMs), rt.config);
}
