/**
 * `storecheck merge DIR... [--report-dir DIR]`: the shards of one run (same
 * seed, `--shard i/n`) combined into one report with a single verdict, so a CI
 * matrix can split a deep run across machines.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadReport } from '../report/baseline.js';
import { computeCoverage } from '../report/coverage.js';
import { isInvariantCheck, mergeItems, recount, sumInvariantFigures, worseCheck } from '../report/invariants.js';
import { summarize } from '../report/summary.js';
import { throughputOf } from '../report/throughput.js';
import type { Report } from '../report/types.js';
import { writeReports } from '../report/write.js';
import { commandHelp, COMMON_OPTIONS, parseOptions, UsageError, type OptionSpec } from './options.js';
import { checkReportDir } from './report-dir.js';
import { claimReportDir } from '../files.js';

export const OPTIONS: OptionSpec[] = [
  { flag: 'report-dir', kind: 'string', arg: 'DIR', help: 'where the merged report goes (default ./reports/merged)' },
  ...COMMON_OPTIONS,
];

export const HELP = commandHelp(
  'storecheck merge DIR... [--report-dir DIR]',
  'Combines the reports of the shards of one run (each made with --shard i/n, the same --seed, ' +
    '--only and --depth) into one report with one verdict. DIR is a shard\'s report folder or its ' +
    'report.json. It refuses an incomplete set, a shard given twice, and shards of different runs.',
  OPTIONS,
  'exit codes: as a run — 0 conformant · 1 non-conformant · 2 usage error (a bad set of shards) · 3 no verdict',
);

export async function mergeCommand(args: string[]): Promise<number> {
  const { options, positional } = parseOptions(args, OPTIONS);
  if (positional.length < 1) throw new UsageError('merge needs the shard report directories (or report.json files): storecheck merge DIR... [--report-dir DIR]');
  const reports: Report[] = positional.map((p) => {
    const file = existsSync(p) && statSync(p).isDirectory() ? join(p, 'report.json') : p;
    try {
      return loadReport(file);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  });
  const out = resolve((options['report-dir'] as string | undefined) ?? 'reports/merged');
  checkReportDir((options['report-dir'] as string | undefined) ?? out);
  const merged = mergeReports(reports);
  claimReportDir(out);
  const written = writeReports(out, merged);
  process.stdout.write(`merged ${reports.length} report(s), ${merged.checks.length} checks: ${merged.summary.verdict} — ${merged.summary.reason}\n${Object.values(written).join('\n')}\n`);
  return merged.summary.verdict === 'conformant' ? 0 : merged.summary.verdict === 'non-conformant' ? 1 : 3;
}

/**
 * The reports must be one whole set of shards of one run: each made with
 * --shard i/n, one n, every i from 1 to n exactly once, the same --only and
 * depth. A missing shard would be a verdict on part of the suite; a shard
 * given twice, double counts.
 */
export function checkShardSet(reports: Report[]): void {
  const shards = reports.map((r, k) => ({ k, m: /^([0-9]+)\/([0-9]+)$/.exec(r.run.shard ?? '') }));
  const unsharded = shards.filter((s) => !s.m);
  if (unsharded.length) {
    if (reports.length === 1) return;
    throw new UsageError(`report ${unsharded[0].k + 1} of ${reports.length} was not made with --shard i/n: merge combines the shards of one run`);
  }
  const ns = new Set(shards.map((s) => Number(s.m![2])));
  if (ns.size > 1) throw new UsageError(`the reports are shards of different splits (${[...ns].map((n) => `of ${n}`).join(', ')})`);
  const n = [...ns][0];
  const seen = new Map<number, number>();
  for (const s of shards) seen.set(Number(s.m![1]), (seen.get(Number(s.m![1])) ?? 0) + 1);
  const twice = [...seen].filter(([, c]) => c > 1).map(([i]) => `${i}/${n}`);
  if (twice.length) throw new UsageError(`shard ${twice.join(', ')} given more than once`);
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !seen.has(i)).map((i) => `${i}/${n}`);
  if (missing.length) throw new UsageError(`incomplete shard set: ${missing.join(', ')} missing (a verdict needs every shard)`);
  const onlys = new Set(reports.map((r) => r.run.only ?? ''));
  if (onlys.size > 1) throw new UsageError(`the shards ran different --only selections: ${[...onlys].map((o) => o || '(all)').join(', ')}`);
  const depths = new Set(reports.map((r) => r.run.depth));
  if (depths.size > 1) throw new UsageError(`the shards ran at different depths: ${[...depths].join(', ')}`);
}

