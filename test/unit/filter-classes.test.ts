/**
 * The value classes a filter is asked with (suites/filters/classes.ts): the
 * id filter's long list crosses the IN-list limits with the scope's ids where
 * those limits cut, and a range field's class bounds are each a _min and a
 * _max, covering every class the field takes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IN_LIST_LIMITS, MANY_FILTER_VALUES, VALUE_CLASSES, classesFor, filterTarget } from '../../src/schema/value-classes.js';
import { resources, ZERO_GUID } from '../../src/schema/model.js';
import { normalizeInteger } from '../../src/values/normalize.js';
import { arrayClassList, boundClassPairs, idLongList, type ClassEnv } from '../../suites/filters/classes.js';
import type { Scoped } from '../../suites/filters/scoped.js';

const env: ClassEnv = { perClass: 1, draw: (arb, label) => fc.sample(arb, { seed: label.length, numRuns: 1 })[0], idCase: 'insensitive' };
const product = resources().find((r) => r.name === 'product')!;
const ids = fc.sample(fc.uuid({ version: 4 }), { seed: 7, numRuns: 9 });
const scoped = (records: Scoped['records']): Scoped => ({ r: product, records, ids: records.map((x) => String(x.id)), what: 'the fixture' });

describe('the id filter’s long list', () => {
  const s = scoped(ids.map((id) => ({ id })));
  const got = idLongList(s, env)!;

  it('is longer than every IN-list limit and holds every scope id, at the slots the limits cut', () => {
    expect(got.values.length).toBeGreaterThan(Math.max(...Object.values(IN_LIST_LIMITS)));
    expect(got.values.length).toBeGreaterThanOrEqual(MANY_FILTER_VALUES);
    const at = (i: number) => got.values[i].toLowerCase();
    const mine = new Set(ids.map((x) => x.toLowerCase()));
    for (const n of Object.values(IN_LIST_LIMITS)) {
      expect(mine.has(at(n)), `slot ${n}`).toBe(true);
      expect(mine.has(at(n + 1)) || n + 1 > got.values.length - 1, `slot ${n + 1}`).toBe(true);
    }
    for (const id of ids) expect(got.values.some((v) => v.toLowerCase() === id.toLowerCase()), id).toBe(true);
  });

  it('writes ids in both letter cases, lists one twice and holds the zero GUID; it records those classes', () => {
    expect(got.values.some((v) => /[A-F]/.test(v) && ids.some((id) => id.toLowerCase() === v.toLowerCase()))).toBe(true);
    expect(got.values).toContain(ZERO_GUID);
    expect(new Set(got.values.map((v) => v.toLowerCase())).size).toBeLessThan(got.values.length);
    expect(got.judged).toEqual(expect.arrayContaining(['list.many', 'list.duplicates', 'guid.upper-case', 'guid.lower-case', 'guid.zero']));
  });

  it('under an id filter observed to compare exactly (filters.idCase sensitive) keeps every id as the store wrote it, and says why guid.upper-case is not judged', () => {
    const exact = idLongList(s, { ...env, idCase: 'sensitive' })!;
    const written = new Set(ids);
    for (const v of exact.values) if (ids.some((id) => id.toLowerCase() === v.toLowerCase())) expect(written.has(v), v).toBe(true);
    expect(exact.judged).not.toContain('guid.upper-case');
    expect(exact.notJudged.find((n) => n.class === 'guid.upper-case')?.reason).toMatch(/filters\.idCase sensitive/);
    expect(exact.judged).toEqual(expect.arrayContaining(['list.many', 'list.duplicates', 'guid.zero']));
  });
});

describe('a range field’s class bounds', () => {
  const f = product.filters.find((x) => x.key === 'size_min')!;
  const t = filterTarget(f, 'integer')!;
  const axis = { point: (v: string) => { const n = normalizeInteger(v); return n === undefined ? undefined : BigInt(n); } };
  const got = boundClassPairs(scoped([]), f, axis, () => true, env)!;

  it('covers every class the field takes, the pairs neighbours in order, every value a _min and a _max, one pair more than values', () => {
    const judged = classesFor(t).judged.map((c) => c.name);
    expect(got.judged.sort()).toEqual(judged.sort());
    const mins = got.pairs.map(([a]) => a);
    const maxs = got.pairs.map(([, b]) => b);
    const values = [...new Set([...mins, ...maxs])];
    for (const v of values) {
      expect(mins, `${v} as _min`).toContain(v);
      expect(maxs, `${v} as _max`).toContain(v);
    }
    expect(got.pairs).toHaveLength(values.length + 1);
    for (const [a, b] of got.pairs) expect(axis.point(a)! <= axis.point(b)!, `${a} ≤ ${b}`).toBe(true);
    for (const c of got.judged) expect(values.some((v) => VALUE_CLASSES.find((x) => x.name === c)!.has(v, t)), c).toBe(true);
  });
});

describe('an array key’s class list', () => {
  it('uses a value a record holds where one is of the class, else the class’s own', () => {
    const f = product.filters.find((x) => x.key === 'vendor')!;
    const got = arrayClassList(scoped([{ id: ids[0], vendor: '0' }, { id: ids[1], vendor: 'acme' }]), f, env)!;
    expect(got.values).toContain('0');
    expect(got.judged).toContain('string.falsy-zero');
    expect(got.values.filter((v) => v === '0')).toHaveLength(1);
    expect(got.notJudged.map((x) => x.class)).toEqual(expect.arrayContaining(['string.case-twin', 'string.astral']));
  });
});
