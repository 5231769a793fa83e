/**
 * limits.overlongString — §8 gives 255 characters for most Strings; what
 * happens to a longer one is not shown. Create one collection whose first
 * String property with a maximum holds max + 1 characters:
 *   refused (4xx)        → 'rejected'
 *   stored cut to max    → 'truncated'
 *   stored whole         → 'accepted'
 * (read back by id; the record is deleted).
 */
import { resource } from '../schema/model.js';
import { codePointLength } from '../values/index.js';
import { couldNotTell, is2xx, observation, statusText, type Probe } from './types.js';

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
      if (!ex.response || ex.response.status >= 500) return { [KEY]: couldNotTell(`the create got no usable answer: ${created.problem}`, ex) };
      if (!is2xx(ex)) return { [KEY]: observation('rejected', `a ${prop.name} of ${max + 1} characters (max ${max}) is refused: ${statusText(ex)} (${r.prefix}/create)`, ex) };
      if (!ids.length) return { [KEY]: couldNotTell(`the create was answered ${statusText(ex)} without a record id`, ex) };
      const got = await shared.readBack(r, ids[0]);
      const rec = got.rec;
      const stored = rec?.[prop.recordField ?? prop.name];
      if (typeof stored !== 'string') return { [KEY]: couldNotTell(`the created record shows no String ${prop.name}`, ex, got.exchange) };
      const len = codePointLength(stored);
      if (stored === value) return { [KEY]: observation('accepted', `a ${prop.name} of ${max + 1} characters (max ${max}) is stored whole (${r.prefix}/create)`, ex, got.exchange) };
      if (len === max && value.startsWith(stored)) return { [KEY]: observation('truncated', `a ${prop.name} of ${max + 1} characters is stored cut to ${max} (${r.prefix}/create)`, ex, got.exchange) };
      return { [KEY]: couldNotTell(`a ${prop.name} of ${max + 1} characters was stored as ${len} characters, neither whole nor cut to ${max}`, ex, got.exchange) };
    } finally {
      if (ids.length) await shared.deleteOwned(r, ids).catch(() => undefined);
    }
  },
};
