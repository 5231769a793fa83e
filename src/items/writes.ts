/**
 * Items of the writable resources (§4 Create and update payloads, Responses,
 * Delete; §3 Versions; §8 Limits), from the payload model:
 *   <r>.lifecycle.create.single       #<prop>  the create answer shows the value sent
 *   <r>.lifecycle.create.round-trip   #<prop>  get shows the value sent
 *   <r>.lifecycle.create.batch        #answer #stored
 *   <r>.lifecycle.create.references.<field>  #answer #get
 *   <r>.lifecycle.create.sub-record-ids     #<sub-list>  no item's own id is the all-zero GUID
 *   <r>.lifecycle.unknown-reference.<prop>   #create #update  (reference lists: product categoryid…)
 *   <r>.lifecycle.update.changes      #<prop>  get shows the value supplied
 *   <r>.lifecycle.update.changes.batch #every-record
 *   <r>.lifecycle.update.response     #<prop>  the update answer shows the value supplied
 *   <r>.lifecycle.update.others-untouched #others
 *   <r>.lifecycle.delete.response     #answer
 *   <r>.lifecycle.delete.exact        #several-ids #several-filters
 *   <r>.lifecycle.delete.gone         #several-ids #several-filters
 *   <r>.limits.<limit>                #<prop>.create #<prop>.update
 *   <r>.versions.initial #create, .append #each-update, .order #get
 */
import { TEXT_MAX_LENGTH, type FieldModel, type PayloadPropModel, type ResourceModel } from '../schema/model.js';
import type { CheckDraft } from './types.js';

export type Form = 'get' | 'write';

/** The field a record shows in this form (write form: create/update answers). */
export function fieldOf(r: ResourceModel, form: Form, name: string): FieldModel | undefined {
  const fields = form === 'write' && r.writeFields.length ? r.writeFields : r.fields;
  return fields.find((f) => f.name === name);
}

/**
 * The payload properties a record can be compared on in this form: those with
 * a record field (product `fileid` shows as none), minus the fields with a
 * documented write-form quirk (product `size` is '0' in create/update answers, §4).
 */
export function comparableProps(r: ResourceModel, form: Form): PayloadPropModel[] {
  return r.payload.filter((p) => {
    const f = fieldOf(r, form, p.recordField ?? p.name);
    return f !== undefined && !(form === 'write' && f.quirk);
  });
}

/** Text properties: String, and lists of strings that are not references (tags). */
export const isText = (p: PayloadPropModel) => p.kind === 'string' || (p.kind === 'list' && (p.itemKind ?? 'string') === 'string' && !p.references);

/** The §8 limits and the payload properties each is about. */
export const LIMIT_PROPS = {
  // the common String limit (§8: most String properties), and the String whose own limit is above it (page content)
  'limits.string-255': (r: ResourceModel) => r.payload.filter((p) => isText(p) && p.maxLength === TEXT_MAX_LENGTH),
  'limits.page-content-65535': (r: ResourceModel) => r.payload.filter((p) => p.kind === 'string' && (p.maxLength ?? 0) > TEXT_MAX_LENGTH),
  'limits.integer-11-digits': (r: ResourceModel) => r.payload.filter((p) => p.kind === 'integer'),
  'limits.decimal-digits': (r: ResourceModel) => r.payload.filter((p) => p.kind === 'decimal'),
  'limits.text-encoding': (r: ResourceModel) => r.payload.filter(isText),
} as const;
export type LimitRule = keyof typeof LIMIT_PROPS;

const OPS = ['create', 'update'] as const;

const propCases = (props: PayloadPropModel[], what: (p: PayloadPropModel) => string): Array<[string, string]> =>
  props.map((p) => [p.name, what(p)]);

