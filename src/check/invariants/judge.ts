/**
 * The invariants: properties every answer must have, whichever request asked
 * for it. Each is a small named judge of one answer (a successful get, count,
 * create, update or store get sent with the run's own key), registered once in
 * JUDGES under its rule (src/rules.ts, group `invariants`); the items they
 * judge are the catalogue's `<resource>.invariants.<name>#<op>` (src/items/invariants.ts).
 *
 * A judge returns a Finding (the answer breaks it), null (judged: it holds) or
 * undefined (nothing here for it to judge: no records, no id filter…). It
 * reads the request as the client kept it (the body redacted) and the answer's
 * JSON — never the target's word on anything else — and judges under the
 * readings the target was observed to choose (InvariantReadings), passed in
 * explicitly: the main process judges the probes' answers with the same code.
 *
 * Only answers to requests carrying the configured key are judged: what a
 * wrong, near-miss or missing key gets is the auth checks' business.
 */
import type { Rec } from '../../client/api.js';
import type { Exchange } from '../../client/http.js';
import { REDACTED } from '../../client/redact.js';
import { checkIdOf, itemDef, type ItemDef } from '../../items/index.js';
import { readObservation, type ObservedValues } from '../../observe/registry.js';
import type { RuleId } from '../../rules.js';
import { GET_CAP, GUID_PATTERN, resources, validator, type FilterModel, type Operation, type ResourceModel } from '../../schema/model.js';
import { describeValue } from '../../values/index.js';
import { expectTerm, type Term } from '../oracle.js';

/** What the target was observed to choose where the spec is silent, as the invariants need it. */
export interface InvariantReadings {
  /** filters.combination */
  combination: 'and' | 'or';
  /** filters.rangeInclusive */
  inclusive: boolean;
  /** pages.titleFilterKey: which of a filter and its documented alias (page title / name) the target takes */
  aliasKey: 'both' | 'title' | 'name';
  /** is this apiKey, as the request body shows it, the run's own key? */
  ownKey: (shown: unknown) => boolean;
}

export function readingsOf(observations: ObservedValues | Record<string, unknown>, apiKey: string): InvariantReadings {
  return {
    combination: readObservation(observations, 'filters.combination') === 'or' ? 'or' : 'and',
    inclusive: readObservation(observations, 'filters.rangeInclusive') !== false,
    aliasKey: readObservation(observations, 'pages.titleFilterKey'),
    // a key shorter than the redactor's minimum is shown as it is
    ownKey: (shown) => shown === REDACTED || shown === apiKey,
  };
}

/** One answer as the invariants read it. */
export interface Answer {
  r: ResourceModel;
  op: Operation;
  path: string;
  /** the request body as the client kept it (secrets redacted) */
  body: Rec;
  json: unknown;
}

export interface Finding {
  message: string;
  expected: unknown;
  actual: unknown;
  /**
   * What is wrong, each cause once however many records show it (record-schema:
   * the schema errors, schemaCause): a cause the check designed for the same
   * property reports is not reported again (InvariantTally.claim).
   */
  causes?: string[];
}

/**
 * A schema error as a cause: the validator's message with the positions in
 * lists left out (/images/3/rank → /images/[n]/rank),
 * so one thing wrong is one cause, however many records or list items show it.
 */
export function schemaCause(error: string): string {
  const space = error.indexOf(' ');
  const path = space < 0 ? error : error.slice(0, space);
  return path.replace(/\/\d+(?=\/|$)/g, '/[n]') + (space < 0 ? '' : error.slice(space));
}

type Judge = (a: Answer, k: InvariantReadings) => Finding | null | undefined;

let routes: Map<string, { r: ResourceModel; op: Operation }> | undefined;

/** The resource and operation of an API path (the users count path documented under shipping methods, §4, is theirs). */
function routeOf(path: string): { r: ResourceModel; op: Operation } | undefined {
  if (!routes) {
    routes = new Map();
    for (const r of resources()) for (const op of r.operations) if (!routes.has(`${r.prefix}/${op}`)) routes.set(`${r.prefix}/${op}`, { r, op });
  }
  return routes.get(path);
}

