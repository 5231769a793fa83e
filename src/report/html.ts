/**
 * report.html: one self-contained page for a vendor's QA lead. Inline CSS, a
 * small inline script (filtering the check list; allowed by hash under a CSP
 * that forbids every fetch), no external URL. Everything from the report is
 * escaped: ids, messages, bodies and observed values may come from a hostile
 * target.
 *
 * Element ids other tools rely on (scripts/render-check.ts):
 *   #summary (with data-verdict), #matrix, #legend, #observations, #failures, #checks, #checks-table
 *
 * Failures come right after the banner, grouped by the rule they break (one
 * <details> per rule, the largest group first), before the matrix, coverage and
 * observations. The groups open and close without script; the script only opens
 * the group holding a linked failure (#f-…) when the browser does not.
 *
 * The matrices (resources × rule groups, coverage) sit in a box of their own that scrolls sideways
 * when the page is narrower than they are, the resource column fixed (sticky). A reproducer's
 * command and curl each have a copy button (shown by the inline script; without it, a click selects
 * the whole text). Long generated strings in messages and expected/actual values are shortened to
 * their first and last characters and their length (src/report/shorten.ts), the full value in a
 * <details> right below.
 */
import {
  coverageCellText, coverageGrid, STATUS_LABEL, STATUS_SEVERITY, anchorId, buildMatrix, checksByPlace, countStatuses, exchangeText,
  formatDuration, formatTimestamp, prettyJson, resourceLabel, sortChecks, summaryLine, truncate,
} from './common.js';
import { coverageLine } from './coverage.js';
import { slotsText } from './slots.js';
import { requestsText } from './throughput.js';
import { failureGroupCount, failureGroups, type FailureGroup } from './groups.js';
import { VERDICT_TEXT, esc, escId, legend, page, statusBadge } from './html-page.js';
import { shortJson, shortenQuoted } from './shorten.js';
import type { CheckResult, CheckStatus, HttpExchange, Level, Report } from './types.js';
import { formatMs, LATENCY_HEAD, latencyRows } from './latency-view.js';

const MAX_VALUE = 8000;
const MAX_BODY = 4000;
const MAX_EXCHANGES = 3;
const MAX_INLINE_VALUE = 120;
/** above this many failures, evidence starts collapsed */
const OPEN_EVIDENCE_UP_TO = 10;

const FILTER_SCRIPT = `(function(){
var f=document.getElementById('check-filters');if(!f)return;
var rows=[].slice.call(document.querySelectorAll('#checks-table tbody tr'));
var keys=['status','level','resource','group'];
function el(n){return f.querySelector('[name="'+n+'"]');}
function apply(){var q=el('q').value.toLowerCase(),n=0;
rows.forEach(function(r){var ok=keys.every(function(k){var v=el(k).value;return !v||r.getAttribute('data-'+k)===v;})&&(!q||r.textContent.toLowerCase().indexOf(q)>=0);
r.classList.toggle('hidden',!ok);if(ok)n++;});
document.getElementById('check-count').textContent=n+' of '+rows.length+' checks shown';}
f.addEventListener('submit',function(e){e.preventDefault();});f.addEventListener('input',apply);f.addEventListener('change',apply);
f.addEventListener('reset',function(){setTimeout(apply,0);});
[].forEach.call(document.querySelectorAll('#matrix a[data-resource]'),function(a){a.addEventListener('click',function(){
keys.forEach(function(k){el(k).value='';});el('q').value='';
el('resource').value=a.getAttribute('data-resource');el('group').value=a.getAttribute('data-group');apply();});});
apply();})();
(function(){function reveal(){var t=location.hash&&document.getElementById(location.hash.slice(1));if(!t)return;
var hidden=false;for(var e=t.parentElement;e;e=e.parentElement)if(e.tagName==='DETAILS'&&!e.open){e.open=true;hidden=true;}
if(hidden)t.scrollIntoView();}
window.addEventListener('hashchange',reveal);reveal();})();
(function(){function select(pre){var r=document.createRange();r.selectNodeContents(pre);var s=getSelection();s.removeAllRanges();s.addRange(r);
try{return document.execCommand('copy');}catch(e){return false;}}
[].forEach.call(document.querySelectorAll('button.copy-btn'),function(b){var label=b.textContent;b.hidden=false;
b.addEventListener('click',function(){var pre=b.parentElement.querySelector('pre');
function said(t){b.textContent=t;setTimeout(function(){b.textContent=label;},2000);}
function fallback(){said(select(pre)?'copied':'selected: press Ctrl+C');}
var c=navigator.clipboard;if(!c||!c.writeText)return fallback();
c.writeText(pre.textContent).then(function(){said('copied');},fallback);});});})();`;

