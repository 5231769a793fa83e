/**
 * What the run prints on stderr: the plan (how many checks, known before the
 * first), a progress line with elapsed time and an estimate of the time left
 * (rewritten in place on a terminal with the check running now; a plain line
 * about once a minute otherwise: src/run/progress.ts), then a summary with the
 * failures grouped by rule. Colour when stderr is a terminal (NO_COLOR /
 * FORCE_COLOR: src/run/colour.ts).
 * Everything printed goes through the redactor, so no key reaches a CI log.
 */
import type { Redactor } from '../client/redact.js';
import { failureGroupCount, failureGroups } from '../report/groups.js';
import type { CheckResult, Report } from '../report/types.js';
import type { Progress } from './collector.js';
import { colourEnabled, paint, type Paint } from './colour.js';
import { ProgressLine, type Clock } from './progress.js';
import { latencyLines } from '../report/latency-view.js';
import { slotsText } from '../report/slots.js';
import { throughputText } from '../report/throughput.js';

/** Rule groups shown in the closing summary (the report has them all). */
const SHOWN_GROUPS = 8;
/** Check ids named per group after its first. */
const SHOWN_IDS = 3;

export class Terminal {
  private readonly c: Paint;
  private readonly tty: boolean;
  private readonly bar: ProgressLine;

  /** `redactor`: the run's one redactor (src/client/factory.ts redactorFor) */
  constructor(
    private readonly quiet: boolean,
    private readonly redactor?: Redactor,
    opts: { colour?: boolean; tty?: boolean; clock?: Clock; columns?: () => number | undefined } = {},
  ) {
    this.tty = opts.tty ?? process.stderr.isTTY === true;
    this.c = paint(opts.colour ?? colourEnabled(process.stderr));
    this.bar = new ProgressLine({
      tty: this.tty, paint: this.c, write: (s) => this.write(this.clean(s)), clock: opts.clock, columns: opts.columns ?? (() => process.stderr.columns),
    });
  }

  private clean(s: string): string {
    return this.redactor ? this.redactor.text(s) : s;
  }

  private write(s: string): void {
    process.stderr.write(s);
  }

  line(s: string): void {
    this.bar.breakLine();
    this.write(this.clean(s) + '\n');
  }

  /** The run's size, before its first check: the progress total starts where it ends, its time too. */
  plan(p: { total: number; items: number }): void {
    this.line(`running ${p.total} check${p.total === 1 ? '' : 's'} judging ${p.items} spec item${p.items === 1 ? '' : 's'}…`);
    this.bar.start();
  }

  progress(p: Progress): void {
    if (this.quiet) return;
    this.bar.update(p);
  }

  endProgress(): void {
    this.bar.end();
  }

  summary(report: Report, written: Record<string, string> | string[]): void {
    for (const l of summaryLines(report, written, this.c)) this.write(this.clean(l) + '\n');
  }
}

/** The closing summary: verdict, counts, failures grouped by rule, cleanup, where the reports are. */
export function summaryLines(report: Report, written: Record<string, string> | string[], c: Paint = paint(false)): string[] {
  const s = report.summary;
  const verdict = s.verdict === 'conformant' ? c.green : s.verdict === 'non-conformant' ? c.red : c.yellow;
  const lines = [
    '',
    `verdict: ${c.bold(verdict(s.verdict.toUpperCase()))} — ${s.reason}`,
    `checks: ${s.total} · passed ${s.passed} · failed ${s.failed} · expected-fail ${s.expectedFail} · unexpected-pass ${s.unexpectedPass} · errors ${s.errors} · skipped ${s.skipped}`,
    `requests: ${[`${report.run.requestCount} in ${(report.run.durationMs / 1000).toFixed(1)} s`, throughputText(report.run.throughput), slotsText(report.run.slots, report.run.concurrency), `seed ${report.run.seed}`].filter(Boolean).join(' · ')}`,
    ...latencyLines(report),
  ];
  lines.push(...failureLines(report.checks, c));
  const paths = Array.isArray(written) ? written : Object.values(written);
  const ledger = paths.length ? `${String(paths[0]).replace(/[\\/][^\\/]*$/, '')}/ledger.jsonl` : '<report dir>/ledger.jsonl';
  lines.push(...cleanupLines(report, ledger, c));
  lines.push(`reports: ${paths.join(', ')}`);
  return lines;
}

