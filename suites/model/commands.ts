/**
 * The commands of a model-based run (fast-check `fc.commands`, run by
 * `fc.asyncModelRun`): each sends one kind of request about the run's own
 * records, applies to the model what the spec says it does, and is judged as
 * the item of its kind. Writes are followed by `agree` (the target shows what
 * the model holds); reads compare their answer with what the model computes.
 * A command's `check` is its precondition on the model (an update needs a
 * live record); its `toString` is how a shrunk sequence prints.
 */
import type fc from 'fast-check';
import {
  isTargetError, observed, TargetError, readPage, eventually, normalizeInteger, type ItemContext, type Rec,
  type ModelCommand,
} from '../../src/check/index.js';
import type { Payload } from '../../generators/index.js';
import { getByIds, matchResponse } from '../support/writes.js';
import { modelQuery, queryText, type FilterSpec } from './filters.js';
import type { StoreModel } from './state.js';
import { agree, describeValue, failStep, short, step, type Real } from './steps.js';

export type ModelRun = fc.AsyncCommand<StoreModel, Real, boolean>;

/** At most this many live records in a run: a sequence stays small, and so do its queries. */
export const MAX_LIVE = 10;

const distinct = (ids: string[]) => [...new Map(ids.map((x) => [x.toLowerCase(), x])).values()];
const pick = (list: string[], indexes: number[]) => distinct(indexes.map((i) => list[i % list.length]));

abstract class Command implements ModelRun {
  abstract readonly kind: ModelCommand;
  abstract check(m: Readonly<StoreModel>): boolean;
  abstract toString(): string;
  protected abstract act(it: ItemContext, m: StoreModel, real: Real): Promise<void>;

  run(m: StoreModel, real: Real): Promise<void> {
    return step(real, this.kind, this.toString(), (it) => this.act(it, m, real));
  }
}

/** create: a batch of payloads in one data. */
export class Create extends Command {
  readonly kind = 'create';
  constructor(readonly payloads: Payload[]) {
    super();
  }

  check(m: Readonly<StoreModel>): boolean {
    return m.live.size + this.payloads.length <= MAX_LIVE;
  }

  toString(): string {
    return `create(${this.payloads.length})`;
  }

  protected async act(it: ItemContext, m: StoreModel, real: Real): Promise<void> {
    const ids = await createItems(it, real, this.payloads);
    ids.forEach((id, i) => m.create(id, this.payloads[i]));
    await agree(it, m, real, `after ${this}`);
  }
}

/**
 * The ids of a create's records, in payload order. A create whose answer was
 * lost and whose records the client found by their run-tagged values (an
 * unknown outcome resolved, src/client/api.ts) counts as done: the records
 * are read back and matched to the payloads by those values.
 */
async function createItems(it: ItemContext, real: Real, payloads: Payload[]): Promise<string[]> {
  const { r } = real;
  const res = await it.client.create(r, payloads);
  let records: Array<Rec | undefined>;
  if (res.ok) records = matchResponse(r, payloads, res.value ?? []);
  else if (isTargetError(res.exchange) && !res.foreign?.length) {
    const recovered = res.recovered ?? [];
    real.created.push(...recovered);
    it.scope.adopt(r.name, recovered);
    if (recovered.length !== payloads.length) throw new TargetError(`create on ${r.prefix} got no usable answer: ${res.problem}`, [res.exchange]);
    const back = await getByIds(it, r, recovered, 'get of the records a create stored without answering');
    records = matchResponse(r, payloads, back.records);
  } else {
    return failStep(it, real, `a create of ${payloads.length} valid ${r.title} payload(s) was not accepted: ${res.problem}`, { why: '§4 Create and update payloads', evidence: [res.exchange] });
  }
  const ids = records.map((x) => (typeof x?.id === 'string' ? x.id : undefined));
  const fresh = ids.filter((x): x is string => !!x && !real.created.includes(x));
  real.created.push(...fresh);
  it.scope.adopt(r.name, fresh);
  if (ids.some((x) => !x)) {
    failStep(it, real, `a create of ${payloads.length} ${r.title} item(s) answered ${(res.value ?? []).length} record(s); not every item came back with an id`, {
      why: '§4 Responses: create returns an array of the resulting records', expected: payloads.length, actual: res.value, evidence: [res.exchange],
    });
  }
  return ids as string[];
}

