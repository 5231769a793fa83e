/**
 * What a run will judge, known before its first check: the checks of the item
 * catalogue (src/items) that the selection keeps — `--only` with the matching
 * vitest applies (onlyPattern, as the test-name pattern), `--shard` with the
 * files vitest's own sequencer gives the shard — so the progress line starts
 * at its final total, and `storecheck list` prints what a run would run.
 *
 * Shards split check *files*; which checks a file registers is stated here
 * (suiteFileSelects: a naming convention and its exceptions). A unit test
 * imports every suite file and fails when a file registers other checks than
 * its entry says (test/unit/run-plan.test.ts), and the collector compares each
 * file vitest collects with it, so a stale entry cannot make the total wrong
 * unnoticed.
 *
 * `--read-only`: write checks are counted. They still end, as skipped ("needs
 * create/update/delete"), and appear in the report: done reaches the total.
 */
import { basename } from 'node:path';
import { catalogue, type CheckDef, type ItemDef } from '../items/index.js';
import { resource } from '../schema/model.js';
import { onlyPattern } from './only.js';

/**
 * Which catalogue checks a suite file registers. The convention: a file
 * `suites/<a>-<b>.check.ts` registers the checks whose rule starts with
 * `<a>.<b>.` (auth.check.ts: auth.*, lifecycle-create.check.ts:
 * lifecycle.create.*). The files that split a rule family otherwise are
 * listed here.
 */
export const SUITE_FILE_EXCEPTIONS: Record<string, (c: CheckDef) => boolean> = {
  'filters.check.ts': (c) => c.rule.startsWith('filters.') && resource(c.resource).writable,
  'filters-readonly.check.ts': (c) => c.rule.startsWith('filters.') && !resource(c.resource).writable,
};

/** The checks a suite file registers, as a predicate (the exception, or the naming convention). */
export function suiteFileSelects(file: string): (c: CheckDef) => boolean {
  const name = basename(file);
  const exception = SUITE_FILE_EXCEPTIONS[name];
  if (exception) return exception;
  const prefix = name.replace(/\.check\.ts$/, '').replace(/-/g, '.') + '.';
  return (c) => c.rule.startsWith(prefix);
}

/** The catalogue checks a suite file registers (by its path or name). */
export function checksOfFile(file: string): CheckDef[] {
  return catalogue().filter(suiteFileSelects(file));
}

/** Does --only select this check (the test-name pattern vitest applies: `<id> — <title>`)? */
export function onlySelects(only: string | undefined): (id: string) => boolean {
  if (!only) return () => true;
  const re = onlyPattern(only);
  return (id) => re.test(`${id} — `);
}

/** Checks of the catalogue --only selects, in catalogue order. */
export function selectChecks(only?: string): CheckDef[] {
  const selects = onlySelects(only);
  return catalogue().filter((c) => selects(c.id));
}

/**
 * The items of a check --only selects: every item of a check a pattern
 * selects whole; else, when patterns name items (`<check>#<case>`, globs),
 * only the matching items. (The check kit judges by the same rule:
 * src/check/check.ts.)
 */
export function itemSelector(only: string | undefined, def: Pick<CheckDef, 'id'>): (c: string) => boolean {
  if (!only) return () => true;
  const globs = only.split(',').map((s) => s.trim()).filter(Boolean);
  const re = (g: string) => new RegExp(`^${g.split('*').map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  const whole = globs.filter((g) => !g.includes('#')).some((g) => re(g).test(def.id));
  if (whole) return () => true;
  const itemGlobs = globs.filter((g) => g.includes('#')).map(re);
  if (!itemGlobs.length) return () => true;
  return (c) => itemGlobs.some((x) => x.test(`${def.id}#${c}`));
}

/** The items of the selected checks that the run judges. */
export function selectItems(only?: string): ItemDef[] {
  return selectChecks(only).flatMap((c) => {
    const keep = itemSelector(only, c);
    return c.items.filter((i) => keep(i.case));
  });
}

export interface RunPlan {
  /** checks that will finish (passed, failed, error, skipped) if the run is not stopped */
  total: number;
  /** items they judge */
  items: number;
  /** per suite file of the run (path as given): the selected check ids it registers */
  byFile: Map<string, string[]>;
}

/** The plan of a run over these suite files (all of them, or one shard's). */
export function planRun(files: string[], only?: string): RunPlan {
  const selects = onlySelects(only);
  const byFile = new Map<string, string[]>();
  let total = 0;
  let items = 0;
  for (const f of files) {
    const chosen = checksOfFile(f).filter((c) => selects(c.id));
    byFile.set(f, chosen.map((c) => c.id));
    total += chosen.length;
    for (const c of chosen) {
      const keep = itemSelector(only, c);
      items += c.items.filter((i) => keep(i.case)).length;
    }
  }
  return { total, items, byFile };
}
