/**
 * Items judged on what a target shows (§2 Conventions, §4 Formatting,
 * pagination and the cap, §5 Authentication, the store, and the consistency
 * of the behaviours the spec leaves open):
 *   <r>.conventions.<rule>              #get       (and .create / .update #answer for writable resources)
 *   <r>.format.get.<rule>.<leaf>        #get       every boolean and dot/comma decimal, at any depth
 *   <r>.format.write.<rule>.<field>     #create #update
 *   <r>.pagination.page-size            #explicit #below-one
 *   <r>.pagination.partition            #walk
 *   <r>.pagination.count-total          #total #over-1000
 *   <r>.pagination.cap-1000             #default-get #page-size-over-cap
 *   <r>.auth.<rule>                     #get #count (#create #update #delete for invalid-key-no-change)
 *   <r>.auth.near-miss-no-records       #get #count (store: #get), each judged with near-miss keys
 *   <r>.auth.near-miss-no-change        #create #update #delete   (the cases, value classes of the key:
 *                                       every case on every operation by some resource in every run,
 *                                       each resource its share by depth; deep: every case everywhere)
 *   store.store.<rule>                  #get
 *   all.observe.consistent.<behaviour>  #<resource>  (the readings of stack defaults among them: id-case,
 *                                       createdon-zone, integer-width, decimal-scale)
 */
import { resources, type FieldModel, type ResourceModel, type ScalarKind } from '../schema/model.js';
import { leaves } from '../schema/leaves.js';
import type { RuleId } from '../rules.js';
import type { CheckDraft } from './types.js';
import { NEAR_MISS_CASES } from '../values/near-miss.js';

const hasKind = (fields: FieldModel[], kind: ScalarKind) => leaves(fields).some((l) => l.field.kind === kind);
const GET: Array<[string, string]> = [['get', 'judged on the records get returns']];
const ANSWER = (op: string): Array<[string, string]> => [['answer', `judged on the records the ${op} answers`]];

export function conventionsChecks(r: ResourceModel): CheckDraft[] {
  const base = { resource: r.name, kind: 'conventions' } as const;
  const out: CheckDraft[] = [];
  const add = (rule: RuleId, applies: (fields: FieldModel[]) => boolean, forms: { get: boolean; write: boolean }) => {
    if (forms.get && applies(r.fields)) out.push({ ...base, rule, writes: false, cases: GET });
    if (!forms.write || !r.writable) return;
    const writeFields = r.writeFields.length ? r.writeFields : r.fields;
    if (!applies(writeFields)) return;
    for (const op of ['create', 'update']) out.push({ ...base, rule, subject: op, writes: true, cases: ANSWER(op) });
  };
  add('conventions.scalar-strings', () => true, { get: true, write: true });
  add('conventions.guid-form', (f) => hasKind(f, 'guid'), { get: true, write: true });
  add('conventions.datetime-form', (f) => hasKind(f, 'datetime'), { get: true, write: true });
  add('conventions.date-form', (f) => hasKind(f, 'date'), { get: true, write: true });
  add('conventions.audit-fields', () => !r.single, { get: true, write: false });
  // the store's record schema too: store get returns one object (§4 Responses)
  add('conventions.record-schema', () => true, { get: true, write: false });
  add('conventions.write-record-schema', () => true, { get: false, write: true });
  return out;
}

export function formatChecks(r: ResourceModel): CheckDraft[] {
  const out: CheckDraft[] = [];
  for (const leaf of leaves(r.fields)) {
    const f = leaf.field;
    const rule: RuleId | undefined = f.kind === 'boolean' ? 'format.get.boolean'
      : f.kind === 'decimal' && f.separator === '.' ? 'format.get.decimal-dot'
        : f.kind === 'decimal' && f.separator === ',' ? 'format.get.decimal-comma' : undefined;
    if (rule) out.push({ rule, resource: r.name, subject: leaf.subject, writes: false, kind: 'form', cases: [['get', `get shows ${leaf.subject} in its get form`]] });
  }
  if (r.writable) {
    for (const f of r.writeFields) {
      const rule: RuleId | undefined = f.quirk ? 'format.write.product-size-zero'
        : f.kind === 'boolean' ? 'format.write.boolean'
          : f.kind === 'decimal' && f.separator === ',' ? 'format.write.decimal-comma' : undefined;
      if (!rule) continue;
      out.push({
        rule, resource: r.name, subject: f.name, writes: true, kind: 'form',
        cases: [['create', `the create answer shows ${f.name} in its write form`], ['update', `the update answer shows ${f.name} in its write form`]],
      });
    }
  }
  return out;
}

const LIST = () => resources().filter((r) => !r.single && r.operations.includes('get'));

export function paginationChecks(r: ResourceModel): CheckDraft[] {
  if (r.single || !r.operations.includes('get')) return [];
  const base = { resource: r.name, writes: r.writable, kind: 'pagination' } as const;
  return [
    { ...base, rule: 'pagination.page-size', cases: [['explicit', 'an explicit pageSize bounds each page'], ['below-one', 'a pageSize of 0 or below is refused, or answers no records or the default page, never more']] },
    { ...base, rule: 'pagination.partition', cases: [['walk', 'consecutive pages partition the records']] },
    { ...base, rule: 'pagination.count-total', cases: [['total', 'count equals the records get can walk'], ['over-1000', 'count of more than 1000 records is not capped']] },
    { ...base, rule: 'pagination.cap-1000', cases: [['default-get', 'a get without pagination returns at most 1000 records'], ['page-size-over-cap', 'a get with pageSize above 1000 returns at most 1000 records']] },
  ];
}

