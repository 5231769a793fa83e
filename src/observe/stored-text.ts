/**
 * What a store does with the text and time of a record it writes (two
 * collections, created and deleted):
 *
 * time.createdonOffsetMinutes — the createdon of a record just created
 * against the client's clock: 0 when written in UTC, else the store's offset
 * (PHP's date() in date.timezone, SQL Server's GETDATE()), to the quarter
 * hour; beyond 2 minutes of a quarter hour: a clock that is off, not a zone.
 *
 * http.jsonEscapes — that create's answer as text, its name holding 'É' and
 * '/': written as they are, or as \u00c9 (System.Text.Json, PHP json_encode)
 * and '\/' (PHP).
 *
 * text.astral — a name holding a 4-byte character (an emoji), read back by
 * id: kept, refused (MySQL utf8mb3 in strict mode) or stored as '?'.
 *
 * text.normalization, collation.normalization — a third create, beside the
 * other two: a name holding e + U+0301, found by the name filter as sent and
 * NFC-normalized (normalization.ts).
 */
import type { Rec } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { resource } from '../schema/model.js';
import { astralUnder, describeOffset, utcOffsetMinutes } from '../values/index.js';
import { COMPARE, normalizationOf, STORE } from './normalization.js';
import { couldNotTell, is2xx, observation, statusText, unusableAnswer, type Probe } from './types.js';
import type { Observation } from '../report/types.js';

const ASTRAL = 'text.astral';
const OFFSET = 'time.createdonOffsetMinutes';
const ESCAPES = 'http.jsonEscapes';
const EMOJI = '\u{1F600}';

/** What the answer's text escapes beyond what JSON requires, judged on a value holding 'É' and '/'. */
function escapesOf(ex: Exchange, value: string): Observation {
  const text = ex.response?.text ?? '';
  const plain = text.includes('É');
  const unicode = /\\u00c9/i.test(text);
  const slash = text.includes('\\/');
  if (!plain && !unicode) return couldNotTell(`the answer to a create of a name holding 'É' shows it neither as is nor as \\u00c9`, ex);
  const value_ = unicode ? (slash ? 'non-ascii and slash' : 'non-ascii') : slash ? 'slash' : 'none';
  const said = `${unicode ? "'É' as \\u00c9" : "'É' as is"}, ${slash ? "'/' as '\\/'" : "'/' as is"}`;
  return observation(value_, `a create answer writes the name ${JSON.stringify(value)} with ${said} (${ex.request.path})`, ex);
}

/** When the answer arrived, on the wall clock (now, when not recorded). */
function wallClockOf(ex: Exchange): number {
  return Date.now() - (ex.answeredAt === undefined ? 0 : performance.now() - ex.answeredAt);
}

/** The offset from UTC of a createdon written at an instant the client saw (the middle of the exchange). */
function offsetOf(rec: Rec | undefined, ex: Exchange, answeredAt: number): Observation {
  const written = rec?.createdon;
  const at = answeredAt - (ex.durationMs ?? 0) / 2;
  const minutes = utcOffsetMinutes(written, at);
  if (minutes === undefined) {
    return couldNotTell(`a record created at ${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC (the client's clock) was written with createdon ${JSON.stringify(written)}: not within 2 minutes of a quarter-hour offset`, ex);
  }
  return observation(minutes, `a record created at ${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC (the client's clock) has createdon ${written}: written in ${describeOffset(minutes)} (${ex.request.path})`, ex);
}

export const storedTextProbe: Probe = {
  name: 'stored text and time',
  keys: [ASTRAL, OFFSET, ESCAPES, STORE, COMPARE],
  phase: 2,
  writes: true,
  async run({ client, shared }) {
    const r = resource('collection');
    const prop = r.payload.find((p) => p.kind === 'string' && p.name === 'name') ?? r.payload.find((p) => p.kind === 'string')!;
    const plainName = `${shared.label('text', 0)} Éa/1`;
    const astralName = `${shared.label('text', 1)} a${EMOJI}b`;
    const ids: string[] = [];
    const idsOf = (res: { value?: Rec[]; recovered?: string[] }) => (res.value ?? []).map((x) => x?.id).filter((id): id is string => typeof id === 'string').concat(res.recovered ?? []);
    const out: Record<string, Observation> = {};
    try {
      // the two creates are independent: sent side by side
      const [plain, astral, normalization] = await Promise.all([
        client.create(r, [shared.payload(r, 'text', 0, { [prop.name]: plainName })]),
        client.create(r, [shared.payload(r, 'text', 1, { [prop.name]: astralName })]),
        normalizationOf(client, shared, r, prop, ids),
      ]);
      Object.assign(out, normalization);
      const answeredAt = wallClockOf(plain.exchange);
      ids.push(...idsOf(plain), ...idsOf(astral));
      if (!plain.ok) {
        out[OFFSET] = couldNotTell(`a create of one ${r.title} failed: ${plain.problem}`, plain.exchange);
        out[ESCAPES] = out[OFFSET];
      } else {
        out[OFFSET] = offsetOf(plain.value?.[0], plain.exchange, answeredAt);
        out[ESCAPES] = escapesOf(plain.exchange, plainName);
      }
      out[ASTRAL] = await astralOf(astral, astralName, async (id) => {
        const got = await shared.readBack(r, id);
        return { stored: got.rec?.[prop.recordField ?? prop.name], exchange: got.exchange };
      });
    } finally {
      if (ids.length) await shared.deleteOwned(r, ids).catch(() => undefined);
    }
    return out;
  },
};

async function astralOf(created: { ok: boolean; value?: Rec[]; recovered?: string[]; problem?: string; exchange: Exchange }, sent: string, readBack: (id: string) => Promise<{ stored: unknown; exchange: Exchange }>): Promise<Observation> {
  const ex = created.exchange;
  const unusable = unusableAnswer(ex, 'a create of a name holding an emoji', created.problem);
  if (unusable) return unusable;
  if (!is2xx(ex)) return observation('refused', `a name holding an emoji (4 bytes in UTF-8) is refused: ${statusText(ex)} (${ex.request.path})`, ex);
  const id = (created.value ?? []).map((x) => x?.id).find((x): x is string => typeof x === 'string') ?? created.recovered?.[0];
  if (!id) return couldNotTell(`a create of a name holding an emoji was answered ${statusText(ex)} without a record id`, ex);
  const got = await readBack(id);
  const stored = got.stored;
  for (const reading of ['kept', 'replaced'] as const) {
    if (stored === astralUnder(reading, sent)) return observation(reading, `a name holding an emoji, ${JSON.stringify(sent)}, is stored as ${JSON.stringify(stored)}: ${reading === 'kept' ? 'kept' : "each 4-byte character as '?'"} (${ex.request.path})`, ex, got.exchange);
  }
  return couldNotTell(`a name holding an emoji, ${JSON.stringify(sent)}, was stored as ${JSON.stringify(stored)}`, ex, got.exchange);
}
