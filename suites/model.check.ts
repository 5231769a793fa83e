/**
 * Model-based runs (issue 16), for every writable resource: sequences of
 * creates, updates, deletes, filtered gets and counts, page walks and (blog
 * posts, pages) version histories, each command judged against a model of the
 * run's own records (suites/model/). Items: `<r>.model.sequence#<command kind>`.
 *
 * One designed sequence holds every command kind; generated sequences follow
 * (`fc.commands`, run by `fc.asyncModelRun`), as many as the depth's values
 * per item and up to the depth's batch + 4 commands long. A failure shrinks to
 * the shortest sequence that still fails, and its report lists that sequence,
 * one request per line, with the seed and path that replay it (--replay).
 */
import fc from 'fast-check';
import { check, checksOf, modelCommands, resources, type CheckContext, type ModelCommand, type ResourceModel, type SuiteDeclaration } from '../src/check/index.js';
import { chunked } from './support/classes.js';
import { refsFixture, refsFor } from './support/refs.js';
import { payloadContext } from './support/writes.js';
import { designedSequence, generatedSequence, sequenceArb } from './model/sequences.js';
import { StoreModel, versionedProp } from './model/state.js';
import { newReal, SequenceAbandoned, type Real } from './model/steps.js';
import type { ModelRun } from './model/commands.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = { rules: ['model.sequence'] };

const WRITABLE = resources().filter((r) => r.writable && r.payload.length > 0);
const refs = refsFixture('model');

/** Run one sequence from an empty model; what it created is deleted when it ends, also when it failed. */
async function runSequence(ctx: CheckContext, r: ResourceModel, names: Map<string, string>, judged: Set<ModelCommand>, cmds: Iterable<ModelRun>): Promise<void> {
  const model = new StoreModel(r, ctx.observed('update.semantics'), versionedProp(r));
  const real: Real = newReal(ctx, r, names, judged);
  try {
    await fc.asyncModelRun(() => ({ model, real }), cmds);
  } catch (e) {
    // a step --only left out could not be taken: the selected items judged what they could
    if (!(e instanceof SequenceAbandoned)) throw e;
  } finally {
    await cleanUp(ctx, r, model, real);
  }
}

/** Delete the live records a sequence created, unless --keep-data (a shrunk sequence sends the same unique values again). */
async function cleanUp(ctx: CheckContext, r: ResourceModel, model: StoreModel, real: Real): Promise<void> {
  // --keep-data: the records stay (the scope keeps them too; the ledger has them for sweep)
  if (ctx.config.keepData) return;
  const created = new Set(real.created.map((x) => x.toLowerCase()));
  const left = model.liveIds().filter((id) => created.has(id.toLowerCase()));
  // in lists the store takes, side by side; what cannot be deleted here stays in the check's scope, which deletes it when the check ends
  await Promise.all(chunked(left, ctx.observed('limits.maxDataItems')).map(async (chunk) => {
    const res = await ctx.client.delete(r, chunk).catch(() => undefined);
    if (res?.ok) ctx.scope.forget(r.name, chunk);
  }));
}

for (const r of WRITABLE) {
  const [def] = checksOf('model.sequence', r.name);
  check(def, async (ctx) => {
    const { ids, names } = await refsFor(refs, ctx, r);
    const pctx = payloadContext(ctx, ids);
    const judged = new Set<ModelCommand>();
    await ctx.property(fc.constant(designedSequence(ctx, r, pctx)), (cmds) => runSequence(ctx, r, names, judged, cmds), { runs: 1, label: `${def.id}:designed` });
    const maxCommands = ctx.depth.batch + 4;
    const generated = `${def.id}:generated`;
    const arb = sequenceArb(r, pctx, maxCommands, ctx.commandsReplayPath(generated));
    await ctx.property(arb, (gen) => runSequence(ctx, r, names, judged, generatedSequence(gen)), { runs: Math.max(1, ctx.depth.values), label: generated });
    // a kind no sequence reached (an earlier failure stopped them): not judged, with why
    for (const kind of modelCommands(r)) {
      if (!judged.has(kind)) await ctx.item(kind, (it) => it.notJudged('no sequence reached a command of this kind: an earlier command failed and stopped it'));
    }
  }, { timeoutMs: 240_000 });
}
