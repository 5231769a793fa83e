/**
 * junit.xml for CI test views: one <testsuite> per resource (the cross-resource
 * checks in "cross-resource"), one <testcase> per check:
 *
 *   classname="storecheck.<resource>.<group>"  name="<id>: <title>"
 *   failed                        → <failure message=… type=level>expected / actual / section / reproducer</failure>
 *   error                         → <error message=…>
 *   skipped, expected-fail        → <skipped message=…/>
 *   passed, unexpected-pass       → plain testcase (an unexpected pass notes it in <system-out>)
 *
 * Valid XML 1.0: everything escaped, characters XML forbids removed.
 */
import { buildMatrix, exchangeText, prettyJson, resourceLabel, stripIllegal, truncate } from './common.js';
import type { CheckResult, Report } from './types.js';

const MAX_TEXT = 8000;
const MAX_BODY = 2000;

/** Escape for XML text and attribute values; removes characters illegal in XML 1.0. */
export function xmlEscape(value: unknown): string {
  return stripIllegal(String(value ?? ''))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Attribute values keep their line breaks and tabs as character references (attribute normalization would eat them). */
function attr(value: unknown): string {
  return xmlEscape(value).replace(/\r/g, '&#13;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

function seconds(ms: number | undefined): string {
  return ((Number.isFinite(ms) ? (ms as number) : 0) / 1000).toFixed(3);
}

function suiteName(resource: string): string {
  return resourceLabel(resource);
}

function detailText(c: CheckResult): string {
  const lines: string[] = [];
  if (c.message) lines.push(c.message, '');
  lines.push(`spec: ${c.section}`, `level: ${c.level}`, `rule: ${c.rule}`);
  if (c.expected !== undefined || c.actual !== undefined) {
    lines.push('', 'expected:', truncate(prettyJson(c.expected), MAX_TEXT), '', 'actual:', truncate(prettyJson(c.actual), MAX_TEXT));
  }
  const r = c.reproducer;
  if (r) {
    lines.push('', 'reproduce:');
    if (r.curl) lines.push(r.curl);
    if (r.seed !== undefined) lines.push(`seed: ${r.seed}`);
    if (r.path !== undefined) lines.push(`path: ${r.path}`);
    if (r.command) lines.push(`command: ${r.command}`);
  }
  const ev = c.evidence?.[0];
  if (ev) {
    const t = exchangeText(ev, MAX_BODY);
    lines.push('', `evidence (1 of ${c.evidence!.length}):`, t.request, '', t.response);
  }
  return lines.join('\n');
}

function testcase(c: CheckResult): string {
  const open = `<testcase classname="${attr(`storecheck.${suiteName(c.resource)}.${c.group}`)}" name="${attr(`${c.id}: ${c.title}`)}" time="${seconds(c.durationMs)}"`;
  const oneLine = (s: string) => truncate(s.replace(/\s+/g, ' ').trim(), 500);
  switch (c.status) {
    case 'failed':
      return `${open}>\n<failure message="${attr(oneLine(c.message ?? `${c.id} failed`))}" type="${attr(c.level)}">${xmlEscape(detailText(c))}</failure>\n</testcase>`;
    case 'error':
      return `${open}>\n<error message="${attr(oneLine(c.message ?? `${c.id} could not be judged`))}" type="target-error">${xmlEscape(detailText(c))}</error>\n</testcase>`;
    case 'skipped':
      return `${open}>\n<skipped message="${attr(oneLine(c.reason ?? c.message ?? 'skipped'))}"/>\n</testcase>`;
    case 'expected-fail':
      return `${open}>\n<skipped message="${attr(oneLine(`expected failure: ${c.reason ?? ''}${c.message ? ` (${c.message})` : ''}`))}"/>\n</testcase>`;
    case 'unexpected-pass':
      return `${open}>\n<system-out>${xmlEscape(`unexpected pass: listed as an expected failure (${c.reason ?? 'no reason given'}) but passed; remove the entry`)}</system-out>\n</testcase>`;
    default:
      return `${open}/>`;
  }
}

/**
 * What a CI view must show beyond the checks, so junit.xml agrees with the
 * exit code: a run without a verdict for a reason of its own (stopped at the
 * preflight, interrupted, the suite failing) is one errored testcase; a
 * baseline regression is one failed testcase per new failure or changed
 * observation.
 */
function runSuites(report: Report, properties: string, totals: { tests: number; failures: number; errors: number }): string[] {
  const out: string[] = [];
  const oneLine = (t: string) => truncate(t.replace(/\s+/g, ' ').trim(), 500);
  const ownReason = report.summary.verdict === 'no-verdict' && !report.checks.some((c) => c.status === 'error');
  if (ownReason) {
    const detail = [report.summary.reason, ...(report.targetErrors ?? []).map((t) => `${t.message}${t.count > 1 ? ` (×${t.count})` : ''}`)].join('\n');
    totals.tests++;
    totals.errors++;
    out.push(`<testsuite name="run" tests="1" failures="0" errors="1" skipped="0" time="${seconds(report.run.durationMs)}" timestamp="${attr(report.run.startedAt)}">
${properties}
<testcase classname="storecheck.run" name="the run reaches a verdict" time="${seconds(report.run.durationMs)}">
<error message="${attr(oneLine(report.summary.reason))}" type="no-verdict">${xmlEscape(detail)}</error>
</testcase>
</testsuite>`);
  }
  const b = report.baseline;
  if (b?.regression) {
    const cases = [
      ...b.newFailures.map((id) => ({ name: `no new failure against the baseline: ${id}`, message: `${id} passed in the baseline (${b.baselineFile}) and fails now` })),
      ...b.changedObservations.map((c) => ({ name: `observation ${c.key} as in the baseline`, message: `observation ${c.key} changed: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)} (baseline ${b.baselineFile})` })),
    ];
    totals.tests += cases.length;
    totals.failures += cases.length;
    out.push(`<testsuite name="baseline" tests="${cases.length}" failures="${cases.length}" errors="0" skipped="0" time="0.000" timestamp="${attr(report.run.startedAt)}">
${properties}
${cases.map((c) => `<testcase classname="storecheck.baseline" name="${attr(c.name)}" time="0.000">\n<failure message="${attr(oneLine(c.message))}" type="regression">${xmlEscape(c.message)}</failure>\n</testcase>`).join('\n')}
</testsuite>`);
  }
  return out;
}

export function renderJUnit(report: Report): string {
  const m = buildMatrix(report.checks);
  const props = [
    ['seed', String(report.run.seed)],
    ['target', report.target.baseUrl],
    ['verdict', report.summary.verdict],
    ['reason', report.summary.reason],
    ['depth', report.run.depth],
    ['runTag', report.run.runTag],
    ['toolVersion', report.tool.version],
  ];
  const properties = `<properties>\n${props.map(([k, v]) => `<property name="${attr(k)}" value="${attr(v)}"/>`).join('\n')}\n</properties>`;
  const totals = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
  const suites = m.resources.map((res) => {
    const checks = report.checks.filter((c) => c.resource === res).sort((a, b) => a.group.localeCompare(b.group) || a.id.localeCompare(b.id));
    const failures = checks.filter((c) => c.status === 'failed').length;
    const errors = checks.filter((c) => c.status === 'error').length;
    const skipped = checks.filter((c) => c.status === 'skipped' || c.status === 'expected-fail').length;
    const ms = checks.reduce((n, c) => n + (Number.isFinite(c.durationMs) ? c.durationMs! : 0), 0);
    totals.tests += checks.length;
    totals.failures += failures;
    totals.errors += errors;
    totals.skipped += skipped;
    totals.ms += ms;
    return `<testsuite name="${attr(suiteName(res))}" tests="${checks.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(ms)}" timestamp="${attr(report.run.startedAt)}">
${properties}
${checks.map(testcase).join('\n')}
</testsuite>`;
  });
  suites.push(...runSuites(report, properties, totals));
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="storecheck" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(report.run.durationMs)}">
${suites.join('\n')}
</testsuites>
`;
}
