/**
 * The values an item is judged with: the first designed (chosen to show the
 * usual faults), the others generated; depth says how many in all
 * (DepthProfile.values). Both go through ctx.property: seeded, shrunk on
 * failure, replayable.
 */
import type fc from 'fast-check';
import type { CheckContext } from './check.js';

/** `most`: at most that many values (the first ones: the designed value first). */
export async function forValues<T>(ctx: CheckContext, designed: fc.Arbitrary<T> | undefined, generated: fc.Arbitrary<T>, run: (v: T) => Promise<void>, label?: string, most = Infinity): Promise<void> {
  const total = Math.max(1, Math.min(ctx.depth.values, most));
  const base = label ?? (('itemId' in ctx ? (ctx as { itemId: string }).itemId : ctx.id));
  if (designed) await ctx.property(designed, run, { runs: 1, label: base });
  const rest = designed ? total - 1 : total;
  if (rest > 0) await ctx.property(generated, run, { runs: rest, label: `${base}:generated` });
}
