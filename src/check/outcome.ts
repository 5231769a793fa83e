/**
 * What a check leaves on its vitest task for the reporter (src/run/collector.ts):
 * its metadata and, once it ends, its verdict — the first failure, a target
 * error, a suite error, or skipped — drawn from its items' outcomes and from
 * whatever ended its body outside an item.
 */
import * as allure from 'allure-js-commons';
import type { Exchange } from '../client/http.js';
import { evidenceOf, trimValue, type toEvidence } from '../report/evidence.js';
import { CheckFailure, NotJudged, TargetError, isTargetError, type FailureDetail } from './failure.js';
import type { ItemBook, ItemRecord } from './items.js';
import { curlFor } from './reproducer.js';
import type { TallyJSON } from './invariants/tally.js';

export type EvidenceItem = ReturnType<typeof toEvidence>;

/** What the reporter reads from `task.meta.storecheck`. */
export interface CheckTaskMeta {
  id: string;
  title: string;
  resource: string;
  rule: string;
  group: string;
  section: string;
  level: string;
  /** the first failure (check-level, or of an item): report.checks[].message etc. */
  failure?: Omit<FailureDetail, 'evidence'> & { evidence?: EvidenceItem[]; curl?: string; item?: string };
  targetError?: { message: string; evidence?: EvidenceItem[] };
  skipped?: string;
  /** a bug of the suite (not a verdict on the target) */
  suiteError?: string;
  /** outcome per item case */
  items: Record<string, ItemRecord>;
  /** what the invariants found in the answers of this check's requests (src/check/invariants), per invariant item */
  invariants?: TallyJSON;
  requests: number;
  /** round trips one after another among its requests (its chain: src/client/chain.ts), once it ended */
  roundTrips?: number;
  /** waits for a write to show (eventually()) that reached the visibility deadline (src/check/visibility.ts) */
  waitsAtDeadline?: number;
  seed: number;
}

/** A failure as an item records it: evidence converted, a curl reproducer of the last exchange. */
export function failureRecord(d: FailureDetail, fallback: Exchange[]): Omit<FailureDetail, 'evidence'> & { evidence?: unknown[]; curl?: string } {
  const given = (d.evidence ?? []).filter((x): x is Exchange => !!x);
  const ev = given.length ? given : fallback.slice(-2);
  return {
    message: d.message,
    expected: d.expected,
    actual: d.actual,
    seed: d.seed,
    path: d.path,
    counterexample: d.counterexample === undefined ? undefined : trimValue(d.counterexample),
    evidence: evidenceOf(ev),
    curl: ev.length ? curlFor(ev[ev.length - 1]) : undefined,
  };
}

/** The evidence of a target error: what it carries, or the last exchange that went wrong. */
export function targetErrorEvidence(e: TargetError, exchanges: Exchange[]): EvidenceItem[] {
  return evidenceOf(e.evidence.length ? e.evidence : exchanges.filter(isTargetError).slice(-1));
}

/** What ended the check body outside an item: every item not judged yet takes it. */
export function recordCheckLevel(meta: CheckTaskMeta, book: ItemBook, e: unknown, exchanges: Exchange[], selected: (c: string) => boolean): void {
  if (e instanceof NotJudged) {
    book.settle(e.reason, selected);
    return;
  }
  if (e instanceof TargetError) {
    const ev = targetErrorEvidence(e, exchanges);
    meta.targetError = { message: e.message, evidence: ev };
    for (const c of book.def.items.map((i) => i.case)) if (!book.get(c) && selected(c)) book.error(c, e.message, ev);
    return;
  }
  if (e instanceof CheckFailure) {
    const rec = failureRecord(e.detail, exchanges);
    meta.failure = { ...rec, evidence: rec.evidence as EvidenceItem[] };
    book.settle(`the check failed before judging it: ${e.detail.message}`, selected);
    return;
  }
  meta.suiteError = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  book.settle(`not judged: a storecheck error ended the check (${meta.suiteError})`, selected);
}

/** The check's verdict from its items, unless its body already ended it (a failure or a suite error). */
export function conclude(meta: CheckTaskMeta, book: ItemBook): void {
  if (meta.failure || meta.suiteError) return;
  const failed = book.first('failed');
  if (failed) {
    const [c, rec] = failed;
    meta.failure = { ...(rec as Omit<ItemRecord, 'status'>), message: rec.message ?? 'failed', evidence: rec.evidence as EvidenceItem[], item: c };
    return;
  }
  const err = book.first('error');
  if (err && !meta.targetError) meta.targetError = { message: err[1].message ?? 'the target did not answer', evidence: err[1].evidence as EvidenceItem[] };
}

/** The failure's reproducer and evidence as Allure attachments. */
export async function attachToAllure(meta: CheckTaskMeta): Promise<void> {
  const detail = meta.failure ?? meta.targetError;
  if (!detail) return;
  if (meta.failure?.curl) await allure.attachment('reproducer.sh', meta.failure.curl, 'text/plain');
  await allure.attachment('evidence.json', JSON.stringify(detail, null, 2), 'application/json');
}
