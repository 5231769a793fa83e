/**
 * The filters of a model-based run's get and count commands: a generated
 * choice of one filter key of the resource and one of the model's records
 * whose value it takes (§4 Filter naming: an array filter equals one listed
 * value, a range bound `_min`/`_max`, a Boolean), beside the id filter of a
 * generated subset of the run's ids — live and deleted ones. What the model
 * expects comes from the filter oracle of the kit (src/check/oracle.ts)
 * applied to the model's records as the target last showed them (agreeing
 * with the model), under the observed range inclusivity; deleted records are
 * never expected.
 */
import { expectation, type Rec, type FilterModel, type ResourceModel, type Term } from '../../src/check/index.js';
import { withinLimits } from '../filters/cases.js';
import { andMode } from '../filters/query.js';
import { fieldKind } from '../filters/scoped.js';
import type { StoreModel } from './state.js';

/** A generated filter: which key (null: the id filter alone), which record's value, which of the run's ids. */
export interface FilterSpec {
  key: number | null;
  rec: number;
  /** indexes into the run's ids (empty: all of them) */
  subset: number[];
}

export interface ModelQuery {
  filters: Rec;
  terms: Term[];
  /** ids the query is narrowed to */
  scope: string[];
  /** live records that must be returned / must not / may be either (a value the oracle cannot read) */
  required: string[];
  forbidden: string[];
  open: string[];
}

const FILTERABLE = new Set(['string', 'predefined', 'integer', 'decimal', 'boolean', 'datetime', 'date']);

/**
 * The filter keys a model can judge: on a field a payload property sets (the
 * model knows its value), not the id, not the page title pair (which key a
 * target takes is an observation of its own, judged by the filter suite).
 */
export function modelFilterKeys(r: ResourceModel): FilterModel[] {
  const set = new Set(r.payload.map((p) => p.recordField ?? p.name));
  const aliased = new Set(r.filters.filter((f) => f.aliasOf).map((f) => f.aliasOf!));
  return r.filters.filter((f) => f.key !== 'id' && set.has(f.field) && !f.aliasOf && !aliased.has(f.key) && FILTERABLE.has(fieldKind(r, f)));
}

/** The value a term takes from a record as get shows it, or undefined when it makes no valid filter value. */
function termValue(r: ResourceModel, f: FilterModel, rec: Rec | undefined): unknown {
  const v = rec?.[f.field];
  if (typeof v !== 'string' || v === '') return undefined;
  if (f.maxLength !== undefined && Array.from(v).length > f.maxLength) return undefined;
  if (f.filter === 'array') return [v];
  if (f.filter === 'boolean') return v === '1' || v === 'true' ? 'true' : 'false';
  const kind = fieldKind(r, f);
  const bound = kind === 'decimal' ? v.replace(',', '.') : v;
  return withinLimits(f, bound) ? bound : undefined;
}

/** The query of a spec against the model now; the expectation of every record in its scope. */
export function modelQuery(model: StoreModel, spec: FilterSpec): ModelQuery {
  const { r } = model;
  const all = model.allIds();
  const scope = spec.subset.length ? [...new Set(spec.subset.map((i) => all[i % all.length]))] : all;
  const inScope = new Set(scope.map((x) => x.toLowerCase()));
  const live = [...model.live.values()].filter((x) => inScope.has(x.id.toLowerCase()));
  const terms: Term[] = [];
  // several filters combine as the target observed (filters.combination): under OR the id filter would
  // widen the result, so the id filter goes alone
  const keys = modelFilterKeys(r);
  if (spec.key !== null && keys.length && live.length && andMode()) {
    const f = keys[spec.key % keys.length];
    const value = termValue(r, f, live[spec.rec % live.length].reading);
    if (value !== undefined) terms.push({ f, value });
  }
  const filters: Rec = { id: scope, ...Object.fromEntries(terms.map((t) => [t.f.key, t.value])) };
  const required: string[] = [];
  const forbidden: string[] = [...model.goneIds().filter((id) => inScope.has(id.toLowerCase()))];
  const open: string[] = [];
  for (const rec of live) {
    const e = rec.reading ? expectation(r, terms, rec.reading) : 'unknown';
    (e === 'in' ? required : e === 'out' ? forbidden : open).push(rec.id);
  }
  return { filters, terms, scope, required, forbidden, open };
}

export const queryText = (q: ModelQuery) =>
  `${q.terms.map((t) => `${t.f.key}=${JSON.stringify(t.value)}`).join(' ')}${q.terms.length ? ' and ' : ''}the id filter of ${q.scope.length} of the run's ids`;
