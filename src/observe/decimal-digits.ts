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
import type { StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { decimalLimitUnder, resources, type DecimalReading, type PayloadPropModel, type ResourceModel } from '../schema/model.js';
import { largestDecimal, sameStoredValue } from '../values/index.js';
import type { Shared } from './shared.js';
import { couldNotTell, is2xx, observation, statusText, type Probe } from './types.js';

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

interface Tried { reading: DecimalReading; value: string; exchanges: Exchange[]; refused: boolean; stored?: unknown; ids: string[] }

async function tryReading(client: StoreClient, shared: Shared, r: ResourceModel, prop: PayloadPropModel, reading: DecimalReading): Promise<Tried> {
  const value = largestDecimal(decimalLimitUnder(prop.decimal!, reading));
  const created = await client.create(r, [shared.payload(r, 'decimal', reading === 'integer digits' ? 0 : 1, { [prop.name]: value })]);
  const ids = (created.value ?? []).map((x) => x?.id).filter((id): id is string => typeof id === 'string').concat(created.recovered ?? []);
  const ex = created.exchange;
  if (!ex.response || ex.response.status >= 500) return { reading, value, exchanges: [ex], refused: false, ids, stored: undefined };
  if (!is2xx(ex)) return { reading, value, exchanges: [ex], refused: true, ids };
  if (!ids.length) return { reading, value, exchanges: [ex], refused: false, ids };
  const got = await shared.readBack(r, ids[0]);
  return { reading, value, exchanges: [ex, got.exchange], refused: false, ids, stored: got.rec?.[prop.recordField ?? prop.name] };
}

export const decimalDigitsProbe: Probe = {
  name: 'decimal digits',
  keys: [KEY],
  phase: 2,
  writes: true,
  async run({ client, shared }) {
    const found = subject();
    if (!found) return { [KEY]: couldNotTell('no writable resource has a Decimal property whose readings differ') };
    const { r, prop } = found;
    const where = `${r.prefix}/create, ${prop.name}`;
    const tried: Tried[] = [];
    try {
      for (const reading of ['integer digits', 'digits in all'] as const) {
        const t = await tryReading(client, shared, r, prop, reading);
        tried.push(t);
        const ev = tried.flatMap((x) => x.exchanges);
        if (t.refused) continue;
        if (t.stored !== undefined && sameStoredValue('decimal', t.value, t.stored)) {
          const before = tried.length > 1 ? `${tried[0].value} is refused (${statusText(tried[0].exchanges[0])}), ` : '';
          return { [KEY]: observation(reading, `${before}${t.value} is stored as sent (${where}): "${prop.decimal!.digits} digits, ${prop.decimal!.scale} decimals" counts ${reading}`, ...ev) };
        }
        return { [KEY]: couldNotTell(`a create with ${prop.name} ${t.value} got ${statusText(t.exchanges[0])} and ${t.stored === undefined ? 'no stored value read back' : `stored ${JSON.stringify(t.stored)}`} (${where})`, ...ev) };
      }
      return { [KEY]: couldNotTell(`both ${tried.map((t) => t.value).join(' and ')} are refused (${where})`, ...tried.flatMap((x) => x.exchanges)) };
    } finally {
      const ids = tried.flatMap((t) => t.ids);
      if (ids.length) await shared.deleteOwned(r, ids).catch(() => undefined);
    }
  },
};
