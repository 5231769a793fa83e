import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  codePointLength, normalizeBoolean, normalizeDecimal, normalizeInteger, parseDateTime, formatDateTime, formatDate,
  compareDecimal, compareScalar, sameStoredValue, describeValue, decimalToScaled, scaledToDecimal, daysInMonth,
} from '../../src/values/index.js';

const SEED = Number(process.env.STORECHECK_SEED ?? 20261122);
const run = { seed: SEED, numRuns: 300 };

describe('normalizeBoolean', () => {
  it.each([
    ['true', true], ['1', true], ['false', false], ['0', false], [true, true], [false, false],
  ] as const)('%j → %j', (v, want) => expect(normalizeBoolean(v)).toBe(want));
  it.each(['TRUE', 'True', 'yes', '', ' true', '2', '01', null, undefined, 1, 0])('rejects %j', (v) => {
    expect(normalizeBoolean(v)).toBeUndefined();
  });
});

describe('normalizeDecimal', () => {
  it.each([
    ['0012,50', '12.5'], ['12.50', '12.5'], ['12,5', '12.5'], ['-0.00', '0'], ['-0', '0'], ['0', '0'], ['0.00', '0'],
    ['7.000', '7'], ['99999999.99', '99999999.99'], ['99999999,99', '99999999.99'], ['-3,10', '-3.1'], ['0,01', '0.01'],
    ['000', '0'], ['100', '100'], ['10.0100', '10.01'], ['14.975', '14.975'],
  ])('%j → %j', (v, want) => expect(normalizeDecimal(v)).toBe(want));
  it('takes a plain JS number', () => {
    expect(normalizeDecimal(12.5)).toBe('12.5');
    expect(normalizeDecimal(0)).toBe('0');
    expect(normalizeDecimal(1e21)).toBeUndefined();
    expect(normalizeDecimal(Number.NaN)).toBeUndefined();
  });
  it.each(['', '.5', '5.', '1.2.3', '1,2,3', '1 000', ' 1', '1e5', '+1', '--1', 'abc', '1.5 ', '١٢'])('rejects %j', (v) => {
    expect(normalizeDecimal(v)).toBeUndefined();
  });
  it('is idempotent and form-blind (dot or comma, leading zeros, trailing zeros)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.integer({ min: 0, max: 4 }), fc.nat({ max: 3 }), fc.nat({ max: 3 }), (u, scale, lead, trail) => {
        const dot = scaledToDecimal(u, scale);
        const neg = dot.startsWith('-');
        const abs = neg ? dot.slice(1) : dot;
        const padded = `${neg ? '-' : ''}${'0'.repeat(lead)}${abs}${scale > 0 ? '0'.repeat(trail) : ''}`;
        const comma = padded.replace('.', ',');
        const n = normalizeDecimal(dot)!;
        expect(normalizeDecimal(padded)).toBe(n);
        expect(normalizeDecimal(comma)).toBe(n);
        expect(normalizeDecimal(n)).toBe(n);
        expect(n).not.toMatch(/^-?0[0-9]|\.$|\.[0-9]*0$|^-0$/);
      }),
      run,
    );
  });
});

describe('normalizeInteger', () => {
  it.each([['007', '7'], ['-0', '0'], ['0', '0'], ['99999999999', '99999999999'], ['-12', '-12'], ['00000', '0']])('%j → %j', (v, want) =>
    expect(normalizeInteger(v)).toBe(want));
  it.each(['', '1.0', '1,0', '+1', ' 1', 'x', '1e3'])('rejects %j', (v) => expect(normalizeInteger(v)).toBeUndefined());
  it('takes a safe JS integer only', () => {
    expect(normalizeInteger(42)).toBe('42');
    expect(normalizeInteger(1.5)).toBeUndefined();
    expect(normalizeInteger(2 ** 60)).toBeUndefined();
  });
});

