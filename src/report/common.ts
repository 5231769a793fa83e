/**
 * Helpers shared by the report views: status ordering, the resources × groups
 * matrix, escaping, JSON pretty-printing and truncation. Everything here is
 * pure; nothing reads files.
 */
import type { CheckResult, CheckStatus, Coverage, HttpExchange, Report, RuleGroup } from './types.js';
import { ITEM_KINDS } from '../items/types.js';
import { REDACTED } from '../client/redact.js';

/** Worst first: the status a matrix cell shows when its checks disagree. */
export const STATUS_SEVERITY: readonly CheckStatus[] = [
  'failed', 'error', 'expected-fail', 'unexpected-pass', 'passed', 'skipped',
];

/** Column order of the matrix (the order of RuleGroup in types.ts). */
export const GROUP_ORDER: readonly RuleGroup[] = [
  'conventions', 'format', 'lifecycle', 'filters', 'pagination',
  'versions', 'auth', 'limits', 'store', 'observe', 'model', 'concurrency', 'invariants',
];

export const STATUS_LABEL: Record<CheckStatus, string> = {
  failed: 'failed',
  error: 'error',
  'expected-fail': 'expected fail',
  'unexpected-pass': 'unexpected pass',
  passed: 'passed',
  skipped: 'skipped',
};

export const STATUS_MEANING: Record<CheckStatus, string> = {
  failed: 'the target does not do what the spec says',
  error: 'the target could not be judged (transport failure, 5xx)',
  'expected-fail': 'failed, but listed in the expectations file (does not fail the run)',
  'unexpected-pass': 'listed in the expectations file, yet passed (remove the entry)',
  passed: 'the target does what the spec says',
  skipped: 'not applicable to this target or run',
};

/** The label shown for a resource ('*' is the cross-resource row). */
export function resourceLabel(resource: string): string {
  return resource === '*' ? 'cross-resource' : resource;
}

export function worstStatus(statuses: Iterable<CheckStatus>): CheckStatus | undefined {
  let best = Infinity;
  for (const s of statuses) {
    const i = STATUS_SEVERITY.indexOf(s);
    if (i !== -1 && i < best) best = i;
  }
  return best === Infinity ? undefined : STATUS_SEVERITY[best];
}

export type StatusCounts = Record<CheckStatus, number>;

export function emptyCounts(): StatusCounts {
  return { failed: 0, error: 0, 'expected-fail': 0, 'unexpected-pass': 0, passed: 0, skipped: 0 };
}

export function countStatuses(checks: readonly CheckResult[]): StatusCounts {
  const counts = emptyCounts();
  for (const c of checks) if (c.status in counts) counts[c.status]++;
  return counts;
}

export interface MatrixCell {
  resource: string;
  group: string;
  worst: CheckStatus;
  counts: StatusCounts;
  total: number;
}

export interface Matrix {
  /** rows, sorted by name, the cross-resource row ('*') last */
  resources: string[];
  /** columns present in the checks, in GROUP_ORDER (unknown groups after, sorted) */
  groups: string[];
  cell(resource: string, group: string): MatrixCell | undefined;
}

export function buildMatrix(checks: readonly CheckResult[]): Matrix {
  const byKey = new Map<string, CheckResult[]>();
  const resources = new Set<string>();
  const groups = new Set<string>();
  for (const c of checks) {
    resources.add(c.resource);
    groups.add(c.group);
    const key = JSON.stringify([c.resource, c.group]);
    const list = byKey.get(key) ?? [];
    list.push(c);
    byKey.set(key, list);
  }
  const cells = new Map<string, MatrixCell>();
  for (const [key, list] of byKey) {
    const [resource, group] = JSON.parse(key) as [string, string];
    const counts = countStatuses(list);
    cells.set(key, { resource, group, counts, total: list.length, worst: worstStatus(list.map((c) => c.status)) ?? 'skipped' });
  }
  const groupRank = (g: string) => {
    const i = (GROUP_ORDER as readonly string[]).indexOf(g);
    return i === -1 ? GROUP_ORDER.length : i;
  };
  return {
    resources: [...resources].sort((a, b) => (a === '*' ? 1 : b === '*' ? -1 : a.localeCompare(b))),
    groups: [...groups].sort((a, b) => groupRank(a) - groupRank(b) || a.localeCompare(b)),
    cell: (resource, group) => cells.get(JSON.stringify([resource, group])),
  };
}

export type CoverageCell = Coverage['matrix'][number];

export interface CoverageGrid {
  /** rows in report order (the run's catalogue order), the cross-resource row ('*') last */
  resources: string[];
  /** item kinds present, in the catalogue's order (src/items ITEM_KINDS; unknown kinds first) */
  kinds: string[];
  cell(resource: string, kind: string): CoverageCell | undefined;
}

/** The resources × item kinds grid of a report's coverage (judged / total per cell). */
export function coverageGrid(c: Coverage): CoverageGrid {
  const resources = [...new Set(c.matrix.map((x) => x.resource))].sort((a, b) => (a === '*' ? 1 : b === '*' ? -1 : 0));
  const rank = (k: string) => ((ITEM_KINDS as readonly string[]).indexOf(k) + ITEM_KINDS.length + 1) % (ITEM_KINDS.length + 1);
  const kinds = [...new Set(c.matrix.map((x) => x.kind))].sort((a, b) => rank(a) - rank(b));
  const cells = new Map(c.matrix.map((x) => [`${x.resource}\u0000${x.kind}`, x]));
  return { resources, kinds, cell: (resource, kind) => cells.get(`${resource}\u0000${kind}`) };
}

