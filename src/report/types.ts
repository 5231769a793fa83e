/**
 * The shape of report.json: the one source every other view (Markdown, HTML,
 * JUnit, compare, baseline) is rendered from. schemas/report.schema.json
 * describes the same shape for users' tooling; keep the two in step.
 */

export type Level = 'must' | 'quirk' | 'observe';

/**
 * passed / failed: the check ran and judged the target.
 * expected-fail: failed, but listed in --expect (does not fail the run).
 * unexpected-pass: listed in --expect, yet passed (reported, does not fail the run).
 * error: the target could not be judged (transport failure, 5xx) — a target error, not non-conformance.
 * skipped: not applicable to this target or run (e.g. writes in --read-only).
 */
export type CheckStatus = 'passed' | 'failed' | 'expected-fail' | 'unexpected-pass' | 'error' | 'skipped';

export type Verdict = 'conformant' | 'non-conformant' | 'no-verdict';

/** Rule groups: the columns of the report's matrix. */
export type RuleGroup =
  | 'conventions' | 'format' | 'lifecycle' | 'filters' | 'pagination'
  | 'versions' | 'auth' | 'limits' | 'store' | 'observe';

export interface HttpExchange {
  request: { method: string; url: string; body: unknown };
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
}

export interface Reproducer {
  /** curl command(s) with the key replaced by $STORE_API_KEY */
  curl?: string;
  /** fast-check seed and path to replay the property */
  seed?: number;
  path?: string;
  /** the storecheck command that replays this check */
  command?: string;
}

export interface CheckResult {
  /** stable id, e.g. 'product.filter.price.range' */
  id: string;
  title: string;
  /** resource name, or '*' for cross-resource checks */
  resource: string;
  /** the rule id the check verifies, e.g. 'filters.range' */
  rule: string;
  group: RuleGroup;
  /** spec section, e.g. '§4 Filter naming' */
  section: string;
  level: Level;
  status: CheckStatus;
  message?: string;
  expected?: unknown;
  actual?: unknown;
  reproducer?: Reproducer;
  /** redacted request/response pairs that show the failure */
  evidence?: HttpExchange[];
  durationMs?: number;
  /** reason when status is expected-fail / unexpected-pass / skipped */
  reason?: string;
}

export interface Observation {
  value: unknown;
  /** how it was found, in a sentence */
  detail?: string;
  evidence?: HttpExchange[];
}

export interface Summary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  expectedFail: number;
  unexpectedPass: number;
  errors: number;
  verdict: Verdict;
  /** one line: why this verdict */
  reason: string;
}

export interface BaselineDiff {
  baselineFile: string;
  newFailures: string[];
  fixed: string[];
  newChecks: string[];
  missingChecks: string[];
  changedObservations: Array<{ key: string; before: unknown; after: unknown }>;
  regression: boolean;
}

export interface ExpectationsInfo {
  file: string;
  /** how many checks an entry turned into expected-fail / unexpected-pass */
  applied: number;
  stale: Array<{ id: string; reason: string }>;
  /** entries whose `until` date has passed: no longer applied */
  expired?: Array<{ id: string; reason: string; until: string }>;
}

export interface Report {
  reportVersion: 1;
  tool: { name: 'storecheck'; version: string };
  target: { baseUrl: string; embedded: boolean };
  run: {
    runTag: string;
    seed: number;
    depth: 'quick' | 'standard' | 'deep';
    startedAt: string;
    durationMs: number;
    requestCount: number;
    readOnly: boolean;
    only?: string;
    shard?: string;
    concurrency: number;
    /** wall time per phase, ms (absent in merged reports) */
    phasesMs?: { startup: number; preflight: number; probes: number; checks: number; cleanup: number };
  };
  summary: Summary;
  checks: CheckResult[];
  observations: Record<string, Observation>;
  targetErrors: Array<{ message: string; count: number; sample?: HttpExchange }>;
  baseline?: BaselineDiff;
  /** the --expect file applied to this run: entries that matched no check are stale */
  expectations?: ExpectationsInfo;
  cleanup?: { created: number; deleted: number; leftBehind: string[] };
}
