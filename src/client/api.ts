/**
 * One function per operation of §4, the key placed in the body (§5.1).
 * Every call returns its Exchange (raw response kept) and, when the answer has
 * the documented envelope, the parsed value. Writes go through the ledger
 * first so a run can always clean up what it created.
 */
import { Http, sleep, type Exchange, type HttpOptions } from './http.js';
import { pollUntil } from './poll.js';
import { keyRedactor, type Redactor } from './redact.js';
import type { ResourceModel, ScalarKind } from '../schema/model.js';
import { sameStoredValue } from '../values/index.js';
import { comparableProps } from '../items/writes.js';
import { maxLengthOf, resource as resourceModel } from '../schema/model.js';
import type { Ledger } from './ledger.js';
import type { SharedReads } from './shared-reads.js';

export type Rec = Record<string, any>;

export interface Pagination { pageNumber?: string | number; pageSize?: string | number }

export interface CallResult<T> {
  exchange: Exchange;
  /** 2xx with the documented envelope */
  ok: boolean;
  value?: T;
  /** why `ok` is false, in a sentence */
  problem?: string;
  /** create only: ids found by unique key after the answer was lost */
  recovered?: string[];
  /** ids a create answered for records that do not carry the run's tag: never owned */
  foreign?: string[];
  /**
   * update and delete: the answer was lost (also after the resends), and a
   * read-back shows the write applied. `ok` stays false — there is no answer
   * to judge — but the write is done.
   */
  applied?: boolean;
}

export interface ClientOptions extends Omit<HttpOptions, 'redactor'> {
  apiKey: string;
  /** the run's one redactor (src/client/factory.ts); without one (unit tests) the client makes its own from the key */
  redactor?: Redactor;
  /** refuse create/update/delete before sending (--read-only) */
  readOnly?: boolean;
  ledger?: Ledger;
  /**
   * A target whose reads lag its writes (observation consistency.readAfterWriteMs
   * above 0): after each write the target accepted, wait until reads show it —
   * created ids listed, deleted ids gone (polled), an update given the
   * observed lag — at most `deadlineMs`. Checks then read what they wrote.
   */
  visibility?: { lagMs: number; deadlineMs: number };
  /** reads sent once and shared by every asker of this process (src/client/shared-reads.ts) */
  sharedReads?: SharedReads;
}

/** What the key slot of a request holds: the configured key, another key, or nothing. */
export type KeyChoice = { kind: 'configured' } | { kind: 'other'; key: string } | { kind: 'missing' };

export class ReadOnlyViolation extends Error {
  constructor(op: string, path: string) {
    super(`read-only run: refused to send ${op} to ${path}`);
    this.name = 'ReadOnlyViolation';
  }
}

export class StoreClient {
  readonly http: Http;
  readonly redactor: Redactor;
  private readonly apiKey: string;
  /** sees every exchange this client (not its siblings) makes: a check's evidence */
  private observer?: (ex: Exchange) => void;

  constructor(private readonly opts: ClientOptions, shared?: { http: Http; redactor: Redactor }) {
    this.apiKey = opts.apiKey;
    this.redactor = shared?.redactor ?? opts.redactor ?? keyRedactor(opts.apiKey);
    this.http = shared?.http ?? new Http({ ...opts, redactor: this.redactor });
  }

  /**
   * A client sharing this one's pool, key, redactor and ledger whose exchanges
   * go to `observer` — so concurrent checks each collect their own evidence.
   */
  fork(observer: (ex: Exchange) => void): StoreClient {
    const c = new StoreClient(this.opts, { http: this.http, redactor: this.redactor });
    c.observer = observer;
    return c;
  }

  private async send(path: string, body: unknown, opts: { retryable?: boolean; headers?: Record<string, string> } = {}): Promise<Exchange> {
    const read = this.opts.sharedReads?.readOf(path, body, opts.headers);
    const ex = read ? await this.opts.sharedReads!.read(read, () => this.http.post(path, body, opts)) : await this.http.post(path, body, opts);
    this.observer?.(ex);
    return ex;
  }

  /**
   * POST `path` with no key in the body and the configured key in a request
   * header, written by `value` (`Bearer <key>`): does the target take it from
   * there (§5.1 says no header carries it; src/observe/header-key.ts)? The key
   * never leaves the client: request headers are not kept in evidence.
   */
  keyInHeader(path: string, header: string, value: (key: string) => string): Promise<Exchange> {
    return this.raw(path, {}, { retryable: true, headers: { [header]: value(this.apiKey) } });
  }

