/**
 * `storecheck compare A.json B.json [--out DIR] [--fail-on verdict|checks|observations|any]`:
 * two targets, or two releases of one, side by side — check by check and
 * observation by observation. By default it only reports (exit 0); with
 * --fail-on it exits 1 when the named kind of difference is found, so a CI job
 * can gate on "the candidate behaves like the release".
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadReport } from '../report/baseline.js';
import { compareReports, renderCompareHtml, renderCompareMarkdown } from '../report/compare.js';
import { commandHelp, COMMON_OPTIONS, parseOptions, UsageError, type OptionSpec } from './options.js';
import { claimReportDir } from '../files.js';
import { checkReportDir } from './report-dir.js';

export const OPTIONS: OptionSpec[] = [
  { flag: 'out', kind: 'string', arg: 'DIR', help: 'where compare.md and compare.html go (default: beside B)' },
  { flag: 'label-a', kind: 'string', arg: 'NAME', help: 'name of the first side (default: its target and folder)' },
  { flag: 'label-b', kind: 'string', arg: 'NAME', help: 'name of the second side' },
  { flag: 'fail-on', kind: 'string', arg: 'verdict|checks|observations|any', choices: ['verdict', 'checks', 'observations', 'any'], help: 'exit 1 when the verdicts, any check status, any observation (or any of them) differ' },
  ...COMMON_OPTIONS,
];

export const HELP = commandHelp(
  'storecheck compare A.json B.json [--out DIR] [--fail-on verdict|checks|observations|any]',
  'Two report.json files (two targets, or two releases of one) side by side, check by check and ' +
    'observation by observation, as compare.md and compare.html. It only reports (exit 0) unless ' +
    '--fail-on names a kind of difference: then it exits 1 when one is found (a CI gate for "the ' +
    'candidate behaves like the release").',
  OPTIONS,
  'exit codes: 0 compared (no difference of the --fail-on kind) · 1 such a difference · 2 usage error or unreadable report',
);

export async function compareCommand(args: string[]): Promise<number> {
  const { options, positional } = parseOptions(args, OPTIONS);
  if (positional.length !== 2) throw new UsageError('compare needs two report.json files: storecheck compare A.json B.json [--out DIR] [--fail-on verdict|checks|observations|any]');
  // a report folder stands for its report.json, as merge takes it
  const [fa, fb] = positional.map((p) => resolve(existsSync(p) && statSync(p).isDirectory() ? join(p, 'report.json') : p));
  let a, b;
  try {
    a = loadReport(fa);
    b = loadReport(fb);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const labels: [string, string] = [
    (options['label-a'] as string) ?? `${a.target.baseUrl} (${basename(dirname(fa))})`,
    (options['label-b'] as string) ?? `${b.target.baseUrl} (${basename(dirname(fb))})`,
  ];
  const cmp = compareReports(a, b, labels);
  // beside B's report by default; a folder given must be new, empty or storecheck's own
  const given = options.out as string | undefined;
  if (given !== undefined) checkReportDir(given, '--out');
  const out = resolve(given ?? dirname(fb));
  if (given !== undefined) claimReportDir(out);
  const md = join(out, 'compare.md');
  const html = join(out, 'compare.html');
  writeFileSync(md, renderCompareMarkdown(cmp));
  writeFileSync(html, renderCompareHtml(cmp));
  process.stdout.write(`compared ${a.checks.length} and ${b.checks.length} checks: ${cmp.differingChecks} check(s) and ${cmp.differingObservations} observation(s) differ; verdicts ${a.summary.verdict} / ${b.summary.verdict}\n${md}, ${html}\n`);
  const failOn = options['fail-on'] as string | undefined;
  if (!failOn) return 0;
  const differs = {
    verdict: a.summary.verdict !== b.summary.verdict,
    checks: cmp.differingChecks > 0,
    observations: cmp.differingObservations > 0,
  };
  const hit = failOn === 'any' ? differs.verdict || differs.checks || differs.observations : differs[failOn as keyof typeof differs];
  if (hit) process.stderr.write(`storecheck compare: the reports differ (--fail-on ${failOn})\n`);
  return hit ? 1 : 0;
}
