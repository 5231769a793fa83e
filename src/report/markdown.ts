/**
 * report.md: the run as Markdown (GitHub-flavoured), e.g. for a CI job summary
 * or a pull-request comment. Rendered from the Report alone.
 *
 * Everything that comes from the target (messages, bodies, observed values) is
 * escaped: inline text gets HTML entities and backslash escapes, code goes in
 * code spans / fences longer than any backtick run it contains.
 */
import {
  STATUS_LABEL, STATUS_SEVERITY, buildMatrix, countStatuses, coverageCellText, coverageGrid, exchangeText, formatDuration, formatTimestamp, prettyJson,
  resourceLabel, sortChecks, stripIllegal, summaryLine, truncate,
} from './common.js';
import { coverageLine } from './coverage.js';
import { slotsText } from './slots.js';
import { requestsText } from './throughput.js';
import { failureGroupCount, failureGroups, type FailureGroup } from './groups.js';
import type { CheckResult, CheckStatus, Report } from './types.js';
import { formatMs, LATENCY_HEAD, latencyRows } from './latency-view.js';

const MAX_VALUE = 6000;
const MAX_BODY = 2000;
const MAX_CELL = 200;
const MAX_EXCHANGES = 2;
const MAX_LISTED = 50;

export const STATUS_ICON: Record<CheckStatus, string> = {
  failed: '❌',
  error: '⚠️',
  'expected-fail': '🟡',
  'unexpected-pass': '🔵',
  passed: '✅',
  skipped: '⚪',
};

const VERDICT_ICON = { conformant: '✅', 'non-conformant': '❌', 'no-verdict': '⚠️' } as const;

// ---------------------------------------------------------------- escaping

/** Inline Markdown text on one line: entities for HTML, backslashes for Markdown syntax. */
export function mdText(value: unknown): string {
  return stripIllegal(String(value ?? ''))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#!~])/g, '\\$1')
    .replace(/\s*[\r\n]+\s*/g, ' ');
}

/** An inline code span holding any text on one line; `inTable` escapes `|` (GFM table cells). */
export function mdCode(value: unknown, inTable = false): string {
  let s = stripIllegal(String(value ?? '')).replace(/\s*[\r\n]+\s*/g, ' ');
  if (inTable) s = s.replace(/\|/g, '\\|');
  if (s === '') return '` `';
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = s.startsWith('`') || s.endsWith('`') || (s.startsWith(' ') && s.endsWith(' ')) ? ' ' : '';
  return `${ticks}${pad}${s}${pad}${ticks}`;
}

/** A fenced block holding any text. */
export function mdFence(text: string, lang = ''): string {
  const s = stripIllegal(text);
  const longest = Math.max(2, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${s}\n${fence}`;
}

function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

function compactJson(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function listIds(ids: readonly string[]): string {
  if (ids.length === 0) return 'none';
  const shown = ids.slice(0, MAX_LISTED).map((id) => mdCode(id)).join(', ');
  return ids.length > MAX_LISTED ? `${shown}, … and ${ids.length - MAX_LISTED} more` : shown;
}

// ---------------------------------------------------------------- sections

function header(report: Report): string {
  const s = report.summary;
  const r = report.run;
  const slots = slotsText(r.slots, r.concurrency);
  const mode = [
    r.readOnly ? 'read-only' : 'read-write',
    `concurrency ${r.concurrency}`,
    r.only ? `only ${mdCode(r.only, true)}` : '',
    r.shard ? `shard ${mdCode(r.shard, true)}` : '',
  ].filter(Boolean).join(', ');
  return [
    `# storecheck report: ${VERDICT_ICON[s.verdict] ?? ''} ${mdText(s.verdict.toUpperCase())}`,
    '',
    `**Verdict: ${mdText(s.verdict)}**: ${mdText(s.reason)}`,
    '',
    table(['Run', ''], [
      ['Target', `${mdCode(report.target.baseUrl, true)}${report.target.embedded ? ' (embedded reference server)' : ''}`],
      ['Tool', `${mdText(report.tool.name)} ${mdText(report.tool.version)}`],
      ['Seed', mdCode(r.seed, true)],
      ['Depth', mdText(r.depth)],
      ['Started', mdText(formatTimestamp(r.startedAt))],
      ['Duration', mdText(formatDuration(r.durationMs))],
      ['Requests', mdText(requestsText(r))],
      ...(slots ? [['Slots', mdText(slots)]] : []),
      ['Run tag', mdCode(r.runTag, true)],
      ['Mode', mode],
    ]),
  ].join('\n');
}

