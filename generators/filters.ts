/**
 * Filter values (§4 "Filter naming", "Filters per resource") for the filter
 * checks, derived from the filter model: array filters match any listed
 * value, range filters bound a field from below or above, boolean filters
 * take 'true' / 'false'.
 *
 * `pool` is the list of values the filtered field holds in existing records
 * (as read back, either form): generated values hit them, miss them, and
 * fall between them, so a check can compute the expected result itself.
 */
import fc from 'fast-check';
import { decimalLimitOf, integerDigitsOf, maxLengthOf, type FilterModel } from '../src/schema/model.js';
import { decimalWithin, integerWithin } from '../src/schema/ajv.js';
import {
  normalizeDecimal, normalizeInteger, parseDateTime, decimalToScaled, scaledToDecimal, formatDate, formatDateTime,
} from '../src/values/normalize.js';
import { textArb, looseKey } from './text.js';
import { decimalArb, integerArb } from './numbers.js';
import { dateArb, requestDateTimeArb } from './dates.js';


/**
 * A key under which two values are "the same value" to any reasonable
 * server, for deciding what is absent from the pool: GUIDs ignore case,
 * numbers and dates compare by meaning, text ignores case and accents.
 */
function identity(kind: string, v: string): string {
  switch (kind) {
    case 'guid': return v.toLowerCase();
    case 'integer': return normalizeInteger(v) ?? v;
    case 'decimal': return normalizeDecimal(v) ?? v;
    case 'datetime':
    case 'date': return String(parseDateTime(v) ?? v);
    case 'string':
    case 'predefined': return looseKey(v);
    default: return v;
  }
}

/** Values of the filter's kind, within its limits. */
function valueArb(filter: FilterModel): fc.Arbitrary<string> {
  switch (filter.valueKind) {
    case 'guid': return fc.uuid({ version: 4 });
    case 'string': return textArb({ maxLength: maxLengthOf(filter) });
    // not a known value, so never one the store holds unless the pool says so
    case 'predefined': return fc.array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ_'), { minLength: 3, maxLength: 24 }).map((a) => `X${a.join('')}`);
    case 'integer': return integerArb({ digits: integerDigitsOf(filter) });
    case 'decimal': return decimalArb(decimalLimitOf(filter));
    case 'datetime': return requestDateTimeArb();
    case 'date': return dateArb();
    case 'boolean': return fc.constantFrom('true', 'false');
    default: throw new Error(`filter ${filter.key}: no generator for kind ${filter.valueKind}`);
  }
}

/**
 * 1–4 values for an array filter (`<field>`: match any listed value): only
 * pool values, only values absent from the pool, or a mix. Values are
 * distinct; "absent" is judged loosely (case, accents) so a case-insensitive
 * server cannot turn an absent value into a match.
 */