describe('decimalToScaled / scaledToDecimal', () => {
  it('are exact, without float error', () => {
    expect(decimalToScaled('99999999.99', 2)).toBe(9999999999n);
    expect(decimalToScaled('0,1', 2)).toBe(10n);
    expect(decimalToScaled('0.001', 2)).toBeUndefined();
    expect(scaledToDecimal(9999999999n, 2)).toBe('99999999.99');
    expect(scaledToDecimal(5n, 3)).toBe('0.005');
    expect(scaledToDecimal(-5n, 2)).toBe('-0.05');
    expect(scaledToDecimal(12n, 0)).toBe('12');
  });
});

describe('parseDateTime', () => {
  it('reads both forms as UTC epoch seconds; a date is its midnight', () => {
    expect(parseDateTime('1970-01-01 00:00:00')).toBe(0);
    expect(parseDateTime('1970-01-01')).toBe(0);
    expect(parseDateTime('2024-02-29 12:34:56')).toBe(Date.UTC(2024, 1, 29, 12, 34, 56) / 1000);
    expect(parseDateTime('2035-12-31 23:59:59')).toBe(Date.UTC(2035, 11, 31, 23, 59, 59) / 1000);
    expect(parseDateTime('2024-03-01')).toBe(parseDateTime('2024-03-01 00:00:00'));
    expect(parseDateTime('0050-06-01')).toBe(Date.UTC(2000, 5, 1) / 1000 - (1950 * 365 + 473) * 86400);
  });
  it.each([
    '2023-02-29', '2100-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '2024-01-00', '2024-01-01 24:00:00',
    '2024-01-01 23:60:00', '2024-01-01 23:59:60', '2024-01-01T00:00:00', '2024-1-1', '2024-01-01 00:00',
    '2024-01-01 00:00:00Z', ' 2024-01-01', '', 'now',
  ])('rejects %j', (v) => expect(parseDateTime(v)).toBeUndefined());
  it('accepts 2000-02-29 (a leap century) but not 1900-02-29', () => {
    expect(parseDateTime('2000-02-29')).toBeDefined();
    expect(parseDateTime('1900-02-29')).toBeUndefined();
  });
  it('round-trips through formatDateTime and formatDate, agreeing with Date', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2_000_000_000, max: 5_000_000_000 }), (s) => {
        const dt = formatDateTime(s);
        expect(dt).toBe(new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' '));
        expect(parseDateTime(dt)).toBe(s);
        expect(parseDateTime(formatDate(s))).toBe(s - (((s % 86400) + 86400) % 86400));
      }),
      run,
    );
  });
  it('knows month lengths', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2024, m))).toEqual([31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect(daysInMonth(2023, 2)).toBe(28);
  });
});

describe('compareDecimal', () => {
  it.each([
    ['0.1', '0.10', 0], ['12,5', '12.50', 0], ['-0', '0.00', 0], ['99999999.99', '99999999.98', 1], ['0.01', '0.1', -1],
    ['-1', '0', -1], ['-1.5', '-1.25', -1], ['10', '9.99', 1], ['0012,50', '12.5', 0],
    ['9007199254740993', '9007199254740992', 1], ['0.30000000000000004', '0.3', 1],
  ] as const)('compare(%j, %j) = %j', (a, b, want) => {
    expect(compareDecimal(a, b)).toBe(want);
    expect(compareDecimal(b, a)).toBe(-want || 0);
  });
  it('throws on a non-decimal', () => {
    expect(() => compareDecimal('1.2.3', '1')).toThrow(/not a decimal/);
    expect(() => compareDecimal('1', '')).toThrow(/not a decimal/);
  });
  it('agrees with BigInt arithmetic on scaled values', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }), fc.nat({ max: 4 }), fc.nat({ max: 4 }), (a, b, sa, sb) => {
        const want = a * 10n ** BigInt(sb) - b * 10n ** BigInt(sa);
        expect(compareDecimal(scaledToDecimal(a, sa), scaledToDecimal(b, sb).replace('.', ','))).toBe(want > 0n ? 1 : want < 0n ? -1 : 0);
      }),
      run,
    );
  });
});

