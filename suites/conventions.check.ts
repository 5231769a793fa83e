/**
 * §2 Conventions, judged on what the target returns:
 * - every scalar at every depth is a JSON string (conventions.scalar-strings);
 * - GUID fields hold a hyphenated 36-character GUID (conventions.guid-form);
 * - DateTime fields read 'YYYY-MM-DD HH:MM:SS' with a real calendar date,
 *   Date fields (customer birthdate) 'YYYY-MM-DD' (conventions.datetime-form, date-form);
 * - records carry author and createdon, except country and store; country has
 *   neither (conventions.audit-fields);
 * - every record validates against its Record schema (conventions.record-schema),
 *   and every create/update answer against its WriteRecord schema
 *   (conventions.write-record-schema).
 *
 * Cost: one get per resource (a page shared by every read check of that
 * resource), plus, per writable resource, one create of a small generated
 * batch and one update (shared by the write checks), then the cleanup delete.
 * The read checks write nothing; an empty resource is reported skipped, never
 * passed on nothing.
 */
import {
  ZERO_GUID, GUID_PATTERN, DATETIME_PATTERN, DATE_PATTERN,
  check, fixture, requireOk, CheckFailure, claimInvariantCauses, schemaCause, resource, resources, validator, parseDateTime, describeValue,
  catalogue, type CheckContext, type Fixture, type FixtureContext, type Rec, type Exchange, type FieldModel, type ResourceModel,
  type ScalarKind, type RuleId, type SuiteDeclaration,
} from '../src/check/index.js';
import { batchArb, updateArb, type Payload } from '../generators/index.js';
import { readFirstPage, type Page } from './support/first-page.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = {
  rules: [
    'conventions.scalar-strings',
    'conventions.guid-form',
    'conventions.datetime-form',
    'conventions.audit-fields',
    'conventions.record-schema',
    'conventions.write-record-schema',
    'conventions.date-form',
  ],
};

/** offenders listed in one failure message (the count says how many there were) */
const LIST_MAX = 12;

// ---------------------------------------------------------------- reading

const pages = new Map<string, Fixture<Page>>(resources().map((r) => [r.name, fixture((f) => readFirstPage(r, f))]));

/** The page of a resource, or skip when it holds nothing to judge. */
async function pageFor(ctx: CheckContext, r: ResourceModel): Promise<Page> {
  const page = await pages.get(r.name)!.get();
  if (page.records.length === 0) {
    ctx.notJudged(`${r.name} get returned no records: nothing to judge${r.writable ? ` (the ${r.name}.conventions.*.create/update checks judge created records)` : ''}`);
  }
  return page;
}

// ---------------------------------------------------------------- writing (writable resources)

interface Written {
  created: Rec[];
  createExchanges: Exchange[];
  /** the update answer, or why there is none (kept apart so a failed update does not hide the create answer) */
  update: { records: Rec[]; exchange: Exchange } | { error: unknown };
}

/** Up to this many existing ids per referenced resource (product categoryid, page backgroundfileid...). */
const REFS_PER_RESOURCE = 3;

