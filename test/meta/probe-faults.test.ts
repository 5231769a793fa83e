/**
 * Faults only the invariants and the near-miss keys catch (issue 25, items 3
 * and 4), each local to one resource and operation (reference/faults.ts),
 * proven at two seeds: the run says non-conformant, the item the fault names
 * fails — and nothing else does, so every other check of the run passed it
 * (the fault escaped the suite before these items). The invariant faults run
 * with every check of their resource and those about all resources (a local
 * fault cannot show elsewhere), the near-miss faults with every auth check
 * (the wrong- and missing-key checks pass them). `npm run mutation` proves
 * them with the whole suite. The honest variants (test/meta/variants.test.ts)
 * pass with these items in.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVE_SEED, proveFault, type FaultProof } from '../../reference/prove.js';
import type { Report } from '../../src/report/types.js';

const SEEDS = [PROVE_SEED, PROVE_SEED + 7919];
const PROOF_TIMEOUT = 600_000;

interface Case {
  fault: string;
  only: string;
  /** the items that must fail (one at least), and the only ones that may */
  fails: RegExp;
}

const CASES: Case[] = [
  { fault: 'duplicate-with-second-key', only: 'product.*,all.*', fails: /^product\.invariants\.(ids-unique|page-bound)#get$/ },
  { fault: 'unmatched-without-id-filter', only: 'coupon.*,all.*', fails: /^coupon\.invariants\.(filter-satisfied|page-bound)#get$/ },
  // proven at standard depth (Fault.proveDepth): quick spreads the near-miss cases over the resources
  { fault: 'near-miss-case-insensitive', only: '*.auth.*', fails: /^order\.auth\.near-miss-no-records#count$/ },
  { fault: 'near-miss-trimmed', only: '*.auth.*', fails: /^coupon\.auth\.near-miss-no-change#update$/ },
  { fault: 'near-miss-prefix', only: '*.auth.*', fails: /^blog-post\.auth\.near-miss-no-records#get$/ },
];

function failingItems(p: FaultProof): string[] {
  const report = JSON.parse(readFileSync(join(p.reportDir!, 'report.json'), 'utf8')) as Report;
  return (report.items ?? []).filter((i) => i.status === 'failed' || i.status === 'error').map((i) => `${i.id} (${i.status})`);
}

describe.concurrent('faults only the invariants and the near-miss keys catch, at two seeds', () => {
  for (const c of CASES) {
    for (const seed of SEEDS) {
      it(`${c.fault} at seed ${seed}`, async () => {
        const p = await proveFault(c.fault, { seed, keepReport: true, extraArgs: ['--only', c.only] });
        try {
          const why = `fault ${c.fault} (${p.description}): exit ${p.exitCode}${p.problem ? `, ${p.problem}` : ''}; replay: npm run conformance -- --depth quick --seed ${seed} --only '${c.only}' --reference-faults ${c.fault}`;
          expect(p.problem, why).toBeUndefined();
          expect(p.exitCode, why).toBe(1);
          const failing = failingItems(p);
          // caught by the item it breaks, and by nothing else: every other check of the run let it through
          expect(failing.filter((id) => c.fails.test(id.replace(/ \(.*\)$/, ''))).length, `${why}\nfailing: ${failing.join(', ')}`).toBeGreaterThan(0);
          expect(failing.filter((id) => !c.fails.test(id.replace(/ \(failed\)$/, ''))), why).toEqual([]);
        } finally {
          if (p.reportDir) rmSync(p.reportDir, { recursive: true, force: true });
        }
      }, PROOF_TIMEOUT);
    }
  }
});
