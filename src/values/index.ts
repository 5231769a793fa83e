/** Value semantics shared by checks and generators. */
export {
  codePointLength, textSize, normalizeBoolean, normalizeDecimal, normalizeInteger, decimalParts,
  decimalToScaled, scaledToDecimal, largestDecimal, parseDateTime, formatDateTime, formatDate,
  daysFromCivil, civilFromDays, daysInMonth, compareDecimal, compareScalar,
  type CompareKind, type Ordering,
} from './normalize.js';
export { sameStoredValue, describeValue } from './same.js';
export {
  EXACT_COLLATION, sameUnderCollation, looseText, modelledChar, modelledText, describeCollation, flipAsciiCase, changeAccent, padRight,
  INT32_MAX, INT32_MIN, largestIntegerUnder, largestIntegerOfEveryWidth, integerUnder, decimalUnderScale,
  ASTRAL, hasAstral, astralUnder, compareWithDateOnlyBound, utcOffsetMinutes, describeOffset, clearOfDstGaps, DST_WINDOW_END, letterCaseOf,
  type Collation, type CaseReading, type AccentReading, type TrailingSpaceReading, type IntegerWidth, type DecimalScaleReading,
  type AstralReading, type DateOnlyBoundReading, type IdLetterCase,
  otherNormalForm, textUnderNormalization, type NormalizationCompareReading, type NormalizationStoreReading,
  trimmedText, hasEdgeSpace, textUnderTrimming, listUnderDuplicates, type TrimmingReading, type BlankReading, type EmptyReading, type NumberSyntaxReading, type ListDuplicatesReading,
  MAX_GUID, type GuidVersionReading, type DateTimeRangeReading,
} from './readings.js';