// ---------------------------------------------------------------- pieces

function inlineValue(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : prettyJson(value);
  if (text.length <= MAX_INLINE_VALUE && !text.includes('\n')) return `<code>${esc(text)}</code>`;
  return `<pre>${esc(truncate(text, MAX_VALUE))}</pre>`;
}

function exchangesHtml(evidence: readonly HttpExchange[] | undefined, open: boolean, label = 'Evidence'): string {
  if (!evidence?.length) return '';
  const shown = evidence.slice(0, MAX_EXCHANGES);
  const count = evidence.length > MAX_EXCHANGES
    ? `${MAX_EXCHANGES} of ${evidence.length} exchanges (all in report.json)`
    : `${evidence.length} exchange${evidence.length === 1 ? '' : 's'}`;
  const body = shown.map((x, i) => {
    const t = exchangeText(x, MAX_BODY);
    return `<div class="side">
<div><h4>Request${shown.length > 1 ? ` ${i + 1}` : ''}</h4><pre>${esc(t.request)}</pre></div>
<div><h4>Response</h4><pre>${esc(t.response)}</pre></div>
</div>`;
  }).join('\n');
  return `<details${open ? ' open' : ''}><summary>${esc(label)}: ${esc(count)}</summary>\n${body}\n</details>`;
}

/** A check's message, long quoted values shortened; the whole message one click away when any was. */
function messageHtml(message: string): string {
  const text = truncate(message, 4000);
  const short = shortenQuoted(text);
  if (!short.shortened) return `<p class="msg">${esc(text)}</p>`;
  return `<div class="msg">${short.html}</div>
<details class="full"><summary>the message in full (${short.shortened} long value${short.shortened === 1 ? '' : 's'} shortened above)</summary><pre>${esc(text)}</pre></details>`;
}

/** An expected or actual value as JSON, long strings shortened; the full value one click away when any was. */
function valueHtml(value: unknown): string {
  const short = shortJson(value, MAX_VALUE);
  if (!short.shortened) return `<pre>${esc(truncate(prettyJson(value), MAX_VALUE))}</pre>`;
  return `<pre>${short.html}</pre>
<details class="full"><summary>in full (${short.shortened} long string${short.shortened === 1 ? '' : 's'} shortened above)</summary><pre>${esc(truncate(prettyJson(value), MAX_VALUE))}</pre></details>`;
}

/** A command or curl snippet with its copy button (hidden until the inline script shows it). */
function copyable(text: string, what: string): string {
  return `<div class="copyable"><button type="button" class="copy-btn" aria-label="copy the ${esc(what)}" hidden>copy</button><pre class="copy" title="select to copy">${esc(text)}</pre></div>`;
}

function reproducerHtml(c: CheckResult): string {
  const r = c.reproducer;
  if (!r) return '';
  const parts: string[] = ['<h4>Reproduce</h4>'];
  if (r.curl) parts.push(copyable(r.curl, 'curl command'));
  const replay = [
    r.seed !== undefined ? `seed <code>${esc(r.seed)}</code>` : '',
    r.path !== undefined ? `path <code>${esc(r.path)}</code>` : '',
  ].filter(Boolean).join(', ');
  if (replay) parts.push(`<p>Property replay: ${replay}</p>`);
  if (r.command) parts.push(copyable(r.command, 'command'));
  return parts.join('\n');
}

function whereLine(c: CheckResult): string {
  return `<div class="where">Spec <span class="spec">${esc(c.section)}</span> · level <b>${esc(c.level)}</b> · resource <b>${esc(resourceLabel(c.resource))}</b> · group <b>${esc(c.group)}</b> · rule <code>${esc(c.rule)}</code></div>`;
}

