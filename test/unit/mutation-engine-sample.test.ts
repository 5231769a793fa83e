/**
 * The engine mutation run's sample is picked by content (scripts/mutation-engine-sample.ts):
 * it must not move when unrelated code moves, must not depend on ids, must differ between seeds
 * (overlap by chance only), and must pick about one in K.
 */
import { describe, expect, it } from 'vitest';
import { contentKey, contentKeys, pickedByContent, sampleIds, type ListedMutant } from '../../scripts/mutation-engine-sample.js';
import { overlapOf } from '../../scripts/mutation-engine-overlap.js';

const SOURCE = ['function a(x) {', '  if (x > 1) return 1;', '  return 2;', '}', '', 'function b(y) {', '  return y === 0;', '}', ''].join('\n');

/** A mutant of `text` on the first line of `source` that holds it. */
function at(source: string, id: string, text: string, replacement: string, mutatorName = 'Mutator', fileName = 'f.ts'): ListedMutant {
  const lines = source.split('\n');
  const line = lines.findIndex((l) => l.includes(text));
  const column = lines[line].indexOf(text);
  return { id, fileName, mutatorName, replacement, location: { start: { line, column }, end: { line, column: column + text.length } } };
}

/** Many distinct mutants: one per line of a long generated file. */
function many(n: number): { mutants: ListedMutant[]; sources: Record<string, string> } {
  const source = Array.from({ length: n }, (_, i) => `const v${i} = f(${i});`).join('\n');
  return { mutants: Array.from({ length: n }, (_, i) => at(source, String(i), `f(${i})`, 'undefined')), sources: { 'f.ts': source } };
}

describe('engine mutation sample by content', () => {
  it('a key holds file, mutator, original and replacement text and the lines around, not the id or line number', () => {
    const m = at(SOURCE, '7', 'y === 0', 'true');
    const key = contentKey(m, SOURCE);
    expect(key).toContain('y === 0');
    expect(key).toContain('true');
    expect(key).toContain('function b(y) {');
    // the same mutant under another id and ten lines lower (code moved above it): the same key
    const moved = '\n'.repeat(10) + SOURCE;
    expect(contentKey({ ...at(moved, '93', 'y === 0', 'true') }, moved)).toBe(key);
    // a different replacement, mutator or file: another key
    expect(contentKey(at(SOURCE, '7', 'y === 0', 'false'), SOURCE)).not.toBe(key);
    expect(contentKey(at(SOURCE, '7', 'y === 0', 'true', 'Other'), SOURCE)).not.toBe(key);
    expect(contentKey(at(SOURCE, '7', 'y === 0', 'true', 'Mutator', 'g.ts'), SOURCE)).not.toBe(key);
    // an edit within the context lines changes it; one further away does not
    const near = SOURCE.replace('function b(y) {', 'function b(y, z) {');
    expect(contentKey(at(near, '7', 'y === 0', 'true'), near)).not.toBe(key);
    const far = SOURCE.replace('if (x > 1) return 1;', 'if (x > 2) return 1;');
    expect(contentKey(at(far, '7', 'y === 0', 'true'), far)).toBe(key);
  });

  it('two mutants of the same content get distinct keys by their order', () => {
    const src = 'x === 0;\nx === 0;\n';
    const keys = contentKeys([at(src, '1', 'x === 0', 'true'), { ...at(src, '2', 'x === 0', 'true'), location: { start: { line: 1, column: 0 }, end: { line: 1, column: 7 } } }], { 'f.ts': src });
    expect(keys.get('1')).not.toBe(keys.get('2'));
  });

  it('picks about one in K, the same ids for the same seed and content, whatever the ids are', () => {
    const { mutants, sources } = many(4000);
    const picked = sampleIds(mutants, sources, 2028, 20);
    // binomial(4000, 1/20): mean 200, sd 13.8; 4 sd either side
    expect(picked.length).toBeGreaterThan(145);
    expect(picked.length).toBeLessThan(255);
    expect(sampleIds(mutants, sources, 2028, 20)).toEqual(picked);
    // ids renumbered (a mutant added in front): the same mutants picked, under their new ids
    const shifted = mutants.map((m) => ({ ...m, id: String(Number(m.id) + 1) }));
    expect(sampleIds(shifted, sources, 2028, 20)).toEqual(picked.map((id) => String(Number(id) + 1)));
    // every 1: all; ignored mutants never
    expect(sampleIds(mutants.slice(0, 10), sources, 2028, 1)).toHaveLength(10);
    expect(sampleIds(mutants.slice(0, 10).map((m) => ({ ...m, status: 'Ignored' })), sources, 2028, 1)).toEqual([]);
  });

  it('two seeds overlap by chance only (about 1 in K of each sample)', () => {
    const { mutants, sources } = many(4000);
    const a = new Set(sampleIds(mutants, sources, 2028, 20));
    const b = sampleIds(mutants, sources, 2029, 20);
    const both = b.filter((id) => a.has(id)).length;
    // expected 4000 / 400 = 10 in common; an id-based rule would share all or none
    expect(both).toBeGreaterThan(0);
    expect(both).toBeLessThan(30);
    expect(pickedByContent('k', 1, 1)).toBe(true);
  });
});

describe('overlap with earlier samples', () => {
  it('counts the picked mutants an earlier sample had picked, by content hash, and which ids are shared', () => {
    const hashes = { '1': 'a', '2': 'b', '3': 'c', '4': 'd' };
    const earlier = [{ name: 'seed 1', picked: new Set(['b', 'x']) }, { name: 'seed 2', picked: new Set(['b', 'c']) }];
    const o = overlapOf(20, ['1', '2', '3'], hashes, earlier);
    expect(o.picked).toEqual(['a', 'b', 'c']);
    expect(o.earlier).toEqual([{ name: 'seed 1', shared: 1 }, { name: 'seed 2', shared: 2 }]);
    expect(o.sharedWithAny).toBe(2);
    expect([...o.sharedIds].sort()).toEqual(['2', '3']);
    expect(overlapOf(20, ['1', '4'], hashes, earlier).sharedWithAny).toBe(0);
  });
});
