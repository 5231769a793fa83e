/**
 * How many check files run at once (vitest workers), decided when the checks
 * start: once vitest has loaded and the preflight's and the probes' answers
 * have measured the target's round trip (RoundTrips).
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
 * How many answers read clear of a stall the round trip is measured on (the shortest of them).
 * Vitest loads in this thread beside the preflight and the probes, in long synchronous steps: an
 * answer that arrives meanwhile is read late, and a store on this machine (1-2 ms) would measure
 * 20-70 ms. The workers cannot start before vitest has loaded, so waiting for answers read after it
 * costs about one round trip.
 */
export const ROUND_TRIP_SAMPLES = 4;

/** a heartbeat this late (ms) means this thread was busy, or the machine's cores were taken */
const STALL_MS = 5;
const HEARTBEAT_MS = 2;

interface Span { from: number; to: number }

/**
 * The target's round trip, from the requests `client` sends from now on (the preflight's, the
 * probes'): the shortest of the answers this thread read without a stall of its own during their
 * span (a heartbeat finds the stalls). None read clear of one: not measured — this thread never
 * ran freely while it waited, so the run is bound by the CPU, not by the target's distance.
 */
export class RoundTrips {
  private readonly samples: Span[] = [];
  private readonly stalls: Span[] = [];
  private waiting?: { n: number; resolve: () => void };
  /** samples judged so far, and how many of them were read clear of a stall */
  private judged = 0;
  private clear = 0;
  private beat = performance.now();
  private readonly heartbeat = setInterval(() => this.tick(), HEARTBEAT_MS);
  private readonly listener = (ex: Exchange) => {
    // one attempt, sent and answered (not a shared read): its span is the target's round trip (the first answers waited for no slot)
    if (!ex.response || ex.attempts !== 1 || ex.notSent || ex.sharedFrom !== undefined || ex.answeredAt === undefined) return;
    this.samples.push({ from: ex.answeredAt - ex.durationMs, to: ex.answeredAt });
  };

  constructor(private readonly client: StoreClient) {
    client.http.listeners.add(this.listener);
    this.heartbeat.unref();
  }

  private tick(): void {
    const now = performance.now();
    if (now - this.beat > HEARTBEAT_MS + STALL_MS) this.stalls.push({ from: this.beat, to: now });
    this.beat = now;
    // an answer is known clear once a heartbeat after it came in time (each judged once: samples and stalls are in time order)
    while (this.judged < this.samples.length && this.samples[this.judged].to < now) {
      if (!overlapsStall(this.samples[this.judged], this.stalls)) this.clear++;
      this.judged++;
    }
    if (this.waiting && this.clear >= this.waiting.n) this.waiting.resolve();
  }

  /** resolves once `n` answers were read clear of a stall (never, if no more come: race it with what sends them) */
  clearAnswers(n: number): Promise<void> {
    return new Promise((resolve) => (this.waiting = { n, resolve }));
  }

  /** stops measuring; the round trip, ms (undefined: no answer read clear of a stall) */
  end(): number | undefined {
    this.tick();
    clearInterval(this.heartbeat);
    this.client.http.listeners.delete(this.listener);
    return roundTripOf(this.samples, this.stalls);
  }
}

/** Does `x` overlap a stall? (stalls in time order: the latest first, back to the first that ended before it) */
function overlapsStall(x: Span, stalls: readonly Span[]): boolean {
  for (let i = stalls.length - 1; i >= 0 && stalls[i].to > x.from; i--) if (stalls[i].from < x.to) return true;
  return false;
}

/** The shortest span that overlaps no stall (undefined: none). */
export function roundTripOf(samples: readonly Span[], stalls: readonly Span[]): number | undefined {
  const clean = samples.filter((x) => !overlapsStall(x, stalls));
  return clean.length ? Math.min(...clean.map((x) => x.to - x.from)) : undefined;
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