/**
 * What the run left on the target: records kept (--keep-data); records a
 * read-back showed still there (LEFT BEHIND); records no usable read-back
 * could speak for (could not verify, with the reason) — each with the sweep
 * that retries, --base-url included; or that every record is gone.
 */
function cleanupLines(report: Report, ledger: string, c: Paint): string[] {
  const cl = report.cleanup;
  if (!cl) return [];
  const sweep = cl.sweep ?? `storecheck sweep --ledger ${ledger} --base-url ${report.target.baseUrl}`;
  if (cl.kept !== undefined) {
    return [`${c.yellow('kept')}: ${cl.kept} record(s) the run created are still on the target (--keep-data); remove them later with:`, `  ${sweep}`];
  }
  const unsure = cl.unverifiedCount ?? 0;
  if (!cl.leftBehind.length && !unsure) return cl.created > 0 ? [`cleanup: every one of the ${cl.created} record(s) the run created is gone (read back)`] : [];
  const lines = [`cleanup: ${cl.deleted} of the ${cl.created} record(s) the run created are gone (read back)`];
  if (cl.leftBehind.length) {
    lines.push(`cleanup: ${c.red(`${cl.leftBehind.length} record(s) LEFT BEHIND`)} on the target (still there when read back)`);
    for (const l of cl.leftBehind.slice(0, 5)) lines.push(`  left behind: ${l}`);
  }
  if (unsure) {
    lines.push(`cleanup: ${c.yellow(`could not verify ${unsure} record(s)`)}: no usable read-back (they may be gone or still there)`);
    for (const g of (cl.unverified ?? []).slice(0, 5)) lines.push(`  could not verify ${g.ids.length || (g.values?.length ?? 0)} ${g.resource}: ${g.reason}`);
  }
  lines.push(report.target.embedded ? '  (the embedded reference server ended with the run: nothing stays on a target)' : `  retry with: ${sweep}`);
  return lines;
}

/**
 * Failed checks by rule, largest group first (src/report/groups.ts): the
 * rule, how many checks on how many resources, its section and level; the
 * first check's message and reproducer command, and the next check ids.
 */
export function failureLines(checks: CheckResult[], c: Paint = paint(false)): string[] {
  const groups = failureGroups(checks);
  if (!groups.length) return [];
  const failed = groups.reduce((n, g) => n + g.checks.length, 0);
  const lines = [`failures by rule (${groups.length} rule${groups.length === 1 ? '' : 's'}, ${failed} check${failed === 1 ? '' : 's'}):`];
  for (const g of groups.slice(0, SHOWN_GROUPS)) {
    const [first, ...others] = g.checks;
    lines.push(`  ${c.red('✗')} ${c.bold(g.rule)} ${failureGroupCount(g)} (${g.section}, ${g.level}) — ${g.title}`);
    lines.push(`      ${first.id}: ${firstLine(first.message)}`);
    if (others.length) {
      const named = others.slice(0, SHOWN_IDS).map((x) => x.id).join(', ');
      lines.push(c.dim(`      also ${named}${others.length > SHOWN_IDS ? ` … (+${others.length - SHOWN_IDS} more)` : ''}`));
    }
    if (first.reproducer?.command) lines.push(c.dim(`      rerun: ${first.reproducer.command}`));
  }
  if (groups.length > SHOWN_GROUPS) {
    const rest = groups.slice(SHOWN_GROUPS);
    lines.push(`  … and ${rest.length} more rule(s) with ${rest.reduce((n, g) => n + g.checks.length, 0)} failed check(s) (see the report)`);
  }
  return lines;
}

function firstLine(s: string | undefined): string {
  const l = (s ?? '').split('\n')[0];
  return l.length > 200 ? l.slice(0, 200) + '…' : l;
}
