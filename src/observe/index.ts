/**
 * Observed behaviour: probes of what the spec marks "not shown", run once
 * before the checks; each returns a value and the evidence that showed it.
 */
import type { StoreClient } from '../client/api.js';
import type { RunConfig } from '../config.js';
import type { Observation } from '../report/types.js';

export async function probeObservations(_client: StoreClient, _config: RunConfig): Promise<Record<string, Observation>> {
  return {};
}