  get readOnly(): boolean {
    return this.opts.readOnly === true;
  }

  get ledger(): Ledger | undefined {
    return this.opts.ledger;
  }

  /** The documented body envelope: `{authentication: {apiKey}, ...rest}` (§4 Common rules, §5.1). */
  body(rest: Rec = {}, key: KeyChoice = { kind: 'configured' }): Rec {
    if (key.kind === 'missing') return { ...rest };
    const apiKey = key.kind === 'configured' ? this.apiKey : key.key;
    return { authentication: { apiKey }, ...rest };
  }

  /**
   * Low-level: POST any body to any path (auth checks, probes of undocumented
   * paths); `headers` adds request headers (e.g. a key in a header, to see that
   * the target ignores it) — through the same pool, rate limit and stop.
   */
  async raw(path: string, body: unknown, opts: { retryable?: boolean; headers?: Record<string, string> } = {}): Promise<Exchange> {
    const op = path.slice(path.lastIndexOf('/') + 1);
    if (this.readOnly && WRITE_OPS.has(op)) throw new ReadOnlyViolation(op, path);
    return this.send(path, body, opts);
  }

  async get(res: ResourceModel | string, args: { filters?: Rec; pagination?: Pagination; key?: KeyChoice; extra?: Rec } = {}): Promise<CallResult<Rec[]>> {
    const r = model(res);
    const rest: Rec = { ...args.extra };
    if (args.filters) rest.filters = args.filters;
    if (args.pagination) rest.pagination = stringifyPagination(args.pagination);
    const ex = await this.send(`${r.prefix}/get`, this.body(rest, args.key), { retryable: true });
    const result = envelope<Rec[]>(ex, (j) => Array.isArray(j), 'an array of records');
    if (result.ok) this.notice(r, result.value!, ex);
    return result;
  }

  /**
   * Every get answer shows whose records the ids the run owns hold: an id a
   * create answered, listed here carrying a run tag, is confirmed (no
   * ownership read-back is needed before writing to it); listed without one,
   * it is disowned (the create answered the id of a record the store held
   * before: never written to). The same proof the read-back gives, from a read
   * the run made anyway.
   */
  private notice(r: ResourceModel, records: Rec[], ex: Exchange): void {
    const ledger = this.opts.ledger;
    if (!ledger || !records.length) return;
    let mine: string[] | undefined;
    let foreign: string[] | undefined;
    let tags: string[] | undefined;
    for (const x of records) {
      const id = x?.id;
      if (typeof id !== 'string' || !ledger.awaitsConfirmation(r.name, id)) continue;
      tags ??= ledger.tags();
      const tagged = tags.some((t) => carriesTag(x, t));
      (tagged ? (mine ??= []) : (foreign ??= [])).push(id);
    }
    if (mine) ledger.confirm(r.name, mine);
    if (foreign) disown(ledger, r.name, foreign, ex);
  }

  /** The records of these ids: the id filter, in one page large enough for all of them. */
  byIds(res: ResourceModel | string, ids: string[]): Promise<CallResult<Rec[]>> {
    return this.get(res, { filters: { id: ids }, pagination: { pageSize: Math.max(ids.length, 1) } });
  }

  /** Store get: one object (§4 Responses). */
  async store(args: { key?: KeyChoice } = {}): Promise<CallResult<Rec>> {
    const ex = await this.send(`${model('store').prefix}/get`, this.body({}, args.key), { retryable: true });
    return envelope(ex, (j) => !!j && typeof j === 'object' && !Array.isArray(j), 'one object');
  }

  async count(res: ResourceModel | string, args: { filters?: Rec; path?: string; key?: KeyChoice } = {}): Promise<CallResult<number>> {
    const r = model(res);
    const rest: Rec = {};
    if (args.filters) rest.filters = args.filters;
    const ex = await this.send(args.path ?? `${r.prefix}/count`, this.body(rest, args.key), { retryable: true });
    const res1 = envelope<Rec>(ex, (j) => !!j && typeof j === 'object' && typeof (j as Rec).count === 'string', '{count: String}');
    if (!res1.ok) return { ...res1, value: undefined } as CallResult<number>;
    const n = Number(res1.value!.count);
    if (!/^[0-9]+$/.test(res1.value!.count)) return { exchange: ex, ok: false, problem: `count is not a string holding an integer: ${JSON.stringify(res1.value!.count)}` };
    return { exchange: ex, ok: true, value: n };
  }