/** One report from shards: checks and items united (an id appears once), coverage and verdict recomputed. */
export function mergeReports(reports: Report[]): Report {
  if (!reports.length) throw new UsageError('nothing to merge');
  const first = reports[0];
  const targets = new Set(reports.map((r) => r.target.baseUrl));
  const seeds = new Set(reports.map((r) => r.run.seed));
  if (targets.size > 1 && !first.target.embedded) throw new UsageError(`the shards ran against different targets: ${[...targets].join(', ')}`);
  if (seeds.size > 1) throw new UsageError(`the shards ran with different seeds (${[...seeds].join(', ')}): run every shard with the same --seed`);
  checkShardSet(reports);
  const byId = new Map<string, Report['checks'][number]>();
  for (const r of reports) for (const c of r.checks) {
    const was = byId.get(c.id);
    // every shard judges the invariants on its own answers: the worst result is the run's
    if (was && isInvariantCheck(c)) byId.set(c.id, worseCheck(was, c));
    else if (was && was.status !== c.status) throw new UsageError(`check ${c.id} appears in two shards with different results`);
    else byId.set(c.id, c);
  }
  const observations = { ...first.observations };
  const targetErrors = reports.flatMap((r) => r.targetErrors);
  for (const r of reports.slice(1)) {
    for (const [k, o] of Object.entries(r.observations)) {
      if (!(k in observations)) observations[k] = o;
      else if (JSON.stringify(observations[k].value) !== JSON.stringify(o.value)) {
        targetErrors.push({ message: `observation ${k} differs between shards: ${JSON.stringify(observations[k].value)} vs ${JSON.stringify(o.value)}`, count: 1 });
      }
    }
  }
  const items = mergeItems(reports.flatMap((r) => r.items ?? []));
  const checks = [...byId.values()].map((c) => (isInvariantCheck(c) ? recount(c, items) : c));
  const coverage = items.length ? computeCoverage(items) : undefined;
  const summary = summarize(checks, targetErrors, coverage ? { coverage } : undefined);
  const durationMs = Math.max(...reports.map((r) => r.run.durationMs));
  const requestCount = reports.reduce((n, r) => n + r.run.requestCount, 0);
  return {
    ...first,
    run: {
      ...first.run,
      shard: undefined,
      // each shard chose its own workers, used its own slots, had its own phases and critical path: the
      // first's would describe none of the others (the report schema: absent in merged reports)
      workers: undefined,
      slots: undefined,
      phasesMs: undefined,
      criticalPath: undefined,
      startedAt: reports.map((r) => r.run.startedAt).sort()[0],
      durationMs,
      requestCount,
      invariants: sumInvariantFigures(reports),
      visibilityWaits: joinVisibilityWaits(reports),
      throughput: coverage ? throughputOf(coverage.judged, requestCount, durationMs) : undefined,
    },
    summary,
    checks,
    ...(items.length ? { items, coverage } : {}),
    observations,
    targetErrors,
    cleanup: reports.reduce(
      (acc, r) => ({
        created: acc.created + (r.cleanup?.created ?? 0),
        deleted: acc.deleted + (r.cleanup?.deleted ?? 0),
        leftBehind: [...acc.leftBehind, ...(r.cleanup?.leftBehind ?? [])],
        unverified: [...acc.unverified, ...(r.cleanup?.unverified ?? [])],
        unverifiedCount: acc.unverifiedCount + (r.cleanup?.unverifiedCount ?? 0),
      }),
      { created: 0, deleted: 0, leftBehind: [] as string[], unverified: [] as NonNullable<NonNullable<Report['cleanup']>['unverified']>, unverifiedCount: 0 },
    ),
  };
}

/** The shards' waits at the visibility deadline, joined (undefined when no shard reached its checks). */
function joinVisibilityWaits(reports: readonly Report[]): Report['run']['visibilityWaits'] {
  const all = reports.map((r) => r.run.visibilityWaits).filter((x) => x !== undefined);
  if (!all.length) return undefined;
  return { atDeadline: all.reduce((n, w) => n + w.atDeadline, 0), checks: [...new Set(all.flatMap((w) => w.checks))].sort() };
}