describe('compareScalar', () => {
  it('orders integers numerically, not as text', () => {
    expect(compareScalar('integer', '9', '10')).toBe(-1);
    expect(compareScalar('integer', '007', '7')).toBe(0);
    expect(compareScalar('integer', '99999999999', '99999999998')).toBe(1);
    expect(compareScalar('integer', '-5', '3')).toBe(-1);
  });
  it('orders decimals numerically across forms', () => {
    expect(compareScalar('decimal', '9,99', '10.00')).toBe(-1);
    expect(compareScalar('decimal', '1.50', '1,5')).toBe(0);
  });
  it('orders DateTimes by instant, a date being its midnight', () => {
    expect(compareScalar('datetime', '2024-01-01', '2024-01-01 00:00:00')).toBe(0);
    expect(compareScalar('datetime', '2024-01-01', '2024-01-01 00:00:01')).toBe(-1);
    expect(compareScalar('datetime', '2024-01-02', '2024-01-01 23:59:59')).toBe(1);
    expect(compareScalar('date', '1990-05-06', '1990-05-07')).toBe(-1);
  });
  it('orders strings by code point (astral after BMP, unlike UTF-16 order)', () => {
    expect(compareScalar('string', 'a', 'b')).toBe(-1);
    expect(compareScalar('string', 'B', 'a')).toBe(-1);
    expect(compareScalar('string', 'ab', 'a')).toBe(1);
    expect(compareScalar('string', 'é', 'é')).toBe(0);
    // U+1F600 vs U+FF5E: UTF-16 units would put the emoji (0xD83D) first
    expect(compareScalar('string', '😀', '～')).toBe(1);
  });
  it('compares guids case-insensitively and booleans by meaning', () => {
    expect(compareScalar('guid', 'ABCDEF00-0000-0000-0000-000000000000', 'abcdef00-0000-0000-0000-000000000000')).toBe(0);
    expect(compareScalar('boolean', '0', 'true')).toBe(-1);
    expect(compareScalar('boolean', '1', 'true')).toBe(0);
  });
  it('throws on malformed values', () => {
    expect(() => compareScalar('integer', '1.5', '1')).toThrow();
    expect(() => compareScalar('datetime', '2023-02-29', '2023-03-01')).toThrow();
    expect(() => compareScalar('decimal', 'x', '1')).toThrow();
  });
  it('is antisymmetric and consistent with equality on decimals', () => {
    const dec = fc.tuple(fc.bigInt({ min: -(10n ** 10n), max: 10n ** 10n }), fc.nat({ max: 3 })).map(([u, s]) => scaledToDecimal(u, s));
    fc.assert(
      fc.property(dec, dec, (a, b) => {
        const ab = compareScalar('decimal', a, b);
        expect(compareScalar('decimal', b, a)).toBe(-ab || 0);
        expect(ab === 0).toBe(normalizeDecimal(a) === normalizeDecimal(b));
      }),
      run,
    );
  });
});

