/**
 * The spec-item catalogue: every check and every item a run judges, derived
 * from the schema model (src/schema/model.ts) and the rules table
 * (src/rules.ts), in a fixed order. Suites register their checks from it
 * (`checksOf(rule)`), the run knows the total before the first check, reports
 * compute coverage against it, and the reference server's generated faults
 * aim at its items. Adding a resource is a schema plus seed data (a schema in
 * schemas/, a builder in reference/seed/builders.ts): its checks and items
 * follow, the suites register them, the generated faults and the reports take
 * them in — test/unit/sixteenth-resource.test.ts proves it with a fixture
 * resource (schemas/README.md "Adding a resource").
 */
import { rule as ruleOf, type RuleId } from '../rules.js';
import { resources } from '../schema/model.js';
import { filterChecks } from './filters.js';
import { authChecks, conventionsChecks, formatChecks, observeChecks, paginationChecks, storeChecks } from './reads.js';
import { checkIdOf, itemIdOf, type CheckDef, type CheckDraft, type ItemDef } from './types.js';
import { writeChecks } from './writes.js';
import { modelChecks } from './model.js';
import { invariantChecks } from './invariants.js';

export { ITEM_KINDS, checkIdOf, itemIdOf, type CheckDef, type CheckDraft, type ItemDef, type ItemKind } from './types.js';
export { arrayCases, rangePairs, GET_ONLY_CASES } from './filters.js';
export { MODEL_COMMANDS, modelCommands, type ModelCommand } from './model.js';
export { INVARIANT_OPS, INVARIANT_RULES, isInvariantRule } from './invariants.js';
export { comparableProps, fieldOf, isText, LIMIT_PROPS, type Form, type LimitRule } from './writes.js';

/** The catalogue as built from drafts: checks in order, and both looked up by id. */
export interface Catalogue {
  checks: CheckDef[];
  byId: Map<string, CheckDef>;
  items: Map<string, ItemDef>;
}

let cache: Catalogue | undefined;

/** The drafts of every check family, in report order: per resource in §1 order, then the checks about all of them. */
function drafts(): CheckDraft[] {
  const out: CheckDraft[] = [];
  for (const r of resources()) {
    out.push(...conventionsChecks(r), ...formatChecks(r), ...writeChecks(r), ...modelChecks(r), ...filterChecks(r), ...paginationChecks(r), ...authChecks(r), ...storeChecks(r), ...invariantChecks(r));
  }
  out.push(...observeChecks());
  return out;
}

/**
 * Checks and items with their ids, from drafts. Ids must be unique (reports,
 * baselines and --only compare by them) and every check must judge an item:
 * a draft that breaks either is a bug of a family builder, thrown here.
 */
export function buildCatalogue(from: readonly CheckDraft[]): Catalogue {
  const checks: CheckDef[] = [];
  const byId = new Map<string, CheckDef>();
  const items = new Map<string, ItemDef>();
  for (const d of from) {
    const id = checkIdOf(d);
    if (byId.has(id)) throw new Error(`item catalogue: two checks with the id ${id}`);
    const r = ruleOf(d.rule);
    const def: CheckDef = {
      id, rule: d.rule, resource: d.resource, writes: d.writes, kind: d.kind, items: [],
      ...(d.subject !== undefined ? { subject: d.subject } : {}),
      ...(d.title !== undefined ? { title: d.title } : {}),
    };
    for (const [c, title] of d.cases) {
      const itemId = itemIdOf(id, c);
      if (items.has(itemId)) throw new Error(`item catalogue: two items with the id ${itemId}`);
      const item: ItemDef = { id: itemId, case: c, check: id, rule: d.rule, resource: d.caseResource?.(c) ?? d.resource, kind: d.kind, title };
      def.items.push(item);
      items.set(itemId, item);
    }
    if (!def.items.length) throw new Error(`item catalogue: check ${id} judges no item (${r.title})`);
    checks.push(def);
    byId.set(id, def);
  }
  return { checks, byId, items };
}

const build = (): Catalogue => buildCatalogue(drafts());

/** Every check of the catalogue, in report order (resources in §1 order, then the checks about all of them). */
export function catalogue(): readonly CheckDef[] {
  return (cache ??= build()).checks;
}

/** Every item of the catalogue. */
export function allItems(): ItemDef[] {
  return catalogue().flatMap((c) => c.items);
}

export function checkDef(id: string): CheckDef {
  const def = (cache ??= build()).byId.get(id);
  if (!def) throw new Error(`no check ${id} in the item catalogue (src/items)`);
  return def;
}

export function findCheckDef(id: string): CheckDef | undefined {
  return (cache ??= build()).byId.get(id);
}

export function itemDef(id: string): ItemDef | undefined {
  return (cache ??= build()).items.get(id);
}

/** The check of a rule on a resource without a subject (`<resource>.<rule>`); throws when the catalogue has none. */
export function checkOf(rule: RuleId, resource: string): CheckDef {
  return checkDef(checkIdOf({ rule, resource }));
}

/** The checks of one rule (optionally of one resource), in catalogue order. */
export function checksOf(rule: string, resource?: string): CheckDef[] {
  return catalogue().filter((c) => c.rule === rule && (resource === undefined || c.resource === resource));
}
