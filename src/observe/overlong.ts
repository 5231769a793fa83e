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
import { couldNotTell, fitsNoReading, is2xx, observation, statusText, unusableAnswer, type Probe } from './types.js';

const KEY = 'limits.overlongString';

export const overlongProbe: Probe = {
  name: 'over-long string',
  keys: [KEY],
  phase: 2,
  writes: true,
  async run({ client, shared }) {
    const r = resource('collection');
    const prop = r.payload.find((p) => p.kind === 'string' && p.maxLength);
    if (!prop) return { [KEY]: couldNotTell(`${r.title} has no String payload property with a maximum length`) };
    const max = prop.maxLength!;
    const start = shared.label('overlong', 0);
    const value = start + 'x'.repeat(max + 1 - start.length);
    const created = await client.create(r, [shared.payload(r, 'overlong', 0, { [prop.name]: value })]);
    const ids = (created.value ?? []).map((x) => x?.id).filter((id): id is string => typeof id === 'string').concat(created.recovered ?? []);
    try {
      const ex = created.exchange;
      const unusable = unusableAnswer(ex, `a create of a ${r.title.toLowerCase()} whose ${prop.name} holds ${max + 1} characters (max ${max})`, created.problem);
      if (unusable) return { [KEY]: unusable };
      if (!is2xx(ex)) return { [KEY]: observation('rejected', `a ${prop.name} of ${max + 1} characters (max ${max}) is refused: ${statusText(ex)} (${r.prefix}/create)`, ex) };
      if (!ids.length) return { [KEY]: couldNotTell(`the create was answered ${statusText(ex)} without a record id`, ex) };
      const got = await shared.readBack(r, ids[0]);
      const rec = got.rec;
      const stored = rec?.[prop.recordField ?? prop.name];
      if (typeof stored !== 'string') return { [KEY]: couldNotTell(`the created record shows no String ${prop.name}`, ex, got.exchange) };
      const len = codePointLength(stored);
      if (stored === value) return { [KEY]: observation('accepted', `a ${prop.name} of ${max + 1} characters (max ${max}) is stored whole (${r.prefix}/create)`, ex, got.exchange) };
      if (len === max && value.startsWith(stored)) return { [KEY]: observation('truncated', `a ${prop.name} of ${max + 1} characters is stored cut to ${max} (${r.prefix}/create)`, ex, got.exchange) };
      // accepted (2xx), then stored as something else: no honest reading stores data that was neither refused, kept nor cut at the limit
      return { [KEY]: fitsNoReading(`a ${prop.name} of ${max + 1} characters was accepted (${statusText(ex)}) and stored as ${len} characters, neither whole nor cut to ${max} (${r.prefix}/create)`, ex, got.exchange) };
    } finally {
      if (ids.length) await shared.deleteOwned(r, ids).catch(() => undefined);
    }
  },
};
