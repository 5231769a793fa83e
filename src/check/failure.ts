/**
 * Two ways a check can end badly, kept apart in every report (OCI conformance
 * style): a CheckFailure is the target breaking a rule (non-conformance); a
 * TargetError is the target failing to answer (transport error, 5xx) — no verdict.
 */
import type { Exchange } from '../client/http.js';

export interface FailureDetail {
  message: string;
  expected?: unknown;
  actual?: unknown;
  evidence?: Exchange[];
  /** fast-check replay data when a property failed */
  seed?: number;
  path?: string;
  counterexample?: unknown;
}

export class CheckFailure extends Error {
  constructor(readonly detail: FailureDetail) {
    super(detail.message);
    this.name = 'CheckFailure';
  }
}

export class TargetError extends Error {
  constructor(message: string, readonly evidence: Exchange[] = []) {
    super(message);
    this.name = 'TargetError';
  }
}

/** Is this exchange a target error rather than an answer to judge? */
export function isTargetError(ex: Exchange): boolean {
  return ex.transportError !== undefined || (ex.response !== undefined && ex.response.status >= 500);
}