/** The answer to judge in an exchange: a 2xx whose body was taken in whole, to a request of the API with the run's key; else undefined. */
export function answerOf(ex: Exchange, k: InvariantReadings): Answer | undefined {
  const status = ex.response?.status;
  if (status === undefined || status < 200 || status > 299 || ex.response!.truncated) return undefined;
  const route = routeOf(ex.request.path);
  const body = ex.request.body;
  if (!route || !body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  if (!k.ownKey((body as Rec).authentication?.apiKey)) return undefined;
  // a body that is not JSON is judged only where the envelope itself is the invariant (count-form)
  if (ex.json === undefined && route.op !== 'count') return undefined;
  return { ...route, path: ex.request.path, body: body as Rec, json: ex.json };
}

const SHOWN = 12;
const show = (v: unknown) => describeValue(v);
const recordsOf = (a: Answer): Rec[] | undefined => (Array.isArray(a.json) ? a.json : undefined);
const idOf = (rec: unknown): string | undefined => (rec && typeof rec === 'object' && typeof (rec as Rec).id === 'string' ? (rec as Rec).id : undefined);

/** The request in a message: operation, path, filters (a long id list as its length), pagination. */
export function requestText(a: Pick<Answer, 'op' | 'path' | 'body'>): string {
  const parts = [`${a.op} ${a.path}`];
  const f = a.body.filters;
  if (f && typeof f === 'object') {
    const shown = Object.fromEntries(Object.entries(f as Rec).map(([key, v]) => [key, key === 'id' && Array.isArray(v) && v.length > 3 ? `[${v.length} ids]` : v]));
    parts.push(`filters ${show(shown)}`);
  }
  if (a.body.pagination) parts.push(`pagination ${show(a.body.pagination)}`);
  if (Array.isArray(a.body.data)) parts.push(`${a.body.data.length} item(s) in data`);
  return parts.join(', ');
}

// ---------------------------------------------------------------- the judges

/** §4 Responses: a list of records lists each record once. */
const idsUnique: Judge = (a) => {
  const recs = recordsOf(a);
  if (!recs?.length) return undefined;
  const times = new Map<string, number>();
  for (const rec of recs) {
    const id = idOf(rec);
    if (id !== undefined) times.set(id.toLowerCase(), (times.get(id.toLowerCase()) ?? 0) + 1);
  }
  const twice = [...times].filter(([, n]) => n > 1);
  if (!twice.length) return null;
  return {
    message: `${requestText(a)} answered ${recs.length} record(s) listing ${twice.length} id(s) more than once, e.g. ${twice[0][0]} ${twice[0][1]} times`,
    expected: 'each id once in an answer',
    actual: twice.slice(0, SHOWN).map(([id, n]) => `${id} ×${n}`),
  };
};

/** §2, §4 Formatting differs by operation: the get form in a get answer, the write form in a create or update answer. */
const recordSchema: Judge = (a) => {
  const def = a.op === 'get' ? 'Record' : 'WriteRecord';
  const recs = a.r.single ? (a.json && typeof a.json === 'object' && !Array.isArray(a.json) ? [a.json as Rec] : undefined) : recordsOf(a);
  if (!recs?.length) return undefined;
  const validate = validator(a.r.name, def);
  const bad: string[] = [];
  const causes = new Set<string>();
  let count = 0;
  for (const rec of recs) {
    const v = validate(rec);
    if (v.ok) continue;
    count++;
    for (const e of v.errors) causes.add(schemaCause(e));
    if (bad.length < 3) bad.push(`${idOf(rec) ?? `record ${recs.indexOf(rec)}`}: ${v.errors.slice(0, 3).join(', ')}`);
  }
  if (!count) return null;
  return {
    message: `${requestText(a)} answered ${count} of ${recs.length} record(s) that do not match the ${a.r.title} ${def} schema, e.g. ${bad[0]}`,
    expected: `every record in the ${def === 'Record' ? 'get' : 'write'} form of §2 ${a.r.title}`,
    actual: bad,
    causes: [...causes].sort(),
  };
};

/** §4 Common rules, §8 Limits: a page holds at most pageSize records, and a get at most the cap. */
const pageBound: Judge = (a) => {
  const recs = recordsOf(a);
  if (!recs) return undefined;
  const size = a.body.pagination?.pageSize;
  const asked = typeof size === 'string' && /^[1-9][0-9]{0,8}$/.test(size) ? Number(size) : undefined;
  const bound = Math.min(GET_CAP, asked ?? GET_CAP);
  if (recs.length <= bound) return null;
  return {
    message: `${requestText(a)} answered ${recs.length} records, more than ${asked !== undefined && asked < GET_CAP ? `the pageSize ${asked} asked` : `the ${GET_CAP} a get returns at most`}`,
    expected: `at most ${bound} records`,
    actual: recs.length,
  };
};

/** §4 Responses: count returns {count: String} holding an integer (a number of records: not negative). */
const countForm: Judge = (a) => {
  const count = a.json && typeof a.json === 'object' && !Array.isArray(a.json) ? (a.json as Rec).count : undefined;
  if (typeof count === 'string' && /^[0-9]+$/.test(count)) return null;
  return {
    message: `${requestText(a)} answered ${a.json === undefined ? 'a body that is not JSON' : show(a.json)}: not {count: String} holding a non-negative integer`,
    expected: "{count: '<digits>'}",
    actual: a.json === undefined ? '(not JSON)' : a.json,
  };
};

/** The id filter of a request: a non-empty list of strings, or undefined. */
function idFilter(a: Answer): string[] | undefined {
  const ids = (a.body.filters as Rec | undefined)?.id;
  return Array.isArray(ids) && ids.length && ids.every((id) => typeof id === 'string') ? ids : undefined;
}

/** §4 Filters per resource: the id filter reaches the listed ids only (alone, or beside filters that narrow it further: AND). */
const onlyAskedIds: Judge = (a, k) => {
  if (k.combination === 'or' && Object.keys(a.body.filters ?? {}).length > 1) return undefined;
  const ids = idFilter(a);
  if (!ids) return undefined;
  const asked = new AskedIds(ids);
  const finding = a.op === 'count' ? countBeyond(a, asked) : recordsBeyond(a, asked);
  // another spelling of a GUID (no hyphens, braces) may match on a store that parses it: judged only
  // when every id asked is in the documented form (looked at only when there is something to say)
  if (finding && !ids.every((id) => GUID_PATTERN.test(id))) return undefined;
  return finding;
};

/**
 * The ids a request asked for, compared ignoring case (GUIDs): an id found as
 * it was asked is not lower-cased (most records of an answer are); the
 * lower-cased set is made only for another spelling, or for its size.
 */
class AskedIds {
  private readonly exact: Set<string>;
  private lower?: Set<string>;

  constructor(private readonly ids: string[]) {
    this.exact = new Set(ids);
  }

  has(id: string): boolean {
    return this.exact.has(id) || this.lowered().has(id.toLowerCase());
  }

  /** distinct ids asked, ignoring case */
  get size(): number {
    return this.lowered().size;
  }

  private lowered(): Set<string> {
    return (this.lower ??= new Set(this.ids.map((id) => id.toLowerCase())));
  }
}

function countBeyond(a: Answer, asked: AskedIds): Finding | null | undefined {
  const count = (a.json as Rec | undefined)?.count;
  if (typeof count !== 'string' || !/^[0-9]+$/.test(count)) return undefined;
  if (Number(count) <= asked.size) return null;
  return { message: `${requestText(a)} counted ${count} records for ${asked.size} distinct id(s) asked`, expected: `at most ${asked.size}`, actual: Number(count) };
}

function recordsBeyond(a: Answer, asked: AskedIds): Finding | null | undefined {
  const recs = recordsOf(a);
  if (!recs) return undefined;
  const others = recs.filter((rec) => {
    const id = idOf(rec);
    return id !== undefined && !asked.has(id);
  });
  if (!others.length) return null;
  return {
    message: `${requestText(a)} answered ${others.length} record(s) whose id was not asked, e.g. ${idOf(others[0])}`,
    expected: `only records among the ${asked.size} id(s) asked`,
    actual: others.slice(0, SHOWN).map(idOf),
  };
}

/**
 * Can the oracle read this filter value without guessing? A non-empty list of
 * strings for an array filter (GUIDs in their documented form for a GUID
 * filter: another spelling may match on a store that parses it), 'true' or
 * 'false' for a Boolean one, a string (or, where §4 types the bound as
 * Decimal[], a list of one) for a range bound — whose value the oracle parses,
 * leaving unreadable bounds unjudged. An empty list is left alone: the spec
 * does not say what it selects. (What the target must refuse is the checks'
 * business; this judges what it answered.)
 */
function judgeable(f: FilterModel, value: unknown): boolean {
  if (f.filter === 'boolean') return value === 'true' || value === 'false';
  if (f.filter === 'range') return typeof value === 'string' || (!!f.acceptsArray && Array.isArray(value) && value.length === 1 && typeof value[0] === 'string');
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && (f.valueKind !== 'guid' || GUID_PATTERN.test(v)));
}