function summarySection(report: Report): string {
  const line = summaryLine(report);
  return ['## Summary', '', table(line.map(([k]) => k), [line.map(([, v]) => String(v))])].join('\n');
}

function matrixSection(report: Report): string {
  if (!report.checks.length) return '## Matrix\n\nNo checks ran.';
  const m = buildMatrix(report.checks);
  const legend = STATUS_SEVERITY.map((s) => `${STATUS_ICON[s]} ${STATUS_LABEL[s]}`).join(' · ');
  const rows = m.resources.map((res) => [
    `**${mdText(resourceLabel(res))}**`,
    ...m.groups.map((g) => {
      const cell = m.cell(res, g);
      if (!cell) return '·';
      const parts = STATUS_SEVERITY.filter((s) => cell.counts[s] > 0).map((s) => `${cell.counts[s]} ${STATUS_LABEL[s]}`);
      return `${STATUS_ICON[cell.worst]} ${parts.join(', ')}`;
    }),
  ]);
  return [
    '## Matrix',
    '',
    `Resources × rule groups; each cell shows its worst status, then the count per status. Legend: ${legend}.`,
    '',
    table(['resource', ...m.groups.map(mdText)], rows),
  ].join('\n');
}

function coverageSection(report: Report): string {
  const c = report.coverage;
  if (!c || c.total === 0) return '';
  const g = coverageGrid(c);
  const rows = g.resources.map((res) => [
    `**${mdText(resourceLabel(res))}**`,
    ...g.kinds.map((k) => {
      const x = g.cell(res, k);
      if (!x) return '·';
      return `${x.failed ? '✗' : x.judged < x.total ? '◐' : '✓'} ${coverageCellText(x)}`;
    }),
  ]);
  const out = [
    '## Coverage',
    '',
    `${mdText(coverageLine(c))} (${c.percent} %).`,
    '',
    'Spec items per resource × item kind: judged / total (✓ all judged, ◐ some not judged, ✗ some failed).',
    '',
    table(['resource', ...g.kinds.map(mdText)], rows),
  ];
  if (c.reasons.length) {
    out.push('', '**Not judged, by reason**', '');
    for (const r of c.reasons) out.push(`- ${r.count} × ${mdText(r.reason)}: ${listIds(r.items)}${r.count > r.items.length ? ` (+${r.count - r.items.length})` : ''}`);
  }
  return out.join('\n');
}

function observationsSection(report: Report): string {
  const keys = Object.keys(report.observations ?? {}).sort();
  if (!keys.length) return '## Observations\n\nNone recorded.';
  const rows = keys.map((k) => {
    const o = report.observations[k];
    return [mdCode(k, true), mdCode(truncate(compactJson(o?.value), MAX_CELL), true), mdText(truncate(o?.detail ?? '', MAX_CELL * 2))];
  });
  return [
    '## Observations',
    '',
    'What the target does where the spec says "not shown". Not judged; compared against a baseline when one is given.',
    '',
    table(['key', 'value', 'detail'], rows),
  ].join('\n');
}

function reproducerBlock(c: CheckResult): string[] {
  const r = c.reproducer;
  if (!r) return [];
  const out: string[] = ['', '**Reproduce**', ''];
  if (r.curl) out.push(mdFence(r.curl, 'sh'), '');
  const replay = [
    r.seed !== undefined ? `seed ${mdCode(r.seed)}` : '',
    r.path !== undefined ? `path ${mdCode(r.path)}` : '',
  ].filter(Boolean).join(', ');
  if (replay) out.push(`- Property replay: ${replay}`);
  if (r.command) out.push(`- Command: ${mdCode(r.command)}`);
  return out;
}

function evidenceBlock(c: CheckResult): string[] {
  const ev = c.evidence ?? [];
  if (!ev.length) return [];
  const out: string[] = ['', `**Evidence** (${ev.length > MAX_EXCHANGES ? `${MAX_EXCHANGES} of ${ev.length} exchanges; all in report.json` : `${ev.length} exchange${ev.length === 1 ? '' : 's'}`})`, ''];
  for (const x of ev.slice(0, MAX_EXCHANGES)) {
    const t = exchangeText(x, MAX_BODY);
    out.push(mdFence(`${t.request}\n\n--- response ---\n${t.response}`, 'http'), '');
  }
  return out;
}