/** "12/14 judged, 1 failed" — what a coverage cell says. */
export function coverageCellText(x: CoverageCell): string {
  return `${x.judged}/${x.total}${x.failed ? `, ${x.failed} failed` : ''}`;
}

/** Checks in display order: worst status first, then resource, group, id. */
export function sortChecks(checks: readonly CheckResult[]): CheckResult[] {
  return [...checks].sort((a, b) =>
    STATUS_SEVERITY.indexOf(a.status) - STATUS_SEVERITY.indexOf(b.status)
    || a.resource.localeCompare(b.resource)
    || a.group.localeCompare(b.group)
    || a.id.localeCompare(b.id));
}

/** Checks grouped for the "all checks" list: by resource, then group, then id. */
export function checksByPlace(checks: readonly CheckResult[]): CheckResult[] {
  const m = buildMatrix(checks);
  const rRank = new Map(m.resources.map((r, i) => [r, i]));
  const gRank = new Map(m.groups.map((g, i) => [g, i]));
  return [...checks].sort((a, b) =>
    rRank.get(a.resource)! - rRank.get(b.resource)!
    || gRank.get(a.group)! - gRank.get(b.group)!
    || a.id.localeCompare(b.id));
}

// ---------------------------------------------------------------- text

/** Characters no view should carry: C0/C1 controls except tab, newline, CR; lone surrogates; U+FFFE/U+FFFF. */
const ILLEGAL_CHARS = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Remove characters illegal in XML 1.0 (and unwelcome in HTML): controls, lone surrogates, U+FFFE/F. */
export function stripIllegal(s: string): string {
  return s.replace(ILLEGAL_CHARS, '');
}

/** Escape for HTML/XML text and double- or single-quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return stripIllegal(String(value ?? ''))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Cut a long text, saying how much was left off. */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  let cut = s.slice(0, max);
  // don't leave half a surrogate pair
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}\n… (${s.length - cut.length} more characters not shown)`;
}

/** Pretty JSON of any value; undefined shows as `undefined`, strings that hold JSON stay strings. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2) ?? String(value);
  } catch {
    return String(value);
  }
}

const SECRET_KEY = /^(api_?key|apikey|authorization|x-api-key|password|secret|token)$/i;

/** Replace the values of secret-looking keys (apiKey, authorization, ...) wherever they occur. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEY.test(k) && (typeof v === 'string' || typeof v === 'number') && v !== REDACTED ? '[redacted]' : redactSecrets(v);
    }
    return out;
  }
  return value;
}

/** A response body for display: pretty-printed (and redacted) when it is JSON, raw otherwise. */
export function prettyBody(body: unknown): string {
  if (typeof body === 'string') {
    const t = body.trim();
    if (t.startsWith('{') || t.startsWith('[')) {
      try {
        return prettyJson(redactSecrets(JSON.parse(t)));
      } catch { /* not JSON: show as is */ }
    }
    return body.replace(/("(?:api_?key|apikey)"\s*:\s*")[^"]*(")/gi, '$1[redacted]$2');
  }
  return prettyJson(redactSecrets(body));
}

/** Evidence exchanges as display strings (request line + body, response status + headers + body). */
export function exchangeText(x: HttpExchange, maxBody: number): { request: string; response: string } {
  const req = x.request ?? ({} as HttpExchange['request']);
  const reqBody = req.body === undefined ? '' : `\n\n${truncate(prettyBody(req.body), maxBody)}`;
  // a read the run cannot change, sent once for another check (or the probes) and judged here too
  const shared = x.sharedFrom ? `\n(not sent again: the answer to this request sent for ${x.sharedFrom})` : '';
  const request = `${req.method ?? '?'} ${req.url ?? '?'}${shared}${reqBody}`;
  let response: string;
  if (x.response) {
    const headers = Object.entries(redactSecrets(x.response.headers ?? {}) as Record<string, string>)
      .map(([k, v]) => `${k}: ${v}`).join('\n');
    response = `HTTP ${x.response.status}${headers ? `\n${headers}` : ''}\n\n${truncate(prettyBody(x.response.body ?? ''), maxBody)}`;
  } else {
    response = x.error ? `(no response) ${x.error}` : '(no response)';
  }
  return { request, response };
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

/** An ISO timestamp as `YYYY-MM-DD HH:MM:SS UTC`; anything else unchanged. */
export function formatTimestamp(iso: string): string {
  const d = new Date(iso);
  if (typeof iso !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(iso) || Number.isNaN(d.getTime())) return String(iso ?? '');
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A stable, attribute-safe id for an arbitrary string (hostile ids included). */
export function anchorId(prefix: string, ...parts: string[]): string {
  const raw = parts.join('\u0000');
  let h = 0x811c9dc5;
  for (let i = 0; i < raw.length; i++) {
    h ^= raw.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const slug = parts.join('--').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return `${prefix}-${slug}-${h.toString(36)}`;
}

/** The headline counts, in the order every view lists them. */
export function summaryLine(report: Pick<Report, 'summary'>): Array<[string, number]> {
  const s = report.summary;
  return [
    ['total', s.total], ['passed', s.passed], ['failed', s.failed], ['errors', s.errors],
    ['expected fail', s.expectedFail], ['unexpected pass', s.unexpectedPass], ['skipped', s.skipped],
  ];
}
