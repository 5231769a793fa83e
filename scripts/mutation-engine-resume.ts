/**
 * Whether `npm run mutation:engine -- --resume` may continue the run in a
 * raw/ folder. A run's coverage map (raw/coverage.json) and its records
 * (raw/runs.jsonl) name mutants by StrykerJS's ids, and the ids follow the
 * code: on changed code an id names another mutant. A resume on a rebased
 * tree once judged three mutants "unreached" that every store reaches
 * (docs/proofs.md, seed 2028). So a fresh run keeps a hash of the code it
 * mutates (raw/source-hash), and a resume refuses when the hash differs.
 *
 * Kept apart from scripts/mutation-engine.ts, which runs on import, so that
 * the decision can be tested (test/unit/mutation-engine-resume.test.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Where a run keeps the hash of the code it mutates (in raw/). */
export const SOURCE_HASH_FILE = 'source-hash';

/** The files the hash reads: the server's code and data, not its notes. */
const HASHED = /\.(ts|mts|mjs|js|json)$/;

/**
 * A hash of every code file under `root`/reference/, names and contents, in
 * a fixed order: a mutant's id, its coverage and its sample pick hold for
 * this code only.
 */
export function sourceHash(root: string): string {
  const h = createHash('sha256');
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (HASHED.test(e.name)) h.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  walk(join(root, 'reference'));
  return h.digest('hex').slice(0, 16);
}

/** A fresh run: the hash of the code it begins on, in `raw`. */
export function keepSourceHash(root: string, raw: string): void {
  writeFileSync(join(raw, SOURCE_HASH_FILE), sourceHash(root) + '\n');
}

/**
 * Why --resume cannot continue the run in `raw` (undefined: it can). A run
 * begun before the hash was kept is refused too: nothing says its code is
 * today's.
 */
export function resumeRefusal(root: string, raw: string): string | undefined {
  const file = join(raw, SOURCE_HASH_FILE);
  if (!existsSync(file)) return `--resume: ${relative(root, raw)} holds no ${SOURCE_HASH_FILE} (a run begun before it was kept): start a fresh run`;
  const was = readFileSync(file, 'utf8').trim();
  const now = sourceHash(root);
  return was === now ? undefined : `--resume: reference/ changed since this run began (source hash ${was}, now ${now}): its coverage map and records name other mutants on this code; start a fresh run (another --out, or without --resume)`;
}
