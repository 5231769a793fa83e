/**
 * `storecheck compare A B`: two reports side by side (two targets, or one
 * target at two times). Check by check (status A vs B) and observation by
 * observation (value A vs B), differences marked; rendered as Markdown and as
 * a self-contained HTML page in the report's style.
 */
import { deepEqual } from './baseline.js';
import { STATUS_LABEL, STATUS_SEVERITY, anchorId, formatDuration, formatTimestamp, prettyJson, resourceLabel, truncate } from './common.js';
import { VERDICT_TEXT, esc, escId, legend, page, statusBadge } from './html-page.js';
import { STATUS_ICON, mdCode, mdText } from './markdown.js';
import type { CheckStatus, Report, Summary, Verdict } from './types.js';

export interface CompareSide {
  label: string;
  target: string;
  toolVersion: string;
  startedAt: string;
  seed: number;
  depth: string;
  durationMs: number;
  verdict: Verdict;
  reason: string;
  summary: Summary;
}

export interface CheckComparison {
  id: string;
  title: string;
  resource: string;
  group: string;
  section: string;
  level: string;
  /** undefined: the check is absent from that report */
  a?: CheckStatus;
  b?: CheckStatus;
  messageA?: string;
  messageB?: string;
  differs: boolean;
}

export interface ObservationComparison {
  key: string;
  /** false: absent from that report */
  inA: boolean;
  inB: boolean;
  a?: unknown;
  b?: unknown;
  differs: boolean;
}

export interface Comparison {
  a: CompareSide;
  b: CompareSide;
  checks: CheckComparison[];
  observations: ObservationComparison[];
  differingChecks: number;
  differingObservations: number;
}

function side(report: Report, label: string): CompareSide {
  return {
    label,
    target: report.target.baseUrl,
    toolVersion: report.tool.version,
    startedAt: report.run.startedAt,
    seed: report.run.seed,
    depth: report.run.depth,
    durationMs: report.run.durationMs,
    verdict: report.summary.verdict,
    reason: report.summary.reason,
    summary: report.summary,
  };
}

const rank = (s: CheckStatus | undefined) => (s ? STATUS_SEVERITY.indexOf(s) : STATUS_SEVERITY.length);

export function compareReports(a: Report, b: Report, labels: [string, string] = ['A', 'B']): Comparison {
  const byA = new Map(a.checks.map((c) => [c.id, c]));
  const byB = new Map(b.checks.map((c) => [c.id, c]));
  const ids = [...new Set([...byA.keys(), ...byB.keys()])];
  const checks: CheckComparison[] = ids.map((id) => {
    const ca = byA.get(id);
    const cb = byB.get(id);
    const any = (cb ?? ca)!;
    const row: CheckComparison = {
      id,
      title: any.title,
      resource: any.resource,
      group: any.group,
      section: any.section,
      level: any.level,
      differs: ca?.status !== cb?.status,
    };
    if (ca) row.a = ca.status;
    if (cb) row.b = cb.status;
    if (ca?.message) row.messageA = ca.message;
    if (cb?.message) row.messageB = cb.message;
    return row;
  });
  // differing first, then the worse of the two statuses, then place
  checks.sort((x, y) =>
    Number(y.differs) - Number(x.differs)
    || Math.min(rank(x.a), rank(x.b)) - Math.min(rank(y.a), rank(y.b))
    || x.resource.localeCompare(y.resource) || x.group.localeCompare(y.group) || x.id.localeCompare(y.id));

  const oa = a.observations ?? {};
  const ob = b.observations ?? {};
  const keys = [...new Set([...Object.keys(oa), ...Object.keys(ob)])].sort();
  const observations: ObservationComparison[] = keys.map((key) => {
    const inA = Object.prototype.hasOwnProperty.call(oa, key);
    const inB = Object.prototype.hasOwnProperty.call(ob, key);
    const row: ObservationComparison = { key, inA, inB, differs: inA !== inB || !deepEqual(oa[key]?.value, ob[key]?.value) };
    if (inA) row.a = oa[key]?.value;
    if (inB) row.b = ob[key]?.value;
    return row;
  });
  observations.sort((x, y) => Number(y.differs) - Number(x.differs) || x.key.localeCompare(y.key));

  return {
    a: side(a, labels[0]),
    b: side(b, labels[1]),
    checks,
    observations,
    differingChecks: checks.filter((c) => c.differs).length,
    differingObservations: observations.filter((o) => o.differs).length,
  };
}

// ---------------------------------------------------------------- Markdown

