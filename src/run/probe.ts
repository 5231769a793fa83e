/**
 * The probes: every behaviour the spec leaves "not shown", observed before the
 * checks (src/observe). Their report form (value, detail, evidence) goes into
 * report.json; their values are run state — what the workers judge under and
 * what cleanup waits for — never config.
 */
import type { StoreClient } from '../client/api.js';
import type { RunConfig } from '../config.js';
import { probeObservations } from '../observe/index.js';
import type { Observation } from '../report/types.js';
import type { Terminal } from './terminal.js';

export interface Probed {
  /** as report.json has them */
  observations: Record<string, Observation>;
  /** key → value: what the checks read through `observed(key)` */
  values: Readonly<Record<string, unknown>>;
}

/** Probe the target (nothing when the run was stopped already). */
export async function probe(client: StoreClient, config: RunConfig, term: Terminal, stopped: boolean): Promise<Probed> {
  if (stopped) return { observations: {}, values: {} };
  term.line('probing behaviours the spec leaves open…');
  const observations = await probeObservations(client, config);
  return { observations, values: Object.fromEntries(Object.entries(observations).map(([k, o]) => [k, o.value])) };
}