async function writeFixture(r: ResourceModel, f: FixtureContext): Promise<Written> {
  const refs: Record<string, string[]> = {};
  for (const p of r.payload) {
    if (!p.references || refs[p.references]) continue;
    const page = await pages.get(p.references)!.get();
    // only well-formed ids: a malformed one is judged by <resource>.conventions.guid-form, not sent back
    const wellFormed = page.records.filter((x) => typeof x.id === 'string' && GUID_PATTERN.test(x.id));
    // not the run's own records (their unique value carries the run tag): other checks delete theirs
    // meanwhile, and a target listing newest first shows those first
    const ours = (x: Rec) => JSON.stringify(x).includes(f.config.runTag);
    const stable = wellFormed.filter((x) => !ours(x));
    refs[p.references] = (stable.length ? stable : wellFormed).map((x) => x.id as string).slice(0, REFS_PER_RESOURCE);
  }
  const pctx = { tag: f.config.runTag, refs };
  const label = `${r.name}.conventions.write-fixture`;
  const n = f.depth.batch;
  const batch = f.sample(batchArb(r.name, pctx, { minLength: n, maxLength: n }), label);
  const change = f.sample(updateArb(r.name, pctx, { mode: 'full' }), `${label}:update`);

  const seen: Exchange[] = [];
  const listen = (ex: Exchange) => seen.push(ex);
  // the create's exchanges, whichever batches Scope.create sends
  f.client.http.listeners.add(listen);
  let created: Rec[];
  try {
    created = await f.scope.create(r, batch as Payload[]);
  } finally {
    f.client.http.listeners.delete(listen);
  }
  const createExchanges = seen.filter((ex) => ex.request.path.endsWith('/create'));
  const id = created[0]?.id;
  if (typeof id !== 'string') {
    const error = new CheckFailure({ message: `${r.name} create returned a first record without a string id, so it cannot be updated: ${describeValue(id)} (§4 Responses)`, evidence: createExchanges });
    return { created, createExchanges, update: { error } };
  }
  try {
    const up = await f.client.update(r, [{ ...change, id }]);
    return { created, createExchanges, update: { records: requireOk(up, `${r.name} update of one record the run created (id ${id} as the create answered it)`), exchange: up.exchange } };
  } catch (error) {
    return { created, createExchanges, update: { error } };
  }
}

const writes = new Map<string, Fixture<Written>>(
  resources().filter((r) => r.writable).map((r) => [r.name, fixture((f) => writeFixture(r, f))]),
);

type WriteOp = 'create' | 'update';

interface Judged {
  /** the operation whose answer holds the records */
  op: 'get' | WriteOp;
  records: Rec[];
  fields: FieldModel[];
  evidence: Exchange[];
  what: string;
}

async function writeFor(r: ResourceModel, op: WriteOp): Promise<Judged> {
  const w = await writes.get(r.name)!.get();
  const fields = r.writeFields.length ? r.writeFields : r.fields;
  if (op === 'create') return { op, records: w.created, fields, evidence: w.createExchanges, what: `the ${r.name} create answer` };
  if ('error' in w.update) throw w.update.error;
  return { op, records: w.update.records, fields, evidence: [w.update.exchange], what: `the ${r.name} update answer` };
}

async function readFor(ctx: CheckContext, r: ResourceModel): Promise<Judged> {
  const page = await pageFor(ctx, r);
  return { op: 'get', records: page.records, fields: r.fields, evidence: [page.exchange], what: page.what };
}

// ---------------------------------------------------------------- walking records

const at = (base: string, name: string) => (base ? `${base}.${name}` : name);
const recordPath = (r: ResourceModel, i: number) => (r.single ? '' : `[${i}]`);

