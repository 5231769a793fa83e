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
import { resources, type PayloadPropModel, type ResourceModel } from '../schema/model.js';
import { INT32_MAX, decimalUnderScale, normalizeDecimal, normalizeInteger } from '../values/index.js';
import type { Shared } from './shared.js';
import { couldNotTell, observation, statusText, type Probe } from './types.js';
import { exchangesOf, withProbeWrites, type ProbeWrite, type Written } from './write-probe.js';

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

/** What one create with `value` in `prop` came to: a problem (no usable answer, no id), a refusal, or the value stored. */
interface Stored { written: Written; refused: boolean; stored?: unknown; problem?: string }

/** Create one record with `value` in `prop`, read it back: what was stored, or that it was refused. */
async function store(write: ProbeWrite, shared: Shared, r: ResourceModel, prop: PayloadPropModel, value: string, i: number): Promise<Stored> {
  const written = await write([shared.payload(r, 'columns', i, { [prop.name]: value })], `a create with ${prop.name} ${value}`);
  // no answer or a 5xx: no reading can be taken from it (the limits checks judge what the store does with such values)
  if (written.unusable) return { written, refused: false, problem: `no usable answer (${statusText(written.exchange)})` };
  if (written.refused) return { written, refused: true };
  if (!written.ids.length) return { written, refused: false, problem: `answered ${statusText(written.exchange)} without a record id` };
  return { written, refused: false, stored: written.stored[0]?.[prop.recordField ?? prop.name] };
}

const evidence = (...tried: Stored[]) => tried.flatMap((t) => exchangesOf(t.written));

export const integerWidthProbe: Probe = {
  name: 'integer width',
  keys: [WIDTH],
  phase: 2,
  writes: true,
  async run({ shared }) {
    const found = subject('integer');
    if (!found) return { [WIDTH]: couldNotTell('no writable resource has an Integer property') };
    const { r, prop } = found;
    const over = (INT32_MAX + 1n).toString();
    const edge = INT32_MAX.toString();
    const where = `${r.prefix}/create, ${prop.name}`;
    return withProbeWrites(shared, r, async (write) => {
      const first = await store(write, shared, r, prop, over, 0);
      if (first.problem) return { [WIDTH]: couldNotTell(`a create with ${prop.name} ${over} got ${first.problem} (${where})`, ...evidence(first)) };
      if (!first.refused) {
        const got = normalizeInteger(first.stored);
        if (got === over) return { [WIDTH]: observation('digits', `${over} (one past a 32-bit column) is stored as sent (${where}): the column holds the digits §8 gives`, ...evidence(first)) };
        if (got === edge) return { [WIDTH]: observation('32-bit clamped', `${over} is stored as ${edge} (${where}): a 32-bit column clamping what is beyond it`, ...evidence(first)) };
        return { [WIDTH]: couldNotTell(`${over} was stored as ${JSON.stringify(first.stored)} (${where})`, ...evidence(first)) };
      }
      const second = await store(write, shared, r, prop, edge, 1);
      const ev = evidence(first, second);
      if (!second.refused && normalizeInteger(second.stored) === edge) {
        return { [WIDTH]: observation('32-bit refused', `${over} is refused (${statusText(first.written.exchange)}) and ${edge} stored as sent (${where}): a 32-bit column refusing what is beyond it`, ...ev) };
      }
      return { [WIDTH]: couldNotTell(`${over} is refused and ${edge} ${second.refused ? 'too' : `got ${second.problem ?? `stored as ${JSON.stringify(second.stored)}`}`} (${where})`, ...ev) };
    });
  },
};

export const decimalScaleProbe: Probe = {
  name: 'decimal scale',
  keys: [SCALE],
  phase: 2,
  writes: true,
  async run({ shared }) {
    const found = subject('decimal');
    if (!found) return { [SCALE]: couldNotTell('no writable resource has a Decimal property with decimals') };
    const { r, prop } = found;
    const scale = prop.decimal!.scale;
    const value = `1.${'0'.repeat(scale)}6`;
    const where = `${r.prefix}/create, ${prop.name} (${scale} decimals)`;
    return withProbeWrites(shared, r, async (write) => {
      const t = await store(write, shared, r, prop, value, 2);
      const ev = evidence(t);
      if (t.problem) return { [SCALE]: couldNotTell(`a create with ${prop.name} ${value} got ${t.problem} (${where})`, ...ev) };
      if (t.refused) return { [SCALE]: observation('refused', `${value} (one decimal too many) is refused: ${statusText(t.written.exchange)} (${where})`, ...ev) };
      const got = normalizeDecimal(t.stored);
      for (const reading of ['rounded', 'truncated'] as const) {
        if (got === normalizeDecimal(decimalUnderScale(value, scale, reading))) return { [SCALE]: observation(reading, `${value} is stored as ${String(t.stored)} (${where}): excess decimals are ${reading}`, ...ev) };
      }
      return { [SCALE]: couldNotTell(`${value} was stored as ${JSON.stringify(t.stored)}, neither rounded nor truncated to ${scale} decimals (${where})`, ...ev) };
    });
  },
};