function checkCard(c: CheckResult, openEvidence: boolean, isNew = false): string {
  const hasValues = c.expected !== undefined || c.actual !== undefined;
  return `<article class="card s-${esc(c.status)}" id="${anchorId('f', c.id)}">
<h3>${statusBadge(c.status)}${isNew ? ' <span class="badge new" title="failed in this run, not in the baseline">new since the baseline</span>' : ''} <code>${esc(c.id)}</code>: ${esc(c.title)}</h3>
${whereLine(c)}
${c.message ? messageHtml(c.message) : ''}
${c.reason ? `<p>Reason: ${esc(c.reason)}</p>` : ''}
${hasValues ? `<div class="side">
<div><h4>Expected</h4>${valueHtml(c.expected)}</div>
<div><h4>Actual</h4>${valueHtml(c.actual)}</div>
</div>` : ''}
${exchangesHtml(c.evidence, openEvidence)}
${reproducerHtml(c)}
<p class="muted"><a href="#${anchorId('c', c.id)}">in the list of all checks</a></p>
</article>`;
}

// ---------------------------------------------------------------- sections

function banner(report: Report): string {
  const s = report.summary;
  const r = report.run;
  const slots = slotsText(r.slots, r.concurrency);
  const mode = [
    r.readOnly ? 'read-only' : 'read-write',
    `concurrency ${r.concurrency}`,
    r.only ? `only ${r.only}` : '',
    r.shard ? `shard ${r.shard}` : '',
  ].filter(Boolean).join(', ');
  const meta: Array<[string, string, boolean?]> = [
    ['Target', `<span class="mono">${esc(report.target.baseUrl)}</span>${report.target.embedded ? ' <span class="muted">(embedded reference)</span>' : ''}`, true],
    ['Tool', `${esc(report.tool.name)} ${esc(report.tool.version)}`],
    ['Seed', `<span class="mono">${esc(r.seed)}</span>`],
    ['Depth', esc(r.depth)],
    ['Started', esc(formatTimestamp(r.startedAt))],
    ['Duration', esc(formatDuration(r.durationMs))],
    ['Requests', esc(requestsText(r))],
    ...(slots ? [['Slots', esc(slots)] as [string, string]] : []),
    ['Run tag', `<span class="mono">${esc(r.runTag)}</span>`],
    ['Mode', esc(mode)],
  ];
  const countClass: Record<string, string> = {
    passed: 's-passed', failed: 's-failed', errors: 's-error', 'expected fail': 's-expected-fail',
    'unexpected pass': 's-unexpected-pass', skipped: 's-skipped',
  };
  const counts = summaryLine(report).map(([k, v]) =>
    `<span class="count ${v === 0 && k !== 'total' ? 'zero' : countClass[k] ?? ''}"><b>${esc(v)}</b>${esc(v === 1 && k === 'errors' ? 'error' : k)}</span>`).join('');
  return `<header class="banner v-${esc(s.verdict)}" id="summary" data-verdict="${esc(s.verdict)}">
<h1>storecheck report: Online Store Administration API conformance</h1>
<div class="verdict">${esc(VERDICT_TEXT[s.verdict] ?? s.verdict)}</div>
<p class="reason">${esc(s.reason)}</p>
<dl class="meta">${meta.map(([k, v, wide]) => `<div${wide ? ' class="wide"' : ''}><dt>${esc(k)}</dt><dd>${v}</dd></div>`).join('')}</dl>
<div class="counts">${counts}</div>
</header>`;
}

