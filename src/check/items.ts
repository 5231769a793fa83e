/**
 * The outcomes of one check's spec items (src/items): each item ends passed,
 * failed, error (the target did not answer) or not judged (with the reason).
 * An item judged several times (several values, several property runs) keeps
 * its worst outcome: failed > error > passed > not judged; a failure is never
 * overwritten by a later pass.
 */
import type { CheckDef } from '../items/index.js';
import type { FailureDetail } from './failure.js';

export type ItemOutcome = 'passed' | 'failed' | 'error' | 'not-judged';

/** What the worker records per item (task meta, read by the collector in the main process). */
export interface ItemRecord {
  status: ItemOutcome;
  message?: string;
  expected?: unknown;
  actual?: unknown;
  /** redacted exchanges, already converted (src/report/evidence.ts) */
  evidence?: unknown[];
  curl?: string;
  seed?: number;
  path?: string;
  counterexample?: unknown;
  reason?: string;
  /** the value classes the item was judged with, and those not judged on it with why (docs/value-classes.md) */
  classes?: ItemClassRecord;
}

export interface ItemClassRecord {
  judged: string[];
  notJudged: Array<{ class: string; reason: string }>;
}

const RANK: Record<ItemOutcome, number> = { 'not-judged': 0, passed: 1, error: 2, failed: 3 };

export class ItemBook {
  readonly records = new Map<string, ItemRecord>();
  /** classes per case, kept apart from the outcome (a later, worse outcome replaces the record, not its classes) */
  private readonly classBook = new Map<string, { judged: Set<string>; notJudged: Map<string, string> }>();
  private readonly cases: Set<string>;

  constructor(readonly def: CheckDef) {
    this.cases = new Set(def.items.map((i) => i.case));
  }

  /** Throws on a case the catalogue does not list for this check: a typo is a suite bug, not a verdict. */
  assertCase(c: string): void {
    if (!this.cases.has(c)) throw new Error(`check ${this.def.id} judges no item "${c}" (its items: ${[...this.cases].join(', ')}); see src/items`);
  }

  get(c: string): ItemRecord | undefined {
    return this.records.get(c);
  }

  private set(c: string, rec: ItemRecord, replace = false): void {
    this.assertCase(c);
    const now = this.records.get(c);
    if (!now || RANK[rec.status] > RANK[now.status] || (replace && rec.status === now.status)) this.records.set(c, rec);
  }

  pass(c: string): void {
    this.set(c, { status: 'passed' });
  }

  notJudged(c: string, reason: string): void {
    this.set(c, { status: 'not-judged', reason });
  }

  error(c: string, message: string, evidence?: unknown[]): void {
    this.set(c, { status: 'error', message, ...(evidence?.length ? { evidence } : {}) });
  }

  /** `replace`: a shrunk counterexample of the same property replaces the first failure seen. */
  fail(c: string, detail: Omit<FailureDetail, 'evidence'> & { evidence?: unknown[]; curl?: string }, replace = false): void {
    const rec: ItemRecord = { status: 'failed', message: detail.message };
    for (const k of ['expected', 'actual', 'evidence', 'curl', 'seed', 'path', 'counterexample'] as const) {
      if (detail[k] !== undefined) (rec as unknown as Record<string, unknown>)[k] = detail[k];
    }
    this.set(c, rec, replace);
  }

  /**
   * The value classes an item was judged with (a class judged by any value
   * counts), and those it could not be judged with, with why; a class once
   * judged is never reported not judged.
   */
  classes(c: string, judged: readonly string[], notJudged: ReadonlyArray<{ class: string; reason: string }> = []): void {
    this.assertCase(c);
    let b = this.classBook.get(c);
    if (!b) this.classBook.set(c, (b = { judged: new Set(), notJudged: new Map() }));
    for (const n of judged) b.judged.add(n);
    for (const x of notJudged) if (!b.notJudged.has(x.class)) b.notJudged.set(x.class, x.reason);
  }

  /** Items not recorded yet get `reason` (the check ended, failed or was stopped before judging them). */
  settle(reason: string, selected: (c: string) => boolean): string[] {
    const filled: string[] = [];
    for (const c of this.cases) {
      if (this.records.has(c) || !selected(c)) continue;
      this.records.set(c, { status: 'not-judged', reason });
      filled.push(c);
    }
    return filled;
  }

  count(status: ItemOutcome): number {
    let n = 0;
    for (const r of this.records.values()) if (r.status === status) n++;
    return n;
  }

  first(status: ItemOutcome): [string, ItemRecord] | undefined {
    for (const c of this.cases) {
      const r = this.records.get(c);
      if (r?.status === status) return [c, r];
    }
    return undefined;
  }

  toJSON(): Record<string, ItemRecord> {
    const out: Record<string, ItemRecord> = {};
    for (const [c, rec] of this.records) {
      const b = this.classBook.get(c);
      out[c] = b ? { ...rec, classes: { judged: [...b.judged].sort(), notJudged: [...b.notJudged].filter(([n]) => !b.judged.has(n)).sort().map(([n, reason]) => ({ class: n, reason })) } } : rec;
    }
    return out;
  }
}