export function writeChecks(r: ResourceModel): CheckDraft[] {
  if (!r.writable || !r.payload.length) return [];
  const base = { resource: r.name, writes: true } as const;
  const out: CheckDraft[] = [
    { ...base, rule: 'lifecycle.create.single', kind: 'payload', cases: propCases(comparableProps(r, 'write'), (p) => `the create answer shows the ${p.name} sent`) },
    { ...base, rule: 'lifecycle.create.batch', kind: 'payload', cases: [['answer', 'a create of several items answers each with the values sent'], ['stored', 'each item of one create becomes a record']] },
    { ...base, rule: 'lifecycle.create.round-trip', kind: 'payload', cases: propCases(comparableProps(r, 'get'), (p) => `get shows the ${p.name} sent`) },
  ];
  for (const p of r.payload.filter((x) => x.kind === 'list')) {
    const field = p.recordField ?? p.name;
    out.push({
      ...base, rule: 'lifecycle.create.references', subject: field, kind: 'payload',
      title: p.references ? `${p.name} becomes ${field}: {id, name} of each referenced ${p.references}` : `${p.name} become ${field}: one item per string sent`,
      cases: [['answer', `the create answer shows ${field} for the ${p.name} sent`], ['get', `get shows ${field} for the ${p.name} sent`]],
    });
  }
  // §2 Conventions: the all-zero GUID stands for an unset reference, never for a listed sub-record's own id
  const subLists = r.fields.filter((f) => f.kind === 'array' && f.itemFields?.some((x) => x.name === 'id' && x.kind === 'guid'));
  if (subLists.length) {
    out.push({
      ...base, rule: 'lifecycle.create.sub-record-ids', kind: 'payload',
      cases: subLists.map((f): [string, string] => [f.name, `no item of ${f.name} of a record just created (create answer, get by id) has the all-zero GUID as its id`]),
    });
  }
  // §4 Product payload: each categoryid / collectionid must be a valid id of its resource
  for (const p of r.payload.filter((x) => x.kind === 'list' && x.references)) {
    out.push({
      ...base, rule: 'lifecycle.unknown-reference', subject: p.name, kind: 'payload',
      title: `a ${p.name} that is no ${p.references}'s id is refused, and nothing is stored`,
      cases: [['create', `a create naming a ${p.name} that is no record's id is refused and creates no record`], ['update', `an update naming a ${p.name} that is no record's id is refused and leaves the record as it was`]],
    });
  }
  out.push(
    { ...base, rule: 'lifecycle.update.changes', kind: 'payload', cases: propCases(comparableProps(r, 'get'), (p) => `after an update supplying ${p.name}, get shows the new value`) },
    { ...base, rule: 'lifecycle.update.changes', subject: 'batch', kind: 'payload', title: 'update with several items in one data changes every named record, and get shows each change', cases: [['every-record', 'every record named in one update changes']] },
    { ...base, rule: 'lifecycle.update.response', kind: 'payload', cases: propCases(comparableProps(r, 'write'), (p) => `the update answer shows the ${p.name} supplied`) },
    { ...base, rule: 'lifecycle.update.others-untouched', kind: 'payload', cases: [['others', 'records not named by the update keep their values']] },
    { ...base, rule: 'lifecycle.delete.response', kind: 'delete', cases: [['answer', "delete answers {success: 'true'}"]] },
    { ...base, rule: 'lifecycle.delete.exact', kind: 'delete', cases: [['several-ids', 'several ids in one id array: exactly those go, the others stay'], ['several-filters', 'several objects in filter: exactly the ids of every object go']] },
    { ...base, rule: 'lifecycle.delete.gone', kind: 'delete', cases: [['several-ids', 'ids deleted by one id array are gone from get and count'], ['several-filters', 'ids deleted through several filter objects are gone from get and count']] },
  );
  for (const [rule, propsOf] of Object.entries(LIMIT_PROPS) as Array<[LimitRule, (r: ResourceModel) => PayloadPropModel[]]>) {
    const props = propsOf(r);
    if (!props.length) continue;
    out.push({
      ...base, rule, kind: 'limit',
      cases: props.flatMap((p) => OPS.map((op): [string, string] => [`${p.name}.${op}`, `${p.name} at the limit in ${op === 'create' ? 'a create' : 'an update'} comes back intact`])),
    });
  }
  if (r.versionsOrder) {
    out.push(
      { ...base, rule: 'versions.initial', kind: 'versions', cases: [['create', 'a created record has one version, numbered 1, with the content as created']] },
      { ...base, rule: 'versions.append', kind: 'versions', cases: [['each-update', 'every update appends the next version with the new content and the update’s createdon']] },
      { ...base, rule: 'versions.order', kind: 'versions', cases: [['get', `versions are listed ${r.versionsOrder.replace('-', ' ')}`]] },
    );
  }
  return out;
}