function toc(report: Report): string {
  const failed = report.checks.filter((c) => c.status === 'failed').length;
  const rules = new Set(report.checks.filter((c) => c.status === 'failed').map((c) => c.rule)).size;
  const errors = report.checks.filter((c) => c.status === 'error').length;
  const links: Array<[string, string]> = [['failures', `Failures (${failed}${rules > 1 ? ` in ${rules} rules` : ''})`]];
  if (errors) links.push(['errors', `Errors (${errors})`]);
  links.push(
    ['matrix', 'Matrix'],
    ...(report.coverage?.total ? [['coverage', `Coverage (${report.coverage.percent} %)`] as [string, string]] : []),
    ['observations', `Observations (${Object.keys(report.observations ?? {}).length})`],
  );
  if (report.checks.some((c) => c.status === 'expected-fail' || c.status === 'unexpected-pass') || report.expectations) links.push(['expected', 'Expected failures']);
  if (report.targetErrors?.length) links.push(['target-errors', 'Target errors']);
  if (report.latency) links.push(['latency', 'Latency']);
  if (report.baseline) links.push(['baseline', report.baseline.regression ? 'Baseline: regression' : 'Baseline']);
  links.push(['checks', `All checks (${report.checks.length})`]);
  if (report.cleanup) links.push(['cleanup', cleanupLink(report.cleanup)]);
  return `<nav class="toc">${links.map(([id, t]) => `<a href="#${id}">${esc(t)}</a>`).join('')}</nav>`;
}

/**
 * A cell's counts ("25 failed", "1 unexpected pass"): the cell wraps between them, and inside one
 * only after its first word ("1 unexpected" / "pass"), so the matrix stays narrow enough to fit.
 */
function countsHtml(parts: string[], separator: string): string {
  return parts.map((p) => `<span class="c">${esc(p).replace(' ', '&nbsp;')}</span>`).join(esc(separator));
}

/**
 * A matrix in a box of its own: it scrolls sideways when the page is narrower than the table (the
 * resource column stays, sticky), so the page itself never does; focusable, so keys scroll it.
 */
function matrixBox(label: string, table: string): string {
  return `<div class="matrix-box" role="region" aria-label="${esc(label)}" tabindex="0">\n${table}\n</div>`;
}

function matrixSection(report: Report): string {
  const m = buildMatrix(report.checks);
  const ordered = checksByPlace(report.checks);
  const firstRow = new Map<string, string>();
  for (const c of ordered) {
    const k = JSON.stringify([c.resource, c.group]);
    if (!firstRow.has(k)) firstRow.set(k, anchorId('c', c.id));
  }
  const head = `<tr><th class="res">resource</th>${m.groups.map((g) => `<th>${esc(g)}</th>`).join('')}</tr>`;
  const rows = m.resources.map((res) => {
    const cells = m.groups.map((g) => {
      const cell = m.cell(res, g);
      if (!cell) return '<td class="empty" title="no checks">·</td>';
      const parts = STATUS_SEVERITY.filter((s) => cell.counts[s] > 0).map((s) => `${cell.counts[s]} ${STATUS_LABEL[s]}`);
      const title = `${resourceLabel(res)} × ${g}: ${parts.join(', ')}`;
      return `<td class="s-${esc(cell.worst)}"><a href="#${firstRow.get(JSON.stringify([res, g]))}" data-resource="${esc(res)}" data-group="${esc(g)}" title="${esc(title)}"><span class="w">${esc(STATUS_LABEL[cell.worst])}</span><span class="n">${countsHtml(parts, ' · ')}</span></a></td>`;
    }).join('');
    return `<tr><th class="res">${esc(resourceLabel(res))}</th>${cells}</tr>`;
  }).join('\n');
  return `<section id="matrix">
<h2>Resources × rule groups</h2>
<p class="help">Each cell shows the worst status of its checks (failed, then error, expected fail, unexpected pass, passed, skipped) and the count per status. Click a cell to list its checks.</p>
${legend()}
${report.checks.length ? matrixBox('resources × rule groups', `<table class="matrix">\n<thead>${head}</thead>\n<tbody>\n${rows}\n</tbody>\n</table>`) : '<p>No checks ran.</p>'}
</section>`;
}

