/**
 * `storecheck compare A.json B.json [--out DIR]`: two targets, or two releases
 * of one, side by side — check by check and observation by observation.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadReport } from '../report/baseline.js';
import { compareReports, renderCompareHtml, renderCompareMarkdown } from '../report/compare.js';
import { parseOptions, UsageError } from './options.js';

export async function compareCommand(args: string[]): Promise<number> {
  const { options, positional } = parseOptions(args, [
    { flag: 'out', kind: 'string', arg: 'DIR', help: 'where compare.md and compare.html go (default: beside B)' },
    { flag: 'label-a', kind: 'string', arg: 'NAME', help: 'name of the first side' },
    { flag: 'label-b', kind: 'string', arg: 'NAME', help: 'name of the second side' },
  ]);
  if (positional.length !== 2) throw new UsageError('compare needs two report.json files: storecheck compare A.json B.json [--out DIR]');
  const [fa, fb] = positional.map((p) => resolve(p));
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
  const out = resolve((options.out as string | undefined) ?? dirname(fb));
  mkdirSync(out, { recursive: true });
  const md = join(out, 'compare.md');
  const html = join(out, 'compare.html');
  writeFileSync(md, renderCompareMarkdown(cmp));
  writeFileSync(html, renderCompareHtml(cmp));
  process.stdout.write(`compared ${a.checks.length} and ${b.checks.length} checks: ${md}, ${html}\n`);
  return 0;
}
