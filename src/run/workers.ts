/**
 * How many check files run at once (vitest workers), decided when the checks
 * start: by then the preflight has measured the target's round trip.
 *
 * A near target (the embedded server, a store on this machine) makes the run
 * CPU-bound: every worker is a V8 isolate that loads the suite again, so the
 * default stays at cores + 1. A far one makes it latency-bound: a worker runs
 * its files one after another, and the checks of its file in hand are all it
 * has to send — near the end of each lane (a file of long chains: updates
 * read back, version histories, model sequences) the slots of --concurrency
 * empty while the CPU idles. More files in flight keep them full
 * (options.ts farWorkers). `--workers` given by the user is always obeyed.
 */
import type { StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import type { RunConfig } from '../config.js';
import { FAR_ROUND_TRIP_MS } from '../cli/options.js';
import type { Report } from '../report/types.js';

export type WorkersChoice = NonNullable<Report['run']['workers']>;

/** The shortest round trip of the requests `client` sends from now on (the preflight's). */
export class RoundTrips {
  private shortest = Infinity;
  private readonly listener = (ex: Exchange) => {
    // one attempt, answered: its duration is the target's round trip (a slot waited for included, none in the preflight)
    if (ex.response && ex.attempts === 1 && !ex.notSent) this.shortest = Math.min(this.shortest, ex.durationMs);
  };

  constructor(private readonly client: StoreClient) {
    client.http.listeners.add(this.listener);
  }

  /** stops listening; the shortest round trip seen, ms (undefined: none answered) */
  end(): number | undefined {
    this.client.http.listeners.delete(this.listener);
    return Number.isFinite(this.shortest) ? this.shortest : undefined;
  }
}

/**
 * The workers of this run: the flag's when given; else the near default, or
 * the far one when the preflight's shortest round trip was FAR_ROUND_TRIP_MS
 * or more (the embedded server is never far). Never more than the files that
 * hold a selected check (`files`): a worker without one would load the suite
 * for nothing (a run under --only of two files takes two).
 */
export function chooseWorkers(config: Pick<RunConfig, 'workers' | 'workersFar' | 'embedded'>, roundTripMs: number | undefined, files: number): WorkersChoice {
  const measured = roundTripMs === undefined ? {} : { roundTripMs: Math.round(roundTripMs * 10) / 10 };
  const atMost = (n: number) => Math.max(1, Math.min(n, files));
  if (config.workersFar === undefined) return { count: atMost(config.workers), by: 'given', ...measured };
  const far = !config.embedded && roundTripMs !== undefined && roundTripMs >= FAR_ROUND_TRIP_MS;
  return far ? { count: atMost(config.workersFar), by: 'far-target', ...measured } : { count: atMost(config.workers), by: 'near-target', ...measured };
}