export function arrayFilterValuesArb(filter: FilterModel, pool: readonly string[]): fc.Arbitrary<string[]> {
  const kind = filter.valueKind;
  const seen = new Set<string>();
  const present = pool.filter((v) => {
    const k = identity(kind, v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const absentValue = valueArb(filter).filter((v) => !seen.has(identity(kind, v)));
  const select = (v: string) => identity(kind, v);
  const absent = (min: number, max: number) => fc.uniqueArray(absentValue, { minLength: min, maxLength: max, selector: select });
  const fromPool = (max: number) => fc.uniqueArray(fc.constantFrom(...present), { minLength: 1, maxLength: Math.min(max, present.length), selector: select });
  if (present.length === 0) return absent(1, 4);
  return fc.oneof(
    fromPool(4),
    absent(1, 4),
    fc.tuple(fromPool(3), absent(1, 3), fc.boolean()).map(([a, b, absentFirst]) => (absentFirst ? [...b, ...a] : [...a, ...b]).slice(0, 4)),
  );
}

/**
 * One bound for a range filter (`<field>_min` / `<field>_max`), in the
 * filter's own kind, written as a request value (decimals with a dot,
 * DateTime as a date or a date-time): any value within the limits; a value
 * equal to a pool value (is the bound inclusive?); a neighbour one step
 * above or below a pool value (0.01, 1, one second, one day); a value
 * between two pool values. For DateTime, pool-derived bounds come in both
 * forms, the date-only form standing for midnight.
 * Range filters typed as Decimal[] (acceptsArray) still get a single string,
 * as the samples send; the caller may wrap it.
 */
export function rangeBoundArb(filter: FilterModel, pool: readonly string[]): fc.Arbitrary<string> {
  const kind = filter.valueKind;
  if (kind === 'decimal' || kind === 'integer') return numericBoundArb(filter, pool);
  if (kind === 'datetime' || kind === 'date') return dateBoundArb(filter, pool);
  throw new Error(`range filter ${filter.key}: unsupported kind ${kind}`);
}

function sortedUnique(values: bigint[]): bigint[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function numericBoundArb(filter: FilterModel, pool: readonly string[]): fc.Arbitrary<string> {
  const isDecimal = filter.valueKind === 'decimal';
  // the filter's own limit: digits and scale of a decimal, digits of an integer
  const limit = isDecimal ? decimalLimitOf(filter) : { digits: integerDigitsOf(filter), scale: 0 };
  const digits = limit.digits;
  const scale = isDecimal ? limit.scale : 0;
  const within = (s: string) => (isDecimal ? decimalWithin(s, limit) : integerWithin(s, { digits }));
  const maxUnits = 10n ** BigInt(isDecimal ? limit.digits + limit.scale : digits) - 1n;
  const toUnits = (v: string) => (isDecimal ? decimalToScaled(v, scale) : normalizeInteger(v) !== undefined ? BigInt(normalizeInteger(v)!) : undefined);
  const write = (u: bigint) => (isDecimal ? scaledToDecimal(u, scale) : u.toString());

  const equal = [...new Set(pool.map((v) => (isDecimal ? normalizeDecimal(v) : normalizeInteger(v))).filter((v): v is string => v !== undefined && within(v)))];
  const units = sortedUnique(pool.map(toUnits).filter((u): u is bigint => u !== undefined && u <= maxUnits));
  const floor = units.length > 0 && units[0] < 0n ? units[0] : 0n;
  const clamp = (u: bigint) => (u < floor ? floor : u > maxUnits ? maxUnits : u);

  const branches: Array<fc.WeightedArbitrary<string>> = [
    { arbitrary: isDecimal ? decimalArb(limit) : integerArb({ digits }), weight: 3 },
  ];
  if (equal.length > 0) branches.push({ arbitrary: fc.constantFrom(...equal), weight: 3 });
  if (units.length > 0) {
    branches.push({
      arbitrary: fc.tuple(fc.constantFrom(...units), fc.constantFrom(-1n, 1n)).map(([u, d]) => write(clamp(u + d))),
      weight: 2,
    });
  }
  if (units.length > 1) {
    branches.push({
      arbitrary: fc.nat({ max: units.length - 2 }).map((i) => write((units[i] + units[i + 1]) / 2n)),
      weight: 2,
    });
  }
  return fc.oneof(...branches);
}

function dateBoundArb(filter: FilterModel, pool: readonly string[]): fc.Arbitrary<string> {
  const dateOnlyKind = filter.valueKind === 'date';
  const instants = [...new Set(pool.map(parseDateTime).filter((s): s is number => s !== undefined))].sort((a, b) => a - b);
  // a date-only filter takes dates; a DateTime filter either form (§2)
  const write = (s: number, dateOnly: boolean) => (dateOnlyKind || dateOnly ? formatDate(s) : formatDateTime(s));
  const form = dateOnlyKind ? fc.constant(true) : fc.boolean();

  const branches: Array<fc.WeightedArbitrary<string>> = [
    { arbitrary: dateOnlyKind ? dateArb() : requestDateTimeArb(), weight: 3 },
  ];
  if (instants.length > 0) {
    const at = fc.constantFrom(...instants);
    branches.push({ arbitrary: fc.tuple(at, form).map(([s, d]) => write(s, d)), weight: 3 });
    branches.push({
      arbitrary: fc.tuple(at, fc.constantFrom(-1, 1), form).map(([s, dir, d]) => write(s + dir * (d || dateOnlyKind ? 86400 : 1), d)),
      weight: 2,
    });
  }
  if (instants.length > 1) {
    branches.push({
      arbitrary: fc.tuple(fc.nat({ max: instants.length - 2 }), form).map(([i, d]) => write(Math.floor((instants[i] + instants[i + 1]) / 2), d)),
      weight: 2,
    });
  }
  return fc.oneof(...branches);
}

/** A boolean filter value: 'true' or 'false' (§2: "Booleans are sent as the strings 'true' or 'false'"). */
export function booleanFilterArb(): fc.Arbitrary<'true' | 'false'> {
  return fc.constantFrom('true' as const, 'false' as const);
}
