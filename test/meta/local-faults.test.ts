/**
 * Local faults the suite must catch (issue 13): a deterministic sample of the
 * generated catalogue (reference/faults-generated.ts) — two faults of every
 * family (one of each value-class family), on different resources — each proven at two seeds by the whole
 * suite at quick depth. A fault is caught at a seed when the run is
 * non-conformant and a failing item is one the fault names (its `expects`);
 * it must be caught at both. Faults share runs only across resources (one
 * fault per resource per run), so a failure can only be its resource's
 * fault's doing, and a run holds only the checks of its faults' resources and
 * those about all resources (the others cannot see a local fault). `npm run mutation` proves the whole catalogue at three seeds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, localFaults, observableOnReference } from '../../reference/faults-generated.js';
import { npmTestSample, npmTestPerFamily, proveLocal, sampleFaults, type LocalProof, type LocalProofRun } from '../../reference/prove-local.js';
import { defaultConcurrency, PROVE_SEED } from '../../reference/prove.js';

const SEEDS = [PROVE_SEED, PROVE_SEED + 7919];
// faults the reference data can show (the cap families need a resource over 1000 records)
const POOL = localFaults().filter((f) => observableOnReference(f));
const SAMPLE = npmTestSample();

let run: LocalProofRun;
beforeAll(async () => {
  run = await proveLocal(SAMPLE, { seeds: SEEDS, concurrency: defaultConcurrency(), sharing: 'resource', scoped: true });
  console.info(`[local faults] ${SAMPLE.length} faults × ${SEEDS.length} seeds: ${run.runs} runs (${run.reruns} faults proven again alone) in ${Math.round(run.ms / 1000)} s`);
}, 900_000);

function explain(p: LocalProof): string {
  return [
    `fault ${p.name}: expected a failing item among ${p.expects.join(', ')}`,
    ...p.seeds.map((s) => `  seed ${s.seed}: ${s.verdict}${s.detectedBy.length ? ` by ${s.detectedBy.slice(0, 3).join(', ')}` : ''}${s.problem ? ` (${s.problem})` : ''}` +
      `\n    replay: ${s.replay}`),
  ].join('\n');
}

describe('the local fault sample', () => {
  it('takes npmTestPerFamily faults of every family (2, the value-class families 1), on as many resources where the family has them', () => {
    for (const family of FAMILIES) {
      const n = npmTestPerFamily(family);
      const of = SAMPLE.filter((f) => f.family === family);
      const available = new Set(POOL.filter((f) => f.family === family).map((f) => f.resource));
      expect(of.length, family).toBe(Math.min(n, POOL.filter((f) => f.family === family).length));
      expect(new Set(of.map((f) => f.resource)).size, family).toBe(Math.min(n, available.size));
    }
  });

  it('is the same sample on every machine (deterministic)', () => {
    expect(sampleFaults(POOL, npmTestPerFamily).map((f) => f.name)).toEqual(SAMPLE.map((f) => f.name));
  });
});

describe('every sampled local fault is caught at every seed', () => {
  for (const f of SAMPLE) {
    it(f.name, () => {
      const p = run.proofs.find((x) => x.name === f.name)!;
      expect(p.verdict, explain(p)).toBe('caught');
    });
  }
});
