/**
 * A bounded pool for the proofs (reference/prove.ts): each proof is a whole
 * storecheck run in a child process, CPU-bound, so they run one per core.
 * Light on purpose (node:os only): vitest.config.ts imports it.
 */
import { availableParallelism } from 'node:os';

/**
 * Proofs in flight at once: STORECHECK_PROVE_CONCURRENCY, else one per core
 * (at least 2: a proof spends part of its time waiting on its own server).
 */
export function defaultConcurrency(): number {
  const env = Number(process.env.STORECHECK_PROVE_CONCURRENCY);
  if (Number.isInteger(env) && env > 0) return env;
  return Math.max(2, availableParallelism());
}

/** Run `fn` over `items` with at most `concurrency` in flight; results in input order. */
export async function runPool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}
