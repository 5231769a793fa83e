/**
 * The sequences a model-based run sends: one designed sequence that holds
 * every command kind (so every item of `<r>.model.sequence` is judged in every
 * run, at every depth), then generated ones (`fc.commands`): their number and
 * length grow with the depth; fast-check shrinks a failing one to the
 * shortest sequence that still fails.
 */
import fc from 'fast-check';
import { type CheckContext, type ResourceModel } from '../../src/check/index.js';
import type { Payload, PayloadContext } from '../../generators/index.js';
import { batches, updates } from '../support/writes.js';
import { Count, Create, Delete, Get, MAX_LIVE, Update, UpdateDeleted, Versions, Walk, type ModelRun } from './commands.js';
import type { FilterSpec } from './filters.js';

/** Indexes into lists of a few dozen at most (taken modulo their length): small numbers shrink and print well. */
const index = fc.nat({ max: 99 });

const filterSpecArb: fc.Arbitrary<FilterSpec> = fc.record({
  key: fc.option(index, { nil: null, freq: 4 }),
  rec: index,
  subset: fc.oneof(fc.constant<number[]>([]), fc.array(index, { minLength: 1, maxLength: 6 })),
});

/** Every command kind of the resource, as generated commands. */
export function commandArbs(r: ResourceModel, pctx: PayloadContext): Array<fc.Arbitrary<ModelRun>> {
  const picks = (max: number) => fc.array(index, { minLength: 1, maxLength: max });
  const out: Array<fc.Arbitrary<ModelRun>> = [
    batches(r, pctx, { minLength: 1, maxLength: 3 }).map((b) => new Create(b)),
    fc.tuple(picks(3), fc.array(updates(r, pctx, 'partial'), { minLength: 3, maxLength: 3 })).map(([p, c]) => new Update(p, c)),
    fc.tuple(index, updates(r, pctx, 'partial')).map(([i, c]) => new UpdateDeleted(i, c)),
    fc.tuple(picks(3), fc.constantFrom('several-ids' as const, 'several-filters' as const), fc.boolean()).map(([p, s, g]) => new Delete(p, s, g)),
    filterSpecArb.map((s) => new Get(s)),
    filterSpecArb.map((s) => new Count(s)),
    fc.integer({ min: 1, max: 3 }).map((n) => new Walk(n)),
  ];
  if (r.versionsOrder) out.push(index.map((i) => new Versions(i)));
  return out;
}

/**
 * Generated sequences: a first create (on an empty model every other command
 * has nothing to act on and would be skipped), then up to `maxCommands`
 * commands. `replayPath`: which commands of a case being replayed really ran
 * (--replay SEED:PATH@RUN), so fast-check walks the same shrunk sequence.
 */
export function sequenceArb(r: ResourceModel, pctx: PayloadContext, maxCommands: number, replayPath?: string): fc.Arbitrary<[Payload[], Iterable<ModelRun>]> {
  return fc.tuple(
    batches(r, pctx, { minLength: 1, maxLength: 3 }),
    fc.commands(commandArbs(r, pctx), { maxCommands, ...(replayPath !== undefined ? { replayPath } : {}) }),
  );
}

/** A generated case as the commands it runs: its first create, then the generated commands (fast-check's own wrappers, so it sees which ran). */
export function generatedSequence([first, cmds]: [Payload[], Iterable<ModelRun>]): ModelRun[] {
  return [new Create(first), ...cmds];
}

/**
 * The designed sequence: every kind at least once, in an order where each
 * has something to act on — a batch created, two of it updated in one data,
 * a filtered get and count, a page walk, a delete, an update of the deleted
 * record, a second create, a delete through several filter objects naming a
 * record deleted before, a get and a count over live and deleted ids, the
 * versions of an updated record.
 */
export function designedSequence(ctx: CheckContext, r: ResourceModel, pctx: PayloadContext): ModelRun[] {
  const [first, second] = [ctx.sample(batches(r, pctx, { minLength: 3, maxLength: 3 }), 'model:create'), ctx.sample(batches(r, pctx, { minLength: 1, maxLength: 1 }), 'model:create-2')];
  // the first change partial, the last whole: an update of several items always carries text in its last item
  // (what leaks from one item of a batch into another shows whatever the draws of the values were)
  const changes = [ctx.sample(updates(r, pctx, 'partial'), 'model:update'), ctx.sample(updates(r, pctx, 'full'), 'model:update-last')];
  const later = ctx.sample(updates(r, pctx, 'full'), 'model:update-deleted');
  const seq: ModelRun[] = [
    new Create(first),
    new Update([0, 2], changes),
    new Get({ key: 0, rec: 0, subset: [] }),
    new Count({ key: 0, rec: 0, subset: [] }),
    new Walk(2),
    new Delete([1], 'several-ids', false),
    new UpdateDeleted(0, later),
    new Create(second),
    new Delete([0, 2], 'several-filters', true),
    new Get({ key: null, rec: 0, subset: [] }),
    new Count({ key: null, rec: 0, subset: [] }),
  ];
  if (r.versionsOrder) seq.push(new Versions(0));
  if (first.length + second.length > MAX_LIVE) throw new Error('the designed sequence creates more records than a run holds');
  return seq;
}
