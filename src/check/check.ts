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
import { test, type TestContext } from 'vitest';
import { chainOf } from '../client/chain.js';
import type { Exchange } from '../client/http.js';
import type { CheckDef } from '../items/index.js';
// items selected by --only: the rule `storecheck list` and the run's plan use too
import { itemSelector } from '../items/select.js';
import { rule as ruleOf, type Rule } from '../rules.js';
import { checkEnded } from './chains.js';
import { makeContext, SkipCheck, type CheckContext } from './context.js';
import { CheckFailure, TargetError } from './failure.js';
import { ItemBook } from './items.js';
import { InvariantTally } from './invariants/tally.js';
import { askingFor } from './invariants/watch.js';
import { attachToAllure, conclude, recordCheckLevel, type CheckTaskMeta } from './outcome.js';
import { runtime } from './runtime.js';
import { Scope } from './scope.js';
import { mixSeed } from './seed.js';
import { countingWaits, type Waits } from './visibility.js';

export type { CheckContext, FailInput, ItemContext } from './context.js';
export type { CheckTaskMeta, EvidenceItem } from './outcome.js';
export { mixSeed };

const registered = new Set<string>();

/** Register a check of the catalogue (a CheckDef of src/items: `checksOf(rule, resource)`, `checkOf(rule, resource)`). */
export function check(def: CheckDef, fn: (ctx: CheckContext) => Promise<void>, opts: { timeoutMs?: number } = {}): void {
  if (registered.has(def.id)) throw new Error(`duplicate check id ${def.id}: check ids must be unique (reports compare by id)`);
  registered.add(def.id);
  const r = ruleOf(def.rule);
  const title = def.title ?? r.title;
  test(`${def.id} — ${title}`, { timeout: opts.timeoutMs }, (t) => runCheck(def, r, title, fn, t));
}

/** The test body: run the check's function and leave its verdict on the task. */
async function runCheck(def: CheckDef, r: Rule, title: string, fn: (ctx: CheckContext) => Promise<void>, t: TestContext): Promise<void> {
  const rt = runtime();
  const seed = mixSeed(rt.config.seed, def.id);
  const book = new ItemBook(def);
  const meta: CheckTaskMeta = { id: def.id, title, resource: def.resource, rule: def.rule, group: r.group, section: r.section, level: r.level, requests: 0, seed, items: {} };
  (t.task.meta as any).storecheck = meta;
  await labelForAllure(def, r);
  const selected = itemSelector(rt.config.only, def);
  if (def.writes && rt.config.readOnly) {
    meta.skipped = 'needs create/update/delete; the run is --read-only';
    book.settle(meta.skipped, selected);
    meta.items = book.toJSON();
    t.skip(meta.skipped);
    return;
  }
  const exchanges: Exchange[] = [];
  const client = rt.client.fork((ex) => {
    exchanges.push(ex);
    if (ex.sharedFrom === undefined) meta.requests++;
  });
  const scope = new Scope(client, rt.observations['limits.maxDataItems'] as number | null ?? null);
  const ctx = makeContext({ def, rule: r, rt, seed, client, scope, exchanges, book, selected, meta, t });
  // the answers of the check's requests are judged against the invariants too (src/check/invariants)
  const invariants = new InvariantTally();
  const waits: Waits = { atDeadline: 0 };
  const skipped = await askingFor(invariants, def.id, () => countingWaits(waits, () => runBody(def.id, fn, ctx, scope, meta, book, exchanges, selected)));
  meta.invariants = invariants.toJSON();
  if (waits.atDeadline) meta.waitsAtDeadline = waits.atDeadline;
  if (skipped) {
    meta.items = book.toJSON();
    throw skipped.vitest;
  }
  settleGaps(meta, book, selected);
  meta.items = book.toJSON();
  conclude(meta, book);
  await endTest(meta, book, t);
}

/** The check's body, its scope closed after it: a skip is returned (to be rethrown once the invariants are recorded), anything else recorded. */
async function runBody(checkId: string, fn: (ctx: CheckContext) => Promise<void>, ctx: CheckContext, scope: Scope, meta: CheckTaskMeta, book: ItemBook, exchanges: Exchange[], selected: (c: string) => boolean): Promise<SkipCheck | undefined> {
  try {
    await fn(ctx);
  } catch (e) {
    if (e instanceof SkipCheck) {
      book.settle(e.reason, selected);
      return e;
    }
    recordCheckLevel(meta, book, e, exchanges, selected);
  } finally {
    await scope.close();
    // the check's round trips one after another (its items' and its scope's deletes included): its share of the run's critical path
    const chain = chainOf(exchanges);
    meta.roundTrips = chain.roundTrips;
    checkEnded(checkId, chain);
  }
  return undefined;
}

async function labelForAllure(def: CheckDef, r: Rule): Promise<void> {
  await allure.labels(
    { name: 'epic', value: def.resource },
    { name: 'feature', value: r.group },
    { name: 'story', value: def.rule },
    { name: 'severity', value: r.level === 'must' ? 'critical' : r.level === 'quirk' ? 'minor' : 'trivial' },
    { name: 'tag', value: `${r.level} ${r.section}` },
  );
}

/** An item the catalogue lists and the check never reached is a gap of the suite: no verdict rather than a silent hole. */
function settleGaps(meta: CheckTaskMeta, book: ItemBook, selected: (c: string) => boolean): void {
  const gaps = book.settle('the check ended without judging it (a gap of the suite)', selected);
  if (gaps.length && !meta.suiteError && !meta.failure && !meta.targetError) meta.suiteError = `${meta.id} ended without judging ${gaps.map((c) => `#${c}`).join(', ')}`;
}

/** The vitest outcome of the verdict: a thrown suite error, failure or target error; skipped when nothing could be judged. */
async function endTest(meta: CheckTaskMeta, book: ItemBook, t: TestContext): Promise<void> {
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
}
