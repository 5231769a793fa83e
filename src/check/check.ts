/**
 * `check()`: a small vitest test that judges the spec items of one catalogue
 * check (src/items).
 *
 *   for (const def of checksOf('filters.range', r.name))
 *     check(def, async (ctx) => {
 *       await ctx.item('equal', async (it) => { ... it.fail({ message, expected, actual, evidence }) ... });
 *     });
 *
 * registers test `<id> — <title>`, records the check's metadata and every
 * item's outcome on the task (read by the storecheck reporter), gives it a
 * scope whose records are deleted when it ends, collects every exchange it
 * makes as evidence, and tells apart a failure (the target broke the rule), a
 * target error (the target did not answer), an item not judged (nothing to
 * judge on this target, with the reason) and a bug of the suite (no verdict).
 */
import * as allure from 'allure-js-commons';
import * as fc from 'fast-check';
import { test } from 'vitest';
import type { CallResult, StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import type { DepthProfile, RunConfig } from '../config.js';
import { checkDef, findCheckDef, checkIdOf, type CheckDef } from '../items/index.js';
import type { ObservationKey, ObservationValue } from '../observe/registry.js';
import { rule as ruleOf, type Rule, type RuleId } from '../rules.js';
import { resource as resourceModel, type ResourceModel } from '../schema/model.js';
import { evidenceOf, toEvidence, trimValue } from '../report/evidence.js';
import { CheckFailure, NotJudged, TargetError, isTargetError, requireOk, type FailureDetail } from './failure.js';
import { ItemBook, type ItemRecord } from './items.js';
import { commandsReplayPath, currentRun, runItemProperty } from './property.js';
import { curlFor } from './reproducer.js';
import { observed, runtime } from './runtime.js';
import { Scope } from './scope.js';
// items selected by --only: the rule `storecheck list` and the run's plan use too
import { itemSelector } from '../items/select.js';

/** A check as older suites state it; it must name a check of the catalogue. */
export interface CheckSpec {
  rule: RuleId;
  /** resource name, or '*' */
  resource: string;
  subject?: string;
  title?: string;
  writes?: boolean;
  timeoutMs?: number;
}

/** What the reporter reads from `task.meta.storecheck`. */
export interface CheckTaskMeta {
  id: string;
  title: string;
  resource: string;
  rule: string;
  group: string;
  section: string;
  level: string;
  /** the first failure (check-level, or of an item): report.checks[].message etc. */
  failure?: Omit<FailureDetail, 'evidence'> & { evidence?: EvidenceItem[]; curl?: string; item?: string };
  targetError?: { message: string; evidence?: EvidenceItem[] };
  skipped?: string;
  /** a bug of the suite (not a verdict on the target) */
  suiteError?: string;
  /** outcome per item case */
  items: Record<string, ItemRecord>;
  requests: number;
  seed: number;
}

export type EvidenceItem = ReturnType<typeof toEvidence>;

/** A failure as a check states it: the spec section is added from the rule. */
export interface FailInput extends FailureDetail {
  /** what the spec says, when the rule's title does not say enough (e.g. the observed reading) */
  why?: string;
}

export interface CheckContext {
  id: string;
  def: CheckDef;
  rule: Rule;
  config: RunConfig;
  depth: DepthProfile;
  client: StoreClient;
  /** the resource model, when the check is about one resource */
  model: ResourceModel | undefined;
  /** records created through it are deleted when the check ends */
  scope: Scope;
  /** every exchange made so far by this check (by an item: by that item) */
  exchanges: Exchange[];
  /** the check's own seed (the run seed mixed with its id) */
  seed: number;
  /** an observation probed before the run, or its fallback (src/observe/registry.ts) */
  observed<K extends ObservationKey>(key: K): ObservationValue<K>;
  /**
   * Judge one item of this check: its outcome is recorded whatever happens
   * (a failure, a target error, not judged) and the check goes on with its
   * other items. Items judged in a property run make that run fail for shrinking.
   * An item --only leaves out is not judged — unless `runUnselected` (a step
   * of a sequence the selected items need): its judge then runs, nothing is
   * recorded, and whatever it throws reaches the caller.
   */
  item(c: string, judge: (it: ItemContext) => Promise<void> | void, opts?: { runUnselected?: boolean }): Promise<void>;
  /** is this item selected in this run (--only with an item id)? */
  selected(c: string): boolean;
  /** one value drawn from `arb`, seeded from the run seed and `label` (the same label, the same value) */
  sample<T>(arb: fc.Arbitrary<T>, label: string): T;
  /**
   * A fast-check property seeded from the run seed and `label` (default: the
   * item or check id); `runs` defaults to the depth's values per item.
   */
  property<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, opts?: { runs?: number; label?: string }): Promise<void>;
  /**
   * Of a model-based property being replayed (--replay SEED:PATH@RUN) under
   * this label: the commands' replay path, for `fc.commands(…, { replayPath })`.
   */
  commandsReplayPath(label: string): string | undefined;
  /** the target broke the rule: the message is completed with the rule's section */
  fail(detail: FailInput): never;
  /** the item (or, outside an item, every item of the check) cannot be judged here */
  notJudged(reason: string): never;
  /** the whole check does not apply (writes in --read-only…): every item not judged, the check skipped */
  skip(reason: string): never;
  /** the value of a call that must succeed; a 5xx/transport failure is a target error, anything else a failure */
  ok<T>(result: CallResult<T>, what: string): T;
}

