/**
 * changeEvery (suites/support/values.ts): the update the lifecycle checks send gives every property
 * another value — a value every honest reading of its column still takes. At seed 2027 the designed
 * product create held size 2147483647 (the largest value of every Integer width) and the update gave it
 * 2147483647 + 1 (11 digits: within §8's "at most 11 digits"), which a store whose INT(11) columns are
 * 32 bits refuses: product.lifecycle.update.response failed on the honest int32-refused store.
 */
import { describe, expect, it } from 'vitest';
import { INT32_MAX, resources } from '../../src/check/index.js';
import { changeEvery } from '../../suites/support/values.js';

const integerProps = resources().flatMap((r) => r.payload.filter((p) => p.kind === 'integer').map((p) => ({ r, p })));

describe('changeEvery: another value of every property, valid under every reading', () => {
  it('covers the Integer payload properties of the spec (product, coupon)', () => {
    expect(integerProps.map(({ r, p }) => `${r.name}.${p.name}`)).toEqual(expect.arrayContaining(['product.size', 'product.quantity', 'coupon.limittotal']));
  });

  for (const { r, p } of integerProps) {
    it(`${r.name}.${p.name}: from the largest integer every width holds, down; from 0, up`, () => {
      const top = changeEvery(r, { [p.name]: INT32_MAX.toString() }, {}, { tag: 'sc0' });
      expect(top.unchangeable).not.toContain(p.name);
      expect(BigInt(top.change[p.name] as string)).toBeLessThanOrEqual(INT32_MAX);
      expect(top.change[p.name]).not.toBe(INT32_MAX.toString());
      expect(changeEvery(r, { [p.name]: '0' }, {}, { tag: 'sc0' }).change[p.name]).toBe('1');
    });
  }
});
