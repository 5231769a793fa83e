/**
 * limits.overlongString — §8 gives 255 characters for most Strings; what
 * happens to a longer one is not shown. Create one collection whose first
 * String property with a maximum holds max + 1 characters:
 *   refused (4xx)        → 'rejected'
 *   stored cut to max    → 'truncated'
 *   stored whole         → 'accepted'
 *   5xx, or accepted and stored as anything else → fits no reading (no value; the run gives no verdict on it)
 * (read back by id; the record is deleted).
 */
import { resource } from '../schema/model.js';
import { codePointLength } from '../values/index.js';
import { couldNotTell, fitsNoReading, observation, statusText, type Probe } from './types.js';
import { exchangesOf, withProbeWrites } from './write-probe.js';

const KEY = 'limits.overlongString';

export const overlongProbe: Probe = {
  name: 'over-long string',
  keys: [KEY],
  phase: 2,
  writes: true,
  async run({ shared }) {
    const r = resource('collection');
    const prop = r.payload.find((p) => p.kind === 'string' && p.maxLength);
    if (!prop) return { [KEY]: couldNotTell(`${r.title} has no String payload property with a maximum length`) };
    const max = prop.maxLength!;
    const start = shared.label('overlong', 0);
    const value = start + 'x'.repeat(max + 1 - start.length);
    const what = `a create of a ${r.title.toLowerCase()} whose ${prop.name} holds ${max + 1} characters (max ${max})`;
    return withProbeWrites(shared, r, async (write) => {
      const w = await write([shared.payload(r, 'overlong', 0, { [prop.name]: value })], what);
      const ex = w.exchange;
      const ev = exchangesOf(w);
      if (w.unusable) return { [KEY]: w.unusable };
      if (w.refused) return { [KEY]: observation('rejected', `a ${prop.name} of ${max + 1} characters (max ${max}) is refused: ${statusText(ex)} (${r.prefix}/create)`, ex) };
      if (!w.ids.length) return { [KEY]: couldNotTell(`the create was answered ${statusText(ex)} without a record id`, ex) };
      const stored = w.stored[0]?.[prop.recordField ?? prop.name];
      if (typeof stored !== 'string') return { [KEY]: couldNotTell(`the created record shows no String ${prop.name}`, ...ev) };
      const len = codePointLength(stored);
      if (stored === value) return { [KEY]: observation('accepted', `a ${prop.name} of ${max + 1} characters (max ${max}) is stored whole (${r.prefix}/create)`, ...ev) };
      if (len === max && value.startsWith(stored)) return { [KEY]: observation('truncated', `a ${prop.name} of ${max + 1} characters is stored cut to ${max} (${r.prefix}/create)`, ...ev) };
      // accepted (2xx), then stored as something else: no honest reading stores data that was neither refused, kept nor cut at the limit
      return { [KEY]: fitsNoReading(`a ${prop.name} of ${max + 1} characters was accepted (${statusText(ex)}) and stored as ${len} characters, neither whole nor cut to ${max} (${r.prefix}/create)`, ...ev) };
    });
  },
};
