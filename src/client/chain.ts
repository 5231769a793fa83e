/**
 * The critical path of a run, measured from its requests: how many round
 * trips had to wait for one another. A request that was sent (asked for) only
 * after another was answered may have waited for it; requests in flight
 * together count once. So the chain of a set of requests is the longest
 * sequence of them in which each was sent after the previous one was
 * answered — an interval chain, computed in O(n log n).
 *
 * A request's span runs from the moment its caller asked for it (waiting for
 * a slot of --concurrency or for the pace included) to its answer: two
 * requests that only queued behind each other overlap and count once. It is
 * an upper bound on the dependencies (two requests of one unit that merely
 * happened to follow each other count as a chain), exact for a unit that
 * awaits its requests round after round.
 *
 * Units combine: phases one after another add up (inSequence), units that ran
 * side by side take the longest (sideBySide).
 */
import type { Exchange } from './http.js';

/** One request as the chain sees it: asked for at `start`, answered at `end` (ms, one clock), a create/update/delete or not. */
export interface Span {
  start: number;
  end: number;
  write: boolean;
}

/** The longest chain of a unit: its round trips and the time they took; its longest chain of writes apart. */
export interface Chain {
  roundTrips: number;
  /** the time of the chain's round trips: the sum of their requests' durations */
  ms: number;
  /** writes in the longest chain of writes (a chain by their time: creates, updates, deletes one after another) */
  writes: number;
  /** the time of that chain of writes */
  writeMs: number;
}

export const NO_CHAIN: Readonly<Chain> = Object.freeze({ roundTrips: 0, ms: 0, writes: 0, writeMs: 0 });

const WRITE = /\/(create|update|delete)$/;

/** The span of an exchange (answered at its answeredAt, else at `answeredAt`); a request never sent (or not sent for this asker) has none. */
export function spanOf(ex: Exchange, answeredAt = ex.answeredAt): Span | undefined {
  // an answer shared from another's request is on that one's chain, not the asker's
  if (ex.notSent || ex.sharedFrom !== undefined || !(ex.durationMs > 0) || answeredAt === undefined) return undefined;
  const end = ex.answeredAt ?? answeredAt;
  return { start: end - ex.durationMs, end, write: WRITE.test(ex.request.path) };
}

/** The chain of these exchanges (each spanning its duration up to its answeredAt). */
export function chainOf(exchanges: readonly Exchange[]): Chain {
  return longestChain(exchanges.map((ex) => spanOf(ex)).filter((s): s is Span => s !== undefined));
}

interface Link {
  n: number;
  ms: number;
}

/**
 * The best chain of `spans` under `better`: spans taken in order of start, each
 * linked to the best chain among the spans answered before it was sent.
 */
function longest(spans: readonly Span[], better: (a: Link, b: Link) => boolean): Link {
  const byStart = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const byEnd = byStart.map((_, i) => i).sort((a, b) => byStart[a].end - byStart[b].end);
  const links: Link[] = new Array(byStart.length);
  let before: Link = { n: 0, ms: 0 };
  let overall: Link = before;
  let j = 0;
  for (let i = 0; i < byStart.length; i++) {
    const s = byStart[i];
    // every span answered by the time this one was sent started earlier, so its link is known
    for (; j < byEnd.length && byStart[byEnd[j]].end <= s.start; j++) if (better(links[byEnd[j]], before)) before = links[byEnd[j]];
    links[i] = { n: before.n + 1, ms: before.ms + (s.end - s.start) };
    if (better(links[i], overall)) overall = links[i];
  }
  return overall;
}

const moreRounds = (a: Link, b: Link) => a.n > b.n || (a.n === b.n && a.ms > b.ms);
const moreTime = (a: Link, b: Link) => a.ms > b.ms || (a.ms === b.ms && a.n > b.n);

/** The longest chain of round trips among `spans`, and the longest chain of writes (by their time). */
export function longestChain(spans: readonly Span[]): Chain {
  const all = longest(spans, moreRounds);
  const writes = longest(spans.filter((s) => s.write), moreTime);
  return { roundTrips: all.n, ms: Math.round(all.ms), writes: writes.n, writeMs: Math.round(writes.ms) };
}

/** Units that ran one after another: their chains add up. */
export function inSequence(...chains: readonly Chain[]): Chain {
  return chains.reduce<Chain>((a, c) => ({ roundTrips: a.roundTrips + c.roundTrips, ms: a.ms + c.ms, writes: a.writes + c.writes, writeMs: a.writeMs + c.writeMs }), { ...NO_CHAIN });
}

/** Units that ran side by side: the longest of them (of round trips, and apart, of writes). */
export function sideBySide(chains: readonly Chain[]): Chain {
  let rounds: Chain = NO_CHAIN;
  let writes: Chain = NO_CHAIN;
  for (const c of chains) {
    if (moreRounds({ n: c.roundTrips, ms: c.ms }, { n: rounds.roundTrips, ms: rounds.ms })) rounds = c;
    if (moreTime({ n: c.writes, ms: c.writeMs }, { n: writes.writes, ms: writes.writeMs })) writes = c;
  }
  return { roundTrips: rounds.roundTrips, ms: rounds.ms, writes: writes.writes, writeMs: writes.writeMs };
}

/** The spans of the exchanges it is given (as a client's observer or an Http listener), and their chain. */
export class ChainRecorder {
  private spans: Span[] = [];

  /** an exchange just answered (call it when the answer arrives: its end is now) */
  readonly add = (ex: Exchange): void => {
    const span = spanOf(ex, ex.answeredAt ?? performance.now());
    if (span) this.spans.push(span);
  };

  /** the chain of the requests recorded (sent at or after `since`, when given) */
  chain(since = -Infinity): Chain {
    return longestChain(since === -Infinity ? this.spans : this.spans.filter((s) => s.start >= since));
  }

  clear(): void {
    this.spans = [];
  }
}
