/**
 * How many check files run at once (vitest workers), decided when the checks
 * start: once the preflight and the first probes have measured the target's
 * round trip (the shortest of ROUND_TRIP_SAMPLES answers).
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

/**
 * How many answers the round trip is measured on: the preflight's and the first probes'. One
 * answer is not enough: a store on this machine answers its first request (a new connection, a
 * cold path), or one sent while other processes hold the cores, in 10-50 ms, most in 1-2 ms.
 */
export const ROUND_TRIP_SAMPLES = 16;

/** a heartbeat this late (ms) means this thread was busy (vitest loads beside the preflight and probes) */
const STALL_MS = 5;
const HEARTBEAT_MS = 2;

/**
 * The target's round trip, from the requests `client` sends from now on (the preflight's, the
 * probes'): the shortest of the answers this thread read without a stall of its own during their
 * span (a heartbeat finds the stalls: an answer read late because this thread was busy, or the
 * machine's cores were taken, is no measure of the target), or of all when none is.
 */
export class RoundTrips {
  private readonly samples: Array<{ from: number; to: number }> = [];
  private readonly stalls: Array<{ from: number; to: number }> = [];
  private waiting?: { n: number; resolve: () => void };
  private beat = performance.now();
  private readonly heartbeat = setInterval(() => this.tick(), HEARTBEAT_MS);
  private readonly listener = (ex: Exchange) => {
    // one attempt, answered: its span is the target's round trip (the first answers waited for no slot)
    if (!ex.response || ex.attempts !== 1 || ex.notSent || ex.answeredAt === undefined) return;
    this.samples.push({ from: ex.answeredAt - ex.durationMs, to: ex.answeredAt });
    if (this.waiting && this.samples.length >= this.waiting.n) this.waiting.resolve();
  };

  constructor(private readonly client: StoreClient) {
    client.http.listeners.add(this.listener);
    this.heartbeat.unref();
  }

  private tick(): void {
    const now = performance.now();
    if (now - this.beat > HEARTBEAT_MS + STALL_MS) this.stalls.push({ from: this.beat, to: now });
    this.beat = now;
  }

  /** resolves once `n` answers were seen (never, if no more come: race it with what sends them) */
  answered(n: number): Promise<void> {
    if (this.samples.length >= n) return Promise.resolve();
    return new Promise((resolve) => (this.waiting = { n, resolve }));
  }

  /** stops measuring; the round trip, ms (undefined: none answered) */
  end(): number | undefined {
    this.tick();
    clearInterval(this.heartbeat);
    this.client.http.listeners.delete(this.listener);
    return roundTripOf(this.samples, this.stalls);
  }
}

/**
 * The shortest span that overlaps no stall; when every one overlaps one (this thread never ran
 * freely while it waited: vitest loading beside it, or other processes holding the cores), the
 * shortest of all — an upper bound, which can take a near target on a very busy machine for far.
 */
export function roundTripOf(samples: ReadonlyArray<{ from: number; to: number }>, stalls: ReadonlyArray<{ from: number; to: number }>): number | undefined {
  if (!samples.length) return undefined;
  const clean = samples.filter((x) => !stalls.some((st) => st.from < x.to && st.to > x.from));
  return Math.min(...(clean.length ? clean : samples).map((x) => x.to - x.from));
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
