/**
 * summary.md: the run in a size a pull request or a CI job summary takes (issue 22) — the
 * verdict, the counts, coverage, what changed against the baseline, the failures by rule with
 * one example each (its message and the command that reruns it), errors, and what cleanup left.
 * Always under MAX_SUMMARY_BYTES (GitHub takes 65 536 characters in a comment and 1 MiB in a
 * step summary): a run with thousands of failures lists the rules that fit and says how many it
 * left out. Rendered from the Report alone; report.md and report.html hold everything.
 */
import { formatDuration, resourceLabel, summaryLine } from './common.js';
import { coverageLine, grouped } from './coverage.js';
import { failureGroupCount, failureGroups, type FailureGroup } from './groups.js';
import { STATUS_ICON, mdCode, mdText } from './markdown.js';
import { shortenQuoted } from './shorten.js';
import type { CheckResult, Report } from './types.js';

/** The summary never reaches this many bytes (UTF-8). */
export const MAX_SUMMARY_BYTES = 60 * 1024;
/** ids listed per baseline list before "… and N more" */
const LISTED_IDS = 10;
/** error checks shown */
const SHOWN_ERRORS = 5;
/** cut lengths of what a report holds (a foreign or hostile report.json may hold anything) */
const MAX_LINE = 300;
const MAX_ID = 160;
const MAX_COMMAND = 600;

const VERDICT_ICON = { conformant: '✅', 'non-conformant': '❌', 'no-verdict': '⚠️' } as const;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Text cut to `max` characters (whole code points) with an ellipsis. */
function cut(s: string, max: number): string {
  const points = [...s];
  return points.length <= max ? s : `${points.slice(0, max - 1).join('')}…`;
}

/** A message as one readable line: its first line, long quoted values shortened, cut. */
function readable(message: string | undefined): string {
  const first = (message ?? '').split('\n')[0];
  return cut(shortenQuoted(first).text, MAX_LINE);
}

function ids(list: readonly string[]): string {
  if (!list.length) return 'none';
  const shown = list.slice(0, LISTED_IDS).map((id) => mdCode(cut(id, MAX_ID))).join(', ');
  return list.length > LISTED_IDS ? `${shown}, … and ${list.length - LISTED_IDS} more` : shown;
}

function header(report: Report): string {
  const s = report.summary;
  const r = report.run;
  const facts = [
    mdCode(cut(report.target.baseUrl, MAX_ID)) + (report.target.embedded ? ' (embedded reference server)' : ''),
    `seed ${mdCode(r.seed)}`,
    `depth ${mdText(r.depth)}`,
    r.only ? `only ${mdCode(cut(r.only, MAX_ID))}` : '',
    r.shard ? `shard ${mdCode(r.shard)}` : '',
    r.readOnly ? 'read-only' : '',
    `${grouped(r.requestCount)} requests in ${formatDuration(r.durationMs)}`,
    `${mdText(report.tool.name)} ${mdText(report.tool.version)}`,
  ].filter(Boolean);
  const line = summaryLine(report);
  return [
    `## ${VERDICT_ICON[s.verdict] ?? ''} storecheck: ${mdText(s.verdict.toUpperCase())}`,
    '',
    facts.join(' · '),
    '',
    `> ${mdText(cut(s.reason, 2 * MAX_LINE))}`,
    '',
    `| ${line.map(([k]) => k).join(' | ')} |`,
    `| ${line.map(() => '---:').join(' | ')} |`,
    `| ${line.map(([, v]) => String(v)).join(' | ')} |`,
  ].join('\n');
}

function coverage(report: Report): string {
  const c = report.coverage;
  if (!c || c.total === 0) return '';
  return `**Coverage:** ${mdText(cut(coverageLine(c), 2 * MAX_LINE))} (${c.percent} %).`;
}

function baseline(report: Report): string {
  const b = report.baseline;
  if (!b) return '**Against a baseline:** none given (`--baseline FILE` compares with an earlier report.json).';
  const out = [
    `### Against the baseline: ${b.regression ? '❌ regression' : '✅ no regression'}`,
    '',
    `Compared with ${mdCode(cut(b.baselineFile, MAX_ID))}.`,
    '',
    `- new failures (${b.newFailures.length}): ${ids(b.newFailures)}`,
    `- fixed (${b.fixed.length}): ${ids(b.fixed)}`,
  ];
  if (b.newChecks.length || b.missingChecks.length) out.push(`- checks new (${b.newChecks.length}): ${ids(b.newChecks)}; missing (${b.missingChecks.length}): ${ids(b.missingChecks)}`);
  out.push(`- changed observations (${b.changedObservations.length})${b.changedObservations.length ? ':' : ''}`);
  for (const o of b.changedObservations.slice(0, LISTED_IDS)) {
    out.push(`  - ${mdCode(cut(o.key, MAX_ID))}: ${mdCode(cut(JSON.stringify(o.before) ?? 'undefined', 120))} → ${mdCode(cut(JSON.stringify(o.after) ?? 'undefined', 120))}`);
  }
  if (b.changedObservations.length > LISTED_IDS) out.push(`  - … and ${b.changedObservations.length - LISTED_IDS} more`);
  return out.join('\n');
}

