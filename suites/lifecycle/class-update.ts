/**
 * The update of the value-class items (docs/value-classes.md), shared by the
 * checks of lifecycle-update.check.ts: records made holding one class value
 * each, then updated to another class's value (item k from entry k + 1 to
 * entry k, support/classes.ts) in updates of many records at once (lists of
 * the observed limits.maxDataItems), read back once by id.
 * `lifecycle.update.changes.batch#every-record` judges the records as a whole,
 * `lifecycle.update.response#<prop>` each property's answered values and
 * `lifecycle.update.changes#<prop>` its stored ones: an update that takes
 * "0", 0, "false" or [] for "nothing supplied" shows on its property's item.
 */
import type fc from 'fast-check';
import {
  fixture, type CheckContext, type Exchange, type Fixture, type Rec, type ResourceModel,
} from '../../src/check/index.js';
import type { Payload } from '../../generators/index.js';
import { chunked, classItemCount, classNames, observedNotTaken, payloadClasses, withClasses } from '../support/classes.js';
import type { Refs } from '../support/refs.js';
import { batches, fitUtf16, getByIds, indexById, payloadMismatches } from '../support/writes.js';
import type { ClassItems } from './class-create.js';

export interface ClassUpdate extends ClassItems {
  /** the ids of the records updated, in item order */
  ids: string[];
  /** the update answers, by lower-cased id */
  answered: Map<string, Rec>;
  /** the update requests (one per list) */
  exchanges: Exchange[];
}

const lower = (s: string) => s.toLowerCase();

/** One update of `ids` with `changes`, in lists of the observed limits.maxDataItems: the answers, or why refused. */
async function updateAll(client: CheckContext['client'], r: ResourceModel, ids: string[], changes: Payload[], max: unknown) {
  const answered = new Map<string, Rec>();
  const exchanges: Exchange[] = [];
  for (const idx of chunked(ids.map((_, i) => i), max)) {
    const up = await client.update(r, idx.map((i) => ({ id: ids[i], ...changes[i] })));
    exchanges.push(up.exchange);
    if (!up.ok) return { answered, exchanges, refused: `update of ${idx.length} records: ${up.problem}` };
    for (const [id, rec] of indexById(up.value ?? [])) answered.set(id, rec);
  }
  return { answered, exchanges, refused: undefined };
}

/** Per writable resource, the class items created and updated once for the file (undefined: fewer than two items, or one item per data). */
export function classUpdates(resources: readonly ResourceModel[], refs: Fixture<Refs>): Map<string, Fixture<ClassUpdate | undefined>> {
  return new Map(resources.map((r) => [r.name, fixture(async (f): Promise<ClassUpdate | undefined> => {
    const max = f.observed('limits.maxDataItems');
    if (typeof max === 'number' && max < 2) return undefined;
    const own = r.payload.some((p) => p.references) ? await refs.get({ client: f.client }) : { ids: {}, names: new Map<string, string>() };
    const draw = <T>(arb: fc.Arbitrary<T>, label: string) => f.sample(arb, `${label}:update:${r.name}`);
    const props = payloadClasses(r, f.config.runTag, f.depth.classValues, draw, { refs: own.ids, underReadings: observedNotTaken() });
    const n = classItemCount(props);
    if (n < 2) return undefined;
    const base = draw(batches(r, { tag: f.config.runTag, refs: own.ids }, { minLength: n, maxLength: n }), 'value-class items');
    const before = withClasses(r, base, props, f.config.runTag, 1).map((p) => fitUtf16(r, p));
    const after = withClasses(r, base, props, f.config.runTag).map((p) => fitUtf16(r, p));
    const changed = props.map((x) => x.p.name);
    const changes = after.map((item) => Object.fromEntries(changed.filter((name) => name in item).map((name) => [name, item[name]])) as Payload);
    const created = await f.scope.create(r, before);
    const ids = created.map((x) => String(x?.id));
    const up = await updateAll(f.client, r, ids, changes, max);
    return { items: changes, props, classes: classNames(props), names: own.names, ids, ...up };
  })]));
}

/** The updated class items as get by their ids shows them once every change shows (a lagging store is read again), once per resource. */
const reads = new Map<string, Promise<{ byId: Map<string, Rec>; records: Rec[]; exchange: Exchange }>>();

export function readUpdated(ctx: CheckContext, r: ResourceModel, cu: ClassUpdate) {
  let p = reads.get(r.name);
  if (!p) {
    const applied = (m: Map<string, Rec>) => cu.ids.every((id, i) => payloadMismatches(r, cu.items[i], m.get(lower(id)), 'get', { names: cu.names }).length === 0);
    p = getByIds(ctx, r, cu.ids, 'get by the ids of the updated value-class items', applied);
    reads.set(r.name, p);
    p.catch(() => reads.delete(r.name));
  }
  return p;
}