export interface ItemContext extends CheckContext {
  /** the item's case */
  case: string;
  itemId: string;
}

const registered = new Set<string>();

/** Registered check ids (a meta-test compares them with the catalogue). */
export function registeredChecks(): ReadonlySet<string> {
  return registered;
}

export function checkId(spec: Pick<CheckSpec, 'rule' | 'resource' | 'subject'>): string {
  return checkIdOf(spec);
}

/** Register a check of the catalogue; `spec` may be the catalogue's CheckDef or a spec naming one. */
export function check(spec: CheckDef | CheckSpec, fn: (ctx: CheckContext) => Promise<void>, opts: { timeoutMs?: number } = {}): void {
  const def = 'items' in spec ? spec : checkDef(checkIdOf(spec));
  const id = def.id;
  if (registered.has(id)) throw new Error(`duplicate check id ${id}: check ids must be unique (reports compare by id)`);
  registered.add(id);
  const r = ruleOf(def.rule);
  const title = def.title ?? r.title;
  const timeout = opts.timeoutMs ?? ('timeoutMs' in spec ? spec.timeoutMs : undefined);

  test(`${id} — ${title}`, { timeout }, async (t) => {
    const rt = runtime();
    const seed = mixSeed(rt.config.seed, id);
    const book = new ItemBook(def);
    const meta: CheckTaskMeta = { id, title, resource: def.resource, rule: def.rule, group: r.group, section: r.section, level: r.level, requests: 0, seed, items: {} };
    (t.task.meta as any).storecheck = meta;
    await allure.labels(
      { name: 'epic', value: def.resource },
      { name: 'feature', value: r.group },
      { name: 'story', value: def.rule },
      { name: 'severity', value: r.level === 'must' ? 'critical' : r.level === 'quirk' ? 'minor' : 'trivial' },
      { name: 'tag', value: `${r.level} ${r.section}` },
    );
    const selected = itemSelector(rt.config.only, def);
    const finish = () => {
      meta.items = book.toJSON();
    };
    if (def.writes && rt.config.readOnly) {
      meta.skipped = 'needs create/update/delete; the run is --read-only';
      book.settle(meta.skipped, selected);
      finish();
      t.skip(meta.skipped);
      return;
    }
    const exchanges: Exchange[] = [];
    const client = rt.client.fork((ex) => {
      exchanges.push(ex);
      meta.requests++;
    });
    const scope = new Scope(client, rt.observations['limits.maxDataItems'] as number | null ?? null);
    const ctx = makeContext({ def, rule: r, rt, seed, client, scope, exchanges, book, selected, meta, t });
    try {
      await fn(ctx);
    } catch (e) {
      if (e instanceof SkipCheck) {
        book.settle(e.reason, selected);
        finish();
        throw e.vitest;
      }
      recordCheckLevel(meta, book, e, exchanges, selected);
    } finally {
      await scope.close();
    }
    // an item the catalogue lists and the check never reached is a gap of the suite: no verdict rather than a silent hole
    const gaps = book.settle('the check ended without judging it (a gap of the suite)', selected);
    if (gaps.length && !meta.suiteError && !meta.failure && !meta.targetError) meta.suiteError = `${id} ended without judging ${gaps.map((c) => `#${c}`).join(', ')}`;
    finish();
    conclude(meta, book);
    if (meta.suiteError) throw new Error(`storecheck suite error: ${meta.suiteError}`);
    if (meta.failure) {
      await attachToAllure(meta);
      throw new CheckFailure({ message: meta.failure.message });
    }
    if (meta.targetError) throw new TargetError(meta.targetError.message);
    if (book.count('passed') === 0 && book.count('not-judged') > 0) {
      meta.skipped = book.first('not-judged')![1].reason;
      t.skip(meta.skipped);
    }
  });
}