function checkDetail(c: CheckResult, level = '###', note = ''): string {
  const lines = [
    `${level} ${STATUS_ICON[c.status]} ${mdCode(c.id)}: ${mdText(c.title)}${note}`,
    '',
    `- **Spec:** ${mdText(c.section)}  `,
    `  **Level:** ${mdText(c.level)} · **Resource:** ${mdText(resourceLabel(c.resource))} · **Rule:** ${mdCode(c.rule)} · **Group:** ${mdText(c.group)}`,
  ];
  if (c.message) lines.push(`- **Message:** ${mdText(truncate(c.message, 2000))}`);
  if (c.reason) lines.push(`- **Reason:** ${mdText(c.reason)}`);
  if (c.expected !== undefined || c.actual !== undefined) {
    lines.push('', '**Expected**', '', mdFence(truncate(prettyJson(c.expected), MAX_VALUE), 'json'));
    lines.push('', '**Actual**', '', mdFence(truncate(prettyJson(c.actual), MAX_VALUE), 'json'));
  }
  lines.push(...reproducerBlock(c), ...evidenceBlock(c));
  return lines.join('\n');
}

/** "`filters.range` ×34 on 9 resources — <rule title> (§4 Filter naming)", escaped. */
function groupHeadline(g: FailureGroup): string {
  return `${mdCode(g.rule)} ${failureGroupCount(g)} — ${mdText(g.title)} (${mdText(g.section)})`;
}

/** "product (5), blog-post (4), …": the group's resources with their failure counts. */
function groupResources(g: FailureGroup): string {
  const n = new Map<string, number>();
  for (const c of g.checks) n.set(c.resource, (n.get(c.resource) ?? 0) + 1);
  return g.resources.map((r) => `${mdText(resourceLabel(r))} (${n.get(r)})`).join(', ');
}

function failuresSection(report: Report): string {
  const groups = failureGroups(report.checks);
  const failed = groups.reduce((n, g) => n + g.checks.length, 0);
  const errors = sortChecks(report.checks.filter((c) => c.status === 'error'));
  const isNew = new Set(report.baseline?.newFailures ?? []);
  const out: string[] = [`## Failures (${failed})`, ''];
  if (!groups.length) out.push('No check failed.');
  else {
    out.push(`${groups.length === 1 ? 'One rule' : `${groups.length} rules`} broken. Failures are grouped by the rule they break, the largest group first; each group lists its checks with expected vs actual, evidence and reproducer.`, '');
    out.push(...groups.map((g) => `- ${STATUS_ICON.failed} ${groupHeadline(g)}`));
    for (const g of groups) {
      const fresh = g.checks.filter((c) => isNew.has(c.id)).length;
      out.push('', `### ${STATUS_ICON.failed} ${groupHeadline(g)}`, '');
      out.push(`**Level:** ${mdText(g.level)} · **Resources:** ${groupResources(g)}${fresh ? ` · **${fresh} new since the baseline**` : ''}`);
      for (const c of g.checks) out.push('', checkDetail(c, '####', isNew.has(c.id) ? ' (new since the baseline)' : ''));
    }
  }
  if (errors.length) {
    out.push('', `## Errors (${errors.length})`, '', 'Checks the target could not be judged on (transport failures, 5xx). They prevent a verdict but are not non-conformance.', '');
    out.push(errors.map((c) => checkDetail(c)).join('\n\n'));
  }
  return out.join('\n');
}

function expectedSection(report: Report): string {
  const rows = sortChecks(report.checks.filter((c) => c.status === 'expected-fail' || c.status === 'unexpected-pass'));
  const out: string[] = [];
  if (rows.length) {
    out.push(`## Expected failures and unexpected passes (${rows.length})`, '');
    out.push(table(['status', 'check', 'reason', 'message'], rows.map((c) => [
      `${STATUS_ICON[c.status]} ${STATUS_LABEL[c.status]}`, mdCode(c.id, true), mdText(c.reason ?? ''), mdText(truncate(c.message ?? '', MAX_CELL)),
    ])));
  }
  const ex = report.expectations;
  if (ex) {
    if (out.length) out.push('');
    out.push(`Expectations file ${mdCode(ex.file)}: ${ex.applied} applied, ${ex.stale.length} stale${ex.expired?.length ? `, ${ex.expired.length} expired` : ''}.`);
    if (ex.stale.length) out.push('', `Stale entries (match no check; remove them): ${listIds(ex.stale.map((e) => e.id))}`);
    if (ex.expired?.length) out.push('', `Expired entries (past \`until\`, no longer applied): ${listIds(ex.expired.map((e) => `${e.id} (until ${e.until})`))}`);
  }
  return out.join('\n');
}

function targetErrorsSection(report: Report): string {
  if (!report.targetErrors?.length) return '';
  return [
    `## Target errors (${report.targetErrors.length})`,
    '',
    table(['message', 'count'], report.targetErrors.map((e) => [mdText(truncate(e.message, MAX_CELL * 2)), String(e.count)])),
  ].join('\n');
}

