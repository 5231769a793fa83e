/**
 * The spec-item catalogue's vocabulary. An **item** is one thing the spec lets
 * a client observe and judge — one filter key in one case, one payload
 * property in one operation, one field's form, one resource's page walk —
 * with a stable id. A **check** (a vitest test, src/check) judges a few items
 * from the same requests; its id is `<resource>.<rule>[.<subject>]` and its
 * items' ids are `<check id>#<case>`.
 *
 * Ids are stable: reports, baselines, expectations and `--only` compare by
 * them. They are derived from the schema model, never written by hand.
 */
import type { RuleId } from '../rules.js';

/** The columns of the coverage matrix (resource × kind) in report.md and report.html. */
export const ITEM_KINDS = [
  'filter', 'count', 'payload', 'limit', 'form', 'conventions', 'pagination', 'delete', 'versions', 'auth', 'store', 'observe', 'model', 'concurrency', 'invariant',
] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export interface ItemDef {
  /** `<check id>#<case>` */
  id: string;
  /** the case within the check: a filter case, a payload property, an operation… */
  case: string;
  /** the check that judges it */
  check: string;
  rule: RuleId;
  /** the resource the item is about (a check about every resource has items per resource) */
  resource: string;
  kind: ItemKind;
  /** what is judged, as a sentence */
  title: string;
}

export interface CheckDef {
  /** `<resource|all>.<rule>[.<subject>]` */
  id: string;
  rule: RuleId;
  /** resource name, or '*' for a check about every resource */
  resource: string;
  subject?: string;
  /** overrides the rule's title when the subject needs saying */
  title?: string;
  /** needs create/update/delete: not run in --read-only runs */
  writes: boolean;
  kind: ItemKind;
  items: ItemDef[];
}

/** A check as a family builder states it: the catalogue fills in ids and item records. */
export interface CheckDraft {
  rule: RuleId;
  resource: string;
  subject?: string;
  title?: string;
  writes: boolean;
  kind: ItemKind;
  /** case → what is judged in that case (a sentence) */
  cases: Array<[string, string]>;
  /** the resource of each case, when it differs from the check's (checks about every resource) */
  caseResource?: (c: string) => string;
}

export function checkIdOf(d: Pick<CheckDraft, 'rule' | 'resource' | 'subject'>): string {
  return [d.resource === '*' ? 'all' : d.resource, d.rule, d.subject].filter(Boolean).join('.');
}

export function itemIdOf(checkId: string, c: string): string {
  return `${checkId}#${c}`;
}
