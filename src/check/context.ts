/**
 * What a check's body gets (`ctx`) and what an item's judge gets (`it`): the
 * run's values, the check's client, scope and evidence, draws seeded from the
 * run seed, and the ways a check or an item ends (fail, not judged, skip).
 * makeContext assembles it from small parts, one job each.
 */
import type * as fc from 'fast-check';
import type { CallResult, StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import type { DepthProfile, RunConfig } from '../config.js';
import type { CheckDef } from '../items/index.js';
import type { ObservationKey, ObservationValue } from '../observe/registry.js';
import type { Rule } from '../rules.js';
import { resource as resourceModel, type ResourceModel } from '../schema/model.js';
import { CheckFailure, NotJudged, TargetError, requireOk, type FailureDetail } from './failure.js';
import type { ItemBook } from './items.js';
import { failureRecord, targetErrorEvidence, type CheckTaskMeta } from './outcome.js';
import { commandsReplayPath, currentRun, runItemProperty } from './property.js';
import { observed, type Runtime } from './runtime.js';
import type { Scope } from './scope.js';
import { askingAsItem } from './invariants/watch.js';
import { drawOne, mixSeed } from './seed.js';

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
  /** one value drawn from `arb`, seeded from the run seed, the check (or item) id and `label` (the same label, the same value) */
  sample<T>(arb: fc.Arbitrary<T>, label: string): T;
  /**
   * one value drawn from `arb`, seeded from the run seed and `label` alone:
   * every check and item drawing under one label gets the same value (the
   * get check and the count check of a filter case, which must send the same
   * request to share it)
   */
  sampleShared<T>(arb: fc.Arbitrary<T>, label: string): T;
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
  /**
   * Record the value classes this item is judged with (names of
   * src/schema/value-classes.ts), and those that apply but are not judged here,
   * with why: report.json items[].classes, coverage.classes.
   */
  classes(judged: readonly string[], notJudged?: ReadonlyArray<{ class: string; reason: string }>): void;
}

/** Everything a check's context is made of (src/check/check.ts gathers it). */
export interface Parts {
  def: CheckDef;
  rule: Rule;
  rt: Runtime;
  seed: number;
  client: StoreClient;
  scope: Scope;
  exchanges: Exchange[];
  book: ItemBook;
  selected: (c: string) => boolean;
  meta: CheckTaskMeta;
  t: { skip(reason: string): void };
}

/** `ctx.skip` ends the check body with this; the check rethrows vitest's own skip. */
export class SkipCheck extends Error {
  constructor(readonly reason: string, readonly vitest: unknown) {
    super(reason);
  }
}

export function makeContext(p: Parts): CheckContext {
  const base: CheckContext = {
    ...runValues(p),
    ...draws(p),
    ...endings(p),
    item: (c, judge, opts) => judgeItem(p, base, c, judge, opts),
  };
  return base;
}

/** What the check is and what it works with. */
function runValues(p: Parts): Pick<CheckContext, 'id' | 'def' | 'rule' | 'config' | 'depth' | 'client' | 'model' | 'scope' | 'exchanges' | 'seed' | 'observed' | 'selected'> {
  const { def, rt } = p;
  return {
    id: def.id,
    def,
    rule: p.rule,
    config: rt.config,
    depth: rt.depth,
    client: p.client,
    model: def.resource === '*' ? undefined : resourceModel(def.resource),
    scope: p.scope,
    exchanges: p.exchanges,
    seed: p.seed,
    observed: (key) => observed(key),
    selected: p.selected,
  };
}

/** Values drawn from the run seed: one sample, a property, a replayed sequence's path. */
function draws(p: Parts): Pick<CheckContext, 'sample' | 'sampleShared' | 'property' | 'commandsReplayPath'> {
  const { def, rt, book } = p;
  return {
    sample: (arb, label) => drawOne(arb, rt.config.seed, `${def.id}:${label}`),
    sampleShared: (arb, label) => drawOne(arb, rt.config.seed, `shared:${label}`),
    commandsReplayPath: (label) => commandsReplayPath(rt.config.replay, mixSeed(rt.config.seed, label)),
    async property(arb, predicate, opts = {}) {
      const out = await runItemProperty(arb, predicate, {
        seed: mixSeed(rt.config.seed, opts.label ?? def.id),
        runs: opts.runs ?? rt.depth.values,
        shrink: rt.depth.shrink,
        shrinkMs: rt.config.shrinkMs,
        replay: rt.config.replay,
      });
      for (const [c, d] of out.failures) book.fail(c, failureRecord(d, p.exchanges), true);
    },
  };
}

/** A failure's message completed with where the spec says so: a `why` citing its own section stands alone, else the rule's section goes first. */
function withSection(rule: Rule, d: FailInput): FailureDetail {
  const { why, ...rest } = d;
  if (/§\d/.test(d.message)) return rest;
  return { ...rest, message: `${d.message} (${why && /^§\d/.test(why) ? why : `${rule.section}: ${why ?? rule.title}`})` };
}

/** How a check or an item ends other than by passing. */
function endings(p: Parts): Pick<CheckContext, 'fail' | 'notJudged' | 'skip' | 'ok'> {
  return {
    fail(detail) {
      throw new CheckFailure(withSection(p.rule, detail));
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
  };
}

/** An item's context: the check's, with the item's own client (its exchanges are the item's evidence) and draws. */
function itemContext(p: Parts, base: CheckContext, c: string): ItemContext {
  const itemId = `${p.def.id}#${c}`;
  const exchanges: Exchange[] = [];
  const client = p.client.fork((ex) => {
    p.exchanges.push(ex);
    if (ex.sharedFrom === undefined) p.meta.requests++;
    exchanges.push(ex);
  });
  return {
    ...base,
    case: c,
    itemId,
    client,
    scope: p.scope.through(client),
    exchanges,
    property: (arb, predicate, opts = {}) => base.property(arb, predicate, { ...opts, label: opts.label ?? itemId }),
    sample: (arb, label) => drawOne(arb, p.rt.config.seed, `${itemId}:${label}`),
    classes: (judged, notJudged) => {
      if (p.selected(c)) p.book.classes(c, judged, notJudged);
    },
  };
}

/** ctx.item: judge one item and record its outcome (an unselected item is not judged, or only run). */
async function judgeItem(p: Parts, base: CheckContext, c: string, judge: (it: ItemContext) => Promise<void> | void, opts: { runUnselected?: boolean } = {}): Promise<void> {
  p.book.assertCase(c);
  const selected = p.selected(c);
  if (!selected && !opts.runUnselected) return;
  const it = itemContext(p, base, c);
  if (!selected) return askingAsItem(it.itemId, () => judge(it));
  const run = currentRun();
  try {
    await askingAsItem(it.itemId, () => judge(it));
    p.book.pass(c);
  } catch (e) {
    if (e instanceof NotJudged) p.book.notJudged(c, e.reason);
    else if (e instanceof TargetError) {
      p.book.error(c, e.message, targetErrorEvidence(e, it.exchanges));
      if (run) run.targetError = e;
    } else if (e instanceof CheckFailure) {
      p.book.fail(c, failureRecord(e.detail, it.exchanges));
      run?.failures.set(c, e.detail);
    } else throw e;
  }
}
