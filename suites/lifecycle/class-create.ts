/**
 * The create of the value-class items (docs/value-classes.md), shared by the
 * checks of lifecycle-create.check.ts: per resource and run, items where item
 * k holds class value k of every property (support/classes.ts) — the one
 * with the most falsy classes sent alone (loneIndex), the rest in one create —
 * read back once by id. `lifecycle.create.batch` judges the records as a whole (#answer,
 * #stored), `lifecycle.create.single#<prop>` judges each property's answered
 * values and `lifecycle.create.round-trip#<prop>` its stored ones — so every
 * property item is judged with one value of each class it takes, at no
 * request beyond the batch's own.
 */
import type fc from 'fast-check';
import {
  fixture, type CheckContext, type Exchange, type Fixture, type ItemContext, type PayloadPropModel, type Rec, type ResourceModel,
} from '../../src/check/index.js';
import type { Payload } from '../../generators/index.js';
import { classItemCount, classNames, observedNotTaken, payloadClasses, withClasses, type ItemClasses, type PropClasses } from '../support/classes.js';
import type { Refs } from '../support/refs.js';
import { batches, failValues, fitUtf16, getByIds, idsOf, matchResponse, payloadMismatches, type Form } from '../support/writes.js';

/** Value-class items sent (created, or the changes of an update): item k holds class value k of every property. */
export interface ClassItems {
  items: Payload[];
  props: PropClasses[];
  classes: ItemClasses;
  names: Map<string, string>;
  /** why the target refused the valid class items */
  refused?: string;
}

export interface ClassCreate extends ClassItems {
  /** the creates' answers, item by item (undefined: refused, see `refused`) */
  matched?: Array<Rec | undefined>;
  /** the create that was refused, else the last one */
  exchange: Exchange;
  /** every create request: the lone item's, then the rest's in one data */
  exchanges: Exchange[];
  /** the item sent alone (loneIndex), when there are several */
  lone?: number;
}

/** Classes a truthiness test in a store's code drops (PHP's empty(), `if (value)`): zero, "0", "false", empty. */
const FALSY = /\.(zero|falsy-zero|falsy-false|false|empty)$/;

/**
 * The item sent alone: the one carrying the most falsy classes (ties: the
 * first). Data holding one item is the path most clients take, and a store
 * that drops a falsy value only there shows; the others go in one data (the
 * batch path).
 */
export function loneIndex(items: Payload[], props: readonly PropClasses[]): number {
  let best = 0;
  let most = -1;
  for (let k = 0; k < items.length; k++) {
    const n = props.filter((pc) => pc.entries[k] && FALSY.test(pc.entries[k].cls.name)).length;
    if (n > most) [best, most] = [k, n];
  }
  return best;
}

/** Per writable resource, the class items created once for the file (undefined: the resource takes no class). */
export function classCreates(resources: readonly ResourceModel[], refs: Fixture<Refs>): Map<string, Fixture<ClassCreate | undefined>> {
  return new Map(resources.map((r) => [r.name, fixture(async (f): Promise<ClassCreate | undefined> => {
    const own = r.payload.some((p) => p.references) ? await refs.get({ client: f.client }) : { ids: {}, names: new Map<string, string>() };
    const draw = <T>(arb: fc.Arbitrary<T>, label: string) => f.sample(arb, `${label}:${r.name}`);
    const props = payloadClasses(r, f.config.runTag, f.depth.classValues, draw, { refs: own.ids, underReadings: observedNotTaken() });
    const n = classItemCount(props);
    if (!n) return undefined;
    const base = draw(batches(r, { tag: f.config.runTag, refs: own.ids }, { minLength: n, maxLength: n }), 'value-class items');
    const items = withClasses(r, base, props, f.config.runTag).map((p) => fitUtf16(r, p));
    const lone = items.length > 1 ? loneIndex(items, props) : undefined;
    const rest = items.filter((_, i) => i !== lone);
    const parts = lone === undefined ? [items] : [[items[lone]], rest];
    const sent = await Promise.all(parts.map((part) => f.scope.createRaw(r, part)));
    const exchanges = sent.map((x) => x.exchange);
    const refused = sent.find((x) => !x.ok);
    const out = { items, props, classes: classNames(props), names: own.names, exchange: (refused ?? sent[sent.length - 1]).exchange, exchanges, lone };
    if (refused) return { ...out, refused: refused.problem ?? 'refused' };
    if (lone === undefined) return { ...out, matched: matchResponse(r, items, sent[0].value ?? []) };
    // back in the items' order
    const [alone] = matchResponse(r, [items[lone]], sent[0].value ?? []);
    const others = matchResponse(r, rest, sent[1].value ?? []);
    return { ...out, matched: items.map((_, i) => (i === lone ? alone : others[i < lone ? i : i - 1])) };
  })]));
}

/** The class items as get by their ids shows them, read once per resource (by the first check that asks). */
const reads = new Map<string, Promise<{ ids: string[]; byId: Map<string, Rec>; records: Rec[]; exchange: Exchange }>>();

export function storedClassItems(ctx: CheckContext, r: ResourceModel, cc: ClassCreate) {
  let p = reads.get(r.name);
  if (!p) {
    p = (async () => {
      const ids = idsOf(ctx, (cc.matched ?? []) as Rec[], cc.exchange);
      return { ids, ...(await getByIds(ctx, r, ids, 'get by the ids of the value-class items')) };
    })();
    reads.set(r.name, p);
    p.catch(() => reads.delete(r.name));
  }
  return p;
}

/** The class of property p that item k carries ('' past its entries: a generated value). */
function classOfItem(cc: ClassItems, p: PayloadPropModel, k: number): string {
  const entries = cc.props.find((x) => x.p.name === p.name)?.entries ?? [];
  const e = entries[k];
  return e ? ` (${e.cls.name}${e.decoy ? ', its decoy' : ''})` : '';
}

/**
 * One property item judged with every class value of the property: records
 * the classes (those that cannot apply, or depend on a reading not judged
 * here, with why) and compares item k's value of p with what came back.
 */
export function judgeClassProp(it: ItemContext, r: ResourceModel, cc: ClassItems, p: PayloadPropModel, form: Form, recOf: (k: number) => Rec | undefined, what: string, evidence: Exchange[], how: { rule: string; refusedBy: string } = CREATE_RULES[form]): void {
  const pc = cc.props.find((x) => x.p.name === p.name);
  if (!pc) return;
  if (cc.refused) {
    it.classes([], pc.judged.map((c) => ({ class: c.name, reason: `the value-class items were refused (${cc.refused}): judged by ${how.refusedBy}` })));
    return;
  }
  it.classes(pc.judged.map((c) => c.name), pc.notJudged);
  cc.items.forEach((item, k) => {
    const ms = payloadMismatches(r, item, recOf(k), form, { names: cc.names, only: (q) => q.name === p.name });
    if (ms.length) failValues(it, `${what}: item ${k} of ${cc.items.length}${classOfItem(cc, p, k)}`, ms, how.rule, evidence);
  });
}

const CREATE_RULES: Record<Form, { rule: string; refusedBy: string }> = {
  write: { rule: '§4 Responses: create returns the record with the values sent', refusedBy: 'lifecycle.create.batch#answer' },
  get: { rule: '§4 Responses: get returns the created record with the values sent', refusedBy: 'lifecycle.create.batch#answer' },
};