/** The target's answer times per operation, the slowest checks, then per endpoint (report.json `latency`). */
function latencySection(report: Report): string {
  const l = report.latency;
  if (!l) return '';
  return [
    '## Latency',
    '',
    'How long the target took to answer (each answered request, from sending to the whole answer read; cleanup apart).',
    '',
    table(['operation', ...LATENCY_HEAD], latencyRows(l.byOperation)),
    '',
    '### Slowest checks',
    '',
    table(['check', 'duration'], l.slowestChecks.map((c) => [mdCode(c.id, true), formatMs(c.durationMs)])),
    '',
    '<details><summary>Per endpoint</summary>',
    '',
    table(['endpoint', ...LATENCY_HEAD], latencyRows(l.byEndpoint).map(([p, ...rest]) => [mdCode(p, true), ...rest])),
    '',
    '</details>',
  ].join('\n');
}

function baselineSection(report: Report): string {
  const b = report.baseline;
  if (!b) return '';
  const out = [
    '## Baseline',
    '',
    `Compared with ${mdCode(b.baselineFile)}: ${b.regression ? '❌ **regression**' : '✅ no regression'}.`,
    '',
    `- New failures (${b.newFailures.length}): ${listIds(b.newFailures)}`,
    `- Fixed (${b.fixed.length}): ${listIds(b.fixed)}`,
    `- New checks (${b.newChecks.length}): ${listIds(b.newChecks)}`,
    `- Missing checks (${b.missingChecks.length}): ${listIds(b.missingChecks)}`,
    `- Changed observations: ${b.changedObservations.length}`,
  ];
  if (b.changedObservations.length) {
    out.push('', table(['observation', 'before', 'after'], b.changedObservations.map((o) => [
      mdCode(o.key, true), mdCode(truncate(compactJson(o.before), MAX_CELL), true), mdCode(truncate(compactJson(o.after), MAX_CELL), true),
    ])));
  }
  return out.join('\n');
}

function cleanupSection(report: Report): string {
  const c = report.cleanup;
  if (!c) return '';
  const left = c.kept ? `kept ${c.kept} on the target (--keep-data)` : c.leftBehind.length ? `left behind ${c.leftBehind.length} (still there when read back): ${listIds(c.leftBehind)}` : 'nothing left behind';
  const unsure = c.unverifiedCount ? `, could not verify ${c.unverifiedCount}` : '';
  // records no read-back could speak for: neither gone nor left behind, with the reason
  const groups = c.unverified?.length
    ? `\n\nCould not verify (no usable read-back: they may be gone or still there):\n\n${table(['resource', 'records', 'why'], c.unverified.map((g) => [
      mdText(g.resource), String(g.ids.length || (g.values?.length ?? 0)), mdText(truncate(g.reason, MAX_CELL)),
    ]))}`
    : '';
  const retry = c.sweep ? `\n\nRemove ${c.kept ? 'them' : 'what is left'} later with (the key from \`STORE_API_KEY\`):\n\n\`\`\`sh\n${c.sweep}\n\`\`\`` : '';
  return `## Cleanup\n\nCreated ${c.created}, deleted ${c.deleted} (read back gone)${unsure}, ${left}.${groups}${retry}`;
}

function allChecksSection(report: Report): string {
  if (!report.checks.length) return '';
  const counts = countStatuses(report.checks);
  const rows = sortChecks(report.checks).map((c) => [
    `${STATUS_ICON[c.status]} ${STATUS_LABEL[c.status]}`, mdCode(c.id, true), mdText(c.title), mdText(resourceLabel(c.resource)),
    mdText(c.group), mdText(c.level), mdText(c.section),
  ]);
  return [
    '<details>',
    `<summary>All checks (${report.checks.length}: ${STATUS_SEVERITY.filter((s) => counts[s]).map((s) => `${counts[s]} ${STATUS_LABEL[s]}`).join(', ')})</summary>`,
    '',
    table(['status', 'check', 'title', 'resource', 'group', 'level', 'spec'], rows),
    '',
    '</details>',
  ].join('\n');
}

export function renderMarkdown(report: Report): string {
  return [
    header(report),
    summarySection(report),
    failuresSection(report),
    matrixSection(report),
    coverageSection(report),
    observationsSection(report),
    expectedSection(report),
    targetErrorsSection(report),
    latencySection(report),
    baselineSection(report),
    cleanupSection(report),
    allChecksSection(report),
  ].filter(Boolean).join('\n\n') + '\n';
}