function valueText(present: boolean, v: unknown): string {
  if (!present) return '(absent)';
  return typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
}

function mdStatus(s: CheckStatus | undefined): string {
  return s ? `${STATUS_ICON[s]} ${STATUS_LABEL[s]}` : '(absent)';
}

export function renderCompareMarkdown(cmp: Comparison): string {
  const { a, b } = cmp;
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const la = mdText(a.label);
  const lb = mdText(b.label);
  const out: string[] = [
    `# storecheck compare: ${la} vs ${lb}`,
    '',
    line(['', la, lb]),
    line(['---', '---', '---']),
    line(['Target', mdCode(a.target, true), mdCode(b.target, true)]),
    line(['Verdict', `**${mdText(a.verdict)}**`, `**${mdText(b.verdict)}**`]),
    line(['Reason', mdText(a.reason), mdText(b.reason)]),
    line(['Tool', mdText(a.toolVersion), mdText(b.toolVersion)]),
    line(['Started', mdText(formatTimestamp(a.startedAt)), mdText(formatTimestamp(b.startedAt))]),
    line(['Seed / depth', `${mdCode(a.seed, true)} / ${mdText(a.depth)}`, `${mdCode(b.seed, true)} / ${mdText(b.depth)}`]),
    line(['Duration', mdText(formatDuration(a.durationMs)), mdText(formatDuration(b.durationMs))]),
    line(['Passed / failed / errors', `${a.summary.passed} / ${a.summary.failed} / ${a.summary.errors}`, `${b.summary.passed} / ${b.summary.failed} / ${b.summary.errors}`]),
    '',
    `**${cmp.differingChecks}** of ${cmp.checks.length} checks and **${cmp.differingObservations}** of ${cmp.observations.length} observations differ. Differing rows are marked ≠ and listed first.`,
    '',
    `## Checks (${cmp.differingChecks} differ)`,
    '',
  ];
  const checkHead = [line(['', 'check', 'resource', 'group', 'spec', la, lb]), line(['---', '---', '---', '---', '---', '---', '---'])];
  const checkRow = (c: CheckComparison) =>
    line([c.differs ? '≠' : '', mdCode(c.id, true), mdText(resourceLabel(c.resource)), mdText(c.group), mdText(c.section), mdStatus(c.a), mdStatus(c.b)]);
  const differing = cmp.checks.filter((c) => c.differs);
  const same = cmp.checks.filter((c) => !c.differs);
  if (!cmp.checks.length) out.push('No checks in either report.');
  else if (!differing.length) out.push('Every check has the same status in both reports.');
  else out.push(...checkHead, ...differing.map(checkRow));
  if (same.length) {
    out.push('', '<details>', `<summary>${same.length} check${same.length === 1 ? '' : 's'} with the same status in both</summary>`, '', ...checkHead, ...same.map(checkRow), '', '</details>');
  }
  out.push('', `## Observations (${cmp.differingObservations} differ)`, '');
  if (cmp.observations.length) {
    out.push(line(['', 'key', la, lb]), line(['---', '---', '---', '---']));
    for (const o of cmp.observations) {
      out.push(line([o.differs ? '≠' : '', mdCode(o.key, true), mdCode(truncate(valueText(o.inA, o.a), 200), true), mdCode(truncate(valueText(o.inB, o.b), 200), true)]));
    }
  } else {
    out.push('No observations in either report.');
  }
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------- HTML

function htmlValue(present: boolean, v: unknown): string {
  if (!present) return '<span class="muted">(absent)</span>';
  const text = typeof v === 'string' ? JSON.stringify(v) : prettyJson(v);
  return text.length <= 120 && !text.includes('\n') ? `<code>${esc(text)}</code>` : `<pre>${esc(truncate(text, 4000))}</pre>`;
}

export function renderCompareHtml(cmp: Comparison): string {
  const { a, b } = cmp;
  const sideHead = (s: CompareSide) => `<div class="card s-${esc(s.verdict === 'conformant' ? 'passed' : s.verdict === 'non-conformant' ? 'failed' : 'expected-fail')}">
<h3>${esc(s.label)}: ${esc(VERDICT_TEXT[s.verdict] ?? s.verdict)}</h3>
<p class="reason">${esc(s.reason)}</p>
<dl class="meta">
<div class="wide"><dt>Target</dt><dd class="mono">${esc(s.target)}</dd></div>
<div><dt>Tool</dt><dd>${esc(s.toolVersion)}</dd></div>
<div><dt>Started</dt><dd>${esc(formatTimestamp(s.startedAt))}</dd></div>
<div><dt>Seed</dt><dd class="mono">${esc(s.seed)}</dd></div>
<div><dt>Depth</dt><dd>${esc(s.depth)}</dd></div>
<div><dt>Duration</dt><dd>${esc(formatDuration(s.durationMs))}</dd></div>
<div class="wide"><dt>Counts</dt><dd>${esc(`${s.summary.passed} passed, ${s.summary.failed} failed, ${s.summary.errors} error${s.summary.errors === 1 ? '' : 's'}, ${s.summary.skipped} skipped`)}</dd></div>
</dl>
</div>`;
  const verdictClass = a.verdict === b.verdict ? `v-${a.verdict}` : 'v-no-verdict';
  const checkRow = (c: CheckComparison) => `<tr id="${anchorId('c', c.id)}" class="${c.differs ? 'differs' : ''}"><td class="mark">${c.differs ? '≠' : ''}</td><td class="id"><code>${escId(c.id)}</code><div class="muted">${esc(c.title)}</div></td><td>${esc(resourceLabel(c.resource))}</td><td>${esc(c.group)}</td><td>${esc(c.section)}</td><td>${statusBadge(c.a)}${c.messageA && c.differs ? `<div class="muted">${esc(truncate(c.messageA, 300))}</div>` : ''}</td><td>${statusBadge(c.b)}${c.messageB && c.differs ? `<div class="muted">${esc(truncate(c.messageB, 300))}</div>` : ''}</td></tr>`;
  const checkTable = (rows: CheckComparison[]) => `<table class="checks"><thead><tr><th></th><th>check</th><th>resource</th><th>group</th><th>spec</th><th>${esc(a.label)}</th><th>${esc(b.label)}</th></tr></thead>
<tbody>
${rows.map(checkRow).join('\n')}
</tbody></table>`;
  const differing = cmp.checks.filter((c) => c.differs);
  const same = cmp.checks.filter((c) => !c.differs);
  const checksHtml = [
    !cmp.checks.length ? '<p>No checks in either report.</p>' : differing.length ? checkTable(differing) : '<p class="ok">Every check has the same status in both reports.</p>',
    same.length ? `<details${differing.length ? '' : ' open'}><summary>${same.length} check${same.length === 1 ? '' : 's'} with the same status in both</summary>\n${checkTable(same)}\n</details>` : '',
  ].join('\n');
  const obsRows = cmp.observations.map((o) => `<tr class="${o.differs ? 'differs' : ''}"><td class="mark">${o.differs ? '≠' : ''}</td><td class="id"><code>${esc(o.key)}</code></td><td>${htmlValue(o.inA, o.a)}</td><td>${htmlValue(o.inB, o.b)}</td></tr>`).join('\n');
  const body = `<main>
<header class="banner ${esc(verdictClass)}" id="summary" data-verdict-a="${esc(a.verdict)}" data-verdict-b="${esc(b.verdict)}">
<h1>storecheck compare: ${esc(a.label)} vs ${esc(b.label)}</h1>
<div class="verdict">${esc(VERDICT_TEXT[a.verdict] ?? a.verdict)} / ${esc(VERDICT_TEXT[b.verdict] ?? b.verdict)}</div>
<p class="reason">${esc(`${cmp.differingChecks} of ${cmp.checks.length} checks and ${cmp.differingObservations} of ${cmp.observations.length} observations differ.`)}</p>
</header>
<nav class="toc"><a href="#sides">Runs</a><a href="#compare-checks">Checks (${cmp.differingChecks} differ)</a><a href="#compare-observations">Observations (${cmp.differingObservations} differ)</a></nav>
<section id="sides"><h2>Runs</h2><div class="side">${sideHead(a)}${sideHead(b)}</div></section>
<section id="compare-checks">
<h2>Checks</h2>
<p class="help">Checks whose status differs between the two runs are marked ≠ and listed first; the rest are folded below.</p>
${legend()}
${checksHtml}
</section>
<section id="compare-observations">
<h2>Observations</h2>
${cmp.observations.length ? `<table><thead><tr><th></th><th>key</th><th>${esc(a.label)}</th><th>${esc(b.label)}</th></tr></thead>
<tbody>
${obsRows}
</tbody></table>` : '<p>No observations in either report.</p>'}
</section>
<footer><p>Generated by storecheck compare from two report.json files.</p></footer>
</main>`;
  return page(`storecheck compare: ${a.label} vs ${b.label}`, body);
}
