/**
 * `npm run mutation -- --merge`: parts run apart become one report that proves nothing again, keeps
 * each part's time, refuses parts that overlap or disagree on the seeds, and names what no part proved.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../../reference/faults.js';
import { localFaults } from '../../reference/faults-generated.js';
import { VARIANTS } from '../../reference/variants.js';
import { mergeParts, notRun, type PartReport } from '../../scripts/mutation-parts.js';
import type { LocalSection } from '../../scripts/mutation-local.js';

const root = mkdtempSync(join(tmpdir(), 'mutation-parts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const proof = <K extends 'fault' | 'variant'>(kind: K, name: string) => ({ kind, name }) as unknown as K extends 'fault' ? PartReport['faults'][number] : PartReport['variants'][number];
const section = (seeds: number[], family: string, total: number, escaped: number): LocalSection => ({
  seeds,
  sharing: 'field',
  runs: 4,
  reruns: 1,
  ms: 1000,
  totals: { total, caught: total - escaped, escaped, unobservable: 0, broken: 0, observable: total },
  families: [{ family, total, caught: total - escaped, escaped, unobservable: 0, broken: 0 }],
  escapes: [],
  unobservable: [],
  broken: [],
});

function part(name: string, r: Partial<PartReport> & { runtimeMs: number }): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const full: PartReport = { generatedAt: '2026-01-01T00:00:00.000Z', totals: { runtimeMs: r.runtimeMs, concurrency: 2 }, faults: r.faults ?? [], variants: r.variants ?? [], ...(r.local ? { local: r.local } : {}) };
  writeFileSync(join(dir, 'mutation.json'), JSON.stringify(full));
  return dir;
}

const [famA, famB] = [...new Set(localFaults().map((f) => f.family))];
const sizeOf = (family: string) => localFaults().filter((f) => f.family === family).length;

describe('npm run mutation: parts and --merge', () => {
  it('joins the parts, sums their times and local totals, and lists what none proved', () => {
    const hand = part('hand', { runtimeMs: 5000, faults: [proof('fault', FAULTS[0].name)], variants: [proof('variant', 'default')] });
    const a = part('a', { runtimeMs: 3000, local: section([1, 2], famA, sizeOf(famA), 1) });
    const b = part('b', { runtimeMs: 2000, local: section([1, 2], famB, sizeOf(famB), 0) });
    const m = mergeParts([hand, a, b]);
    expect(m.faults.map((f) => f.name)).toEqual([FAULTS[0].name]);
    expect(m.ms).toBe(10_000);
    expect(m.parts.map((p) => p.localFamilies)).toEqual([[], [famA], [famB]]);
    expect(m.parts.map((p) => p.from)).toEqual(['hand', 'a', 'b']);
    expect(m.local?.totals).toMatchObject({ total: sizeOf(famA) + sizeOf(famB), escaped: 1, caught: sizeOf(famA) + sizeOf(famB) - 1 });
    expect(m.local?.runs).toBe(8);
    const missing = notRun(m.faults, m.variants, m.local);
    expect(missing.faults).toHaveLength(FAULTS.length - 1);
    expect(missing.variants).toEqual(VARIANTS.map((v) => v.name));
    expect(missing.localFamilies.map((f) => f.family)).not.toContain(famA);
    expect(missing.localFamilies.reduce((n, f) => n + f.faults, 0)).toBe(localFaults().length - sizeOf(famA) - sizeOf(famB));
  });

  it('refuses parts that proved the same fault or family, or local faults at other seeds', () => {
    const x = part('x', { runtimeMs: 1, faults: [proof('fault', FAULTS[1].name)], local: section([1, 2], famA, 3, 0) });
    const y = part('y', { runtimeMs: 1, faults: [proof('fault', FAULTS[1].name)] });
    const z = part('z', { runtimeMs: 1, local: section([1, 2], famA, 3, 0) });
    const w = part('w', { runtimeMs: 1, local: section([1, 3], famB, 3, 0) });
    expect(() => mergeParts([x, y])).toThrow(/fault .* is in both/);
    expect(() => mergeParts([x, z])).toThrow(`family ${famA} is in both`);
    expect(() => mergeParts([x, w])).toThrow(/seeds 1, 3/);
    expect(() => mergeParts([join(root, 'nowhere')])).toThrow(/cannot read/);
  });
});
