/**
 * filters.combination and filters.rangeInclusive (§4 "How several filters
 * combine, and whether the range bounds are inclusive: not shown"), on data
 * already there (read-only resources first):
 *
 * combination — records A and B with different values of a String array filter
 * f; one get with {id: [A.id], f: [B.f]}: nothing → 'and' (confirmed by {f: [B.f]}
 * alone finding B, so the filter itself works); A and B both → 'or'.
 *
 * rangeInclusive — a record A and a range field x it holds; {x_min: A.x,
 * x_max: A.x}: A comes back → inclusive; nothing → exclusive. Tried on a
 * numeric field and on createdon; the two must agree. (Even a server that ORs
 * the two bounds of one field answers decisively: inclusive-OR returns
 * everything, exclusive-OR everything but the records equal to A.x.)
 */
import type { Rec } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import type { FilterModel, ResourceModel } from '../schema/model.js';
import { normalizeDecimal } from '../values/index.js';
import { couldNotTell, observation, type Probe } from './types.js';
import { idsOf } from './shared.js';

const COMBINATION = 'filters.combination';
const RANGE = 'filters.rangeInclusive';

function textFilter(r: ResourceModel): FilterModel | undefined {
  return r.filters.find((f) => f.filter === 'array' && f.valueKind === 'string' && f.key !== 'id' && !f.aliasOf && f.field === f.key);
}

export const combinationProbe: Probe = {
  name: 'filter combination',
  keys: [COMBINATION],
  phase: 1,
  async run({ client, shared }) {
    const candidates = await shared.byCount(2, (r) => r.filters.some((f) => f.key === 'id') && !!textFilter(r));
    for (const { r } of candidates) {
      const f = textFilter(r)!;
      const { records } = await shared.page(r.name);
      const a = records.find((x) => typeof x.id === 'string' && typeof x[f.field] === 'string' && x[f.field] !== '');
      const b = a && records.find((x) => typeof x.id === 'string' && typeof x[f.field] === 'string' && x[f.field] !== '' && x[f.field] !== a[f.field]);
      if (!a || !b) continue;
      const both = await client.get(r, { filters: { id: [a.id], [f.key]: [b[f.field]] } });
      const where = `${r.prefix}/get with {id: [A], ${f.key}: [${f.field} of B]}`;
      if (!both.ok) return { [COMBINATION]: couldNotTell(`${where} failed: ${both.problem}`, both.exchange) };
      const got = new Set(idsOf(both.value!));
      const hasA = got.has(String(a.id).toLowerCase());
      const hasB = got.has(String(b.id).toLowerCase());
      if (hasA && hasB) return { [COMBINATION]: observation('or', `${where} returned both A and B (${got.size} record(s)): filters combine with OR`, both.exchange) };
      if (got.size === 0) {
        const alone = await client.get(r, { filters: { [f.key]: [b[f.field]] } });
        if (alone.ok && idsOf(alone.value!).includes(String(b.id).toLowerCase())) {
          return { [COMBINATION]: observation('and', `${where} returned nothing while {${f.key}: [${f.field} of B]} alone finds B: filters combine with AND`, both.exchange, alone.exchange) };
        }
        return { [COMBINATION]: couldNotTell(`${where} returned nothing, but {${f.key}} alone did not find B either`, both.exchange, alone.exchange) };
      }
      const which = hasA ? `only A: the ${f.key} filter seems ignored` : hasB ? 'B but not A: the id filter seems ignored' : 'other records';
      return { [COMBINATION]: couldNotTell(`${where} returned ${which}`, both.exchange) };
    }
    return { [COMBINATION]: couldNotTell('no resource with an id filter and a String array filter holds two records with different values') };
  },
};

/** Range fields with both bounds: numeric ones first, then createdon. */
function rangeFields(r: ResourceModel): Array<{ field: string; min: string; max: string; kind: string }> {
  const out: Array<{ field: string; min: string; max: string; kind: string }> = [];
  for (const f of r.filters) {
    if (f.filter !== 'range' || f.bound !== 'min') continue;
    const max = r.filters.find((x) => x.filter === 'range' && x.bound === 'max' && x.field === f.field);
    if (max && !f.acceptsArray) out.push({ field: f.field, min: f.key, max: max.key, kind: f.valueKind });
  }
  const numeric = out.find((x) => x.kind === 'integer' || x.kind === 'decimal');
  const created = out.find((x) => x.kind === 'datetime');
  return [numeric, created].filter((x): x is NonNullable<typeof x> => !!x);
}

function boundOf(kind: string, v: unknown): string | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  if (kind === 'decimal') return normalizeDecimal(v);
  return v;
}

export const rangeProbe: Probe = {
  name: 'range inclusivity',
  keys: [RANGE],
  phase: 1,
  async run({ client, shared }) {
    const candidates = await shared.byCount(1, (r) => rangeFields(r).length > 0);
    if (!candidates.length) return { [RANGE]: couldNotTell('no resource with range filters holds records') };
    const { r } = candidates[0];
    const { records } = await shared.page(r.name);
    const verdicts: Array<{ field: string; inclusive: boolean; ex: Exchange }> = [];
    const failed: Exchange[] = [];
    for (const x of rangeFields(r)) {
      const a: Rec | undefined = records.find((rec) => boundOf(x.kind, rec[x.field]) !== undefined);
      if (!a) continue;
      const v = boundOf(x.kind, a[x.field])!;
      const res = await client.get(r, { filters: { [x.min]: v, [x.max]: v } });
      if (!res.ok) {
        failed.push(res.exchange);
        continue;
      }
      verdicts.push({ field: x.field, inclusive: idsOf(res.value!).includes(String(a.id).toLowerCase()), ex: res.exchange });
    }
    if (!verdicts.length) return { [RANGE]: couldNotTell(`no range query on ${r.prefix} could be judged`, ...failed) };
    const say = (v: (typeof verdicts)[number]) => `${v.field}_min = ${v.field}_max = a record's ${v.field} ${v.inclusive ? 'returned' : 'did not return'} that record`;
    const first = verdicts[0].inclusive;
    if (verdicts.every((v) => v.inclusive === first)) {
      return { [RANGE]: observation(first, `${verdicts.map(say).join('; ')} (${r.prefix}/get): range bounds are ${first ? 'inclusive' : 'exclusive'}`, ...verdicts.map((v) => v.ex)) };
    }
    return { [RANGE]: couldNotTell(`range fields disagree on ${r.prefix}: ${verdicts.map(say).join('; ')}`, ...verdicts.map((v) => v.ex)) };
  },
};
