/**
 * Preloaded (`--import`) into each storecheck run of `npm run mutation:engine`
 * (scripts/mutation-engine-run.ts). The reference server runs in that process,
 * instrumented by StrykerJS; this probe reads Stryker's own bookkeeping in it:
 *
 *   - with no mutant active: which mutants the run reached (Stryker counts
 *     every mutant's site as it passes it, the "static" coverage), so a
 *     mutant is only ever run against a server configuration that reaches it;
 *   - with a mutant active: how often its site was evaluated (Stryker counts
 *     the hits of the active mutant when a hit counter exists; it never
 *     limits them here), so a survivor that was never reached is told apart
 *     from one reached and not detected.
 *
 * On exit of the main thread it writes both to the file named by
 * STORECHECK_MUTATION_PROBE. Plain JavaScript: it loads before tsx.
 */
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.STORECHECK_MUTATION_PROBE;
if (file && isMainThread) {
  // created before any instrumented module loads: Stryker's helpers adopt it
  const ns = (globalThis.__stryker__ ??= {});
  ns.hitCount = 0;
  ns.hitLimit = Number.POSITIVE_INFINITY;
  process.on('exit', () => {
    try {
      writeFileSync(file, JSON.stringify({
        activeMutant: ns.activeMutant ?? null,
        hits: ns.hitCount,
        reached: Object.keys(ns.mutantCoverage?.static ?? {}),
      }));
    } catch {
      // bookkeeping only: the run's verdict stands without it
    }
  });
}