function coverageSection(report: Report): string {
  const c = report.coverage;
  if (!c || c.total === 0) return '';
  const g = coverageGrid(c);
  const head = `<tr><th class="res">resource</th>${g.kinds.map((k) => `<th>${esc(k)}</th>`).join('')}</tr>`;
  const rows = g.resources.map((res) => {
    const cells = g.kinds.map((k) => {
      const x = g.cell(res, k);
      if (!x) return '<td class="empty" title="no items">·</td>';
      const status = x.failed ? 'failed' : x.judged < x.total ? 'skipped' : 'passed';
      const title = `${resourceLabel(res)} × ${k}: ${x.judged} of ${x.total} items judged${x.failed ? `, ${x.failed} failed` : ''}`;
      return `<td class="s-${status}" title="${esc(title)}"><span class="n">${countsHtml(coverageCellText(x).split(', '), ', ')}</span></td>`;
    }).join('');
    return `<tr><th class="res">${esc(resourceLabel(res))}</th>${cells}</tr>`;
  }).join('\n');
  const reasons = c.reasons.length
    ? `<h3>Not judged, by reason</h3>\n<ul>${c.reasons.map((r) => `<li>${r.count} × ${esc(r.reason)}: ${r.items.map((id) => `<code>${esc(id)}</code>`).join(', ')}${r.count > r.items.length ? ` (+${r.count - r.items.length})` : ''}</li>`).join('')}</ul>`
    : '';
  return `<section id="coverage">
<h2>Coverage: ${esc(String(c.percent))} % of spec items judged</h2>
<p>${esc(coverageLine(c))}.</p>
<p class="help">Spec items per resource × item kind: judged / total. Green: every item judged; grey: some not judged (reasons below); red: some failed.</p>
${matrixBox('coverage: resources × item kinds', `<table class="matrix">
<thead>${head}</thead>
<tbody>
${rows}
</tbody>
</table>`)}
${reasons}
</section>`;
}

function observationsSection(report: Report): string {
  const keys = Object.keys(report.observations ?? {}).sort();
  const rows = keys.map((k) => {
    const o = report.observations[k];
    return `<tr id="${anchorId('o', k)}"><td class="id"><code>${escId(k)}</code></td><td>${inlineValue(o?.value)}</td><td>${esc(o?.detail ?? '')}${exchangesHtml(o?.evidence, false)}</td></tr>`;
  }).join('\n');
  return `<section id="observations">
<h2>Observations</h2>
<p class="help">What the target does where the spec says “not shown”. Observations are recorded, not judged; with a baseline, a changed value is flagged.</p>
${keys.length ? `<table class="observations"><thead><tr><th>key</th><th>value</th><th>how it was found</th></tr></thead>\n<tbody>\n${rows}\n</tbody></table>` : '<p>None recorded.</p>'}
</section>`;
}

/** One rule's failures: a <details> whose summary is the headline, opening to the checks' cards. */
function groupHtml(g: FailureGroup, open: boolean, openEvidence: boolean, isNew: ReadonlySet<string>): string {
  const perResource = new Map<string, number>();
  for (const c of g.checks) perResource.set(c.resource, (perResource.get(c.resource) ?? 0) + 1);
  const fresh = g.checks.filter((c) => isNew.has(c.id)).length;
  return `<details class="group" id="${anchorId('g', g.rule)}"${open ? ' open' : ''}>
<summary><span class="badge s-failed">failed</span> <code class="rule">${escId(g.rule)}</code> <b class="n">${esc(failureGroupCount(g))}</b> — <span class="title">${esc(g.title)}</span> <span class="spec">(${esc(g.section)})</span>${fresh ? ` <span class="badge new">${esc(fresh)} new since the baseline</span>` : ''}</summary>
<p class="where">Level <b>${esc(g.level)}</b> · resources: ${g.resources.map((r) => `<b>${esc(resourceLabel(r))}</b> (${esc(perResource.get(r))})`).join(', ')}</p>
${g.checks.map((c) => checkCard(c, openEvidence, isNew.has(c.id))).join('\n')}
</details>`;
}

