/**
 * Decimal and integer values as the request strings the API takes.
 *
 * Decimals are built from an integer number of smallest units (cents for a
 * scale of 2) with BigInt and formatted as text: no float ever touches them,
 * so 99999999.99 is exactly 99999999.99.
 *
 * Both are non-negative: the spec types prices, amounts, quantities and
 * limits as Decimal/Integer and never says a negative one is allowed, so a
 * rejection of a negative value would prove nothing.
 */
import fc from 'fast-check';
import { largestDecimal, scaledToDecimal } from '../src/values/normalize.js';
import { largestIntegerOfEveryWidth } from '../src/values/readings.js';
import type { DecimalLimit } from '../src/schema/model.js';

/** Shrinking may move a value to the first (usual) branch: a long boundary value can shrink to a short one. */
const CROSS_SHRINK = { withCrossShrink: true } as const;

/** 10^n as a BigInt. */
const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** The largest decimal within a limit, as text ('8.2' → '99999999.99'). */
export function maxDecimal(limit: DecimalLimit): string {
  return largestDecimal(limit);
}

/** The largest integer of `digits` digits ('11' → '99999999999'). */
export function maxInteger(digits: number): string {
  return (pow10(digits) - 1n).toString();
}

/**
 * Non-negative integers of 1..totalDigits digits, the number of digits
 * uniform: a uniform draw below 10^totalDigits has all its digits 9 times
 * in 10, so small and mid-sized magnitudes would be rare.
 */
function magnitudeArb(totalDigits: number): fc.Arbitrary<bigint> {
  return fc
    .tuple(fc.integer({ min: 1, max: totalDigits }), fc.bigInt({ min: 0n, max: pow10(totalDigits) - 1n }))
    .map(([k, u]) => u % pow10(k));
}

/** Units → text with `fractionDigits` decimals (0 = no separator); the units must be representable. */
function format(units: bigint, scale: number, fractionDigits: number): string {
  const full = scaledToDecimal(units, scale);
  if (scale === 0 || fractionDigits >= scale) return full;
  const [int, frac] = full.split('.');
  return fractionDigits === 0 ? int : `${int}.${frac.slice(0, fractionDigits)}`;
}

export interface DecimalArbOptions extends DecimalLimit {
  /** favour the boundary values much more */
  boundary?: boolean;
}

/**
 * Dot-form decimals within "digits digits with scale decimals" (§8): at most
 * `digits` digits before the dot and `scale` after. Weighted in: the largest
 * value, the smallest positive, 0 (as '0' and '0.00'), whole numbers ('12'),
 * one decimal ('12.5'); otherwise any value written with all its decimals.
 */
export function decimalArb(opts: DecimalArbOptions): fc.Arbitrary<string> {
  const { digits, scale } = opts;
  if (!(digits >= 0 && scale >= 0 && digits + scale >= 1)) throw new RangeError(`decimalArb: bad limit ${digits}.${scale}`);
  const maxUnits = pow10(digits + scale) - 1n;
  const unit = pow10(scale);
  const heavy = opts.boundary === true;
  const branches: Array<fc.WeightedArbitrary<string>> = [
    { arbitrary: fc.bigInt({ min: 0n, max: maxUnits }).map((u) => format(u, scale, scale)), weight: heavy ? 1 : 3 },
    // every magnitude alike: a random value cut to a random number of digits
    { arbitrary: magnitudeArb(digits + scale).map((u) => format(u, scale, scale)), weight: heavy ? 1 : 3 },
    { arbitrary: fc.constant(format(maxUnits, scale, scale)), weight: heavy ? 4 : 1 },
    { arbitrary: fc.constantFrom(format(0n, scale, 0), format(0n, scale, scale)), weight: heavy ? 3 : 1 },
    { arbitrary: fc.bigInt({ min: 0n, max: pow10(digits) - 1n }).map((w) => format(w * unit, scale, 0)), weight: heavy ? 1 : 2 },
  ];
  if (scale > 0) {
    branches.push({ arbitrary: fc.constant(format(1n, scale, scale)), weight: heavy ? 3 : 1 });
    branches.push({
      arbitrary: fc.bigInt({ min: 0n, max: pow10(digits + 1) - 1n }).map((t) => format(t * pow10(scale - 1), scale, 1)),
      weight: heavy ? 1 : 2,
    });
  }
  return fc.oneof(CROSS_SHRINK, ...branches);
}

export interface IntegerArbOptions {
  /** at most this many digits: the property's own limit (§8) */
  digits: number;
  boundary?: boolean;
  /**
   * every value of `digits` digits (a check about the width of Integer
   * columns, judged under limits.integerWidth); by default values stay within
   * what every width holds: 2147483647 at most (an INT(11) column is 32 bits)
   */
  wide?: boolean;
}

/**
 * Digit strings of at most `digits` digits, no sign, no leading zeros, and
 * (unless `wide`) no larger than a 32-bit column holds. Weighted in: 0, 1 and
 * the largest.
 */
export function integerArb(opts: IntegerArbOptions): fc.Arbitrary<string> {
  const digits = opts.digits;
  if (!(digits >= 1)) throw new RangeError(`integerArb: bad digits ${digits}`);
  const max = opts.wide ? pow10(digits) - 1n : BigInt(largestIntegerOfEveryWidth(digits));
  const heavy = opts.boundary === true;
  return fc.oneof(
    CROSS_SHRINK,
    { arbitrary: fc.bigInt({ min: 0n, max }).map(String), weight: heavy ? 1 : 3 },
    { arbitrary: magnitudeArb(digits).map((u) => (u > max ? u % (max + 1n) : u)).map(String), weight: heavy ? 1 : 3 },
    { arbitrary: fc.integer({ min: 0, max: Number(max < 1000n ? max : 1000n) }).map(String), weight: heavy ? 1 : 2 },
    { arbitrary: fc.constant(max.toString()), weight: heavy ? 4 : 1 },
    { arbitrary: fc.constantFrom('0', '1'), weight: heavy ? 3 : 1 },
  );
}