/** update: one or several live records in one data, each with a partial change. */
export class Update extends Command {
  readonly kind = 'update';
  constructor(readonly picks: number[], readonly changes: Payload[]) {
    super();
  }

  check(m: Readonly<StoreModel>): boolean {
    return m.live.size > 0;
  }

  toString(): string {
    return `update(${this.picks.length} record(s), ${this.changes.slice(0, this.picks.length).map((c) => Object.keys(c).length).join(' + ')} propert${this.picks.length === 1 && Object.keys(this.changes[0]).length === 1 ? 'y' : 'ies'})`;
  }

  protected async act(it: ItemContext, m: StoreModel, real: Real): Promise<void> {
    const ids = pick(m.liveIds(), this.picks);
    const data = ids.map((id, i) => ({ id, ...this.changes[i % this.changes.length] }));
    const up = await it.client.update(real.r, data);
    // a lost answer the client resolved (a read-back shows the update applied) is an update done
    if (!up.ok && !up.applied) {
      if (isTargetError(up.exchange)) it.ok(up, `update of ${ids.length} ${real.r.title} record(s)`);
      failStep(it, real, `an update of ${ids.length} live ${real.r.title} record(s) of the run was not accepted: ${up.problem}`, { why: '§4 Create and update payloads', evidence: [up.exchange] });
    }
    data.forEach(({ id, ...change }) => m.update(id, change as Payload));
    await agree(it, m, real, `after ${this}`);
  }
}

/**
 * update of a record deleted earlier: whatever the answer (an honest 404 or an
 * ignored item), it stays gone — unless the target was seen to create records
 * on an update of an unknown id (observation update.unknownId = upserted):
 * then it lives again with the values supplied.
 */
export class UpdateDeleted extends Command {
  readonly kind = 'update-deleted';
  constructor(readonly pickIndex: number, readonly change: Payload) {
    super();
  }

  check(m: Readonly<StoreModel>): boolean {
    return m.gone.size > 0;
  }

  toString(): string {
    return `update-deleted(${Object.keys(this.change).length} properties)`;
  }

  protected async act(it: ItemContext, m: StoreModel, real: Real): Promise<void> {
    const gone = m.goneIds();
    const id = gone[this.pickIndex % gone.length];
    // the answer is the target's choice (observation update.unknownId), and even none is no matter: what
    // is judged is that the record stays gone
    await it.client.update(real.r, [{ id, ...this.change }]);
    if (observed('update.unknownId') === 'upserted') {
      m.revive(id, this.change);
      real.created.push(id);
      it.scope.adopt(real.r.name, [id]);
    }
    await agree(it, m, real, `after ${this} of ${short(id)}`);
  }
}

/** delete: live records, by several ids in one filter object or one object per id (§4 Delete); maybe an id already gone. */
export class Delete extends Command {
  readonly kind = 'delete';
  constructor(readonly picks: number[], readonly shape: 'several-ids' | 'several-filters', readonly withGone: boolean) {
    super();
  }

  check(m: Readonly<StoreModel>): boolean {
    return m.live.size > 0;
  }

  toString(): string {
    return `delete(${this.picks.length} record(s), ${this.shape}${this.withGone ? ', with one already deleted' : ''})`;
  }

  protected async act(it: ItemContext, m: StoreModel, real: Real): Promise<void> {
    const ids = pick(m.liveIds(), this.picks);
    // a deleted id named again only where the target was seen to ignore unknown ids (observation delete.unknownId)
    const again = this.withGone && observed('delete.unknownId') === 'ignored' ? m.goneIds().slice(0, 1) : [];
    const named = [...ids, ...again];
    const filter = this.shape === 'several-ids' ? [{ id: named }] : named.map((id) => ({ id: [id] }));
    const res = await it.client.delete(real.r, named, { filter });
    // a lost answer the client resolved (a read-back shows the records gone) is a delete done
    if (!res.ok && !res.applied) {
      if (isTargetError(res.exchange)) it.ok(res, `delete of ${named.length} ${real.r.title} record(s)`);
      failStep(it, real, `a delete of ${ids.length} live ${real.r.title} record(s) of the run${again.length ? ' (and one it deleted before)' : ''} answered ${res.problem}`, {
        why: "§4 Delete: the success response is {success: 'true'}", expected: { success: 'true' }, evidence: [res.exchange],
      });
    }
    for (const id of ids) m.delete(id);
    it.scope.forget(real.r.name, ids);
    await agree(it, m, real, `after ${this}`);
  }
}

