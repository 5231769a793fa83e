/**
 * What the invariants found, per item: how many answers each judged, how many
 * broke it, and the first violations (each with the asker whose request
 * showed it, the exchange as evidence and a curl reproducer). A check keeps
 * one tally of its answers (on its task, for the main process); the main
 * process adds them up, with its own of the probes' answers
 * (src/run/invariants.ts). Plain JSON: it crosses from the workers in task meta.
 */
import type { Exchange } from '../../client/http.js';
import { evidenceOf } from '../../report/evidence.js';
import type { HttpExchange } from '../../report/types.js';
import { curlFor } from '../reproducer.js';
import { answerOf, judgeAnswer, type Finding, type InvariantReadings } from './judge.js';

/** One answer that broke an invariant. */
export interface Violation extends Finding {
  /** the item (`<check>#<case>`), check, or run phase ('the probes') whose request it answered */
  seenBy: string;
  evidence: HttpExchange[];
  curl: string;
}

export interface InvariantOutcome {
  /** answers judged */
  judged: number;
  /** answers that broke it */
  failed: number;
  /** the violations kept: at most KEPT, of distinct askers, the first askers in id order */
  violations: Violation[];
  /** every asker whose answer broke it (at most ASKERS) */
  seenBy: string[];
  /** per cause (Finding.causes), the violation of its first asker in id order (at most CAUSES causes, the first in text order) */
  byCause?: Record<string, Violation>;
}

/** Causes of an invariant item that the check designed for the same property reported itself (InvariantTally.claim). */
export interface Claim {
  /** the checks that reported them */
  by: string[];
  causes: string[];
}

export interface TallyJSON {
  /** per invariant item id */
  items: Record<string, InvariantOutcome>;
  /** answers judged (each by every invariant that applies to it) */
  answers: number;
  /** time spent judging them, ms (wall clock of synchronous work: CPU time on an idle machine, more where a thread waits for a core) */
  ms: number;
  /** per invariant item id, the causes a designed check reported (one failure per cause) */
  claimed?: Record<string, Claim>;
}

const KEPT = 3;
const ASKERS = 25;
const CAUSES = 16;
const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

export class InvariantTally {
  private readonly items = new Map<string, InvariantOutcome>();
  private readonly claims = new Map<string, Claim>();
  answers = 0;
  ms = 0;

  /** Judge one exchange, made for `seenBy` (nothing when it is no answer an invariant judges). */
  see(ex: Exchange, seenBy: string, k: InvariantReadings): void {
    const started = performance.now();
    try {
      this.judge(ex, seenBy, k);
    } finally {
      this.ms += performance.now() - started;
    }
  }

  private judge(ex: Exchange, seenBy: string, k: InvariantReadings): void {
    const a = answerOf(ex, k);
    if (!a) return;
    const judged = judgeAnswer(a, k);
    if (judged.length) this.answers++;
    for (const { item, finding } of judged) {
      const o = this.outcome(item.id);
      o.judged++;
      if (!finding) continue;
      o.failed++;
      this.keep(o, { ...finding, seenBy, evidence: evidenceOf([ex]), curl: curlFor(ex) });
    }
  }

  /**
   * The check `by`, designed for the property an invariant item judges (the
   * record schema of one form), failed for these causes itself: the invariant
   * reports only the causes no such check reported (src/run/invariants.ts).
   */
  claim(itemId: string, by: string, causes: readonly string[]): void {
    const c = this.claims.get(itemId) ?? { by: [], causes: [] };
    if (!c.by.includes(by)) c.by = [...c.by, by].sort(byText);
    c.causes = [...new Set([...c.causes, ...causes])].sort(byText);
    this.claims.set(itemId, c);
  }

  claimed(itemId: string): Claim | undefined {
    return this.claims.get(itemId);
  }

  /** Add another tally (a check's, from its task meta) to this one. */
  add(other: TallyJSON | undefined): void {
    if (!other) return;
    this.answers += other.answers;
    this.ms += other.ms;
    for (const [id, x] of Object.entries(other.items)) {
      const o = this.outcome(id);
      o.judged += x.judged;
      o.failed += x.failed;
      for (const v of x.violations) this.keep(o, v);
      for (const v of Object.values(x.byCause ?? {})) this.keepCauses(o, v);
      for (const by of x.seenBy) if (!o.seenBy.includes(by) && o.seenBy.length < ASKERS) o.seenBy.push(by);
    }
    for (const [id, c] of Object.entries(other.claimed ?? {})) for (const by of c.by) this.claim(id, by, c.causes);
  }

  get(itemId: string): InvariantOutcome | undefined {
    return this.items.get(itemId);
  }

  toJSON(): TallyJSON {
    return { items: Object.fromEntries(this.items), answers: this.answers, ms: this.ms, ...(this.claims.size ? { claimed: Object.fromEntries(this.claims) } : {}) };
  }

  private outcome(id: string): InvariantOutcome {
    let o = this.items.get(id);
    if (!o) this.items.set(id, (o = { judged: 0, failed: 0, violations: [], seenBy: [] }));
    return o;
  }

  /** The violations kept are those of the first askers in id order: the same whatever order the answers came in. */
  private keep(o: InvariantOutcome, v: Violation): void {
    this.keepCauses(o, v);
    if (!o.seenBy.includes(v.seenBy) && o.seenBy.length < ASKERS) o.seenBy.push(v.seenBy);
    if (o.violations.some((x) => x.seenBy === v.seenBy)) return;
    o.violations.push(v);
    o.violations.sort((x, y) => (x.seenBy < y.seenBy ? -1 : x.seenBy > y.seenBy ? 1 : 0));
    o.violations.length = Math.min(o.violations.length, KEPT);
  }

  /** Per cause, the violation of the first asker in id order; the first CAUSES causes in text order: the same whatever order the answers came in. */
  private keepCauses(o: InvariantOutcome, v: Violation): void {
    if (!v.causes?.length) return;
    const by = (o.byCause ??= {});
    for (const cause of v.causes) {
      const had = by[cause];
      if (!had || v.seenBy < had.seenBy) by[cause] = v;
    }
    const keys = Object.keys(by).sort(byText);
    for (const extra of keys.slice(CAUSES)) delete by[extra];
  }
}
