/**
 * limits.longTextUnit — what the long text limit counts (§8: page content
 * "65535 characters"; MySQL's own words for a TEXT column, which holds 65535
 * *bytes*, so an honest store on it counts UTF-8 bytes): one create of a
 * record of the first writable resource with such a String, holding the
 * smallest text the readings answer differently — its limit in characters,
 * all ASCII but the last, a 2-byte 'é', so one byte over the limit in UTF-8
 * (65535 characters, 65536 bytes: a 64 KiB create and a 64 KiB read-back
 * whatever the store escapes; 32 768 two-byte characters would tell the same
 * with a read-back of up to 192 KiB where non-ASCII is written \uXXXX) —
 * read back by id, then deleted:
 *   stored whole                                     → 'characters' (MEDIUMTEXT, nvarchar(max), PostgreSQL text)
 *   refused, while its limit in ASCII is taken       → 'bytes refused' (TEXT in strict mode: "Data too long")
 *   stored cut where the limit's bytes end           → 'bytes cut' (TEXT outside strict mode: cut to a character boundary)
 *   refused, and its limit in ASCII refused too      → could not tell (no content at the limit is taken: limits.page-content-65535 says so)
 *   stored otherwise (cut elsewhere, changed)        → fits no reading (no value; the run gives no verdict on it)
 * The control create (its limit in ASCII: as many bytes as characters) is
 * sent only when the first is refused: 3 requests on every store.
 */
import type { Rec } from '../client/api.js';
import { TEXT_MAX_LENGTH, resources, type PayloadPropModel, type ResourceModel } from '../schema/model.js';
import { textSize } from '../values/index.js';
import { cutToBytes, fixedText } from '../../generators/text.js';
import type { Observation } from '../report/types.js';
import { couldNotTell, fitsNoReading, observation, statusText, type Probe } from './types.js';
import { exchangesOf, withProbeWrites, type ProbeWrite, type Written } from './write-probe.js';

const KEY = 'limits.longTextUnit';

/** The first writable resource with a String whose limit is above the common one (page content), and that String. */
export function longTextSubject(): { r: ResourceModel; prop: PayloadPropModel } | undefined {
  for (const r of resources()) {
    if (!r.writable) continue;
    const prop = r.payload.find((p) => p.kind === 'string' && (p.maxLength ?? 0) > TEXT_MAX_LENGTH);
    if (prop) return { r, prop };
  }
  return undefined;
}

/** The probe's text: `max` characters, `max` + 1 UTF-8 bytes (ASCII, then one 2-byte character). */
export function overBytesText(max: number, prefix: string): string {
  return `${fixedText(max - 1, { prefix })}\u00e9`;
}

/**
 * The reading a stored text shows, for a text of `max` characters and more
 * than `max` UTF-8 bytes: kept whole, cut where `max` bytes end (at a
 * character boundary), or neither (undefined).
 */
export function readingOfStored(sent: string, stored: string, max: number): 'characters' | 'bytes cut' | undefined {
  if (stored === sent) return 'characters';
  if (stored === cutToBytes(sent, max)) return 'bytes cut';
  return undefined;
}

/** The observation of the probe's create (read back), given its text; `control` sends the limit in ASCII when it was refused. */
export async function longTextObservation(w: Written, sent: string, max: number, where: string, field: string, control: () => Promise<Written>): Promise<Observation> {
  const said = `content of ${textSize(sent)}, limit ${max}`;
  if (w.unusable) return w.unusable;
  if (w.refused) {
    const c = await control();
    if (c.unusable) return c.unusable;
    const ev = [w.exchange, ...exchangesOf(c)];
    if (c.refused) return couldNotTell(`${said}, was refused (${statusText(w.exchange)}), and so was ${max} ASCII characters (${statusText(c.exchange)}): no content at the limit is taken, so what the limit counts cannot be told (${where})`, ...ev);
    return observation('bytes refused', `${said}, is refused (${statusText(w.exchange)}) while ${max} ASCII characters (${max} bytes) are taken: the limit counts UTF-8 bytes, longer content refused (a MySQL TEXT column in strict mode) (${where})`, ...ev);
  }
  const ev = exchangesOf(w);
  if (!w.ids.length) return couldNotTell(`a create of ${said} was answered ${statusText(w.exchange)} without a record id (${where})`, ...ev);
  const rec: Rec | undefined = w.stored[0];
  if (!rec) return couldNotTell(`${said} was not found by its id (${where})`, ...ev);
  const stored = rec[field];
  if (typeof stored !== 'string') return couldNotTell(`${said} was read back without a String ${field} (${where})`, ...ev);
  const reading = readingOfStored(sent, stored, max);
  if (reading === 'characters') return observation(reading, `${said}, is stored whole: the limit counts characters (${where})`, ...ev);
  if (reading === 'bytes cut') return observation(reading, `${said}, is stored cut to ${textSize(stored)}, where ${max} bytes end: the limit counts UTF-8 bytes, longer content cut to a character boundary (a MySQL TEXT column outside strict mode) (${where})`, ...ev);
  return fitsNoReading(`${said}, was accepted (${statusText(w.exchange)}) and stored as ${textSize(stored)}${sent.startsWith(stored) ? ', cut' : ', changed'}: neither whole nor cut where ${max} bytes end (${textSize(cutToBytes(sent, max))}) (${where})`, ...ev);
}

export const textBytesProbe: Probe = {
  name: 'long text unit',
  keys: [KEY],
  phase: 2,
  writes: true,
  async run({ shared }) {
    const found = longTextSubject();
    if (!found) return { [KEY]: couldNotTell(`no writable resource has a String longer than ${TEXT_MAX_LENGTH} characters`) };
    const { r, prop } = found;
    const max = prop.maxLength!;
    const field = prop.recordField ?? prop.name;
    const where = `${r.prefix}/create, ${prop.name}`;
    const sent = overBytesText(max, shared.label('bytes', 0));
    return withProbeWrites(shared, r, async (write: ProbeWrite) => {
      const w = await write([shared.payload(r, 'bytes', 0, { [prop.name]: sent })], `a create of a ${r.title.toLowerCase()} whose ${prop.name} holds ${textSize(sent)}`);
      const control = () => write([shared.payload(r, 'bytes', 1, { [prop.name]: fixedText(max, { prefix: shared.label('bytes', 1) }) })], `a create of a ${r.title.toLowerCase()} whose ${prop.name} holds ${max} ASCII characters`);
      return { [KEY]: await longTextObservation(w, sent, max, where, field, control) };
    });
  },
};
