/**
 * Coverage: how many spec items of the checks a run selected were judged
 * (passed, failed, or listed in --expect), and why the others were not — per
 * resource × item kind for the matrix, and as one line for the verdict
 * ("1 912 of 1 960 spec items judged; 48 not judged: no orders on the target").
 */
import type { Coverage, ItemKind, ItemResult } from './types.js';

const JUDGED = new Set<ItemResult['status']>(['passed', 'failed', 'expected-fail', 'unexpected-pass']);
/** reasons listed with their first items, and item ids listed per reason */
const MAX_REASONS = 20;
const MAX_IDS = 20;

export function isJudged(i: Pick<ItemResult, 'status'>): boolean {
  return JUDGED.has(i.status);
}

/** Why an item was not judged, as one sentence (errors grouped by their message). */
function reasonOf(i: ItemResult): string {
  if (i.status === 'error') return `the target did not answer: ${i.message ?? 'no usable answer'}`;
  return i.reason ?? 'not judged';
}

export function computeCoverage(items: readonly ItemResult[]): Coverage {
  const total = items.length;
  const judged = items.filter(isJudged).length;
  const byReason = new Map<string, string[]>();
  const cells = new Map<string, { resource: string; kind: ItemKind; total: number; judged: number; failed: number }>();
  for (const i of items) {
    const key = `${i.resource}\u0000${i.kind}`;
    const cell = cells.get(key) ?? { resource: i.resource, kind: i.kind, total: 0, judged: 0, failed: 0 };
    cell.total++;
    if (isJudged(i)) cell.judged++;
    if (i.status === 'failed') cell.failed++;
    cells.set(key, cell);
    if (!isJudged(i)) {
      const why = reasonOf(i);
      const list = byReason.get(why) ?? [];
      list.push(i.id);
      byReason.set(why, list);
    }
  }
  const reasons = [...byReason]
    .map(([reason, ids]) => ({ reason, count: ids.length, items: ids.slice(0, MAX_IDS) }))
    .sort((a, b) => b.count - a.count)
    .slice(0, MAX_REASONS);
  return {
    total,
    judged,
    notJudged: total - judged,
    percent: total === 0 ? 0 : Math.floor((10_000 * judged) / total) / 100,
    reasons,
    matrix: [...cells.values()],
    classes: classCoverage(items),
  };
}

/** Items × value classes: the (item, class) pairs judged — the item judged and the class among its judged classes — and the others. */
export function classCoverage(items: readonly ItemResult[]): NonNullable<Coverage['classes']> {
  let judged = 0;
  let notJudged = 0;
  let withClasses = 0;
  for (const i of items) {
    const c = i.classes;
    if (!c) continue;
    if (isJudged(i)) {
      judged += c.judged.length;
      notJudged += c.notJudged.length;
      if (c.judged.length) withClasses++;
    } else notJudged += c.judged.length + c.notJudged.length;
  }
  return { judged, notJudged, items: withClasses };
}

/** 1912 → '1 912' (a thin space groups thousands, as the verdict line reads). */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** "1 912 of 1 960 spec items judged; 48 not judged: no orders on the target (+2 other reasons)" */
export function coverageLine(c: Coverage): string {
  const head = `${grouped(c.judged)} of ${grouped(c.total)} spec items judged`;
  if (c.notJudged === 0) return head;
  const top = c.reasons[0];
  const others = c.reasons.length - 1;
  return `${head}; ${grouped(c.notJudged)} not judged: ${top?.reason ?? 'see report'}${others > 0 ? ` (+${others} other reason${others === 1 ? '' : 's'})` : ''}`;
}
