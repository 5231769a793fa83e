/**
 * The invariants in a worker: every exchange of the worker's client (every
 * fork of it: checks, items, fixtures, the client's own read-backs and
 * lookups) is judged as it comes back, and counted in the tally of the check
 * it was made for — the item, when it was made inside `ctx.item` — known from
 * the async context the request was sent in (AsyncLocalStorage). No request of
 * its own: the answers the checks already have are judged.
 *
 * An exchange made outside any check (a file's fixture deleted after its last
 * check) has no check to report it: it is not judged.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Http } from '../../client/http.js';
import { checkIdOf, itemDef } from '../../items/index.js';
import type { RuleId } from '../../rules.js';
import type { Operation } from '../../schema/model.js';
import { readingsOf } from './judge.js';
import type { InvariantTally } from './tally.js';

interface Asker {
  tally: InvariantTally;
  /** the check id, or `<check>#<case>` inside an item */
  by: string;
}

const asking = new AsyncLocalStorage<Asker>();

/** Who is asking now: the check (or `<check>#<case>` inside an item) whose request this is. */
export function askerNow(): string {
  return asking.getStore()?.by ?? 'a check file\'s own requests';
}

/** Run a check's body: the answers of its requests go to `tally`, seen by the check. */
export function askingFor<T>(tally: InvariantTally, checkId: string, fn: () => T): T {
  return asking.run({ tally, by: checkId }, fn);
}

/** Run an item's judge within its check: its answers are seen by the item. */
export function askingAsItem<T>(itemId: string, fn: () => T): T {
  const at = asking.getStore();
  return at ? asking.run({ tally: at.tally, by: itemId }, fn) : fn();
}

/**
 * The check (or item) running now failed for these causes of the property an
 * invariant judges (e.g. `conventions.record-schema` for the get form's
 * schema): the invariant item of `rule` × resource × op reports only the
 * causes no such check reported — one failure per cause (src/run/invariants.ts).
 */
export function claimInvariantCauses(rule: RuleId, resource: string, op: Operation, causes: readonly string[]): void {
  const at = asking.getStore();
  const item = itemDef(`${checkIdOf({ rule, resource })}#${op}`);
  if (at && item && causes.length) at.tally.claim(item.id, at.by.split('#')[0], causes);
}

/** Judge every answer of the worker's transport, under the run's observations. */
export function watchAnswers(http: Http, observations: Record<string, unknown>, apiKey: string): void {
  const k = readingsOf(observations, apiKey);
  http.listeners.add((ex) => {
    const at = asking.getStore();
    if (at) at.tally.see(ex, at.by, k);
  });
}