class SkipCheck extends Error {
  constructor(readonly reason: string, readonly vitest: unknown) {
    super(reason);
  }
}

interface Parts {
  def: CheckDef;
  rule: Rule;
  rt: ReturnType<typeof runtime>;
  seed: number;
  client: StoreClient;
  scope: Scope;
  exchanges: Exchange[];
  book: ItemBook;
  selected: (c: string) => boolean;
  meta: CheckTaskMeta;
  t: { skip(reason: string): void };
}

function makeContext(p: Parts): CheckContext {
  const { def, rule, rt, book } = p;
  const complete = (d: FailInput): FailureDetail => {
    const { why, ...rest } = d;
    if (/§\d/.test(d.message)) return rest;
    // a `why` citing its own section stands alone; otherwise the rule's section goes first
    return { ...rest, message: `${d.message} (${why && /^§\d/.test(why) ? why : `${rule.section}: ${why ?? rule.title}`})` };
  };
  const base: CheckContext = {
    id: def.id,
    def,
    rule,
    config: rt.config,
    depth: rt.depth,
    client: p.client,
    model: def.resource === '*' ? undefined : resourceModel(def.resource),
    scope: p.scope,
    exchanges: p.exchanges,
    seed: p.seed,
    observed: (key) => observed(key),
    selected: p.selected,
    sample(arb, label) {
      return fc.sample(arb, { seed: mixSeed(rt.config.seed, `${def.id}:${label}`), numRuns: 1 })[0];
    },
    commandsReplayPath: (label) => commandsReplayPath(rt.config.replay, mixSeed(rt.config.seed, label)),
    async property(arb, predicate, opts = {}) {
      const out = await runItemProperty(arb, predicate, {
        seed: mixSeed(rt.config.seed, opts.label ?? def.id),
        runs: opts.runs ?? rt.depth.values,
        shrink: rt.depth.shrink,
        replay: rt.config.replay,
      });
      for (const [c, d] of out.failures) book.fail(c, failureRecord(d, p.exchanges), true);
    },
    fail(detail) {
      throw new CheckFailure(complete(detail));
    },
    notJudged(reason) {
      throw new NotJudged(reason);
    },
    skip(reason) {
      p.meta.skipped = reason;
      let vitest: unknown;
      try {
        // vitest's skip throws its own error: keep it to rethrow from the test body
        p.t.skip(reason);
      } catch (e) {
        vitest = e;
      }
      throw new SkipCheck(reason, vitest ?? new Error(`skip: ${reason}`));
    },
    ok: (result, what) => requireOk(result, what),
    item: async (c, judge, opts = {}) => {
      book.assertCase(c);
      const selected = p.selected(c);
      if (!selected && !opts.runUnselected) return;
      const itemExchanges: Exchange[] = [];
      const client = p.client.fork((ex) => {
        p.exchanges.push(ex);
        p.meta.requests++;
        itemExchanges.push(ex);
      });
      const itemId = `${def.id}#${c}`;
      const it: ItemContext = {
        ...base,
        case: c,
        itemId,
        client,
        scope: p.scope.through(client),
        exchanges: itemExchanges,
        property: (arb, predicate, opts = {}) => base.property(arb, predicate, { ...opts, label: opts.label ?? itemId }),
        sample: (arb, label) => fc.sample(arb, { seed: mixSeed(rt.config.seed, `${itemId}:${label}`), numRuns: 1 })[0],
      };
      if (!selected) return judge(it);
      const run = currentRun();
      try {
        await judge(it);
        book.pass(c);
      } catch (e) {
        if (e instanceof NotJudged) book.notJudged(c, e.reason);
        else if (e instanceof TargetError) {
          book.error(c, e.message, evidenceOf(e.evidence.length ? e.evidence : itemExchanges.filter(isTargetError).slice(-1)));
          if (run) run.targetError = e;
        } else if (e instanceof CheckFailure) {
          book.fail(c, failureRecord(e.detail, itemExchanges));
          run?.failures.set(c, e.detail);
        } else throw e;
      }
    },
  };
  return base;
}

