/**
 * Broken servers the suite must catch: for one fault of every rule of
 * reference/faults.ts no other proof of npm test covers (all 109 in `npm run mutation`, with the whole suite),
 * the checks of the rule it breaks (quick depth, fixed seed, --only that rule)
 * against the embedded server with that fault say non-conformant (exit 1) and
 * at least one of them fails. Proofs run concurrently (the meta project's
 * maxConcurrency, see vitest.config.ts); each is a child process. */
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/rules.js';
import { FAULTS } from '../../reference/faults.js';
import { onlyRule, proveFault, type FaultProof } from '../../reference/prove.js';
import { npmTestSample, rulesProvenBy } from '../../reference/prove-local.js';

const PROOF_TIMEOUT = 900_000;

const line = (c: { id: string; rule: string; message?: string }) => `    ${c.id} [${c.rule}]: ${c.message ?? ''}`;

function explain(p: FaultProof): string {
  return [
    `fault ${p.name} (breaks ${p.breaks}, ${p.section}): ${p.description}`,
    `exit ${p.exitCode}, verdict ${p.verdict}, ${p.checks} checks, ${Math.round(p.ms / 1000)} s`,
    p.problem ? `problem: ${p.problem}` : '',
    p.failing.length ? `failing checks:\n${p.failing.map(line).join('\n')}` : 'no check failed',
    p.errors.length ? `checks in error:\n${p.errors.map(line).join('\n')}` : '',
    p.detected ? '' : `no failing check names ${p.breaks}: the check for that rule misses this fault — strengthen the check, never narrow the fault`,
    `replay: npm run conformance -- --depth quick --seed ${p.seed} --only '${onlyRule(p.breaks)}' --reference-faults ${p.name}${p.reportDir ? ` (report: ${p.reportDir})` : ''}`,
  ].filter(Boolean).join('\n');
}

describe('the fault catalogue', () => {
  it('holds its 109 faults, each named once and breaking one rule of src/rules.ts', () => {
    // exact: a fault that vanishes is noticed; one added changes this number (and docs/proofs.md) with it
    expect(FAULTS.length).toBe(109);
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    for (const f of FAULTS) expect(RULES, f.name).toHaveProperty([f.breaks]);
  });

  it('breaks every rule group', () => {
    const groups = new Set(Object.values(RULES).map((r) => r.group));
    const broken = new Set(FAULTS.map((f) => RULES[f.breaks].group));
    expect([...groups].filter((g) => !broken.has(g))).toEqual([]);
  });
});

/**
 * The proofs `npm test` runs: every rule the catalogue breaks is proven in
 * every run, once — by a local fault of the sample test/meta/local-faults.test.ts
 * proves (at two seeds, one key or field of one resource: the stronger proof),
 * or, for the sequence and concurrency rules, by test/meta/sequence-faults.test.ts, for the
 * invariants and the near-miss keys by test/meta/probe-faults.test.ts;
 * else here by its first hand-written fault in catalogue order. A
 * deterministic sample that keeps every rule proven and the test suite within
 * its time; `npm run mutation` proves every fault with the whole suite.
 */
// the invariants (judged on other checks' answers: --only their rule runs no request) and the near-miss
// keys are proven at two seeds by test/meta/probe-faults.test.ts
const PROVEN_APART = /^(model|concurrency|invariants)\.|^auth\.near-miss-/;
const BY_LOCAL = rulesProvenBy(npmTestSample());
const SAMPLE = FAULTS.filter((f, i) => !PROVEN_APART.test(f.breaks) && !BY_LOCAL.has(f.breaks) && FAULTS.findIndex((g) => g.breaks === f.breaks) === i);

describe('the sample npm test proves', () => {
  it('holds one fault of every rule the catalogue breaks that no other proof of npm test covers', () => {
    expect(new Set(SAMPLE.map((f) => f.breaks)).size).toBe(SAMPLE.length);
    const proven = new Set([...SAMPLE.map((f) => f.breaks), ...BY_LOCAL, ...FAULTS.map((f) => f.breaks).filter((b) => PROVEN_APART.test(b))]);
    expect(FAULTS.map((f) => f.breaks).filter((b) => !proven.has(b))).toEqual([]);
  });
});

describe.concurrent('every sampled fault is caught by the checks of its rule', () => {
  for (const f of SAMPLE) {
    it(`${f.name} → ${f.breaks}`, async () => {
      const p = await proveFault(f.name, { ruleOnly: true });
      const why = explain(p);
      expect(p.problem, why).toBeUndefined();
      expect(p.exitCode, why).toBe(1);
      expect(p.verdict, why).toBe('non-conformant');
      expect(p.detectedBy.map((c) => c.id), why).not.toEqual([]);
    }, PROOF_TIMEOUT);
  }
});
