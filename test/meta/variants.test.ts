/**
 * Honest servers the suite must pass: the default reference server and the
 * benign variants of reference/variants.ts (another honest choice where the
 * spec says "not shown", or a stack's default reading of it) that first vary
 * each observation — 30 of 59, joined into 8 stores (guid-version-4 with nfc-input and text-bytes) (a MySQL/PHP-like and a
 * SQL Server/.NET-like store among them, the latter with an id filter that
 * compares exactly) that each make several of those
 * choices at once, as a real
 * store does (reference/variants.ts variantCombos); `npm run mutation` proves
 * every variant alone. The whole suite (quick depth, fixed seed) says
 * conformant (exit 0), no check fails, and every observation the store
 * expects (expectedObservationsOf) is the one the probes recorded in report.json.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_OBSERVATIONS, expectedObservations, getVariant, VARIANTS, variantCombos, variantSample } from '../../reference/variants.js';
import { DEFAULT_SERVER, proveVariant, sameObservation, type VariantProof } from '../../reference/prove.js';

const PROOF_TIMEOUT = 900_000;

function explain(p: VariantProof): string {
  return [
    `variant ${p.name}: ${p.description}`,
    `exit ${p.exitCode}, verdict ${p.verdict}, ${p.checks} checks, ${Math.round(p.ms / 1000)} s`,
    p.problem ? `problem: ${p.problem}` : '',
    p.falseAlarms.length ? `false alarms (checks that failed against an honest server):\n${p.falseAlarms.map((c) => `    ${c.id} [${c.rule}]: ${c.message ?? ''}`).join('\n')}` : '',
    p.errors.length ? `checks in error:\n${p.errors.map((c) => `    ${c.id}: ${c.message ?? ''}`).join('\n')}` : '',
    p.mismatches.length ? `observations:\n${p.mismatches.map((m) => `    ${m.key}: expected ${JSON.stringify(m.expected)}, probed ${m.actual === undefined ? '(missing)' : JSON.stringify(m.actual)}`).join('\n')}` : '',
    `replay: npm run conformance -- --depth quick --seed ${p.seed}${p.name === DEFAULT_SERVER ? '' : ` --reference-variant ${p.name}`}${p.reportDir ? ` (report: ${p.reportDir})` : ''}`,
  ].filter(Boolean).join('\n');
}

describe('the variant catalogue', () => {
  it('holds its 62 variants, each named once, covering every observation key', () => {
    // exact: a variant that vanishes is noticed; one added changes this number (and docs/proofs.md) with it
    expect(VARIANTS.length).toBe(62);
    expect(new Set(VARIANTS.map((v) => v.name)).size).toBe(VARIANTS.length);
    // every behaviour the probes observe is varied by at least one variant
    const unvaried = Object.entries(DEFAULT_OBSERVATIONS)
      .filter(([key, value]) => !VARIANTS.some((v) => !sameObservation((expectedObservations[v.name] as Record<string, unknown>)[key], value)))
      .map(([key]) => key);
    expect(unvaried).toEqual([]);
  });
});

/** Variants of the sample joined into stores of up to this many choices. */
const PER_STORE = 5;

describe('the stores npm test proves', () => {
  it('hold every sampled variant once, none two choices of one behaviour, what cannot be judged alone', () => {
    const stores = variantCombos(variantSample(), PER_STORE);
    expect(stores.flatMap((s) => s.split('+')).sort()).toEqual([...variantSample()].sort());
    for (const s of stores) {
      expect(() => getVariant(s), s).not.toThrow();
      if (s.includes('+')) expect(getVariant(s).notJudged, s).toBeUndefined();
    }
    // ids written in upper case beside an id filter comparing them exactly: the checks must send ids as the store writes them
    const exactUpper = stores.filter((s) => getVariant(s).behaviour.idCase === 'upper' && getVariant(s).behaviour.idFilterCase === 'sensitive');
    expect(exactUpper.length, stores.join('\n')).toBeGreaterThan(0);
  });
});

describe.concurrent('every honest server passes', () => {
  // a deterministic sample proving every observed choice (reference/variants.ts variantSample), several
  // choices per store; npm run mutation proves every variant alone
  for (const name of [DEFAULT_SERVER, ...variantCombos(variantSample(), PER_STORE)]) {
    it(name, async () => {
      const p = await proveVariant(name);
      const why = explain(p);
      expect(p.problem, why).toBeUndefined();
      expect(p.falseAlarms.map((c) => c.id), why).toEqual([]);
      expect(p.exitCode, why).toBe(0);
      expect(p.verdict, why).toBe('conformant');
      expect(p.mismatches, why).toEqual([]);
      const notJudged = name === DEFAULT_SERVER ? undefined : getVariant(name).notJudged;
      // the verdict line names what could not be judged on this store, and why
      if (notJudged) expect(p.verdictReason?.split('not judged: ')[1], why).toContain(notJudged);
    }, PROOF_TIMEOUT);
  }
});
