/**
 * The cleanup's list sizes, from what the probes observed of the target.
 */
import type { CleanupLimits } from '../client/cleanup.js';
import { GET_CAP } from '../schema/model.js';
import { readObservation } from '../observe/registry.js';

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
