/** Value semantics shared by checks and generators. */
export {
  codePointLength, normalizeBoolean, normalizeDecimal, normalizeInteger, decimalParts,
  decimalToScaled, scaledToDecimal, largestDecimal, parseDateTime, formatDateTime, formatDate,
  daysFromCivil, civilFromDays, daysInMonth, compareDecimal, compareScalar,
  type CompareKind, type Ordering,
} from './normalize.js';
export { sameStoredValue, describeValue } from './same.js';