/** One rule's failures: the headline, one example (message and rerun command), the other ids. */
function groupBlock(g: FailureGroup, isNew: ReadonlySet<string>): string {
  const [first, ...others] = g.checks;
  const fresh = g.checks.filter((c) => isNew.has(c.id)).length;
  const lines = [
    `- ${STATUS_ICON.failed} **${mdCode(cut(g.rule, MAX_ID))}** ${failureGroupCount(g)} — ${mdText(cut(g.title, MAX_LINE))} (${mdText(cut(g.section, MAX_ID))}, ${mdText(cut(g.level, MAX_ID))})${fresh ? ` · **${fresh} new since the baseline**` : ''}`,
    `  - e.g. ${mdCode(cut(first.id, MAX_ID))} (${mdText(resourceLabel(first.resource))}): ${mdText(readable(first.message))}`,
  ];
  if (first.reproducer?.command) lines.push(`  - rerun: ${mdCode(cut(first.reproducer.command, MAX_COMMAND))}`);
  if (others.length) {
    const named = others.slice(0, 3).map((c) => mdCode(cut(c.id, MAX_ID))).join(', ');
    lines.push(`  - also ${named}${others.length > 3 ? ` … (+${others.length - 3} more)` : ''}`);
  }
  return lines.join('\n');
}

function errorsBlock(errors: CheckResult[]): string {
  if (!errors.length) return '';
  const lines = [`### ${STATUS_ICON.error} Not judged: ${errors.length} check${errors.length === 1 ? '' : 's'} the target gave no usable answer to`, ''];
  for (const c of errors.slice(0, SHOWN_ERRORS)) lines.push(`- ${mdCode(cut(c.id, MAX_ID))}: ${mdText(readable(c.message))}`);
  if (errors.length > SHOWN_ERRORS) lines.push(`- … and ${errors.length - SHOWN_ERRORS} more`);
  return lines.join('\n');
}

function cleanup(report: Report): string {
  const c = report.cleanup;
  if (!c) return '';
  if (c.kept !== undefined) return `**Cleanup:** ${c.kept} record(s) kept on the target (--keep-data)${c.sweep ? `; remove them with ${mdCode(cut(c.sweep, MAX_COMMAND))}` : ''}.`;
  if (c.leftBehind.length) return `**Cleanup:** ${c.leftBehind.length} record(s) left behind on the target${c.sweep ? `; retry with ${mdCode(cut(c.sweep, MAX_COMMAND))}` : ''}.`;
  return c.created > 0 ? `**Cleanup:** every one of the ${grouped(c.created)} record(s) the run created is gone.` : '';
}

const FOOTER = '<sub>Everything else — every check, expected vs actual, evidence, reproducers, the matrix and the observations — is in report.html, report.md and report.json beside this file.</sub>';

/** summary.md: short, and under MAX_SUMMARY_BYTES whatever the report holds. */
export function renderSummary(report: Report): string {
  const groups = failureGroups(report.checks);
  const errors = report.checks.filter((c) => c.status === 'error');
  const failed = groups.reduce((n, g) => n + g.checks.length, 0);
  const head = [header(report), coverage(report), baseline(report)].filter(Boolean);
  const tail = [errorsBlock(errors), cleanup(report), FOOTER].filter(Boolean);
  // what must stay, with room for the note that says what was left out
  const reserve = 600;
  let budget = MAX_SUMMARY_BYTES - reserve - bytes(head.join('\n\n')) - bytes(tail.join('\n\n')) - 4 * 2;
  const parts = [...head];
  if (groups.length) {
    const title = `### Failures by rule (${groups.length} rule${groups.length === 1 ? '' : 's'}, ${failed} check${failed === 1 ? '' : 's'})`;
    budget -= bytes(title) + 2;
    const blocks: string[] = [];
    const isNew = new Set(report.baseline?.newFailures ?? []);
    for (const g of groups) {
      const b = groupBlock(g, isNew);
      if (bytes(b) + 1 > budget) break;
      budget -= bytes(b) + 1;
      blocks.push(b);
    }
    const left = groups.slice(blocks.length);
    if (left.length) {
      blocks.push(`- … and ${left.length} more rule${left.length === 1 ? '' : 's'} with ${left.reduce((n, g) => n + g.checks.length, 0)} failed check(s), not listed: this summary stays under ${MAX_SUMMARY_BYTES / 1024} KB for a pull request (report.md has them all)`);
    }
    parts.push(`${title}\n\n${blocks.join('\n')}`);
  }
  parts.push(...tail);
  const text = `${parts.join('\n\n')}\n`;
  // the head and tail are bounded by the cuts above; a last guard for a report beyond them
  return bytes(text) < MAX_SUMMARY_BYTES ? text : `${Buffer.from(text, 'utf8').subarray(0, MAX_SUMMARY_BYTES - 200).toString('utf8').replace(/\uFFFD$/, '')}\n\n… (cut: this summary stays under ${MAX_SUMMARY_BYTES / 1024} KB)\n`;
}
