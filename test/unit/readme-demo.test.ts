/**
 * README's demo of a broken server (issue 22, defect 9) shows failures in seconds: it names faults of the
 * reference server and an --only that selects the checks of exactly the rules they break, a handful of
 * checks (the whole suite against the same faults takes minutes). Measured: 9 s, 150 requests (2026-11-26).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../reference/faults.js';
import { selectChecks } from '../../src/items/select.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README demo of broken servers', () => {
  it('runs only the checks that catch its faults: one per fault', () => {
    const m = /^npm run conformance -- --reference-faults ([\w,-]+) --only '([^']+)'$/m.exec(README);
    expect(m, 'the demo command line').not.toBeNull();
    const faults = m![1].split(',').map((n) => FAULTS.find((f) => f.name === n));
    expect(faults.every(Boolean)).toBe(true);
    const checks = selectChecks(m![2]);
    expect(checks.length).toBe(faults.length);
    expect(new Set(checks.map((c) => c.rule))).toEqual(new Set(faults.map((f) => f!.breaks)));
  });
});