function failuresSection(report: Report): string {
  const groups = failureGroups(report.checks);
  const failed = groups.reduce((n, g) => n + g.checks.length, 0);
  const errors = sortChecks(report.checks.filter((c) => c.status === 'error'));
  const open = failed + errors.length <= OPEN_EVIDENCE_UP_TO;
  const isNew = new Set(report.baseline?.newFailures ?? []);
  let html = `<section id="failures">
<h2>Failures (${failed})</h2>
${groups.length ? `<p class="help">${groups.length === 1 ? 'One rule' : `${groups.length} rules`} broken. Failures are grouped by the rule they break, the largest group first; open a group for its checks: what the spec section requires (expected), what the target did (actual), the exchanges that show it, and how to reproduce it.</p>` : '<p>No check failed.</p>'}
${groups.map((g) => groupHtml(g, open || groups.length === 1, open, isNew)).join('\n')}
</section>`;
  if (errors.length) {
    html += `\n<section id="errors">
<h2>Errors (${errors.length})</h2>
<p class="help">Checks the target could not be judged on (transport failures, 5xx). They prevent a verdict but are not non-conformance.</p>
${errors.map((c) => checkCard(c, open)).join('\n')}
</section>`;
  }
  return html;
}

function expectedSection(report: Report): string {
  const rows = sortChecks(report.checks.filter((c) => c.status === 'expected-fail' || c.status === 'unexpected-pass'));
  const ex = report.expectations;
  if (!rows.length && !ex) return '';
  const parts: string[] = ['<section id="expected">', '<h2>Expected failures and unexpected passes</h2>'];
  if (ex) {
    parts.push(`<p>Expectations file <code>${esc(ex.file)}</code>: ${esc(ex.applied)} applied, ${esc(ex.stale.length)} stale${ex.expired?.length ? `, ${esc(ex.expired.length)} expired` : ''}.</p>`);
  }
  if (rows.length) {
    parts.push(`<table><thead><tr><th>status</th><th>check</th><th>spec</th><th>reason</th><th>message</th></tr></thead><tbody>
${rows.map((c) => `<tr><td>${statusBadge(c.status)}</td><td class="id"><a href="#${anchorId('c', c.id)}"><code>${escId(c.id)}</code></a></td><td>${esc(c.section)}</td><td>${esc(c.reason ?? '')}</td><td>${esc(truncate(c.message ?? '', 400))}</td></tr>`).join('\n')}
</tbody></table>`);
  }
  if (ex?.stale.length) {
    parts.push(`<h3>Stale entries (match no check; remove them)</h3><ul>${ex.stale.map((e) => `<li><code>${esc(e.id)}</code>: ${esc(e.reason)}</li>`).join('')}</ul>`);
  }
  if (ex?.expired?.length) {
    parts.push(`<h3>Expired entries (past their “until”, no longer applied)</h3><ul>${ex.expired.map((e) => `<li><code>${esc(e.id)}</code> (until ${esc(e.until)}): ${esc(e.reason)}</li>`).join('')}</ul>`);
  }
  parts.push('</section>');
  return parts.join('\n');
}

function targetErrorsSection(report: Report): string {
  if (!report.targetErrors?.length) return '';
  const samples = report.targetErrors.some((e) => e.sample);
  return `<section id="target-errors">
<h2>Target errors</h2>
<p class="help">Requests that got no usable answer (connection failures, timeouts, 5xx), grouped by message.</p>
<table><thead><tr><th>message</th><th>count</th>${samples ? '<th>sample</th>' : ''}</tr></thead><tbody>
${report.targetErrors.map((e) => `<tr><td>${esc(truncate(e.message, 600))}</td><td>${esc(e.count)}</td>${samples ? `<td>${e.sample ? exchangesHtml([e.sample], false, 'Sample') : ''}</td>` : ''}</tr>`).join('\n')}
</tbody></table>
</section>`;
}