/** Every scalar that is not a JSON string, at any depth, with its JSON path. */
function nonStrings(v: unknown, path: string, out: Array<{ path: string; value: unknown }>): void {
  if (typeof v === 'string') return;
  if (Array.isArray(v)) v.forEach((x, i) => nonStrings(x, `${path}[${i}]`, out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) nonStrings(x, at(path, k), out);
  else out.push({ path: path || '(root)', value: v });
}

interface Located { path: string; value: unknown; field: FieldModel }

/** Values of the fields (at any depth: sub-lists, sub-objects, lists of scalars) whose kind is wanted. */
function valuesOfKind(fields: FieldModel[], rec: unknown, base: string, kinds: ReadonlySet<ScalarKind>, out: Located[]): void {
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return;
  const obj = rec as Rec;
  for (const f of fields) {
    if (!(f.name in obj)) continue;
    const v = obj[f.name];
    const path = at(base, f.name);
    if (f.kind === 'array') {
      if (!Array.isArray(v)) continue;
      if (f.itemFields) v.forEach((item, i) => valuesOfKind(f.itemFields!, item, `${path}[${i}]`, kinds, out));
      else if (f.itemKind && kinds.has(f.itemKind as ScalarKind)) v.forEach((item, i) => out.push({ path: `${path}[${i}]`, value: item, field: f }));
    } else if (f.kind === 'object') {
      if (f.objectFields) valuesOfKind(f.objectFields, v, path, kinds, out);
    } else if (kinds.has(f.kind as ScalarKind)) {
      out.push({ path, value: v, field: f });
    }
  }
}

function hasKind(fields: FieldModel[], kinds: ReadonlySet<ScalarKind>): boolean {
  return fields.some((f) =>
    kinds.has(f.kind as ScalarKind) || (f.itemKind !== undefined && kinds.has(f.itemKind as ScalarKind))
    || (f.itemFields !== undefined && hasKind(f.itemFields, kinds)) || (f.objectFields !== undefined && hasKind(f.objectFields, kinds)));
}

function list(items: string[]): string {
  const shown = items.slice(0, LIST_MAX).join('; ');
  return items.length > LIST_MAX ? `${shown}; … (${items.length - LIST_MAX} more)` : shown;
}

function failWith(ctx: CheckContext, j: Judged, offenders: string[], rule: string, expected: string, where: string): void {
  if (offenders.length === 0) return;
  ctx.fail({
    message: `${offenders.length} value(s) in ${j.what} break the rule "${rule}": ${list(offenders)} (${where})`,
    expected,
    actual: offenders.slice(0, 50),
    evidence: j.evidence,
  });
}

// ---------------------------------------------------------------- the rules

const GUID = new Set<ScalarKind>(['guid']);
const DATETIME = new Set<ScalarKind>(['datetime']);
const DATE = new Set<ScalarKind>(['date']);

function judgeScalarStrings(ctx: CheckContext, r: ResourceModel, j: Judged): void {
  const found: Array<{ path: string; value: unknown }> = [];
  j.records.forEach((rec, i) => nonStrings(rec, recordPath(r, i), found));
  const offenders = found.map((o) => `${o.path} is a JSON ${o.value === null ? 'null' : typeof o.value} ${describeValue(o.value)}`);
  failWith(ctx, j, offenders, 'every scalar in a response is a JSON string', 'every scalar (numbers and booleans included) a JSON string, at every depth', `${ctx.rule.section}: "In responses every scalar value is a JSON string"`);
}

function judgeGuids(ctx: CheckContext, r: ResourceModel, j: Judged): void {
  const found: Located[] = [];
  j.records.forEach((rec, i) => valuesOfKind(j.fields, rec, recordPath(r, i), GUID, found));
  const offenders = found.filter((x) => typeof x.value !== 'string' || !GUID_PATTERN.test(x.value)).map((x) => `${x.path} is ${describeValue(x.value)}`);
  failWith(ctx, j, offenders, 'GUID fields hold a hyphenated 36-character identifier', `a hyphenated 36-character GUID such as '3f2504e0-4f89-11d3-9a0c-0305e82c3301' (unset: '${ZERO_GUID}')`, `${ctx.rule.section}: GUID (hyphenated 36-character identifier)`);
}

function judgeDateTimes(ctx: CheckContext, r: ResourceModel, j: Judged): void {
  const found: Located[] = [];
  j.records.forEach((rec, i) => valuesOfKind(j.fields, rec, recordPath(r, i), DATETIME, found));
  const offenders = found
    .filter((x) => typeof x.value !== 'string' || !DATETIME_PATTERN.test(x.value) || parseDateTime(x.value) === undefined)
    .map((x) => `${x.path} is ${describeValue(x.value)}${typeof x.value === 'string' && DATETIME_PATTERN.test(x.value) ? ' (not a calendar date and time)' : ''}`);
  failWith(ctx, j, offenders, "DateTime fields have the form 'YYYY-MM-DD HH:MM:SS'", "'YYYY-MM-DD HH:MM:SS' holding a real calendar date and time", `${ctx.rule.section}: "Response DateTime has the form YYYY-MM-DD HH:MM:SS"`);
}

function judgeDates(ctx: CheckContext, r: ResourceModel, j: Judged): void {
  const found: Located[] = [];
  j.records.forEach((rec, i) => valuesOfKind(j.fields, rec, recordPath(r, i), DATE, found));
  const offenders = found
    .filter((x) => typeof x.value !== 'string' || !DATE_PATTERN.test(x.value) || parseDateTime(x.value) === undefined)
    .map((x) => `${x.path} is ${describeValue(x.value)}`);
  failWith(ctx, j, offenders, "customer birthdate has the form 'YYYY-MM-DD'", "'YYYY-MM-DD' holding a real calendar date, without a time", `${ctx.rule.section}: "Customer birthdate has the form YYYY-MM-DD"`);
}

const AUDIT_FIELDS = ['author', 'createdon'] as const;

/**
 * Audited resources (r.audit) carry both; a non-audited list resource
 * (country: "There is no author and no createdon") carries neither. The single
 * store is exempt from the convention and has its own createdon: no check.
 */
function judgeAudit(ctx: CheckContext, r: ResourceModel, j: Judged): void {
  const offenders: string[] = [];
  j.records.forEach((rec, i) => {
    const p = recordPath(r, i);
    for (const name of AUDIT_FIELDS) {
      const present = rec !== null && typeof rec === 'object' && name in rec;
      if (r.audit && !present) offenders.push(`${at(p, name)} is absent`);
      else if (r.audit && typeof rec[name] !== 'string') offenders.push(`${at(p, name)} is ${describeValue(rec[name])}, not a string`);
      else if (!r.audit && present) offenders.push(`${at(p, name)} is present (${describeValue(rec[name])})`);
    }
  });
  const expected = r.audit
    ? "author (a String, possibly '') and createdon on every record"
    : `no author and no createdon on a ${r.title.toLowerCase()} record`;
  failWith(ctx, j, offenders, r.audit ? 'records carry author and createdon' : `${r.title} records carry neither author nor createdon`, expected,
    r.audit ? `${ctx.rule.section}: "Records other than country and store carry author and createdon"` : `§2 ${r.title}: "There is no author and no createdon"`);
}

function judgeSchema(ctx: CheckContext, r: ResourceModel, j: Judged, def: 'Record' | 'WriteRecord'): void {
  const validate = validator(r.name, def);
  const offenders: string[] = [];
  const causes = new Set<string>();
  j.records.forEach((rec, i) => {
    const v = validate(rec);
    if (v.ok) return;
    offenders.push(`${recordPath(r, i) || r.name}: ${v.errors.slice(0, 4).join(', ')}${v.errors.length > 4 ? ` (+${v.errors.length - 4} more)` : ''}`);
    for (const e of v.errors) causes.add(schemaCause(e));
  });
  // the invariant on every answer (<r>.invariants.record-schema#<op>) leaves these causes to this check: one failure per cause
  claimInvariantCauses('invariants.record-schema', r.name, j.op, [...causes]);
  const where = def === 'Record' ? `§2 ${r.title}` : '§4 Responses ("Create and update return an array of the resulting records"), §2 and §4 Formatting differs by operation';
  failWith(ctx, j, offenders, `every record matches the ${r.title} ${def} schema`, `every documented field of §2 ${r.title} with its type (${def} form)`, where);
}

// ---------------------------------------------------------------- registration

const JUDGES: Partial<Record<RuleId, (ctx: CheckContext, r: ResourceModel, j: Judged) => void>> = {
  'conventions.scalar-strings': judgeScalarStrings,
  'conventions.guid-form': judgeGuids,
  'conventions.datetime-form': judgeDateTimes,
  'conventions.date-form': judgeDates,
  'conventions.audit-fields': judgeAudit,
  'conventions.record-schema': (ctx, r, j) => judgeSchema(ctx, r, j, 'Record'),
  'conventions.write-record-schema': (ctx, r, j) => judgeSchema(ctx, r, j, 'WriteRecord'),
};

// every conventions check of the catalogue: #get on what get shows, #answer on a create or update answer
for (const def of catalogue().filter((c) => c.rule.startsWith('conventions.'))) {
  const r = resource(def.resource);
  const judge = JUDGES[def.rule];
  if (!judge) throw new Error(`no judgement for ${def.rule} in suites/conventions.check.ts`);
  const op = def.subject as WriteOp | undefined;
  check(def, async (ctx) => {
    for (const item of def.items) {
      await ctx.item(item.case, async (it) => judge(it, r, op ? await writeFor(r, op) : await readFor(it, r)));
    }
  });
}
