/**
 * Two ways a check can end badly, kept apart in every report (OCI conformance
 * style): a CheckFailure is the target breaking a rule (non-conformance); a
 * TargetError is the target failing to answer (transport error, 5xx) — no verdict.
 */
import type { CallResult } from '../client/api.js';
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

/** Texts longer than this go to the test runner by their ends and size (forRunner). */
const RUNNER_TEXT_MAX = 2048;
const RUNNER_TEXT_ENDS = 200;

/**
 * A value as the test runner gets it: a long text by its ends and size. The
 * runner diffs expected against actual character by character, which takes
 * minutes on two texts of 65535 characters differing over thousands of them (a
 * check time-out, where a verdict was due); report.json keeps `detail`'s values
 * whole.
 */
export function forRunner(v: unknown): unknown {
  if (typeof v !== 'string' || v.length <= RUNNER_TEXT_MAX) return v;
  return `${v.slice(0, RUNNER_TEXT_ENDS)}… (${v.length} UTF-16 units, ${Buffer.byteLength(v, 'utf8')} UTF-8 bytes in all) …${v.slice(-RUNNER_TEXT_ENDS)}`;
}

export class CheckFailure extends Error {
  /** expected and actual as own properties: Allure (and others) tell a failed assertion from a broken test by them */
  readonly expected: unknown;
  readonly actual: unknown;
  constructor(readonly detail: FailureDetail) {
    super(detail.message);
    this.name = 'CheckFailure';
    this.expected = forRunner(detail.expected);
    this.actual = forRunner(detail.actual);
  }
}

export class TargetError extends Error {
  constructor(message: string, readonly evidence: Exchange[] = []) {
    super(message);
    this.name = 'TargetError';
  }
}

/**
 * Is this exchange a target error rather than an answer to judge? No answer
 * (transport error, cancelled), a 5xx, or an answer larger than the client
 * keeps (it was cut, so it cannot be judged — the spec allows big answers).
 */
export function isTargetError(ex: Exchange): boolean {
  return ex.transportError !== undefined || (ex.response !== undefined && (ex.response.status >= 500 || ex.response.truncated === true));
}

/**
 * A check's judgement of a call that must succeed (ctx.ok): its value, or a
 * TargetError (no answer, 5xx, too big to judge) or a CheckFailure (any other
 * unusable answer: a 4xx, HTML, cut JSON, a wrong shape) — both carrying the
 * exchange, so the report names the request.
 */
export function requireOk<T>(result: CallResult<T>, what: string): T {
  if (result.ok) return result.value as T;
  if (isTargetError(result.exchange)) throw new TargetError(`${what}: ${result.problem}`, [result.exchange]);
  throw new CheckFailure({ message: `${what}: ${result.problem}`, evidence: [result.exchange] });
}

/**
 * An item (or a whole check) that cannot be judged on this target: nothing to
 * judge (no records of the resource, no value in the field), or an honest
 * choice of the target that puts the item out of reach (a filter key it does
 * not take). Reported as not judged, with the reason — never as a pass.
 */
export class NotJudged extends Error {
  constructor(readonly reason: string) {
    super(`not judged: ${reason}`);
    this.name = 'NotJudged';
  }
}