function latencySection(report: Report): string {
  const l = report.latency;
  if (!l) return '';
  const rows = (rs: string[][], code: boolean) => rs.map(([k, ...cells]) => `<tr><td>${code ? `<code>${esc(k)}</code>` : esc(k)}</td>${cells.map((c) => `<td class="num">${esc(c)}</td>`).join('')}</tr>`).join('\n');
  const head = (first: string, more: string[]) => `<thead><tr><th>${first}</th>${more.map((h) => `<th>${h}</th>`).join('')}</tr></thead>`;
  return `<section id="latency">
<h2>Latency</h2>
<p class="help">How long the target took to answer: each answered request, from sending to the whole answer read (cleanup apart).</p>
<table>${head('operation', LATENCY_HEAD)}<tbody>
${rows(latencyRows(l.byOperation), false)}
</tbody></table>
<h3>Slowest checks</h3>
<table>${head('check', ['duration'])}<tbody>
${l.slowestChecks.map((c) => `<tr><td><a href="#${anchorId('c', c.id)}"><code>${esc(c.id)}</code></a></td><td class="num">${esc(formatMs(c.durationMs))}</td></tr>`).join('\n')}
</tbody></table>
<details><summary>Per endpoint</summary>
<table>${head('endpoint', LATENCY_HEAD)}<tbody>
${rows(latencyRows(l.byEndpoint), true)}
</tbody></table>
</details>
</section>`;
}

function idList(ids: readonly string[], link: boolean): string {
  if (!ids.length) return '<span class="muted">none</span>';
  return ids.map((id) => (link ? `<a href="#${anchorId('c', id)}"><code>${esc(id)}</code></a>` : `<code>${esc(id)}</code>`)).join(', ');
}

function baselineSection(report: Report): string {
  const b = report.baseline;
  if (!b) return '';
  const obs = b.changedObservations.length
    ? `<table><thead><tr><th>observation</th><th>before</th><th>after</th></tr></thead><tbody>
${b.changedObservations.map((o) => `<tr><td class="id"><code>${esc(o.key)}</code></td><td>${inlineValue(o.before)}</td><td>${inlineValue(o.after)}</td></tr>`).join('\n')}
</tbody></table>`
    : '<p class="muted">No observation changed.</p>';
  return `<section id="baseline">
<h2>Baseline</h2>
<p>Compared with <code>${esc(b.baselineFile)}</code>: ${b.regression ? '<span class="bad">regression</span>' : '<span class="ok">no regression</span>'}.</p>
<table class="kv"><tbody>
<tr><th>New failures (${b.newFailures.length})</th><td>${idList(b.newFailures, true)}</td></tr>
<tr><th>Fixed (${b.fixed.length})</th><td>${idList(b.fixed, true)}</td></tr>
<tr><th>New checks (${b.newChecks.length})</th><td>${idList(b.newChecks, true)}</td></tr>
<tr><th>Missing checks (${b.missingChecks.length})</th><td>${idList(b.missingChecks, false)}</td></tr>
</tbody></table>
<h3>Changed observations (${b.changedObservations.length})</h3>
${obs}
</section>`;
}

function options(values: Array<[string, string]>): string {
  return `<option value="">all</option>${values.map(([v, t]) => `<option value="${esc(v)}">${esc(t)}</option>`).join('')}`;
}

function checksSection(report: Report): string {
  const checks = checksByPlace(report.checks);
  const m = buildMatrix(report.checks);
  const counts = countStatuses(report.checks);
  const levels: Level[] = ['must', 'quirk', 'observe'];
  const statusOpts = STATUS_SEVERITY.filter((s) => counts[s] > 0).map((s): [string, string] => [s, `${STATUS_LABEL[s]} (${counts[s]})`]);
  const rows = checks.map((c) => {
    const idCell = c.status === 'failed' || c.status === 'error'
      ? `<a href="#${anchorId('f', c.id)}"><code>${escId(c.id)}</code></a>`
      : `<code>${escId(c.id)}</code>`;
    const note = c.message ?? c.reason ?? '';
    return `<tr id="${anchorId('c', c.id)}" data-status="${esc(c.status)}" data-level="${esc(c.level)}" data-resource="${esc(c.resource)}" data-group="${esc(c.group)}">`
      + `<td class="st">${statusBadge(c.status)}</td><td class="id">${idCell}</td><td>${esc(c.title)}${note ? `<div class="muted">${esc(truncate(shortenQuoted(note).text, 300))}</div>` : ''}</td>`
      + `<td>${esc(resourceLabel(c.resource))}</td><td>${esc(c.group)}</td><td>${esc(c.level)}</td><td>${esc(c.section)}</td></tr>`;
  }).join('\n');
  return `<section id="checks">
<h2>All checks (${report.checks.length})</h2>
<p class="help">Level: <b>must</b> = the spec requires it; <b>quirk</b> = a documented oddity the target is expected to reproduce; <b>observe</b> = recorded, not judged.</p>
<form class="filters" id="check-filters">
<label>status <select name="status">${options(statusOpts)}</select></label>
<label>level <select name="level">${options(levels.map((l): [string, string] => [l, l]))}</select></label>
<label>resource <select name="resource">${options(m.resources.map((r): [string, string] => [r, resourceLabel(r)]))}</select></label>
<label>group <select name="group">${options(m.groups.map((g): [string, string] => [g, g]))}</select></label>
<label>text <input name="q" type="search" placeholder="id, title, message"></label>
<button type="reset">clear</button>
<span class="muted" id="check-count">${report.checks.length} checks</span>
</form>
<div class="table-box">
<table class="checks" id="checks-table"><thead><tr><th class="st">status</th><th>check</th><th>title / message</th><th>resource</th><th>group</th><th>level</th><th>spec</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</div>
</section>`;
}