  /**
   * Create: `data` is an array of payload items. The create is announced in
   * the ledger before it is sent (its unique run-tagged values), and every id
   * in the answer is appended to the ledger before the caller sees it.
   */
  async create(res: ResourceModel | string, data: Rec[], args: { key?: KeyChoice; resends?: number } = {}): Promise<CallResult<Rec[]>> {
    const r = model(res);
    const path = `${r.prefix}/create`;
    if (this.readOnly) throw new ReadOnlyViolation('create', path);
    const ledger = this.opts.ledger;
    const lookup = ledger ? taggedKey(r, data, ledger.runTag) : undefined;
    const intent = lookup && ledger!.recordCreating(r.name, lookup.key, lookup.values);
    const ex = await this.send(path, this.body({ data }, args.key));
    const result = envelope<Rec[]>(ex, (j) => Array.isArray(j), 'an array of the created records');
    const created = Array.isArray(ex.json) ? (ex.json as Rec[]) : [];
    const answered = created.filter((x) => typeof x?.id === 'string');
    // an id becomes the run's own only when its record, as answered, carries the run's tag (when the items
    // sent carried it), and its create settles only once a get shows the record under that id carrying the
    // tag too: the next read of it, or the ownership read-back before its first update or delete
    // (confirmOwned). A target answering with the values sent under the id of a record it held before can
    // never make the run update or delete that record, and cleanup looks up what it really stored.
    const mine = lookup ? answered.filter((x) => carriesTag(x, ledger!.runTag)) : answered;
    const ids = mine.map((x) => x.id as string);
    if (result.ok) await this.settle(r, ids, 'listed');
    if (mine.length < answered.length) {
      result.foreign = answered.filter((x) => !mine.includes(x)).map((x) => String(x.id));
      if (result.ok) {
        result.ok = false;
        result.problem = `the create answer holds ${result.foreign.length} record(s) without the run's tag in any value (ids ${result.foreign.slice(0, 3).join(', ')}): not what was created, never taken as the run's own`;
      }
    }
    const status = ex.response?.status;
    // with foreign records in the answer the intent stays open: cleanup looks up what was really stored
    if (result.foreign?.length) {
      if (ids.length) ledger?.recordCreated(r.name, ids);
    } else if (ids.length) {
      if (intent) ledger!.recordCreatedPending(r.name, ids, intent);
      else ledger?.recordCreated(r.name, ids);
    }
    else if (ex.notSent || (status !== undefined && status >= 400 && status < 500)) {
      // never sent (the run was stopped first), or refused: nothing was stored
      if (intent) ledger!.resolveIntent(r.name, intent);
    } else if (lookup) {
      // no ids: the answer was lost, 5xx, or unusable (HTML, cut JSON...), yet the records may
      // exist. Look them up by their unique run-tagged values and own what is there; resend only when
      // nothing is there and the outcome is unknown (never blindly: that could store them twice)
      const found = await this.findTagged(r, lookup.key, lookup.values, ledger!.runTag);
      if (found.ok && found.ids.length === 0 && unknownOutcome(ex) && configuredKey(args.key) && (args.resends ?? 0) < UNKNOWN_OUTCOME_RESENDS) {
        // nothing is stored yet: the create is sent again. Its intent stays open: a first create that
        // lands late (a slow store) is found by cleanup's lookup of the same tagged values
        return this.create(r, data, { ...args, resends: (args.resends ?? 0) + 1 });
      }
      if (found.ok) {
        // records another create of the run already owns are not this create's: two creates of equal
        // tagged values (fixtures of two check files) must never hand one's records to the other
        const fresh = found.ids.filter((id) => !ledger!.owns(r.name, id));
        result.recovered = fresh;
        ledger!.recordCreated(r.name, fresh, intent);
      } else result.recovered = [];
      // a failed lookup leaves the intent open: cleanup looks again at the end of the run
    }
    return result;
  }