/** A failure as an item records it: evidence converted, a curl reproducer of the last exchange. */
function failureRecord(d: FailureDetail, fallback: Exchange[]): Omit<FailureDetail, 'evidence'> & { evidence?: unknown[]; curl?: string } {
  const given = (d.evidence ?? []).filter((x): x is Exchange => !!x);
  const ev = given.length ? given : fallback.slice(-2);
  return {
    message: d.message,
    expected: d.expected,
    actual: d.actual,
    seed: d.seed,
    path: d.path,
    counterexample: d.counterexample === undefined ? undefined : trimValue(d.counterexample),
    evidence: evidenceOf(ev),
    curl: ev.length ? curlFor(ev[ev.length - 1]) : undefined,
  };
}

/** What ended the check body outside an item: every item not judged yet takes it. */
function recordCheckLevel(meta: CheckTaskMeta, book: ItemBook, e: unknown, exchanges: Exchange[], selected: (c: string) => boolean): void {
  if (e instanceof NotJudged) {
    book.settle(e.reason, selected);
    return;
  }
  if (e instanceof TargetError) {
    const ev = evidenceOf(e.evidence.length ? e.evidence : exchanges.filter(isTargetError).slice(-1));
    meta.targetError = { message: e.message, evidence: ev };
    for (const c of book.def.items.map((i) => i.case)) if (!book.get(c) && selected(c)) book.error(c, e.message, ev);
    return;
  }
  if (e instanceof CheckFailure) {
    const rec = failureRecord(e.detail, exchanges);
    meta.failure = { ...rec, evidence: rec.evidence as EvidenceItem[] };
    book.settle(`the check failed before judging it: ${e.detail.message}`, selected);
    return;
  }
  meta.suiteError = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  book.settle(`not judged: a storecheck error ended the check (${meta.suiteError})`, selected);
}

/** The check's own failure / target error, from its items when the body did not end with one. */
function conclude(meta: CheckTaskMeta, book: ItemBook): void {
  if (meta.failure || meta.suiteError) return;
  const failed = book.first('failed');
  if (failed) {
    const [c, rec] = failed;
    meta.failure = { ...(rec as Omit<ItemRecord, 'status'>), message: rec.message ?? 'failed', evidence: rec.evidence as EvidenceItem[], item: c };
    return;
  }
  const err = book.first('error');
  if (err && !meta.targetError) meta.targetError = { message: err[1].message ?? 'the target did not answer', evidence: err[1].evidence as EvidenceItem[] };
}

async function attachToAllure(meta: CheckTaskMeta): Promise<void> {
  const detail = meta.failure ?? meta.targetError;
  if (!detail) return;
  if (meta.failure?.curl) await allure.attachment('reproducer.sh', meta.failure.curl, 'text/plain');
  await allure.attachment('evidence.json', JSON.stringify(detail, null, 2), 'application/json');
}

/** A stable per-check seed: the run seed mixed with the check id (FNV-1a). */
export function mixSeed(seed: number, id: string): number {
  let h = 0x811c9dc5 ^ (seed | 0);
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

export { findCheckDef };
