/**
 * A reading of a stack default applied in one place only (issue 25, item 5):
 * the store keeps spaces at the edges of its Strings — probed, text.trimming
 * 'kept' — while product create trims the name (reference/faults.ts
 * trims-product-names). The class items of the create (string.edge-whitespace:
 * a name ending in a space) catch it at two seeds, on product's name and the
 * batch items only. The same fault on a store that trims every String
 * (variant trim-strings) is no departure — product names trimmed like every
 * other String — and the same checks pass: what is judged is consistency
 * with the store's own reading, not one reading.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVE_SEED, proveFault, type FaultProof } from '../../reference/prove.js';
import type { Report } from '../../src/report/types.js';

const PROOF_TIMEOUT = 600_000;
const FAULT = 'trims-product-names';
const ONLY = 'product.lifecycle.create.*';
/** the items the departure fails (one at least), and the only ones it may */
const FAILS = /^product\.lifecycle\.create\.(single#name|round-trip#name|batch#answer|batch#stored)$/;

function failingItems(p: FaultProof): string[] {
  const report = JSON.parse(readFileSync(join(p.reportDir!, 'report.json'), 'utf8')) as Report;
  return (report.items ?? []).filter((i) => i.status === 'failed' || i.status === 'error').map((i) => i.id);
}

async function withProof(seed: number, extra: string[], judge: (p: FaultProof, failing: string[], why: string) => void): Promise<void> {
  const p = await proveFault(FAULT, { seed, keepReport: true, extraArgs: ['--only', ONLY, ...extra] });
  try {
    const failing = p.reportDir ? failingItems(p) : [];
    const why = `fault ${FAULT} (${p.description}): exit ${p.exitCode}${p.problem ? `, ${p.problem}` : ''}, failing: ${failing.join(', ') || 'none'}; replay: npm run conformance -- --depth quick --seed ${seed} --only '${ONLY}' --reference-faults ${FAULT} ${extra.join(' ')}`;
    expect(p.problem, why).toBeUndefined();
    judge(p, failing, why);
  } finally {
    if (p.reportDir) rmSync(p.reportDir, { recursive: true, force: true });
  }
}

describe.concurrent('a store trimming one property while it keeps spaces everywhere else', () => {
  for (const seed of [PROVE_SEED, PROVE_SEED + 7919]) {
    it(`is caught by the edge-whitespace class items of product name, at seed ${seed}`, () => withProof(seed, [], (p, failing, why) => {
      expect(p.exitCode, why).toBe(1);
      expect(failing.filter((id) => /#name$/.test(id)).length, why).toBeGreaterThan(0);
      expect(failing.filter((id) => !FAILS.test(id)), why).toEqual([]);
    }), PROOF_TIMEOUT);
  }

  it('passes on a store that trims every String (trim-strings): no departure from its own reading', () => withProof(PROVE_SEED, ['--reference-variant', 'trim-strings'], (p, failing, why) => {
    expect(failing, why).toEqual([]);
    expect(p.exitCode, why).toBe(0);
  }), PROOF_TIMEOUT);
});