  /**
   * Ids of the records whose `key` is one of `values` — only values carrying
   * `runTag`, so a lookup can never claim a record this run did not make.
   * `ok` is false when the target did not answer the lookup usably.
   */
  async findTagged(res: ResourceModel | string, key: string, values: string[], runTag: string): Promise<{ ok: boolean; ids: string[]; exchange?: Exchange }> {
    const r = model(res);
    const mine = values.filter((v) => typeof v === 'string' && runTag.length > 0 && v.startsWith(runTag));
    if (!mine.length) return { ok: true, ids: [] };
    const ids: string[] = [];
    let exchange: Exchange | undefined;
    for (let i = 0; i < mine.length; i += 100) {
      const chunk = mine.slice(i, i + 100);
      const found = await this.get(r, { filters: { [key]: chunk } });
      exchange = found.exchange;
      if (!found.ok) return { ok: false, ids, exchange };
      for (const x of found.value ?? []) if (chunk.includes(x?.[key]) && typeof x.id === 'string') ids.push(x.id);
    }
    return { ok: true, ids, exchange };
  }

  async update(res: ResourceModel | string, data: Rec[], args: { key?: KeyChoice } = {}): Promise<CallResult<Rec[]>> {
    const r = model(res);
    const path = `${r.prefix}/update`;
    if (this.readOnly) throw new ReadOnlyViolation('update', path);
    const refusedBefore = this.disownedRefusal(r, data.map((x) => String(x.id)), 'update');
    if (refusedBefore) return refusedBefore as CallResult<Rec[]>;
    for (const item of data) this.opts.ledger?.assertOwned(r.name, item.id, 'update');
    const refused = await this.confirmOwned(r, data.map((x) => String(x.id)), 'update');
    if (refused) return refused as CallResult<Rec[]>;
    let ex = await this.send(path, this.body({ data }, args.key));
    // the answer was lost: the update may or may not have been applied. Sending the same values again
    // changes nothing more — except a version history, which would count it twice: a versioned record
    // is read back first and the update resent only when it does not show
    let applied = false;
    for (let n = 0; n < UNKNOWN_OUTCOME_RESENDS && unknownOutcome(ex) && configuredKey(args.key); n++) {
      if (r.versionsOrder && (applied = await this.showsUpdate(r, data))) break;
      ex = await this.send(path, this.body({ data }, args.key));
    }
    // still no answer after the resends: a read-back may show the update applied all the same
    if (!applied && unknownOutcome(ex) && configuredKey(args.key)) applied = await this.showsUpdate(r, data);
    const result = envelope<Rec[]>(ex, (j) => Array.isArray(j), 'an array of the updated records');
    if (!result.ok && applied) result.applied = true;
    if (result.ok && this.opts.visibility && this.opts.visibility.lagMs > 0) {
      // an update shows no sign a read could wait for: the lag observed (polled, so already rounded up)
      await sleep(Math.min(this.opts.visibility.deadlineMs, this.opts.visibility.lagMs));
    }
    return result;
  }

  /** Delete by ids (§4 Delete): `filter: [{id: [...]}]`. Only ids this run created. */
  async delete(res: ResourceModel | string, ids: string[], args: { key?: KeyChoice; filter?: Rec[] } = {}): Promise<CallResult<Rec>> {
    const r = model(res);
    const path = `${r.prefix}/delete`;
    if (this.readOnly) throw new ReadOnlyViolation('delete', path);
    const refusedBefore = this.disownedRefusal(r, ids, 'delete');
    if (refusedBefore) return refusedBefore as CallResult<Rec>;
    for (const id of ids) this.opts.ledger?.assertOwned(r.name, id, 'delete');
    const refused = await this.confirmOwned(r, ids, 'delete');
    if (refused) return refused as CallResult<Rec>;
    const body = this.body({ filter: args.filter ?? [{ id: ids }] }, args.key);
    let ex = await this.send(path, body);
    // the answer was lost: a delete is idempotent, so it is sent again (a store answering 404 for ids
    // already gone then says so; the caller's read-back judges what is left)
    for (let n = 0; n < UNKNOWN_OUTCOME_RESENDS && unknownOutcome(ex) && configuredKey(args.key); n++) ex = await this.send(path, body);
    // the ledger does not take a success answer's word: an id counts as deleted only once a read-back
    // shows it gone (the end-of-run cleanup and sweep look at every id the ledger still holds)
    const result = envelope<Rec>(ex, (j) => !!j && typeof j === 'object' && (j as Rec).success === 'true', "{success: 'true'}");
    if (result.ok && !args.filter) await this.settle(r, ids, 'gone');
    // still no answer after the resends: a read-back may show the records gone all the same
    if (unknownOutcome(ex) && configuredKey(args.key) && ids.length) {
      const got = await this.byIds(r, ids);
      const asked = new Set(ids.map((id) => id.toLowerCase()));
      if (got.ok && !(got.value ?? []).some((x) => asked.has(String(x?.id).toLowerCase()))) result.applied = true;
    }
    return result;
  }