/** The cleanup's table-of-contents entry: what is left behind, and what could not be verified. */
function cleanupLink(c: NonNullable<Report['cleanup']>): string {
  const notes = [c.leftBehind.length ? `${c.leftBehind.length} left behind` : '', c.unverifiedCount ? `${c.unverifiedCount} not verified` : ''].filter(Boolean);
  return notes.length ? `Cleanup: ${notes.join(', ')}` : 'Cleanup';
}

function cleanupSection(report: Report): string {
  const c = report.cleanup;
  if (!c) return '';
  const left = c.kept
    ? `kept ${esc(c.kept)} on the target (--keep-data)`
    : c.leftBehind.length
      ? `<span class="bad">left behind ${esc(c.leftBehind.length)}</span> (still there when read back): ${c.leftBehind.map((id) => `<code>${esc(id)}</code>`).join(', ')}`
      : '<span class="ok">nothing left behind</span>';
  const unsure = c.unverifiedCount ? `; <strong>could not verify ${esc(c.unverifiedCount)}</strong>` : '';
  // records no read-back could speak for: neither gone nor left behind, with the reason
  const groups = c.unverified?.length
    ? `\n<p>Could not verify (no usable read-back: they may be gone or still there):</p>\n<table><thead><tr><th>resource</th><th>records</th><th>why</th></tr></thead><tbody>${c.unverified.map((g) => `<tr><td>${esc(g.resource)}</td><td>${esc(g.ids.length || (g.values?.length ?? 0))}</td><td>${esc(g.reason)}</td></tr>`).join('')}</tbody></table>`
    : '';
  const retry = c.sweep ? `\n<p>Remove ${c.kept ? 'them' : 'what is left'} later with (the key from <code>STORE_API_KEY</code>):</p>\n<pre><code>${esc(c.sweep)}</code></pre>` : '';
  return `<section id="cleanup">
<h2>Cleanup</h2>
<p>Records this run created: ${esc(c.created)}; deleted (read back gone): ${esc(c.deleted)}${unsure}; ${left}.</p>${groups}${retry}
</section>`;
}

function footer(report: Report): string {
  return `<footer>
<p>Generated by ${esc(report.tool.name)} ${esc(report.tool.version)} from report.json (report version ${esc(report.reportVersion)}). Statuses, worst first: ${STATUS_SEVERITY.map((s: CheckStatus) => esc(STATUS_LABEL[s])).join(', ')}.</p>
</footer>`;
}

export function renderHtml(report: Report): string {
  const body = [
    '<main>',
    banner(report),
    toc(report),
    failuresSection(report),
    matrixSection(report),
    coverageSection(report),
    observationsSection(report),
    expectedSection(report),
    targetErrorsSection(report),
    latencySection(report),
    baselineSection(report),
    checksSection(report),
    cleanupSection(report),
    footer(report),
    '</main>',
  ].filter(Boolean).join('\n');
  return page(`storecheck: ${VERDICT_TEXT[report.summary.verdict] ?? report.summary.verdict} (${report.target.baseUrl})`, body, FILTER_SCRIPT);
}
