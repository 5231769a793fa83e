/**
 * Checks of run flags that need more than their syntax, made before anything
 * is started or written (a usage error leaves no report folder behind):
 * `--only` must select at least one check of the catalogue, `--report-dir`
 * must be a writable directory or creatable as one.
 */
import { UsageError } from './options.js';
import { INVOCATION } from '../invocation.js';
import { allItems, catalogue } from '../items/index.js';
import { globToRegExp } from '../items/glob.js';
import { onlyPattern } from '../items/select.js';

/** Levenshtein distance, for "did you mean" (ids are short: the quadratic table is fine). */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/**
 * The ids closest to what a pattern spells. A glob is compared, `*` and all,
 * with the globs the ids make (`product.*`, `product.filters.*`,
 * `*.filters.range.*`): `produkt.*` suggests `product.*`, not one id.
 */
export function closestIds(pattern: string, ids: readonly string[], n = 3): string[] {
  const candidates = pattern.includes('*') ? [...globsOf(ids), ...ids] : ids;
  const spelled = pattern.includes('*') ? pattern : pattern.replace(/\*/g, '');
  return [...candidates].map((id) => ({ id, d: editDistance(spelled, id) })).sort((a, b) => a.d - b.d || a.id.localeCompare(b.id)).slice(0, n).map((x) => x.id);
}

/** Every glob of whole dotted segments the ids match: `a.*`, `a.b.*`, `*.b.*`, `*.b.c` … (each matches at least one id). */
function globsOf(ids: readonly string[]): Set<string> {
  const globs = new Set<string>();
  for (const id of ids) {
    const parts = id.split('.');
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j <= parts.length; j++) {
        if (i === 0 && j === parts.length) continue;
        globs.add(`${i > 0 ? '*.' : ''}${parts.slice(i, j).join('.')}${j < parts.length ? '.*' : ''}`);
      }
    }
  }
  return globs;
}

/**
 * `--only` that selects no check is a usage error naming the closest check
 * ids: a typo must not become a run that judges nothing. An item pattern
 * (`<check>#<case>`) must also name an existing item.
 */
export function checkOnly(only: string, what = '--only'): void {
  const ids = catalogue().map((c) => c.id);
  const globs = only.split(',').map((s) => s.trim()).filter(Boolean);
  if (!globs.length) throw new UsageError(`${what} is empty: give check ids or globs, e.g. --only 'product.*'`);
  const items = allItems().map((i) => i.id);
  const matchesNothing = (glob: string) => {
    const re = onlyPattern(glob);
    if (!ids.some((id) => re.test(`${id} — `))) return true;
    if (!glob.includes('#')) return false;
    const itemRe = globToRegExp(glob);
    return !items.some((id) => itemRe.test(id));
  };
  const empty = globs.filter(matchesNothing);
  if (empty.length === globs.length) {
    const hint = closestIds(globs[0], globs[0].includes('#') ? items : ids);
    throw new UsageError(`${what} '${only}' matches no check of the catalogue; closest ids: ${hint.join(', ')} (list them all: ${INVOCATION} list)`);
  }
}

export { checkReportDir } from './report-dir.js';
