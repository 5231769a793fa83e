/**
 * Failures grouped by the rule they break: a run with 46 failures from two
 * root causes reads as two groups ("filters.range ×34 on 9 resources", "…×12
 * on 3 resources"), not one flat list. Used by report.md, report.html and the
 * terminal's closing summary. Pure but for the resources' §1 order, read once
 * from the schema files (src/schema/sources.ts: no validator is made).
 */
import { RULES, type Rule } from '../rules.js';
import { resourceOrder } from '../schema/sources.js';
import type { CheckResult } from './types.js';

export interface FailureGroup {
  /** the rule id, e.g. filters.range */
  rule: string;
  /** the rule's spec section, e.g. '§4 Filter naming' */
  section: string;
  /** the rule's level: must, quirk or observe */
  level: string;
  /** the rule as a sentence (src/rules.ts) */
  title: string;
  /** the failed checks of the rule, by resource (catalogue order), then id */
  checks: CheckResult[];
  /** the distinct resources of those checks, in catalogue order ('*', cross-resource, last) */
  resources: string[];
}

/** A rule of the table, or undefined for an id it does not hold (an older or foreign report.json). */
function knownRule(id: string): Rule | undefined {
  return Object.hasOwn(RULES, id) ? (RULES as Record<string, Rule>)[id] : undefined;
}

/** Catalogue (§1) order; resources the catalogue does not know after it, by name; '*' last. */
export function compareResources(a: string, b: string): number {
  const order = resourceOrder();
  const rank = (r: string) => {
    if (r === '*') return order.length + 1;
    const i = order.indexOf(r);
    return i === -1 ? order.length : i;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The failed checks (status 'failed') grouped by rule: the largest group first,
 * ties by rule id. Title, section and level come from src/rules.ts; a rule the
 * table does not hold takes them from its first check.
 */
export function failureGroups(checks: CheckResult[]): FailureGroup[] {
  const byRule = new Map<string, CheckResult[]>();
  for (const c of checks) {
    if (c.status !== 'failed') continue;
    const id = String(c.rule ?? '');
    const list = byRule.get(id);
    if (list) list.push(c);
    else byRule.set(id, [c]);
  }
  const groups: FailureGroup[] = [];
  for (const [id, list] of byRule) {
    const sorted = [...list].sort((a, b) => compareResources(a.resource, b.resource) || byCodePoint(a.id, b.id));
    const known = knownRule(id);
    const first = sorted[0];
    groups.push({
      rule: id,
      section: known?.section ?? first.section,
      level: known?.level ?? first.level,
      title: known?.title ?? first.title,
      checks: sorted,
      resources: [...new Set(sorted.map((c) => c.resource))],
    });
  }
  return groups.sort((a, b) => b.checks.length - a.checks.length || byCodePoint(a.rule, b.rule));
}

/** "×34 on 9 resources" (plain text; the views escape what they show around it). */
export function failureGroupCount(g: FailureGroup): string {
  return `×${g.checks.length} on ${g.resources.length} resource${g.resources.length === 1 ? '' : 's'}`;
}

/** "filters.range ×34 on 9 resources — <rule title> (§4 Filter naming)", plain text, unescaped. */
export function failureGroupHeadline(g: FailureGroup): string {
  return `${g.rule} ${failureGroupCount(g)} — ${g.title} (${g.section})`;
}
