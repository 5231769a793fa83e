/**
 * --baseline FILE: what changed since a saved report.json.
 *
 * - newFailures: failed now, and not failing before (passed, absent, skipped,
 *   errored or unexpected-pass in the baseline). A failure the baseline already
 *   had (failed or expected-fail) is not new.
 * - fixed: failing before (failed or expected-fail), passing now (passed or unexpected-pass).
 * - newChecks / missingChecks: ids present on one side only (a different
 *   --only, shard or tool version; not a regression by itself).
 * - changedObservations: observation keys present in both reports whose values
 *   differ (deep comparison, key order ignored). Keys on one side only are not
 *   changes: the observing check simply did not run.
 * - regression: any new failure or changed observation.
 */
import { readFileSync } from 'node:fs';
import type { BaselineDiff, CheckResult, CheckStatus, Report } from './types.js';

const FAILING: ReadonlySet<CheckStatus> = new Set(['failed', 'expected-fail']);
const PASSING: ReadonlySet<CheckStatus> = new Set(['passed', 'unexpected-pass']);

/** Structural equality of JSON values; object key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && deepEqual(ao[k], bo[k]));
}

function byId(checks: readonly CheckResult[]): Map<string, CheckResult> {
  return new Map(checks.map((c) => [c.id, c]));
}

export function diffBaseline(current: Report, baselineReport: Report, file: string): BaselineDiff {
  const now = byId(current.checks ?? []);
  const before = byId(baselineReport.checks ?? []);

  const newFailures: string[] = [];
  const fixed: string[] = [];
  const newChecks: string[] = [];
  for (const [id, c] of now) {
    const b = before.get(id);
    if (!b) newChecks.push(id);
    if (c.status === 'failed' && (!b || !FAILING.has(b.status))) newFailures.push(id);
    if (b && FAILING.has(b.status) && PASSING.has(c.status)) fixed.push(id);
  }
  const missingChecks = [...before.keys()].filter((id) => !now.has(id));

  const changedObservations: BaselineDiff['changedObservations'] = [];
  const obsNow = current.observations ?? {};
  const obsBefore = baselineReport.observations ?? {};
  for (const key of Object.keys(obsNow).sort()) {
    if (!Object.prototype.hasOwnProperty.call(obsBefore, key)) continue;
    const after = obsNow[key]?.value;
    const prev = obsBefore[key]?.value;
    if (!deepEqual(prev, after)) changedObservations.push({ key, before: prev, after });
  }

  const sort = (xs: string[]) => xs.sort((a, b) => a.localeCompare(b));
  return {
    baselineFile: file,
    newFailures: sort(newFailures),
    fixed: sort(fixed),
    newChecks: sort(newChecks),
    missingChecks: sort(missingChecks),
    changedObservations,
    regression: newFailures.length > 0 || changedObservations.length > 0,
  };
}

/** Read a saved report.json (a baseline, or a side of `compare`). Throws an Error naming the file and the problem. */
export function loadReport(file: string): Report {
  let doc: any;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`report ${file}: cannot read it as JSON (${(err as Error).message})`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`report ${file}: not a report.json (expected an object)`);
  if (doc.reportVersion !== 1) throw new Error(`report ${file}: unsupported reportVersion ${JSON.stringify(doc.reportVersion)} (this storecheck reads 1)`);
  if (!Array.isArray(doc.checks)) throw new Error(`report ${file}: "checks" is missing or not an array`);
  if (doc.observations !== undefined && (typeof doc.observations !== 'object' || doc.observations === null || Array.isArray(doc.observations))) {
    throw new Error(`report ${file}: "observations" must be an object`);
  }
  return doc as Report;
}