export function authChecks(r: ResourceModel): CheckDraft[] {
  const reads: Array<[string, string]> = r.single ? [['get', 'store get']] : [['get', 'get'], ['count', 'count']];
  const base = { resource: r.name, writes: false, kind: 'auth' } as const;
  const out: CheckDraft[] = [
    { ...base, rule: 'auth.key-in-body', cases: reads.map(([c, w]) => [c, `${w} with the key in authentication.apiKey is served`]) },
    { ...base, rule: 'auth.invalid-key-no-records', cases: reads.map(([c, w]) => [c, `${w} with a wrong key returns no records`]) },
    { ...base, rule: 'auth.missing-key-no-records', cases: reads.map(([c, w]) => [c, `${w} without a key returns no records`]) },
  ];
  if (r.writable) {
    out.push({
      ...base, rule: 'auth.invalid-key-no-change', writes: true,
      cases: [['create', 'a create with a wrong or missing key stores nothing'], ['update', 'an update with a wrong or missing key changes nothing'], ['delete', 'a delete with a wrong or missing key removes nothing']],
    });
  }
  // per operation: judged with near-miss keys of src/values/near-miss.ts (which cases: nearMissPlan, by depth)
  const nearMiss = (ops: Array<[string, string]>, effect: string): Array<[string, string]> =>
    ops.map(([op, w]): [string, string] => [op, `${w} with a key almost the key (${NEAR_MISS_CASES.join(', ')}) ${effect}`]);
  out.push({ ...base, rule: 'auth.near-miss-no-records', cases: nearMiss(reads, 'is refused: no records') });
  if (r.writable) {
    const writes: Array<[string, string]> = [['create', 'a create'], ['update', 'an update'], ['delete', 'a delete']];
    out.push({ ...base, rule: 'auth.near-miss-no-change', writes: true, cases: nearMiss(writes, 'is refused and changes nothing') });
  }
  return out;
}

export function storeChecks(r: ResourceModel): CheckDraft[] {
  if (!r.single) return [];
  return [
    { rule: 'store.single-object', resource: r.name, writes: false, kind: 'store', cases: GET },
    { rule: 'store.apikey-field', resource: r.name, writes: false, kind: 'store', cases: GET },
  ];
}

/** Behaviours the spec leaves open, applied alike on every list resource. */
export function observeChecks(): CheckDraft[] {
  const perResource = (what: string): Array<[string, string]> => LIST().map((r) => [r.name, `${what} on ${r.name}`]);
  const base = { rule: 'observe.consistent', resource: '*', writes: false, kind: 'observe', caseResource: (c: string) => c } as const;
  return [
    { ...base, subject: 'default-page-size', title: 'a get without pagination returns the observed default page size on every resource', cases: perResource('the observed default page size') },
    { ...base, subject: 'order', title: 'records come in the observed order on every resource', cases: perResource('the observed order') },
    { ...base, subject: 'error-shape', title: 'errors have one shape: wrong key, missing key, unknown path', caseResource: () => '*', cases: [['all', 'a wrong key, a missing key and an unknown path are answered in one error shape']] },
    { ...base, subject: 'auth-status', title: 'a wrong key and a missing key get the observed status everywhere', cases: perResource('the observed wrong-key and missing-key statuses') },
    { ...base, subject: 'error-status-class', title: 'client errors are answered in one status class: never a 5xx beside 4xx answers', caseResource: () => '*', cases: [['all', 'a wrong key (of any length), a missing key and an unknown path, on every resource, answered in one status class']] },
    // the readings of stack defaults (docs/stack-defaults.md): the store's own reading, applied everywhere
    { ...base, subject: 'id-case', title: 'ids are written in the observed letter case, and the id filter takes an id in the other case as observed, on every resource', cases: perResource('ids in the observed letter case (ids.letterCase), the id filter as observed (filters.idCase)') },
    { ...base, subject: 'createdon-zone', writes: true, title: 'createdon is written at the observed offset from UTC on every writable resource', cases: writable((r) => r.audit, 'createdon of a record just created at the observed offset (time.createdonOffsetMinutes)') },
    { ...base, subject: 'integer-width', writes: true, title: 'every Integer property is as wide as observed: beyond a 32-bit column, refused or clamped alike', cases: writable((r) => r.payload.some((p) => p.kind === 'integer' && p.safeValue === undefined), 'its Integer properties beyond 32 bits, as observed (limits.integerWidth)') },
    { ...base, subject: 'decimal-scale', writes: true, title: 'every Decimal property takes one decimal too many as observed: refused, rounded or truncated alike', cases: writable((r) => r.payload.some((p) => p.kind === 'decimal' && !!p.decimal?.scale && p.safeValue === undefined), 'its Decimal properties with one decimal too many, as observed (limits.decimalScale)') },
  ];
}

/** One case per writable resource the predicate keeps. */
function writable(keep: (r: ResourceModel) => boolean, what: string): Array<[string, string]> {
  return resources().filter((r) => r.writable && !r.single && keep(r)).map((r) => [r.name, `${what} on ${r.name}`]);
}
