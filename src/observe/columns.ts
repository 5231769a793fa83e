/**
 * How wide the columns behind Integer and Decimal properties are (§8 gives
 * digits; a database column has a width):
 *
 * limits.integerWidth — create one record whose first Integer property holds
 * 2147483648 (2^31, one past a 32-bit column): stored as sent → 'digits';
 * stored as 2147483647 → '32-bit clamped'; refused → 2147483647 is tried:
 * stored as sent → '32-bit refused'.
 *
 * limits.decimalScale — create one record whose first Decimal property has
 * one decimal too many, ending in 6 (1.006 for 2 decimals): refused →
 * 'refused'; stored as 1.01 → 'rounded'; as 1.00 → 'truncated'.
 *
 * Records are read back by id and deleted.
 */
import type { Rec, StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { resources, type PayloadPropModel, type ResourceModel } from '../schema/model.js';
import { INT32_MAX, decimalUnderScale, normalizeDecimal, normalizeInteger } from '../values/index.js';
import type { Shared } from './shared.js';
import { couldNotTell, is2xx, observation, statusText, type Probe } from './types.js';

const WIDTH = 'limits.integerWidth';
const SCALE = 'limits.decimalScale';

/** The first writable resource needing no reference to exist with a property of this kind, and that property. */
function subject(kind: 'integer' | 'decimal'): { r: ResourceModel; prop: PayloadPropModel } | undefined {
  for (const r of resources()) {
    if (!r.writable || r.payload.some((p) => p.references && p.required)) continue;
    const prop = r.payload.find((p) => p.kind === kind && p.safeValue === undefined && (kind === 'integer' || (p.decimal && p.decimal.scale > 0)));
    if (prop) return { r, prop };
  }
  return undefined;
}

interface Stored { exchanges: Exchange[]; refused: boolean; stored?: unknown; ids: string[]; problem?: string }

/** Create one record with `value` in `prop`, read it back: what was stored, or that it was refused. */
async function store(client: StoreClient, shared: Shared, r: ResourceModel, prop: PayloadPropModel, value: string, i: number): Promise<Stored> {
  const created = await client.create(r, [shared.payload(r, 'columns', i, { [prop.name]: value })]);
  const ids = (created.value ?? []).map((x) => x?.id).filter((id): id is string => typeof id === 'string').concat(created.recovered ?? []);
  const ex = created.exchange;
  if (!ex.response || ex.response.status >= 500) return { exchanges: [ex], refused: false, ids, problem: `no usable answer: ${created.problem}` };
  if (!is2xx(ex)) return { exchanges: [ex], refused: true, ids };
  if (!ids.length) return { exchanges: [ex], refused: false, ids, problem: `answered ${statusText(ex)} without a record id` };
  const got = await shared.readBack(r, ids[0]);
  return { exchanges: [ex, got.exchange], refused: false, ids, stored: (got.rec as Rec | undefined)?.[prop.recordField ?? prop.name] };
}

async function cleanUp(shared: Shared, r: ResourceModel, tried: Stored[]): Promise<void> {
  const ids = tried.flatMap((t) => t.ids);
  if (ids.length) await shared.deleteOwned(r, ids).catch(() => undefined);
}

export const integerWidthProbe: Probe = {
  name: 'integer width',
  keys: [WIDTH],
  phase: 2,
  writes: true,
  async run({ client, shared }) {
    const found = subject('integer');
    if (!found) return { [WIDTH]: couldNotTell('no writable resource has an Integer property') };
    const { r, prop } = found;
    const over = (INT32_MAX + 1n).toString();
    const edge = INT32_MAX.toString();
    const where = `${r.prefix}/create, ${prop.name}`;
    const tried: Stored[] = [];
    try {
      const first = await store(client, shared, r, prop, over, 0);
      tried.push(first);
      if (first.problem) return { [WIDTH]: couldNotTell(`a create with ${prop.name} ${over} got ${first.problem} (${where})`, ...first.exchanges) };
      if (!first.refused) {
        const got = normalizeInteger(first.stored);
        if (got === over) return { [WIDTH]: observation('digits', `${over} (one past a 32-bit column) is stored as sent (${where}): the column holds the digits §8 gives`, ...first.exchanges) };
        if (got === edge) return { [WIDTH]: observation('32-bit clamped', `${over} is stored as ${edge} (${where}): a 32-bit column clamping what is beyond it`, ...first.exchanges) };
        return { [WIDTH]: couldNotTell(`${over} was stored as ${JSON.stringify(first.stored)} (${where})`, ...first.exchanges) };
      }
      const second = await store(client, shared, r, prop, edge, 1);
      tried.push(second);
      const ev = [...first.exchanges, ...second.exchanges];
      if (!second.refused && normalizeInteger(second.stored) === edge) {
        return { [WIDTH]: observation('32-bit refused', `${over} is refused (${statusText(first.exchanges[0])}) and ${edge} stored as sent (${where}): a 32-bit column refusing what is beyond it`, ...ev) };
      }
      return { [WIDTH]: couldNotTell(`${over} is refused and ${edge} ${second.refused ? 'too' : `got ${second.problem ?? `stored as ${JSON.stringify(second.stored)}`}`} (${where})`, ...ev) };
    } finally {
      await cleanUp(shared, r, tried);
    }
  },
};

export const decimalScaleProbe: Probe = {
  name: 'decimal scale',
  keys: [SCALE],
  phase: 2,
  writes: true,
  async run({ client, shared }) {
    const found = subject('decimal');
    if (!found) return { [SCALE]: couldNotTell('no writable resource has a Decimal property with decimals') };
    const { r, prop } = found;
    const scale = prop.decimal!.scale;
    const value = `1.${'0'.repeat(scale)}6`;
    const where = `${r.prefix}/create, ${prop.name} (${scale} decimals)`;
    const tried: Stored[] = [];
    try {
      const t = await store(client, shared, r, prop, value, 2);
      tried.push(t);
      if (t.problem) return { [SCALE]: couldNotTell(`a create with ${prop.name} ${value} got ${t.problem} (${where})`, ...t.exchanges) };
      if (t.refused) return { [SCALE]: observation('refused', `${value} (one decimal too many) is refused: ${statusText(t.exchanges[0])} (${where})`, ...t.exchanges) };
      const got = normalizeDecimal(t.stored);
      for (const reading of ['rounded', 'truncated'] as const) {
        if (got === normalizeDecimal(decimalUnderScale(value, scale, reading))) return { [SCALE]: observation(reading, `${value} is stored as ${String(t.stored)} (${where}): excess decimals are ${reading}`, ...t.exchanges) };
      }
      return { [SCALE]: couldNotTell(`${value} was stored as ${JSON.stringify(t.stored)}, neither rounded nor truncated to ${scale} decimals (${where})`, ...t.exchanges) };
    } finally {
      await cleanUp(shared, r, tried);
    }
  },
};