/** Does the target take this key (a filter and its documented alias: observation pages.titleFilterKey)? */
function taken(r: ResourceModel, f: FilterModel, k: InvariantReadings): boolean {
  if (k.aliasKey === 'both') return true;
  if (f.aliasOf) return k.aliasKey === f.key;
  return !(r.filters.some((x) => x.aliasOf === f.key) && k.aliasKey !== f.key);
}

/**
 * The terms of a filtered get this invariant judges, or undefined when the
 * answer cannot be judged: under AND every known, taken and judgeable key but
 * the id filter (only-asked-ids judges it); under OR every key, or none at all
 * (a key the target may ignore could be the one a record satisfies).
 */
function termsOf(a: Answer, k: InvariantReadings): Term[] | undefined {
  const filters = a.body.filters;
  if (!filters || typeof filters !== 'object' || Array.isArray(filters)) return undefined;
  const terms: Term[] = [];
  for (const [key, value] of Object.entries(filters as Rec)) {
    if (key === 'id' && k.combination === 'and') continue;
    const f = a.r.filters.find((x) => x.key === key);
    const judged = !!f && taken(a.r, f, k) && judgeable(f, value);
    if (!judged && k.combination === 'or') return undefined;
    if (judged) terms.push({ f: f!, value });
  }
  // the id filter alone is only-asked-ids' to judge
  return terms.some((t) => t.f.key !== 'id') ? terms : undefined;
}

