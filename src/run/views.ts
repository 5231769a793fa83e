/**
 * The views of a run's report: report.json, report.md, report.html and
 * junit.xml written through the run's redactor (src/report/write.ts), the
 * `reports/latest` link, and the closing summary on the terminal.
 */
import { rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeReports } from '../report/write.js';
import type { Report } from '../report/types.js';
import type { RunSession } from './session.js';

/**
 * A run that reached its checks: every view, the latest link and the summary.
 * A run that ended at its preflight: its files too (CI artefacts agree with the
 * exit code; an unwritable folder must not hide the reason, which reaches
 * stderr anyway), and the summary when it is a verdict (the key taken only
 * from a header); the latest link stays on the last run that was judged.
 */
export function writeViews(s: Pick<RunSession, 'config' | 'redactor' | 'term'>, report: Report, reachedChecks: boolean): void {
  let written: ReturnType<typeof writeReports> | undefined;
  try {
    written = writeReports(s.config.reportDir, report, s.redactor.list());
  } catch (e) {
    if (reachedChecks) throw e;
  }
  if (reachedChecks) linkLatest(s.config.reportDir);
  if (written && (reachedChecks || report.summary.verdict !== 'no-verdict')) s.term.summary(report, written);
  // a run stopped at its preflight wrote its reports too (why no check ran): say where
  else if (written) s.term.line(`reports: ${Object.values(written).join(', ')}`);
}

/** reports/latest → the newest run's directory (only for the default ./reports/ location, under the working directory). */
function linkLatest(dir: string): void {
  const reports = resolve('reports');
  const abs = resolve(dir);
  if (resolve(abs, '..') !== reports) return;
  const latest = join(reports, 'latest');
  try {
    rmSync(latest, { force: true, recursive: false });
    symlinkSync(abs.slice(reports.length + 1), latest);
  } catch {
    // a filesystem without symlinks: the report dir is printed anyway
  }
}