describe('sameStoredValue', () => {
  it('strings: exact, code point for code point', () => {
    expect(sameStoredValue('string', 'Élève «déjà» 😀', 'Élève «déjà» 😀')).toBe(true);
    expect(sameStoredValue('string', 'abc', 'abc ')).toBe(false);
    expect(sameStoredValue('string', ' abc', 'abc')).toBe(false);
    expect(sameStoredValue('string', 'Abc', 'abc')).toBe(false);
    expect(sameStoredValue('string', 'é', 'e\u0301')).toBe(false); // NFC vs NFD: not the same code points
    expect(sameStoredValue('string', '<b>&amp;', '&lt;b&gt;&amp;amp;')).toBe(false);
    expect(sameStoredValue('string', 'a\\b', 'a\\\\b')).toBe(false);
    expect(sameStoredValue('string', '😀', '?')).toBe(false);
    expect(sameStoredValue('string', '', '')).toBe(true);
    expect(sameStoredValue('predefined', 'PHYSICAL', 'physical')).toBe(false);
  });
  it('decimals: numerically, either separator', () => {
    expect(sameStoredValue('decimal', '12.50', '12,5')).toBe(true);
    expect(sameStoredValue('decimal', '99999999.99', '99999999,99')).toBe(true);
    expect(sameStoredValue('decimal', '0.00', '0')).toBe(true);
    expect(sameStoredValue('decimal', '12', '12.00')).toBe(true);
    expect(sameStoredValue('decimal', '1.005', '1.01')).toBe(false);
    expect(sameStoredValue('decimal', '99999999.99', '100000000')).toBe(false);
    expect(sameStoredValue('decimal', 'abc', 'abc')).toBe(false);
  });
  it('integers: numerically', () => {
    expect(sameStoredValue('integer', '007', '7')).toBe(true);
    expect(sameStoredValue('integer', '99999999999', '99999999999')).toBe(true);
    expect(sameStoredValue('integer', '99999999999', '2147483647')).toBe(false);
    expect(sameStoredValue('integer', '5', '5.0')).toBe(false);
  });
  it('booleans: by meaning, across the get and write forms', () => {
    expect(sameStoredValue('boolean', 'true', '1')).toBe(true);
    expect(sameStoredValue('boolean', 'false', '0')).toBe(true);
    expect(sameStoredValue('boolean', 'true', 'true')).toBe(true);
    expect(sameStoredValue('boolean', 'true', '0')).toBe(false);
    expect(sameStoredValue('boolean', 'true', 'yes')).toBe(false);
  });
  it('DateTime: a date sent comes back as its midnight', () => {
    expect(sameStoredValue('datetime', '2024-02-29', '2024-02-29 00:00:00')).toBe(true);
    expect(sameStoredValue('datetime', '2024-02-29 10:11:12', '2024-02-29 10:11:12')).toBe(true);
    expect(sameStoredValue('datetime', '2024-02-29', '2024-02-29 00:00:01')).toBe(false);
    expect(sameStoredValue('datetime', '2024-02-29 10:11:12', '2024-02-29')).toBe(false);
    expect(sameStoredValue('datetime', '2023-02-29', '2023-02-29')).toBe(false);
    expect(sameStoredValue('date', '1990-05-06', '1990-05-06')).toBe(true);
  });
  it('guids: case-insensitively', () => {
    expect(sameStoredValue('guid', 'ABCDEF01-2345-6789-abcd-ef0123456789', 'abcdef01-2345-6789-ABCD-EF0123456789')).toBe(true);
    expect(sameStoredValue('guid', '00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000001')).toBe(false);
  });
  it('decimal sameness holds for any value written in either form', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 10n - 1n }), fc.nat({ max: 3 }), (u, s) => {
        const dot = scaledToDecimal(u, s);
        expect(sameStoredValue('decimal', dot, dot.replace('.', ','))).toBe(true);
        expect(sameStoredValue('decimal', dot, scaledToDecimal(u + 1n, s))).toBe(false);
      }),
      run,
    );
  });
});

describe('describeValue and codePointLength', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('😀')).toBe(1);
    expect('😀'.length).toBe(2);
    expect(codePointLength('Élève')).toBe(5);
    expect(codePointLength('')).toBe(0);
  });
  it('quotes strings and shows lengths of long or non-ASCII ones', () => {
    expect(describeValue('abc')).toBe('"abc"');
    expect(describeValue('a "b"')).toBe('"a \\"b\\""');
    expect(describeValue('é😀')).toBe('"é😀" (2 code points)');
    expect(describeValue(undefined)).toBe('(absent)');
    expect(describeValue(12)).toBe('12');
    expect(describeValue(['x'])).toBe('["x"]');
    const long = describeValue('x'.repeat(300));
    expect(long).toContain('(300 code points)');
    expect(long).toContain('…');
    expect(long.length).toBeLessThan(100);
    expect(describeValue('😀'.repeat(100))).toContain('(100 code points)');
  });
});