/** A read with a generated filter over the run's ids: something to read once the run has had a record. */
abstract class Query extends Command {
  constructor(readonly spec: FilterSpec) {
    super();
  }

  check(m: Readonly<StoreModel>): boolean {
    return m.live.size + m.gone.size > 0;
  }

  toString(): string {
    return `${this.kind}(${this.spec.key === null ? 'ids' : `key ${this.spec.key}`})`;
  }
}

/** get with a generated filter: exactly the model's records that satisfy it. */
export class Get extends Query {
  readonly kind = 'get';

  protected async act(it: ItemContext, m: StoreModel, real: Real): Promise<void> {
    const q = modelQuery(m, this.spec);
    const res = await it.client.get(real.r, { filters: q.filters, pagination: { pageSize: Math.max(1, q.scope.length) } });
    const records = it.ok(res, `get of the run's ${real.r.title} records with ${queryText(q)}`);
    const got = new Set(records.map((x) => String(x?.id).toLowerCase()));
    const scope = new Set(q.scope.map((x) => x.toLowerCase()));
    const outside = records.filter((x) => !scope.has(String(x?.id).toLowerCase())).map((x) => x?.id);
    const wrong = q.forbidden.filter((id) => got.has(id.toLowerCase()));
    const missing = q.required.filter((id) => !got.has(id.toLowerCase()));
    if (outside.length || wrong.length || missing.length) {
      failStep(it, real, `a get with ${queryText(q)} ${[
        outside.length ? `returned ${outside.length} record(s) outside the id filter` : '',
        wrong.length ? `returned ${wrong.length} record(s) the model says it must not (deleted, or not satisfying the filter): ${wrong.join(', ')}` : '',
        missing.length ? `left out ${missing.length} live record(s) that satisfy it: ${missing.join(', ')}` : '',
      ].filter(Boolean).join('; ')}`, {
        why: '§4 Filter naming; §4 Delete',
        expected: { returned: q.required, eitherWay: q.open },
        actual: records.map((x) => x?.id),
        evidence: [res.exchange],
      });
    }
  }
}

/** count with a generated filter: the number of the model's records that satisfy it. */
export class Count extends Query {
  readonly kind = 'count';

  protected async act(it: ItemContext, m: StoreModel, real: Real): Promise<void> {
    const q = modelQuery(m, this.spec);
    if (q.open.length) it.notJudged(`${q.open.length} record(s) hold a value the filter's oracle cannot read: the count is open`);
    const want = q.required.length;
    // a store whose reads lag its writes may show the count late: read until it agrees, or the deadline
    const { result } = await eventually(async () => {
      const res = await it.client.count(real.r, { filters: q.filters });
      return { n: it.ok(res, `count of the run's ${real.r.title} records with ${queryText(q)}`), ex: res.exchange };
    }, (x) => x.n === want);
    if (result.n !== want) {
      failStep(it, real, `a count with ${queryText(q)} gives ${describeValue(String(result.n))}; the model holds ${want} such live record(s)`, {
        why: '§4 Responses: count returns the number of records the filters address', expected: want, actual: result.n, evidence: [result.ex],
      });
    }
  }
}

/** a page walk over the run's records: every live record once, no deleted one, pages no larger than asked. */
export class Walk extends Command {
  readonly kind = 'walk';
  constructor(readonly pageSize: number) {
    super();
  }

  check(m: Readonly<StoreModel>): boolean {
    return m.live.size + m.gone.size > 0;
  }

  toString(): string {
    return `walk(pages of ${this.pageSize})`;
  }

