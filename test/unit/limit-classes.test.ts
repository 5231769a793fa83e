/**
 * The value classes of the limit items (suites/limits/classes.ts): on every
 * property of every §8 limit, each class value is a member of its class (the
 * class's own test), valid against the payload schema, and as long as the
 * class says — text at or one below the limit in code points, 4-byte text at
 * the limit longer than the limit in UTF-16 units; a class the designed
 * values already hold is not sent twice; and each item records every class of
 * its kind, judged or not judged with a reason.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMIT_PROPS, READINGS, resources, validator, type LimitRule, type ReadingId } from '../../src/check/index.js';
import { boundaryPayloads, newRunTag, tokenOf, uniquePrefix, type PayloadValue } from '../../generators/index.js';
import { classesOfValue, itemClasses, limitClasses } from '../../suites/limits/classes.js';
import { classesOf } from '../../src/schema/value-classes.js';

const SEED = 20261126;
const TAG = newRunTag(SEED);
const PREFIX = uniquePrefix(TAG, tokenOf('lim', 1));
const draw = <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { seed: SEED, numRuns: 1 })[0];
const RULES = Object.keys(LIMIT_PROPS) as LimitRule[];
const cps = (s: string) => Array.from(s).length;

/** No reading observed not taken (what a run on an unprobed store judges), and every one (the most a run can judge). */
const EVERY: ReadingId[] = Object.keys(READINGS) as ReadingId[];
const cases = resources().filter((r) => r.writable && r.payload.length).flatMap((r) => RULES.flatMap((rule) => LIMIT_PROPS[rule](r).map((p) => ({ r, rule, p }))));

describe('the class values of the limit items', () => {
  it('cover every limit of every writable resource', () => {
    expect(cases.length).toBeGreaterThan(50);
    expect(new Set(cases.map((c) => c.rule))).toEqual(new Set(RULES));
  });

  for (const { r, rule, p } of cases) for (const readings of [[], EVERY]) {
    it(`${r.name} ${rule} ${p.name} (${readings.length} readings not taken): members of their class, valid, as long as the class says`, () => {
      const pc = limitClasses(rule, p, draw, 1, [], readings);
      expect(pc, 'a limit property takes classes').toBeDefined();
      const base = boundaryPayloads(r.name, { tag: TAG })[2];
      const validate = validator(r.name, 'Payload');
      for (const v of [...pc!.values, ...(pc!.astral ? [pc!.astral] : [])]) {
        const value = v.make(PREFIX);
        expect(classesOfValue(pc!, value), `${v.cls.name}: ${JSON.stringify(value).slice(0, 80)}`).toContain(v.cls.name);
        expect(validate({ ...base, [p.name]: value }).errors, v.cls.name).toEqual([]);
        const texts = (Array.isArray(value) ? value : [value]).filter((x): x is string => typeof x === 'string');
        if (p.unique && typeof value === 'string') expect(value.startsWith(PREFIX), v.cls.name).toBe(true);
        for (const s of texts) {
          if (v.cls.name === 'string.below-limit') expect(cps(s)).toBe(p.maxLength! - 1);
          if (v.cls.name === 'string.astral') {
            expect(cps(s)).toBe(p.maxLength);
            expect(s.length, 'more UTF-16 units than the limit').toBeGreaterThan(p.maxLength!);
          }
        }
      }
    });
  }

  it('leaves out a class the designed values already hold', () => {
    const r = resources().find((x) => x.name === 'product')!;
    const quantity = r.payload.find((p) => p.name === 'quantity')!;
    const all = limitClasses('limits.integer-11-digits', quantity, draw, 1, [], [])!;
    expect(all.values.map((v) => v.cls.name)).toContain('integer.zero');
    const held = limitClasses('limits.integer-11-digits', quantity, draw, 1, ['0'], [])!;
    expect(held.values.map((v) => v.cls.name)).not.toContain('integer.zero');
    expect(held.values.length).toBe(all.values.length - 1);
  });

  it('records every class of the kind on an item: judged by a value sent, else not judged with why', () => {
    for (const { rule, p } of cases) for (const readings of [[], EVERY]) {
      const pc = limitClasses(rule, p, draw, 1, [], readings)!;
      const sent: PayloadValue[] = pc.values.map((v) => v.make(PREFIX));
      const { judged, notJudged } = itemClasses(rule, pc, sent, readings);
      const kinds = pc.t.kind === 'list' ? [...classesOf('list'), ...classesOf('string')] : classesOf(pc.t.kind);
      expect(new Set([...judged, ...notJudged.map((x) => x.class)]), `${rule} ${p.name}`).toEqual(new Set(kinds.map((c) => c.name)));
      for (const n of notJudged) expect(n.reason.length, n.class).toBeGreaterThan(10);
      for (const v of pc.values) expect(judged, `${rule} ${p.name} ${v.cls.name}`).toContain(v.cls.name);
    }
  });
});