  /**
   * Before the first update or delete of an id: a get by id must not show a
   * record without the run's tag under it. The ledger already holds only ids
   * whose create answer carried the tag; this catches a target that answered a
   * create with the id of a record it already had. An id the get does not list
   * harms nothing and passes. Confirmed ids are not asked again (any get that
   * listed them confirmed them: notice), and writes started side by side share
   * one read-back (confirmSoon). Returns the refusal (never sent) or undefined.
   */
  private async confirmOwned(r: ResourceModel, ids: string[], op: 'update' | 'delete'): Promise<CallResult<never> | undefined> {
    const ledger = this.opts.ledger;
    if (!ledger) return undefined;
    // a read-back already under way for an id (another write to it, side by side) answers for it too
    const inFlight = confirming(ledger);
    const keyOf = (id: string) => `${r.name}\u0000${id.toLowerCase()}`;
    const waits = new Set(ids.map((id) => inFlight.get(keyOf(id))).filter((p) => p !== undefined));
    const unconfirmed = ids.filter((id) => !ledger.isConfirmed(r.name, id) && !inFlight.has(keyOf(id)));
    if (unconfirmed.length) {
      const read = this.confirmSoon(r, unconfirmed);
      const keys = unconfirmed.map(keyOf);
      for (const k of keys) inFlight.set(k, read);
      const done = () => {
        for (const k of keys) if (inFlight.get(k) === read) inFlight.delete(k);
      };
      read.then(done, done);
      waits.add(read);
    }
    // no usable answer: nothing confirmed, nothing refused — the write's own answer is judged
    if (waits.size) await Promise.all(waits);
    return this.disownedRefusal(r, ids, op);
  }

  /** This client's ownership read-back gathering ids, by resource: sent once the writes started in this turn have asked. */
  private readonly gathering = new Map<string, { ids: Set<string>; read: Promise<unknown> }>();

