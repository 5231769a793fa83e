/**
 * Which checks and items a run judges (`--only`): one rule for vitest's
 * test-name pattern, the check kit's item selection, `storecheck list` and
 * the run's plan (plan.ts). Light to import: the CLI's list and validation
 * use it without loading vitest.
 *
 * `--only 'product.*,*.filters.range.*'`: check ids or item ids
 * (`<check>#<case>`), globs (glob.ts), comma-separated. An item pattern
 * selects its check; the check then judges only the matching items.
 */
import { globSource, globToRegExp } from './glob.js';
import { catalogue } from './index.js';
import type { CheckDef, ItemDef } from './types.js';

/** The globs of an --only value. */
function globsOf(only: string): string[] {
  return only.split(',').map((s) => s.trim()).filter(Boolean);
}

/** `--only` → vitest's test-name pattern over check ids (tests are named `<id> — <title>`). */
export function onlyPattern(only: string): RegExp {
  return new RegExp(`^(?:${globsOf(only).map((g) => globSource(g.split('#')[0])).join('|')}) — `);
}

/** Does --only select this check (the test-name pattern vitest applies)? */
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
 * only the matching items. The check kit judges by this rule (src/check).
 */
export function itemSelector(only: string | undefined, def: Pick<CheckDef, 'id'>): (c: string) => boolean {
  if (!only) return () => true;
  const globs = globsOf(only);
  const whole = globs.filter((g) => !g.includes('#')).some((g) => globToRegExp(g).test(def.id));
  if (whole) return () => true;
  const itemGlobs = globs.filter((g) => g.includes('#')).map(globToRegExp);
  if (!itemGlobs.length) return () => true;
  return (c) => itemGlobs.some((x) => x.test(`${def.id}#${c}`));
}

/** The items of a check that the run judges under --only. */
export function selectedItems(only: string | undefined, def: CheckDef): ItemDef[] {
  const keep = itemSelector(only, def);
  return def.items.filter((i) => keep(i.case));
}

/** The items of the selected checks that the run judges. */
export function selectItems(only?: string): ItemDef[] {
  return selectChecks(only).flatMap((c) => selectedItems(only, c));
}
