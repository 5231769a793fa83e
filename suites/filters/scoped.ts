/**
 * The records a resource's filter checks judge against, and what each filter
 * reads of them. Writable resources: a fixture of generated records built to
 * split every filter (fixture.ts). Read-only resources: a sample of the
 * records already there (sample.ts). Either way, expectations are computed
 * from the records as get shows them, never from what was sent.
 */
import { type Rec, type FilterModel, type ResourceModel, type ScalarKind } from '../../src/check/index.js';

export interface Scoped {
  r: ResourceModel;
  /** the records as get shows them */
  records: Rec[];
  ids: string[];
  /** 'the fixture (…)' / 'the sample (…)', for messages */
  what: string;
}

export const lower = (v: unknown) => String(v ?? '').toLowerCase();

/** The kind of the record field a filter reads (customer birthdate is a date, filtered by DateTime bounds). */
export function fieldKind(r: ResourceModel, f: FilterModel): ScalarKind {
  const k = r.fields.find((x) => x.name === f.field)?.kind;
  return (k && k !== 'array' && k !== 'object' && k !== 'any' ? k : f.valueKind) as ScalarKind;
}

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