/** §4 Filter naming: every record a filtered get returns satisfies the filters, as the target combines and bounds them. */
const filterSatisfied: Judge = (a, k) => {
  const recs = recordsOf(a);
  const terms = recs?.length ? termsOf(a, k) : undefined;
  if (!recs || !terms) return undefined;
  // under AND one term out puts the record out; under OR every term must (no list of outcomes per record)
  const out = (rec: Rec) => (t: Term) => expectTerm(a.r, t, rec, k.inclusive) === 'out';
  const fails = (rec: Rec) => (k.combination === 'and' ? terms.some(out(rec)) : terms.every(out(rec)));
  const wrong = recs.filter((rec) => rec && typeof rec === 'object' && fails(rec));
  if (!wrong.length) return null;
  const fields = [...new Set(terms.map((t) => t.f.field))];
  const showRec = (rec: Rec) => `${rec.id} (${fields.map((fd) => `${fd} ${show(rec[fd])}`).join(', ')})`;
  return {
    message: `${requestText(a)} answered ${wrong.length} record(s) that do not satisfy ${terms.length > 1 ? `its filters (combined with ${k.combination.toUpperCase()} on this target, observation filters.combination)` : 'its filter'}, e.g. ${showRec(wrong[0])}`,
    expected: `only records satisfying ${terms.map((t) => `${t.f.key}=${show(t.value)}`).join(k.combination === 'and' ? ' and ' : ' or ')}${terms.some((t) => t.f.filter === 'range') ? ` (bounds ${k.inclusive ? 'inclusive' : 'exclusive'} on this target, observation filters.rangeInclusive)` : ''}`,
    actual: wrong.slice(0, SHOWN).map(showRec),
  };
};

/** Every invariant, by rule: the one place a judge is registered. */
export const JUDGES: Readonly<Record<string, Judge>> = {
  'invariants.ids-unique': idsUnique,
  'invariants.record-schema': recordSchema,
  'invariants.page-bound': pageBound,
  'invariants.count-form': countForm,
  'invariants.only-asked-ids': onlyAskedIds,
  'invariants.filter-satisfied': filterSatisfied,
};

export interface Judgement {
  item: ItemDef;
  /** null: judged, and it holds */
  finding: Finding | null;
}

/** Per resource and operation, the invariant items of the catalogue and their judges: looked up once, not for every answer. */
const judgesOf = new Map<string, ReadonlyArray<readonly [ItemDef, Judge]>>();

function applicable(a: Answer): ReadonlyArray<readonly [ItemDef, Judge]> {
  const key = `${a.r.name}#${a.op}`;
  let found = judgesOf.get(key);
  if (!found) {
    found = Object.entries(JUDGES).flatMap(([rule, judge]) => {
      const item = itemDef(`${checkIdOf({ rule: rule as RuleId, resource: a.r.name })}#${a.op}`);
      return item ? [[item, judge] as const] : [];
    });
    judgesOf.set(key, found);
  }
  return found;
}

/** Every invariant of the catalogue that applies to this answer, judged. */
export function judgeAnswer(a: Answer, k: InvariantReadings): Judgement[] {
  const out: Judgement[] = [];
  for (const [item, judge] of applicable(a)) {
    const finding = judge(a, k);
    if (finding !== undefined) out.push({ item, finding });
  }
  return out;
}
