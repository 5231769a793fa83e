/**
 * Faults only sequences and overlapping requests show (issue 16): each local
 * to one resource (reference/faults.ts, "sequences and concurrency"), proven
 * by the checks of the rule it breaks, on every writable resource, at two
 * seeds (test/meta/faults.test.ts leaves these rules to this file). At every
 * seed the run is non-conformant, a check of the broken rule fails on the
 * fault's resource, and no check fails anywhere else: the other resources
 * are the control.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../reference/faults.js';
import { proveFault, PROVE_SEED, type FaultProof } from '../../reference/prove.js';

const SEEDS = [PROVE_SEED, PROVE_SEED + 104_729];
const SEQUENCE_RULES = /^(model|concurrency)\./;

/** The resource each fault touches (its description says so; the test holds it apart so a fault that spreads is caught). */
const RESOURCE: Record<string, string> = {
  'update-lost-concurrent': 'collection',
  'version-number-stale': 'page',
  'create-ids-from-stale-counter': 'coupon',
  'walk-repeats-after-delete': 'blog-post',
  'count-lags-creates': 'coupon',
  'delete-undone-by-update': 'category',
  'update-batch-leak': 'product',
};

const explain = (p: FaultProof) => [
  `fault ${p.name} (breaks ${p.breaks}) at seed ${p.seed}: exit ${p.exitCode}, ${p.verdict}${p.problem ? ` — ${p.problem}` : ''}`,
  ...p.failing.map((c) => `  failing ${c.id}: ${c.message ?? ''}`),
  ...p.errors.map((c) => `  error ${c.id}: ${c.message ?? ''}`),
].join('\n');

describe('the faults of sequences and concurrency', () => {
  const faults = FAULTS.filter((f) => SEQUENCE_RULES.test(f.breaks));

  it('break every rule of sequences and concurrency, each on one named resource', () => {
    expect(faults.map((f) => f.name).sort()).toEqual(Object.keys(RESOURCE).sort());
    expect(new Set(faults.map((f) => f.breaks))).toEqual(new Set(['model.sequence', 'concurrency.updates', 'concurrency.creates', 'concurrency.count', 'concurrency.delete-walk']));
  });

  describe.concurrent('each is caught at every seed, on its resource only', () => {
    for (const f of faults) {
      for (const seed of SEEDS) {
        it(`${f.name} (seed ${seed})`, async () => {
          // a failing read is read again until the visibility deadline: 1 s is plenty on a store without lag
          const p = await proveFault(f.name, { ruleOnly: true, seed, extraArgs: ['--visibility-timeout-ms', '1000'] });
          const why = explain(p);
          expect(p.exitCode, why).toBe(1);
          expect(p.detectedBy.map((c) => c.id).filter((id) => id.startsWith(`${RESOURCE[f.name]}.`)), why).not.toEqual([]);
          expect(p.failing.filter((c) => !c.id.startsWith(`${RESOURCE[f.name]}.`)).map((c) => c.id), why).toEqual([]);
        }, 300_000);
      }
    }
  });
});
