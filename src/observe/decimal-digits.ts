/**
 * limits.decimalDigits — §8 gives prices and amounts as "Decimal (8 digits,
 * 2 decimals)" without saying whether the 8 digits are those before the point
 * (largest 99999999.99) or all of them, as SQL DECIMAL(8,2) (largest 999999.99).
 *
 * Create one record whose first such property holds the largest value of the
 * 'integer digits' reading: stored as sent → 'integer digits'. Refused (4xx) →
 * the largest of the 'digits in all' reading: stored as sent → 'digits in all'.
 * Anything else cannot tell (the limits.decimal-digits check judges what a
 * target stores). Records are read back by id and deleted.
 */
import { decimalLimitUnder, resources, type DecimalReading, type PayloadPropModel, type ResourceModel } from '../schema/model.js';
import { largestDecimal, sameStoredValue } from '../values/index.js';
import type { Shared } from './shared.js';
import { couldNotTell, observation, statusText, type Probe } from './types.js';
import { exchangesOf, withProbeWrites, type ProbeWrite, type Written } from './write-probe.js';

const KEY = 'limits.decimalDigits';

/** The first writable resource with a decimal property whose readings differ, and that needs no reference to exist. */
function subject(): { r: ResourceModel; prop: PayloadPropModel } | undefined {
  for (const r of resources()) {
    if (!r.writable || r.payload.some((p) => p.references && p.required)) continue;
    const prop = r.payload.find((p) => p.kind === 'decimal' && p.decimal && p.decimal.digits > p.decimal.scale && p.safeValue === undefined);
    if (prop) return { r, prop };
  }
  return undefined;
}

interface Tried { reading: DecimalReading; value: string; written: Written; stored?: unknown }

/** One create holding the largest value of `reading`, read back. */
async function tryReading(write: ProbeWrite, shared: Shared, r: ResourceModel, prop: PayloadPropModel, reading: DecimalReading): Promise<Tried> {
  const value = largestDecimal(decimalLimitUnder(prop.decimal!, reading));
  const written = await write([shared.payload(r, 'decimal', reading === 'integer digits' ? 0 : 1, { [prop.name]: value })], `a create with ${prop.name} ${value}`);
  return { reading, value, written, stored: written.stored[0]?.[prop.recordField ?? prop.name] };
}

export const decimalDigitsProbe: Probe = {
  name: 'decimal digits',
  keys: [KEY],
  phase: 2,
  writes: true,
  async run({ shared }) {
    const found = subject();
    if (!found) return { [KEY]: couldNotTell('no writable resource has a Decimal property whose readings differ') };
    const { r, prop } = found;
    const where = `${r.prefix}/create, ${prop.name}`;
    return withProbeWrites(shared, r, async (write) => {
      const tried: Tried[] = [];
      for (const reading of ['integer digits', 'digits in all'] as const) {
        const t = await tryReading(write, shared, r, prop, reading);
        tried.push(t);
        const ev = tried.flatMap((x) => exchangesOf(x.written));
        if (t.written.refused) continue;
        if (t.stored !== undefined && sameStoredValue('decimal', t.value, t.stored)) {
          const before = tried.length > 1 ? `${tried[0].value} is refused (${statusText(tried[0].written.exchange)}), ` : '';
          return { [KEY]: observation(reading, `${before}${t.value} is stored as sent (${where}): "${prop.decimal!.digits} digits, ${prop.decimal!.scale} decimals" counts ${reading}`, ...ev) };
        }
        return { [KEY]: couldNotTell(`a create with ${prop.name} ${t.value} got ${statusText(t.written.exchange)} and ${t.stored === undefined ? 'no stored value read back' : `stored ${JSON.stringify(t.stored)}`} (${where})`, ...ev) };
      }
      return { [KEY]: couldNotTell(`both ${tried.map((t) => t.value).join(' and ')} are refused (${where})`, ...tried.flatMap((x) => exchangesOf(x.written))) };
    });
  },
};
