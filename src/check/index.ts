export { check, checkId, mixSeed, registeredChecks, type CheckContext, type CheckSpec, type CheckTaskMeta, type EvidenceItem, type FailInput, type ItemContext } from './check.js';
export { CheckFailure, NotJudged, TargetError, isTargetError, requireOk, type FailureDetail } from './failure.js';
export { evidenceOf, toEvidence } from './evidence.js';
export { fixture, type Fixture } from './fixture.js';
export { ItemBook, type ItemOutcome, type ItemRecord } from './items.js';
export { curlFor, shellQuote } from './reproducer.js';
export { runtime, observed, type Runtime } from './runtime.js';
export { Scope } from './scope.js';
export { forValues } from './values.js';
export { eventually } from './visibility.js';
export { stopOnItemOutcome } from './property.js';
// the spec facts every resource shares (src/schema/model.ts, from schemas/common.schema.json): a check never restates them
export { GET_CAP, TEXT_MAX_LENGTH, INTEGER_DIGITS, ZERO_GUID, GUID_PATTERN, DATETIME_PATTERN, DATE_PATTERN, maxLengthOf, integerDigitsOf, decimalLimitOf } from '../schema/model.js';
