/**
 * report.run.criticalPath: the longest chain of requests that had to wait for
 * one another (src/client/chain.ts), for the run as a whole.
 *
 *   run    = preflight + probes + checks + cleanup (one after another)
 *   checks = the longest worker lane, or the main process's requests meanwhile
 *            (the probes' records read back) when longer
 *   lane   = the files one worker ran, one after another (src/check/chains.ts)
 *   file   = its longest build of a fixture no check built + its longest check (its checks
 *            run side by side) + what followed its last check
 *
 * The phases of the main process are measured as one unit each (their
 * requests' chain), the checks' from what each worker wrote to
 * <report dir>/chains.jsonl, removed once read.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ChainRecorder, inSequence, sideBySide, type Chain } from '../client/chain.js';
import type { StoreClient } from '../client/api.js';
import { CHAINS_FILE, type FileChains } from '../check/chains.js';
import type { Report } from '../report/types.js';

export type CriticalPath = NonNullable<Report['run']['criticalPath']>;
export type ChainPhase = 'preflight' | 'probes' | 'checks' | 'cleanup';

/** How many of the longest checks the report names. */
const LONGEST_SHOWN = 10;

/**
 * The main process's chains, phase by phase: `during(phase)` records what
 * `client` sends until the next phase starts; cleanup, whose client is its
 * own, hands its exchanges to `observer('cleanup')`.
 */
export class RunChains {
  private readonly recorders = new Map<ChainPhase, ChainRecorder>();
  private current?: ChainRecorder;

  constructor(client: StoreClient) {
    client.http.listeners.add((ex) => this.current?.add(ex));
  }

  /** the client's requests from now on belong to `phase` */
  during(phase: ChainPhase): void {
    this.current = this.recorderOf(phase);
  }

  /** an observer for a client of the phase's own */
  observer(phase: ChainPhase): ChainRecorder['add'] {
    return this.recorderOf(phase).add;
  }

  chainOf(phase: ChainPhase): Chain {
    return this.recorders.get(phase)?.chain() ?? inSequence();
  }

  private recorderOf(phase: ChainPhase): ChainRecorder {
    let r = this.recorders.get(phase);
    if (!r) this.recorders.set(phase, (r = new ChainRecorder()));
    return r;
  }
}

/** What this run's workers wrote: one line per check file (the file goes once read). */
export function readFileChains(reportDir: string, runTag: string): FileChains[] {
  const file = join(reportDir, CHAINS_FILE);
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
  rmSync(file, { force: true });
  return lines.flatMap((l) => {
    try {
      const f = JSON.parse(l) as FileChains;
      return f.runTag === runTag ? [f] : [];
    } catch {
      // a line cut short (a worker killed while writing): its file is not counted
      return [];
    }
  });
}

/** A file's chain: the fixtures its checks waited for, its longest check, then what followed its last check. */
export function fileChain(f: FileChains): Chain {
  return inSequence(sideBySide(f.fixtures ?? []), sideBySide(f.checks), f.end);
}

/** The checks phase: each worker's files one after another, the workers side by side. */
export function lanesChain(files: readonly FileChains[]): { chain: Chain; lanes: number } {
  const lanes = new Map<string, Chain>();
  for (const f of files) lanes.set(f.worker, inSequence(lanes.get(f.worker) ?? inSequence(), fileChain(f)));
  return { chain: sideBySide([...lanes.values()]), lanes: lanes.size };
}

/** report.run.criticalPath from the main process's phases and the workers' files. */
export function criticalPathOf(phases: Record<Exclude<ChainPhase, 'checks'>, Chain> & { mainDuringChecks: Chain }, files: readonly FileChains[]): CriticalPath {
  const lanes = lanesChain(files);
  const checks = sideBySide([lanes.chain, phases.mainDuringChecks]);
  const run = inSequence(phases.preflight, phases.probes, checks, phases.cleanup);
  const longestChecks = files.flatMap((f) => f.checks)
    .sort((a, b) => b.roundTrips - a.roundTrips || b.ms - a.ms || (a.id < b.id ? -1 : 1))
    .slice(0, LONGEST_SHOWN)
    .map(({ id, roundTrips, ms }) => ({ id, roundTrips, ms }));
  return {
    roundTrips: run.roundTrips,
    ms: run.ms,
    byPhase: { preflight: phases.preflight.roundTrips, probes: phases.probes.roundTrips, checks: checks.roundTrips, cleanup: phases.cleanup.roundTrips },
    lanes: lanes.lanes,
    longestChecks,
    writes: { count: run.writes, ms: run.writeMs },
  };
}

/** The run's critical path, once its cleanup is done. */
export function runCriticalPath(chains: RunChains, reportDir: string, runTag: string): CriticalPath {
  return criticalPathOf({
    preflight: chains.chainOf('preflight'),
    probes: chains.chainOf('probes'),
    mainDuringChecks: chains.chainOf('checks'),
    cleanup: chains.chainOf('cleanup'),
  }, readFileChains(reportDir, runTag));
}
