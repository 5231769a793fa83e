/**
 * The mutants of a `npm run mutation:engine` run listed again, for the report
 * of a run that ended before StrykerJS wrote its JSON report (interrupted, or
 * stopped to keep a time budget): StrykerJS's own instrumenter is run over the
 * same `mutate` patterns (raw/stryker.config.json), in the order Stryker
 * reads files (sorted by path), with the same ignorer — which gives the same
 * mutants under the same ids — and each mutant's status is taken from the
 * runner's record in runs.jsonl. A sampled mutant with no record was not run
 * (status Pending: the report counts it as not run, outside the score); one
 * outside the sample is not sampled, reached by the run or not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import type { MutantRecord } from './mutation-engine-run.js';
import { sampled } from './mutation-engine-gate.mjs';
import type { ListedMutant } from './mutation-engine-sample.js';

interface Range { start: { line: number; column: number }; end: { line: number; column: number } }

const RANGE = /(.*?):((\d+)(?::(\d+))?-(\d+)(?::(\d+))?)$/;

/** `file` or `file:a-b` patterns → files with their ranges (0-based lines, as Stryker's project reader makes them). */
export function filesOf(patterns: string[]): Array<{ name: string; mutate: true | Range[] }> {
  const byFile = new Map<string, true | Range[]>();
  for (const p of patterns) {
    const m = RANGE.exec(p);
    if (!m) {
      byFile.set(p, true);
      continue;
    }
    const [, file, , a, ac = '0', b, bc = String(Number.MAX_SAFE_INTEGER)] = m;
    const range = { start: { line: Number(a) - 1, column: Number(ac) }, end: { line: Number(b) - 1, column: Number(bc) } };
    const had = byFile.get(file);
    byFile.set(file, had === true ? true : [...(had ?? []), range]);
  }
  return [...byFile.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, mutate]) => ({ name, mutate }));
}

/** the reason a listed mutant carries when the sample left it out */
export const NOT_SAMPLED = 'not sampled';

const STATUS: Record<MutantRecord['outcome'], string> = {
  killed: 'Killed',
  'no-verdict': 'Killed',
  crashed: 'Killed',
  survived: 'Survived',
  unreached: 'Survived',
  'not-sampled': 'Survived',
  'harness-error': 'Survived',
};

/** StrykerJS's instrumenter over `mutate` patterns, in the order Stryker reads files: the same mutants under the same ids. */
export async function instrumentScope(root: string, mutate: string[], read: (name: string) => string = (name) => readFileSync(join(root, name), 'utf8')): Promise<{ sources: Record<string, string>; mutants: ListedMutant[] }> {
  const { strykerPlugins } = (await import(new URL('./mutation-engine-ignore.mjs', import.meta.url).href)) as { strykerPlugins: Array<{ value: { shouldIgnore(path: unknown): string | undefined } }> };
  const quiet = { isDebugEnabled: () => false, isInfoEnabled: () => false, isTraceEnabled: () => false, isWarnEnabled: () => true, isErrorEnabled: () => true, isFatalEnabled: () => true, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };
  const files = filesOf(mutate).map((f) => ({ ...f, content: read(f.name) }));
  const result = await new Instrumenter(quiet as never).instrument(files as never, { ignorers: strykerPlugins.map((p) => p.value) as never, plugins: null, excludedMutations: [] } as never);
  return { sources: Object.fromEntries(files.map((f) => [f.name, f.content])), mutants: result.mutants as unknown as ListedMutant[] };
}

/** A StrykerJS-shaped JSON report of the run recorded in `raw`; `sample`: the ids a sampled run picked (raw/sample.json). */
export async function listMutants(root: string, raw: string, records: Map<string, MutantRecord>, sample?: ReadonlySet<string>): Promise<{ files: Record<string, { source: string; mutants: unknown[] }> }> {
  const config = JSON.parse(readFileSync(join(raw, 'stryker.config.json'), 'utf8')) as { mutate: string[] };
  const { sources, mutants } = await instrumentScope(root, config.mutate);
  const out: Record<string, { source: string; mutants: unknown[] }> = {};
  for (const [name, source] of Object.entries(sources)) out[name] = { source, mutants: [] };
  for (const m of mutants as Array<ListedMutant & { statusReason?: string }>) {
    const rec = records.get(m.id);
    // a mutant outside the sample that the run did not reach before it ended: not sampled all the same
    const outside = !rec && sample !== undefined && !sampled(m.id, sample);
    const status = m.status === 'Ignored' ? 'Ignored' : rec ? STATUS[rec.outcome] : 'Pending';
    // Stryker's locations are 0-based lines, 0-based columns in the instrumenter; its JSON report: 1-based both
    out[m.fileName].mutants.push({
      id: m.id,
      mutatorName: m.mutatorName,
      replacement: m.replacement,
      status,
      ...(m.statusReason ? { statusReason: m.statusReason } : outside ? { statusReason: NOT_SAMPLED } : {}),
      location: { start: { line: m.location.start.line + 1, column: m.location.start.column + 1 }, end: { line: m.location.end.line + 1, column: m.location.end.column + 1 } },
    });
  }
  return { files: out };
}
