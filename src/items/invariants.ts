/**
 * Items judged on every answer the run receives (the check kit's invariant
 * layer, src/check/invariants): properties that hold for every get, count,
 * create, update and store answer, whichever check, item or probe asked.
 *   <r>.invariants.ids-unique          #get (#create #update for writable resources)
 *   <r>.invariants.record-schema       #get (#create #update); store: #get
 *   <r>.invariants.page-bound          #get
 *   <r>.invariants.count-form          #count
 *   <r>.invariants.only-asked-ids      #get #count
 *   <r>.invariants.filter-satisfied    #get
 * No suite file registers them: the kit judges them on the answers of every
 * other check (no request of their own) and the run reports them
 * (src/check/invariants/results.ts). An item is judged once at least one
 * answer of its operation was; a violation fails it, naming the item (or
 * probe) whose request showed it.
 */
import type { RuleId } from '../rules.js';
import type { Operation, ResourceModel } from '../schema/model.js';
import type { CheckDraft } from './types.js';

/** Invariant rule → the operations whose answers it judges, and what it says of them. */
export const INVARIANT_OPS: Readonly<Record<string, { ops: readonly Operation[]; says: string }>> = {
  'invariants.ids-unique': { ops: ['get', 'create', 'update'], says: 'every {op} answer lists each id once' },
  'invariants.record-schema': { ops: ['get', 'create', 'update'], says: 'every record of every {op} answer matches its schema' },
  'invariants.page-bound': { ops: ['get'], says: 'no {op} answer holds more records than pageSize asks or the cap allows' },
  'invariants.count-form': { ops: ['count'], says: 'every {op} answer is a string holding a non-negative integer' },
  'invariants.only-asked-ids': { ops: ['get', 'count'], says: 'a {op} filtered by id reaches only the ids asked' },
  'invariants.filter-satisfied': { ops: ['get'], says: 'every record of a filtered {op} satisfies its filters' },
};

export const INVARIANT_RULES = Object.keys(INVARIANT_OPS) as RuleId[];

/** Is this a rule the kit judges on every answer (no suite registers its checks)? */
export const isInvariantRule = (rule: string): boolean => Object.prototype.hasOwnProperty.call(INVARIANT_OPS, rule);

export function invariantChecks(r: ResourceModel): CheckDraft[] {
  const out: CheckDraft[] = [];
  for (const rule of INVARIANT_RULES) {
    // the store answers one object: only its schema is an invariant of it
    if (r.single && rule !== 'invariants.record-schema') continue;
    const { ops, says } = INVARIANT_OPS[rule];
    const cases = ops.filter((op) => r.operations.includes(op)).map((op): [string, string] => [op, says.replace('{op}', r.single ? 'store get' : op)]);
    if (cases.length) out.push({ rule, resource: r.name, writes: false, kind: 'invariant', cases });
  }
  return out;
}
