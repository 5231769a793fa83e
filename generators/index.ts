/** fast-check arbitraries derived from the schemas (see each module). */
export { textArb, fixedText, cutToBytes, looseKey, CHARACTER_CLASSES, type TextOptions, type FixedTextStyle } from './text.js';
export { decimalArb, integerArb, maxDecimal, maxInteger, type DecimalArbOptions, type IntegerArbOptions } from './numbers.js';
export { dateTimeArb, dateArb, requestDateTimeArb, instantArb, MIN_INSTANT, MAX_INSTANT } from './dates.js';
export {
  payloadArb, batchArb, updateArb, boundaryPayloads, retoken, tokenOf, overLimitPayloads, dateRangePairs, uniquePrefix,
  ZERO_GUID, TOKEN_LENGTH, MAX_BATCH, MAX_LIST_ITEMS,
  type PayloadContext, type Payload, type PayloadValue, type OverLimitPayload, type LimitKind,
} from './payload.js';
export { arrayFilterValuesArb, rangeBoundArb, booleanFilterArb } from './filters.js';
export { newRunTag, isRunTagged, RUN_TAG_RE } from './tag.js';
export { guidsFrom, guidSeedArb } from './guids.js';
export {
  designedValues, classArb, classValues, listClassValue, SCALAR_CLASS_NAMES, type ClassValues, type ClassValueContext,
} from './classes.js';