  /**
   * The ownership read-back of `ids`, shared with every other write this
   * client (one check) starts in the same turn of the event loop: the updates
   * and deletes a check sends side by side to records it created cost one get
   * by id, not one each.
   */
  private confirmSoon(r: ResourceModel, ids: string[]): Promise<unknown> {
    let batch = this.gathering.get(r.name);
    if (!batch || batch.ids.size + ids.length > CONFIRM_LIST) {
      const next = { ids: new Set<string>(), read: Promise.resolve() as Promise<unknown> };
      next.read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        if (this.gathering.get(r.name) === next) this.gathering.delete(r.name);
        return this.untaggedUnder(r, [...next.ids]);
      });
      this.gathering.set(r.name, next);
      batch = next;
    }
    for (const id of ids) batch.ids.add(id);
    return batch.read;
  }

  /** The refusal of a write to ids a get showed holding records without the run's tag (never sent), or undefined. */
  private disownedRefusal(r: ResourceModel, ids: string[], op: 'update' | 'delete'): CallResult<never> | undefined {
    const ledger = this.opts.ledger;
    const foreign = ledger ? ids.filter((id) => ledger.isDisowned(r.name, id)) : [];
    if (!foreign.length) return undefined;
    return {
      ok: false,
      exchange: disownedBy(ledger!).get(`${r.name}\u0000${foreign[0].toLowerCase()}`)!,
      problem: `refused to ${op} ${r.title} ${foreign.slice(0, 3).join(', ')}: a get by id shows a record without the run's tag under that id (not what the run created; never written to)`,
    };
  }

  /**
   * The ids of `ids` under which a get by id lists a record carrying none of
   * the ledger's run tags; the others (listed with a tag, or not listed: that
   * harms nothing) are confirmed in the ledger. No usable answer: none found,
   * none confirmed.
   */
  private async untaggedUnder(r: ResourceModel, ids: string[]): Promise<{ ids: string[]; exchange?: Exchange }> {
    const ledger = this.opts.ledger!;
    const foreign: string[] = [];
    let exchange: Exchange | undefined;
    let asking = ids;
    // an id the answer does not list is asked again alone with the others unlisted (a store whose pages are
    // smaller than the list would hide some): one a read-back of just those does not list harms nothing
    for (let round = 0; asking.length && round < CONFIRM_ROUNDS; round++) {
      const got = await this.byIds(r, asking);
      if (!got.ok) return { ids: foreign, exchange };
      exchange = got.exchange;
      const asked = new Set(asking.map((id) => id.toLowerCase()));
      const tags = ledger.tags();
      const listed = (got.value ?? []).filter((x) => asked.has(String(x?.id).toLowerCase()));
      const shown = new Set(listed.map((x) => String(x.id).toLowerCase()));
      const bad = listed.filter((x) => !tags.some((t) => carriesTag(x, t))).map((x) => String(x.id));
      foreign.push(...bad);
      if (bad.length) disown(ledger, r.name, bad, got.exchange);
      // the get's own notice has confirmed the tagged ones it listed; the unlisted, once a read shows none of them
      const unlisted = asking.filter((id) => !shown.has(id.toLowerCase()));
      if (!listed.length) ledger.confirm(r.name, unlisted);
      asking = listed.length ? unlisted : [];
    }
    return { ids: foreign, exchange };
  }

  /**
   * Does a get by id show every item of an update whose answer was lost? Its
   * scalar properties a record shows are compared by meaning (a get shows '1'
   * as 'true', a comma decimal with a dot); one a record never shows (product
   * `fileid`) proves nothing either way. An item that supplies none cannot show and is
   * taken as shown — for a versioned record a second version is worse than an
   * update unconfirmed (which the caller's own read-back then judges).
   */
  private async showsUpdate(r: ResourceModel, data: Rec[]): Promise<boolean> {
    const got = await this.byIds(r, data.map((x) => String(x.id)));
    if (!got.ok) return false;
    const byId = new Map((got.value ?? []).map((x) => [String(x?.id).toLowerCase(), x]));
    const shown = comparableProps(r, 'get').filter((p) => p.kind !== 'list');
    return data.every((item) => {
      const rec = byId.get(String(item.id).toLowerCase());
      const scalars = shown.filter((p) => typeof item[p.name] === 'string');
      return !!rec && scalars.every((p) => sameStoredValue(p.kind as ScalarKind, item[p.name], rec[p.recordField ?? p.name]));
    });
  }

  /**
   * On a lagging target (ClientOptions.visibility), read by id until every id
   * is `listed` or `gone`, or the deadline passes; the caller judges what it
   * reads next either way. Nothing to do on a target that showed no lag.
   */
  private async settle(r: ResourceModel, ids: string[], until: 'listed' | 'gone'): Promise<void> {
    const v = this.opts.visibility;
    if (!v || v.lagMs <= 0 || !ids.length) return;
    const want = new Set(ids.map((id) => id.toLowerCase()));
    const read = () => this.byIds(r, ids);
    const seen = (got: CallResult<Rec[]>) => (got.value ?? []).filter((x) => want.has(String(x?.id).toLowerCase())).length;
    const shown = (got: CallResult<Rec[]>) => !got.ok || (until === 'listed' ? seen(got) === want.size : seen(got) === 0);
    // one read at once (most writes show by then), then after the lag observed, then small pauses;
    // a read that fails ends the wait: the caller's next read meets the same failure and judges it
    if (shown(await read())) return;
    await sleep(Math.min(v.lagMs, v.deadlineMs));
    await pollUntil(read, shown, Math.max(0, v.deadlineMs - v.lagMs), { firstPauseMs: 25, maxPauseMs: 400 });
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}

const WRITE_OPS = new Set(['create', 'update', 'delete']);

/** How many times a write whose outcome is unknown is sent again (after it was resolved as not applied). */
const UNKNOWN_OUTCOME_RESENDS = 2;

/**
 * No answer, a 5xx, or a 2xx body cut or unusable: the write may have been
 * applied or not. (429 and 503 with Retry-After say "not processed": the
 * transport resent those already.) A request never sent is no outcome at all.
 */
/** Sent with the run's own key (a write with another key or none is an auth probe: never resent). */
const configuredKey = (key: KeyChoice | undefined) => (key?.kind ?? 'configured') === 'configured';