  protected async act(it: ItemContext, m: StoreModel, real: Real): Promise<void> {
    const ids = m.allIds();
    const size = Math.max(1, Math.min(this.pageSize, observed('pagination.maxPageSize')));
    const listed: string[] = [];
    const bound = Math.ceil(ids.length / size) + 2;
    for (let i = 0; i < bound; i++) {
      const res = await readPage(it.client, real.r, { filters: { id: ids }, index: i, pageSize: size });
      const page = it.ok(res, `page ${i + 1} of the run's ${real.r.title} records (pages of ${size})`);
      if (page.length > size) failStep(it, real, `page ${i + 1} of the run's records holds ${page.length} records; pageSize asked ${size}`, { why: '§4 Common rules: pagination.pageSize bounds a page', expected: `≤ ${size}`, actual: page.length });
      listed.push(...page.map((x) => String(x?.id)));
      if (page.length < size) break;
    }
    const seen = new Set<string>();
    const twice = listed.filter((id) => seen.has(id.toLowerCase()) || !seen.add(id.toLowerCase()));
    const live = new Set(m.liveIds().map((x) => x.toLowerCase()));
    const extra = [...seen].filter((id) => !live.has(id));
    const missing = m.liveIds().filter((id) => !seen.has(id.toLowerCase()));
    if (twice.length || extra.length || missing.length) {
      failStep(it, real, `walking the run's ${real.r.title} records in pages of ${size} ${[
        twice.length ? `listed ${twice.length} record(s) twice: ${twice.join(', ')}` : '',
        extra.length ? `listed ${extra.length} record(s) that are not live: ${extra.join(', ')}` : '',
        missing.length ? `never listed ${missing.length} live record(s): ${missing.join(', ')}` : '',
      ].filter(Boolean).join('; ')}`, {
        why: '§4 Common rules: consecutive pages partition the records',
        expected: m.liveIds(), actual: listed, evidence: it.exchanges.slice(-3),
      });
    }
  }
}

/** the version history of one live record (§3): one version per create and update, numbered 1..n, their contents. */
export class Versions extends Command {
  readonly kind = 'versions';
  constructor(readonly pickIndex: number) {
    super();
  }

  check(m: Readonly<StoreModel>): boolean {
    return m.live.size > 0 && !!m.versioned;
  }

  toString(): string {
    return 'versions';
  }

  protected async act(it: ItemContext, m: StoreModel, real: Real): Promise<void> {
    const live = m.liveIds();
    const id = live[this.pickIndex % live.length];
    const history = m.get(id)!.versions;
    if (!history) it.notJudged(`the history of ${id} is not known: an update brought it back after its delete (observation update.unknownId = upserted)`);
    const want = history;
    const got = await getByIds(it, real.r, [id], `get of ${real.r.title} ${id} for its versions`, (byId) => Array.isArray(byId.get(id.toLowerCase())?.versions) && byId.get(id.toLowerCase())!.versions.length === want.length);
    const list: Rec[] | undefined = got.byId.get(id.toLowerCase())?.versions;
    const fail = (what: string, expected: unknown) => failStep(it, real, `${real.r.title} ${id} after ${want.length - 1} update(s): ${what}`, {
      why: '§3 States and transitions: a create makes version 1, each update appends the next number with its content',
      expected, actual: list, evidence: [got.exchange],
    });
    if (!Array.isArray(list)) return fail('versions is not a list', want.length);
    const numbers = list.map((v) => normalizeInteger(v?.version) ?? '?');
    const wanted = want.map((_, i) => String(i + 1));
    if (list.length !== want.length || wanted.some((k) => numbers.filter((n) => n === k).length !== 1)) {
      fail(`${list.length} version(s) numbered ${numbers.join(', ')}; expected ${want.length}, numbered 1 to ${want.length} once each`, wanted);
    }
    want.forEach((content, i) => {
      const v = list.find((x) => normalizeInteger(x?.version) === String(i + 1));
      if (content !== undefined && v?.content !== content) fail(`version ${i + 1} holds content ${describeValue(v?.content)}; the ${i === 0 ? 'create' : `update ${i}`} gave ${describeValue(content)}`, content);
    });
  }
}
