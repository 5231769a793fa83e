/**
 * The samples of the engine mutation runs made before samples were picked by
 * content, named by content: `tsx scripts/mutation-engine-earlier.ts` writes
 * reports/mutation-engine/earlier-samples.json, which the report reads to say
 * how many mutants of a new sample an earlier one had picked, and to score the
 * fresh ones apart (a sample independent of the mutants already fixed).
 *
 * Those runs picked every K-th mutant by StrykerJS's id from an offset, over
 * the source of the day. Each is rebuilt from git: its committed summary.json
 * (the scope's patterns, the rule, the mutant count), the reference/ source
 * of the last commit before it started, StrykerJS's instrumenter over it (the
 * same ids: the count must match the summary's, or the run is refused), and
 * the content keys of the picked mutants (scripts/mutation-engine-sample.ts),
 * kept as hashes. The picked set holds the mutants an interrupted run left
 * unjudged too: an overlap counted against it is an upper bound.
 * Runs sampled by content record their own hashes (summary.json `picked`).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../reference/cli-process.js';
import { instrumentScope } from './mutation-engine-list.js';
import { contentKeys, keyHash } from './mutation-engine-sample.js';

/** The runs sampled by id: the commit whose summary.json records each, and where. */
export const EARLIER_RUNS = [
  { summary: 'reports/mutation-engine/summary.json', commit: 'd8e8c5d' },
  { summary: 'reports/mutation-engine/summary.json', commit: '6fe8eff' },
  { summary: 'reports/mutation-engine/seed-2027/summary.json', commit: '6881cea' },
] as const;

export const EARLIER_FILE = 'earlier-samples.json';

export interface EarlierSample {
  seed: number;
  startedAt: string;
  /** the commit whose reference/ source the run mutated */
  source: string;
  rule: string;
  mutants: number;
  /** mutants judged (run to an outcome), as the summary counted them */
  judged: number;
  /** content hashes of the picked mutants (judged or left unrun) */
  picked: string[];
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });

interface Summary { run: { startedAt: string; sample: { every: number; offset: number } }; seed: number; totals: { mutants: number; valid: number }; scope: Array<{ patterns: string[] }> }

async function rebuild(r: (typeof EARLIER_RUNS)[number]): Promise<EarlierSample> {
  const s = JSON.parse(git('show', `${r.commit}:${r.summary}`)) as Summary;
  const source = git('rev-list', '-1', `--before=${s.run.startedAt}`, r.commit).trim();
  const { sources, mutants } = await instrumentScope(ROOT, s.scope.flatMap((x) => x.patterns), (name) => git('show', `${source}:${name}`));
  if (mutants.length !== s.totals.mutants) throw new Error(`${r.commit}: ${mutants.length} mutants at ${source.slice(0, 7)}, the summary counted ${s.totals.mutants}: not the source that run mutated`);
  const keys = contentKeys(mutants, sources);
  const { every, offset } = s.run.sample;
  const picked = mutants.filter((m) => Number(m.id) % every === offset && m.status !== 'Ignored').map((m) => keyHash(keys.get(m.id)!));
  return { seed: s.seed, startedAt: s.run.startedAt, source: source.slice(0, 12), rule: `every ${every}th by id from ${offset}`, mutants: mutants.length, judged: s.totals.valid, picked };
}

async function main(): Promise<void> {
  const out: EarlierSample[] = [];
  for (const r of EARLIER_RUNS) out.push(await rebuild(r));
  writeFileSync(join(ROOT, 'reports', 'mutation-engine', EARLIER_FILE), JSON.stringify({ about: 'The samples of the engine mutation runs picked by id, named by content (scripts/mutation-engine-earlier.ts).', runs: out }, null, 1) + '\n');
  for (const s of out) process.stderr.write(`seed ${s.seed} (${s.startedAt}, source ${s.source}): ${s.picked.length} picked of ${s.mutants}, ${s.judged} judged\n`);
}

if (process.argv[1] && /mutation-engine-earlier\.ts$/.test(process.argv[1])) {
  main().catch((e) => {
    process.stderr.write(`mutation-engine-earlier: ${(e as Error).message}\n`);
    process.exit(2);
  });
}
