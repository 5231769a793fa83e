export { check, checkId, mixSeed, type CheckContext, type CheckSpec, type CheckTaskMeta, type EvidenceItem } from './check.js';
export { CheckFailure, TargetError, isTargetError, requireOk, type FailureDetail } from './failure.js';
export { fixture, type Fixture } from './fixture.js';
export { curlFor, shellQuote } from './reproducer.js';
export { runtime, observed, type Runtime } from './runtime.js';
export { Scope } from './scope.js';
