export { check, checkId, mixSeed, registeredChecks, type CheckContext, type CheckSpec, type CheckTaskMeta, type EvidenceItem, type FailInput, type ItemContext } from './check.js';
export { CheckFailure, NotJudged, TargetError, isTargetError, requireOk, type FailureDetail } from './failure.js';
export { evidenceOf, toEvidence } from './evidence.js';
export { fixture, type Fixture } from './fixture.js';
export { ItemBook, type ItemOutcome, type ItemRecord } from './items.js';
export { curlFor, shellQuote } from './reproducer.js';
export { runtime, observed, type Runtime } from './runtime.js';
export { Scope } from './scope.js';
