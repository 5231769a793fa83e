/**
 * Expected failures (--expect FILE): known deviations of a target that should
 * not fail the run.
 *
 *   { "expectations": [ { "id": "product.filter.price.*", "reason": "ticket 123", "until": "2025-12-31" } ] }
 *
 * `id` is a check id, or a glob where `*` matches any run of characters (dots
 * included; the glob of --only too: src/items/glob.ts). An exact id wins over a glob; among globs the first listed wins.
 * `until` (optional): when it is a date (YYYY-MM-DD…) that has passed, the
 * entry is no longer applied and is reported as expired; any other text is
 * carried along as a note.
 *
 * Applying: a failed check that matches becomes `expected-fail`; a passed one
 * becomes `unexpected-pass` (the entry can go); error and skipped checks are
 * left alone. Entries that match no check at all are stale.
 */
import { readFileSync } from 'node:fs';
import { globToRegExp } from '../items/glob.js';
import type { CheckResult, ExpectationsInfo } from './types.js';

export interface Expectation {
  id: string;
  reason: string;
  until?: string;
}

export interface AppliedExpectations {
  checks: CheckResult[];
  /** how many checks changed status */
  applied: number;
  /** ids of the entries that matched no check */
  stale: string[];
  /** the entries that matched no check */
  staleEntries: Expectation[];
  /** entries whose `until` date has passed (not applied) */
  expired: Expectation[];
}

const ENTRY_KEYS = new Set(['id', 'reason', 'until']);
const TOP_KEYS = new Set(['expectations', '$schema', 'comment']);

/** Validate parsed JSON as an expectations document; `source` names it in error messages. */
export function parseExpectations(doc: unknown, source: string): Expectation[] {
  const fail = (problem: string): never => {
    throw new Error(`expectations file ${source}: ${problem}`);
  };
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) fail('expected a JSON object with an "expectations" array');
  const top = doc as Record<string, unknown>;
  for (const k of Object.keys(top)) if (!TOP_KEYS.has(k)) fail(`unknown top-level key ${JSON.stringify(k)} (allowed: "expectations")`);
  if (!Array.isArray(top.expectations)) fail('"expectations" must be an array');
  const seen = new Set<string>();
  return (top.expectations as unknown[]).map((entry, i) => {
    const where = `expectations[${i}]`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) fail(`${where} must be an object { id, reason, until? }`);
    const e = entry as Record<string, unknown>;
    for (const k of Object.keys(e)) if (!ENTRY_KEYS.has(k)) fail(`${where} has unknown key ${JSON.stringify(k)} (allowed: id, reason, until)`);
    if (typeof e.id !== 'string' || e.id.trim() === '') fail(`${where}.id must be a non-empty string (a check id or a glob with *)`);
    if (typeof e.reason !== 'string' || e.reason.trim() === '') fail(`${where}.reason must be a non-empty string (why the failure is expected)`);
    if (e.until !== undefined && (typeof e.until !== 'string' || e.until.trim() === '')) fail(`${where}.until must be a non-empty string when present`);
    const id = (e.id as string).trim();
    if (seen.has(id)) fail(`${where}.id ${JSON.stringify(id)} is listed twice`);
    seen.add(id);
    const out: Expectation = { id, reason: (e.reason as string).trim() };
    if (e.until !== undefined) out.until = (e.until as string).trim();
    return out;
  });
}

/** Read and validate an expectations file. Throws an Error naming the file and the problem. */
export function loadExpectations(file: string): Expectation[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`expectations file ${file}: cannot read it (${(err as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`expectations file ${file}: not valid JSON (${(err as Error).message})`);
  }
  return parseExpectations(doc, file);
}

/** The date an `until` names, when it names one. */
function untilDate(until: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}/.test(until)) return undefined;
  const d = new Date(until.length === 10 ? `${until}T23:59:59.999Z` : until);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

export function isExpired(e: Expectation, now: Date = new Date()): boolean {
  const d = e.until ? untilDate(e.until) : undefined;
  return !!d && d.getTime() < now.getTime();
}

export function applyExpectations(
  checks: readonly CheckResult[],
  expectations: readonly Expectation[],
  options: { now?: Date } = {},
): AppliedExpectations {
  const now = options.now ?? new Date();
  const expired = expectations.filter((e) => isExpired(e, now));
  const active = expectations.filter((e) => !isExpired(e, now));
  const exact = new Map(active.filter((e) => !e.id.includes('*')).map((e) => [e.id, e]));
  const globs = active.filter((e) => e.id.includes('*')).map((e) => ({ e, re: globToRegExp(e.id) }));
  const used = new Set<Expectation>();
  let applied = 0;

  const out = checks.map((check) => {
    const entry = exact.get(check.id) ?? globs.find((g) => g.re.test(check.id))?.e;
    if (!entry) return check;
    used.add(entry);
    const reason = entry.until ? `${entry.reason} (until ${entry.until})` : entry.reason;
    if (check.status === 'failed') {
      applied++;
      return { ...check, status: 'expected-fail' as const, reason };
    }
    if (check.status === 'passed') {
      applied++;
      return { ...check, status: 'unexpected-pass' as const, reason: `expected to fail: ${reason}` };
    }
    return check;
  });

  const staleEntries = active.filter((e) => !used.has(e));
  return { checks: out, applied, stale: staleEntries.map((e) => e.id), staleEntries, expired };
}

/** The report's record of an applied expectations file. */
export function expectationsInfo(file: string, result: AppliedExpectations): ExpectationsInfo {
  const info: ExpectationsInfo = {
    file,
    applied: result.applied,
    stale: result.staleEntries.map((e) => ({ id: e.id, reason: e.reason })),
  };
  if (result.expired.length) info.expired = result.expired.map((e) => ({ id: e.id, reason: e.reason, until: e.until ?? '' }));
  return info;
}
