/**
 * DateTime values (§2): responses use 'YYYY-MM-DD HH:MM:SS'; requests take
 * either that or a bare date 'YYYY-MM-DD'. Years 2001–2035: within a MySQL
 * TIMESTAMP column (1970–2038) and clear of the epoch and 2038 edges, wide
 * enough to cross leap years and month ends. Built from a day number and a
 * second of the day, so every value is a real calendar date; shrinks towards
 * 2001-01-01 00:00:00.
 *
 * Valid under every reading of the time zone (docs/stack-defaults.md): no
 * wall time in the windows where common zones spring forward (00:00–04:00 on
 * a Friday, Saturday or Sunday: src/values/readings.ts clearOfDstGaps) — a
 * store taking a DateTime through its local zone would move it — and no
 * date-only DateTime on those days (a date is its midnight).
 */
import fc from 'fast-check';
import { daysFromCivil, formatDate, formatDateTime } from '../src/values/normalize.js';
import { DST_WINDOW_END, clearOfDstGaps } from '../src/values/readings.js';

export const FIRST_DAY = daysFromCivil(2001, 1, 1);
export const LAST_DAY = daysFromCivil(2035, 12, 31);
/** epoch seconds of the first and last instants generated */
export const MIN_INSTANT = FIRST_DAY * 86400;
export const MAX_INSTANT = LAST_DAY * 86400 + 86399;

/** Some days worth hitting: month and year ends, leap days. */
const SPECIAL_DAYS = [
  daysFromCivil(2024, 2, 29), daysFromCivil(2028, 2, 29), daysFromCivil(2023, 2, 28),
  daysFromCivil(2030, 12, 31), daysFromCivil(2031, 1, 1), daysFromCivil(2025, 6, 30),
];

const dayArb: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.integer({ min: FIRST_DAY, max: LAST_DAY }), weight: 8 },
  { arbitrary: fc.constantFrom(...SPECIAL_DAYS), weight: 1 },
);

const secondOfDayArb: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 86399 }), weight: 8 },
  { arbitrary: fc.constantFrom(0, 86399, 43200), weight: 2 },
);

/** An instant (epoch seconds, read as a wall clock) within the generated range, clear of the DST windows. */
export function instantArb(): fc.Arbitrary<number> {
  return fc.tuple(dayArb, secondOfDayArb).map(([d, s]) => (clearOfDstGaps(d * 86400 + s) ? d * 86400 + s : d * 86400 + s + DST_WINDOW_END));
}

/** 'YYYY-MM-DD HH:MM:SS', a valid calendar date-time, years 2001–2035. */
export function dateTimeArb(): fc.Arbitrary<string> {
  return instantArb().map(formatDateTime);
}

/** 'YYYY-MM-DD', a valid calendar date, years 2001–2035. */
export function dateArb(): fc.Arbitrary<string> {
  return dayArb.map((d) => formatDate(d * 86400));
}

/** Either request form of a DateTime (§2 Conventions: "given either as a date or as a date with time"); a date on a DST day moves 3 days on. */
export function requestDateTimeArb(): fc.Arbitrary<string> {
  const dateOnly = dayArb.map((d) => formatDate((clearOfDstGaps(d * 86400) ? d : d + 3) * 86400));
  return fc.oneof(dateTimeArb(), dateOnly);
}
