/**
 * `npm run mutation -- --merge`: parts run apart become one report that proves nothing again, keeps
 * each part's time, refuses parts that overlap or disagree on the seeds, and names what no part proved;
 * with `--base FILE`, on top of a report already made whose parts' folders are gone, a newer proof
 * replacing the base's.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../../reference/faults.js';
import { localFaults } from '../../reference/faults-generated.js';
import { VARIANTS } from '../../reference/variants.js';
import { mergeParts, notRun, type BaseReport, type Part, type PartReport } from '../../scripts/mutation-parts.js';
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

function part(name: string, r: Partial<BaseReport> & { runtimeMs: number }): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const full: BaseReport = { generatedAt: r.generatedAt ?? '2026-01-01T00:00:00.000Z', totals: { runtimeMs: r.runtimeMs, concurrency: 2 }, faults: r.faults ?? [], variants: r.variants ?? [], ...(r.local ? { local: r.local } : {}), ...(r.parts ? { parts: r.parts } : {}) };
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

  describe('--base: on top of a report already made', () => {
    const escape = (family: string, i: number) => ({ name: `${family}:x.k${i}`, family, resource: 'x', expects: [], seeds: [], verdict: 'escaped' as const });
    /** A merged report of three parts, famA with 2 escapes and 1 unobservable fault, famB with 1 escape. */
    const base = () => {
      const a = { ...section([1, 2], famA, 10, 2), escapes: [escape(famA, 1), escape(famA, 2)], unobservable: [{ name: `${famA}:x.u`, expects: [], expectedOnReference: true }] };
      a.families[0] = { ...a.families[0], caught: 7, unobservable: 1 };
      const b = { ...section([1, 2], famB, 5, 1), escapes: [escape(famB, 1)] };
      const local: LocalSection = { ...a, runs: 9, ms: 7000, families: [...a.families, ...b.families], escapes: [...a.escapes, ...b.escapes], totals: { total: 15, caught: 11, escaped: 3, unobservable: 1, broken: 0, observable: 14 } };
      const parts: Part[] = [
        { from: 'hand', generatedAt: '2026-01-01T01:00:00.000Z', runtimeMs: 5000, faults: 1, variants: 1, localFamilies: [] },
        { from: 'f-a', generatedAt: '2026-01-01T02:00:00.000Z', runtimeMs: 4000, faults: 0, variants: 0, localFamilies: [famA] },
        { from: 'f-b', generatedAt: '2026-01-01T03:00:00.000Z', runtimeMs: 3000, faults: 0, variants: 0, localFamilies: [famB] },
      ];
      part('committed', { generatedAt: '2026-01-01T04:00:00.000Z', runtimeMs: 12_000, faults: [proof('fault', FAULTS[0].name)], variants: [proof('variant', 'default')], local, parts });
      return join(root, 'committed', 'mutation.json');
    };

    it('keeps the base\'s proofs and parts, a newer part of a family replacing the older one', () => {
      const again = part('again-a', { generatedAt: '2026-01-02T00:00:00.000Z', runtimeMs: 2000, local: section([1, 2], famA, 10, 0) });
      const other = part('f-c', { generatedAt: '2026-01-02T00:00:00.000Z', runtimeMs: 1000, faults: [proof('fault', FAULTS[1].name)] });
      const m = mergeParts([again, other], base());
      expect(m.parts.map((p) => p.from)).toEqual(['hand', 'f-a', 'f-b', 'again-a', 'f-c']);
      expect(m.parts[3].replaces).toEqual([`family ${famA}`]);
      expect(m.parts[4].replaces).toBeUndefined();
      expect(m.ms).toBe(15_000);
      expect(m.faults.map((f) => f.name)).toEqual([FAULTS[0].name, FAULTS[1].name]);
      expect(m.variants.map((v) => v.name)).toEqual(['default']);
      // famA: the part's 10/10 in place of the base's 7 caught, 2 escapes, 1 unobservable
      expect(m.local?.families.find((f) => f.family === famA)).toMatchObject({ total: 10, caught: 10, escaped: 0, unobservable: 0 });
      expect(m.local?.totals).toEqual({ total: 15, caught: 14, escaped: 1, unobservable: 0, broken: 0, observable: 15 });
      expect(m.local?.escapes.map((e) => e.name)).toEqual([`${famB}:x.k1`]);
      expect(m.local?.unobservable).toEqual([]);
      expect(m.local?.runs).toBe(13); // the base's runs stay: they were made
    });

    it('replaces a fault proven again; a whole report without parts is one part, named by its folder', () => {
      const whole = part('whole', { generatedAt: '2026-01-01T04:00:00.000Z', runtimeMs: 9000, faults: [proof('fault', FAULTS[0].name), proof('fault', FAULTS[1].name)] });
      const redo = part('redo', { generatedAt: '2026-01-03T00:00:00.000Z', runtimeMs: 500, faults: [{ ...proof('fault', FAULTS[1].name), caught: true }] });
      const m = mergeParts([redo], join(whole, 'mutation.json'));
      expect(m.parts.map((p) => [p.from, p.replaces])).toEqual([['whole', undefined], ['redo', [`fault ${FAULTS[1].name}`]]]);
      expect(m.faults).toEqual([proof('fault', FAULTS[0].name), { ...proof('fault', FAULTS[1].name), caught: true }]);
      expect(m.ms).toBe(9500);
    });

    it('refuses a part older than the proof it would replace, local faults at other seeds, and a base it cannot read', () => {
      const old = part('old-a', { generatedAt: '2026-01-01T01:30:00.000Z', runtimeMs: 1, local: section([1, 2], famA, 10, 0) });
      expect(() => mergeParts([old], base())).toThrow(/old-a proved family .* before the base/);
      const seeds = part('seeds', { generatedAt: '2026-01-05T00:00:00.000Z', runtimeMs: 1, local: section([1, 3], famA, 10, 0) });
      expect(() => mergeParts([seeds], base())).toThrow(/seeds 1, 3/);
      expect(() => mergeParts([seeds], join(root, 'nowhere.json'))).toThrow(/cannot read .*nowhere\.json/);
    });
  });
});

