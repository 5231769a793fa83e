/**
 * Invariant checks across shards. Every shard of a run judges the invariants
 * (rule group `invariants`) on its own answers, so each shard's report holds
 * every invariant check: merged, a check (and an item) takes its worst result
 * — one shard's breach is the run's — where any other check must come from one
 * shard only.
 */
import { STATUS_SEVERITY } from './common.js';
import type { CheckResult, ItemResult, ItemStatus, Report } from './types.js';

const ITEM_SEVERITY: readonly ItemStatus[] = ['failed', 'expected-fail', 'error', 'unexpected-pass', 'passed', 'not-judged'];

export const isInvariantCheck = (c: Pick<CheckResult, 'group'>): boolean => c.group === 'invariants';

/** The worse of two results of one invariant check; the items' counts follow the merged items. */
export function worseCheck(a: CheckResult, b: CheckResult): CheckResult {
  return STATUS_SEVERITY.indexOf(b.status) < STATUS_SEVERITY.indexOf(a.status) ? b : a;
}

/** The worse of two results of one invariant item (a judged item beats one not judged). */
export function worseItem(a: ItemResult, b: ItemResult): ItemResult {
  return ITEM_SEVERITY.indexOf(b.status) < ITEM_SEVERITY.indexOf(a.status) ? b : a;
}

/** Items by id, once each: an invariant item judged in several shards keeps its worst result. */
export function mergeItems(items: ItemResult[]): ItemResult[] {
  const byId = new Map<string, ItemResult>();
  for (const i of items) {
    const was = byId.get(i.id);
    byId.set(i.id, was && i.kind === 'invariant' ? worseItem(was, i) : i);
  }
  return [...byId.values()];
}

/** An invariant check's item counts, from the merged items. */
export function recount(c: CheckResult, items: ItemResult[]): CheckResult {
  const mine = items.filter((i) => i.check === c.id);
  if (!mine.length) return c;
  const n = (s: ItemStatus) => mine.filter((i) => i.status === s).length;
  return { ...c, items: { total: mine.length, passed: n('passed'), failed: n('failed'), notJudged: n('not-judged'), errors: n('error') } };
}

/** The shards' invariant figures added up (each shard judged its own answers). */
export function sumInvariantFigures(reports: Report[]): Report['run']['invariants'] {
  const figures = reports.map((r) => r.run.invariants).filter((x) => x !== undefined);
  if (!figures.length) return undefined;
  return figures.reduce((a, b) => ({ answers: a.answers + b.answers, judgements: a.judgements + b.judgements, ms: a.ms + b.ms }));
}
