/**
 * The check kit: everything a suite file needs, and the only module of src/
 * that suites/ imports (beside generators/index.ts; the import rules of
 * .dependency-cruiser.cjs hold it, see docs/architecture.md). A check needs
 * no more than what is exported here: how to declare and judge a check, the
 * catalogue and the schema model, the client's call types, value semantics,
 * pages, visibility waits, observations and fixtures. Draws are seeded by the
 * kit (ctx.sample, ctx.property, a fixture's sample): never by hand.
 */

// ---------------------------------------------------------------- declaring and judging checks
export { check, type CheckContext, type FailInput, type ItemContext } from './check.js';
export { CheckFailure, NotJudged, TargetError, isTargetError, requireOk, type FailureDetail } from './failure.js';
export { forValues } from './values.js';
export { stopOnItemOutcome } from './property.js';

// ---------------------------------------------------------------- the catalogue: which checks, which items
export { catalogue, checkOf, checksOf, type CheckDef } from '../items/index.js';
export { rangePairs, GET_ONLY_CASES } from '../items/index.js';
export { comparableProps, fieldOf, LIMIT_PROPS, type Form, type LimitRule } from '../items/index.js';
export { modelCommands, type ModelCommand } from '../items/index.js';
/** what a suite file declares it registers (`export const REGISTERS: SuiteDeclaration = …`, read by the run's plan) */
export type { SuiteDeclaration } from '../items/plan.js';
export type { RuleId } from '../rules.js';

// ---------------------------------------------------------------- the schema model
export {
  decimalLimitOfEveryReading, resource, resources, validator,
  type DecimalLimit, type FieldModel, type FilterModel, type PayloadPropModel, type ResourceModel, type ScalarKind,
} from '../schema/model.js';
export { leaves, type Leaf } from '../schema/leaves.js';
// the spec facts every resource shares (src/schema/model.ts, from schemas/common.schema.json): a check never restates them
export { GET_CAP, TEXT_MAX_LENGTH, INTEGER_DIGITS, ZERO_GUID, GUID_PATTERN, DATETIME_PATTERN, DATE_PATTERN, maxLengthOf, integerDigitsOf, decimalLimitOf } from '../schema/model.js';
export { decimalWithin } from '../schema/ajv.js';
// the value classes (docs/value-classes.md): which classes a property or filter takes, which a check judges
export {
  VALUE_CLASSES, READINGS, IN_LIST_LIMITS, classesFor, classesOf, valueClass, payloadTarget, filterTarget, notApplicable, readingOf,
  type ValueClass, type ClassTarget, type ReadingId, type ValueKind,
} from '../schema/value-classes.js';
export type { Depth } from '../config.js';

// ---------------------------------------------------------------- the client's calls and what they answer
export type { CallResult, KeyChoice, Rec, StoreClient } from '../client/api.js';
export { carriesTag } from '../client/api.js';
export { chunks } from '../client/cleanup.js';
export type { Exchange } from '../client/http.js';

// ---------------------------------------------------------------- values as the spec compares them
export {
  codePointLength, textSize, compareScalar, decimalToScaled, describeValue, formatDate, formatDateTime,
  normalizeBoolean, normalizeDecimal, normalizeInteger, parseDateTime, sameStoredValue, scaledToDecimal,
} from '../values/index.js';
// ---------------------------------------------------------------- values under a reading the target was observed to take (docs/stack-defaults.md)
export {
  EXACT_COLLATION, sameUnderCollation, describeCollation, flipAsciiCase, changeAccent, padRight, modelledText, looseText,
  INT32_MAX, integerUnder, largestIntegerUnder, largestIntegerOfEveryWidth, decimalUnderScale, hasAstral, astralUnder, compareWithDateOnlyBound,
  utcOffsetMinutes, describeOffset, letterCaseOf, textUnderTrimming, hasEdgeSpace, listUnderDuplicates, otherNormalForm, textUnderNormalization,
  type Collation, type TrimmingReading, type BlankReading, type EmptyReading, type NumberSyntaxReading, type ListDuplicatesReading, type IntegerWidth, type DecimalScaleReading, type AstralReading, type DateOnlyBoundReading,
} from '../values/index.js';

// ---------------------------------------------------------------- records: fixtures, scopes, pages, visibility
export { fixture, type Fixture, type FixtureContext } from './fixture.js';
export { Scope } from './scope.js';
export { countPath, isRejected, pageSettings, readPage, walk, type PageSettings, type Rejected, type Walk, type WalkResult } from './pages.js';
export { eventually } from './visibility.js';

// ---------------------------------------------------------------- the invariants on every answer: one failure per cause
export { claimInvariantCauses } from './invariants/watch.js';
export { schemaCause } from './invariants/judge.js';

// ---------------------------------------------------------------- the filter oracle: which records a filter must return
export {
  andMode, boundOf, collation, dateOnlyBound, expectation, expectedIn, expectTerm, fieldKind, hasOpen, inclusive, judgeGet, lower, ruleText, termsText,
  type Expect, type Scoped, type Term,
} from './oracle.js';

// ---------------------------------------------------------------- keys: the near-miss keys of the configured key (§5)
export { NEAR_MISS, NEAR_MISS_CASES, nearMissKeys, nearMissPlan, type NearMissCase, type NearMissKey } from '../values/near-miss.js';
export { nearMissShown } from '../client/redact.js';

// ---------------------------------------------------------------- observations: what the spec leaves open
export { observed, probed } from './runtime.js';
export { WRONG_KEY, carriesData, shapeFamily, shapeOf } from '../observe/shared.js';
export { follows, orderOf, ORDERS, type OrderName } from '../observe/order.js';