function unknownOutcome(ex: Exchange): boolean {
  if (ex.notSent) return false;
  if (ex.transportError) return true;
  const status = ex.response?.status ?? 0;
  return status >= 500 || (status >= 200 && status < 300 && (ex.response?.truncated === true || ex.json === undefined));
}

/**
 * The unique property a lost create is looked up by (one with an array filter),
 * and the run-tagged values the items carry for it; none when no item carries
 * one. Values a filter may refuse (over the filter's maxLength, §8) make a key
 * unfit: the next unique property is tried.
 */
function taggedKey(r: ResourceModel, data: Rec[], runTag: string): { key: string; values: string[] } | undefined {
  if (!runTag || !Array.isArray(data)) return undefined;
  let fallback: { key: string; values: string[] } | undefined;
  for (const p of r.payload) {
    const filter = r.filters.find((f) => f.key === p.name && f.filter === 'array');
    if (!p.unique || !filter) continue;
    const values = data.map((d) => d?.[p.name]).filter((v): v is string => typeof v === 'string' && v.startsWith(runTag));
    if (!values.length) continue;
    if (values.every((v) => v.length <= maxLengthOf(filter))) return { key: p.name, values };
    fallback ??= { key: p.name, values };
  }
  return fallback;
}

/** Ids one ownership read-back asks at most (far below the get cap: one page of a store with small pages). */
const CONFIRM_LIST = 25;
/** Read-backs of the ids an ownership read-back did not list, before they stay unconfirmed (the next write asks again). */
const CONFIRM_ROUNDS = 3;

/** Per ledger (shared by a client and its forks): the ownership read-backs in flight, by resource and id. */
const inFlightConfirmations = new WeakMap<Ledger, Map<string, Promise<unknown>>>();
function confirming(ledger: Ledger): Map<string, Promise<unknown>> {
  let m = inFlightConfirmations.get(ledger);
  if (!m) inFlightConfirmations.set(ledger, (m = new Map()));
  return m;
}

/** Per ledger: the get that showed each disowned id without the run's tag (the evidence of a refused write). */
const disownEvidence = new WeakMap<Ledger, Map<string, Exchange>>();
function disownedBy(ledger: Ledger): Map<string, Exchange> {
  let m = disownEvidence.get(ledger);
  if (!m) disownEvidence.set(ledger, (m = new Map()));
  return m;
}

function disown(ledger: Ledger, resource: string, ids: string[], ex: Exchange): void {
  for (const id of ids) disownedBy(ledger).set(`${resource}\u0000${id.toLowerCase()}`, ex);
  ledger.disown(resource, ids);
}

/** Does a record carry the run's tag at the start of one of its top-level string values? */
export function carriesTag(rec: Rec, runTag: string): boolean {
  if (!runTag) return false;
  return Object.values(rec ?? {}).some((v) => typeof v === 'string' && v.startsWith(runTag));
}

function model(res: ResourceModel | string): ResourceModel {
  return typeof res === 'string' ? resourceModel(res) : res;
}

function stringifyPagination(p: Pagination): Rec {
  const out: Rec = {};
  // §4: pagination holds strings holding integers
  if (p.pageNumber !== undefined) out.pageNumber = String(p.pageNumber);
  if (p.pageSize !== undefined) out.pageSize = String(p.pageSize);
  return out;
}

/** Judge the envelope: transport, status, JSON, shape — each failure named in one sentence. */
export function envelope<T>(ex: Exchange, shapeOk: (json: unknown) => boolean, shape: string): CallResult<T> {
  if (ex.transportError) return { exchange: ex, ok: false, problem: `no answer: ${ex.transportError.code} ${ex.transportError.message}` };
  const status = ex.response!.status;
  if (status < 200 || status > 299) return { exchange: ex, ok: false, problem: `HTTP ${status}: ${snippet(ex.response!.text)}` };
  if (ex.parseError) return { exchange: ex, ok: false, problem: `HTTP ${status} but the body is not usable (${ex.parseError}): ${snippet(ex.response!.text)}` };
  if (!shapeOk(ex.json)) return { exchange: ex, ok: false, problem: `expected ${shape}, got ${snippet(JSON.stringify(ex.json))}` };
  return { exchange: ex, ok: true, value: ex.json as T };
}

export function snippet(s: string | undefined, max = 300): string {
  if (s === undefined) return '(nothing)';
  if (s === '') return '(empty)';
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
}
