/**
 * How much of a content-picked engine mutation sample earlier samples had
 * picked, and its score on the fresh mutants alone: a score on mutants whose
 * survivors were already triaged and fixed says less about what the checks do
 * not imagine than one on mutants nobody looked at.
 *
 * Earlier samples are named by content hashes (scripts/mutation-engine-sample.ts
 * keyHash): the id-picked runs rebuilt from git
 * (reports/mutation-engine/earlier-samples.json, scripts/mutation-engine-earlier.ts)
 * and every content-picked run of another seed whose summary.json sits under
 * reports/mutation-engine (its `contentSample.picked`). A mutant whose lines
 * changed since counts as fresh: by content it is a different mutant.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface EarlierPicks {
  /** which run: seed and start */
  name: string;
  picked: ReadonlySet<string>;
}

export interface ContentSample {
  every: number;
  /** content hashes of the picked mutants */
  picked: string[];
  /** per earlier run: how many of this sample it had picked */
  earlier: Array<{ name: string; shared: number }>;
  /** picked by at least one earlier run */
  sharedWithAny: number;
}

/** The earlier samples found under `base` (reports/mutation-engine), the run in `out` itself left out. */
export function earlierPicks(base: string, out: string, seed: number | null): EarlierPicks[] {
  const found: EarlierPicks[] = [];
  const rebuilt = join(base, 'earlier-samples.json');
  if (existsSync(rebuilt)) {
    const runs = (JSON.parse(readFileSync(rebuilt, 'utf8')) as { runs: Array<{ seed: number; startedAt: string; picked: string[] }> }).runs;
    for (const r of runs) found.push({ name: `seed ${r.seed} (${r.startedAt.slice(0, 16)}, by id)`, picked: new Set(r.picked) });
  }
  const dirs = existsSync(base) ? readdirSync(base, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(base, d.name)) : [];
  for (const dir of [base, ...dirs]) {
    const file = join(dir, 'summary.json');
    if (resolve(dir) === resolve(out) || !existsSync(file)) continue;
    const s = JSON.parse(readFileSync(file, 'utf8')) as { seed: number | null; run: { startedAt?: string }; contentSample?: ContentSample };
    if (!s.contentSample || s.seed === seed) continue;
    found.push({ name: `seed ${s.seed} (${(s.run.startedAt ?? '').slice(0, 16)}, by content)`, picked: new Set(s.contentSample.picked) });
  }
  return found;
}

/** The overlap of a sample (its picked ids and every id's content hash) with earlier ones. */
export function overlapOf(every: number, ids: readonly string[], hashes: Record<string, string>, earlier: readonly EarlierPicks[]): ContentSample & { sharedIds: Set<string> } {
  const picked = ids.map((id) => hashes[id]);
  const sharedIds = new Set(ids.filter((id) => earlier.some((e) => e.picked.has(hashes[id]))));
  return {
    every,
    picked,
    earlier: earlier.map((e) => ({ name: e.name, shared: picked.filter((h) => e.picked.has(h)).length })),
    sharedWithAny: sharedIds.size,
    sharedIds,
  };
}
