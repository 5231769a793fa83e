/**
 * What the run prints: a progress line (rewritten in place on a terminal, a
 * line every 10% otherwise), then a summary. Everything printed goes through
 * the redactor, so no key reaches a CI log.
 */
import type { Redactor } from '../client/redact.js';
import type { Report } from '../report/types.js';
import type { Progress } from './collector.js';

export class Terminal {
  redactor?: Redactor;
  private lastDecile = -1;
  private drawn = false;

  constructor(private readonly quiet: boolean, private readonly secrets: string[] = []) {}

  private clean(s: string): string {
    let out = this.redactor ? this.redactor.text(s) : s;
    for (const secret of this.secrets) if (secret && secret.length >= 4) out = out.split(secret).join('$STORE_API_KEY');
    return out;
  }

  line(s: string): void {
    if (this.drawn) this.endProgress();
    process.stderr.write(this.clean(s) + '\n');
  }

  progress(p: Progress): void {
    if (this.quiet) return;
    const text = `checks ${p.done}/${p.total} · ${p.failed} failed${p.errors ? ` · ${p.errors} target errors` : ''}`;
    if (process.stderr.isTTY) {
      process.stderr.write(`\r${this.clean(text)}\x1b[K`);
      this.drawn = true;
    } else {
      const decile = Math.floor((p.done / Math.max(1, p.total)) * 10);
      if (decile !== this.lastDecile) {
        this.lastDecile = decile;
        process.stderr.write(this.clean(text) + '\n');
      }
    }
  }

  endProgress(): void {
    if (this.drawn) process.stderr.write('\n');
    this.drawn = false;
  }

  summary(report: Report, written: Record<string, string> | string[]): void {
    const s = report.summary;
    const lines = [
      '',
      `verdict: ${s.verdict.toUpperCase()} — ${s.reason}`,
      `checks: ${s.total} · passed ${s.passed} · failed ${s.failed} · expected-fail ${s.expectedFail} · unexpected-pass ${s.unexpectedPass} · errors ${s.errors} · skipped ${s.skipped}`,
      `requests: ${report.run.requestCount} in ${(report.run.durationMs / 1000).toFixed(1)} s · seed ${report.run.seed}`,
    ];
    const failed = report.checks.filter((c) => c.status === 'failed');
    for (const c of failed.slice(0, 15)) lines.push(`  ✗ ${c.id} (${c.section}, ${c.level}): ${firstLine(c.message)}`);
    if (failed.length > 15) lines.push(`  … and ${failed.length - 15} more failures (see the report)`);
    const paths = Array.isArray(written) ? written : Object.values(written);
    const c = report.cleanup;
    if (c?.leftBehind.length) {
      const ledger = paths.length ? `${String(paths[0]).replace(/[\\/][^\\/]*$/, '')}/ledger.jsonl` : '<report dir>/ledger.jsonl';
      lines.push(`cleanup: ${c.leftBehind.length} record(s) LEFT BEHIND on the target (still there when read back); retry with: storecheck sweep --ledger ${ledger}`);
      for (const l of c.leftBehind.slice(0, 5)) lines.push(`  left behind: ${l}`);
    } else if (c && c.created > 0) lines.push(`cleanup: every one of the ${c.created} record(s) the run created is gone (read back)`);
    lines.push(`reports: ${paths.join(', ')}`);
    for (const l of lines) process.stderr.write(this.clean(l) + '\n');
  }
}

function firstLine(s: string | undefined): string {
  const l = (s ?? '').split('\n')[0];
  return l.length > 200 ? l.slice(0, 200) + '…' : l;
}
