/**
 * The records a resource's filter checks judge against, and what each filter
 * reads of them. Writable resources: a fixture of generated records built to
 * split every filter (fixture.ts). Read-only resources: a sample of the
 * records already there (sample.ts). Either way, expectations are computed
 * from the records as get shows them, never from what was sent.
 */
import { fieldKind, lower, type FilterModel, type Scoped } from '../../src/check/index.js';

// the oracle's vocabulary lives in the kit (src/check/oracle.ts), shared with the invariants every answer is judged by
export { fieldKind, lower, type Scoped };

/** Distinct non-empty values of the filtered field among the scope's records (a filter value may not exceed maxLength). */
export function poolOf(s: Scoped, f: FilterModel): string[] {
  const out = new Set<string>();
  for (const rec of s.records) {
    const v = rec[f.field];
    if (typeof v !== 'string' || v === '') continue;
    if (f.maxLength !== undefined && Array.from(v).length > f.maxLength) continue;
    out.add(v);
  }
  return [...out];
}

/** At most n items, spread evenly over the list. */
export function spread<T>(list: readonly T[], n: number): T[] {
  if (list.length <= n) return [...list];
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]);
}
