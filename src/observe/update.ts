/**
 * update.semantics — §4 "Whether an update replaces the whole record or
 * changes only the supplied fields: not shown".
 *
 * Create one collection with every payload property, update it supplying only
 * its first String property, get it by id: the update took, and another String
 * property kept its value → 'partial'; that property was reset (empty or gone)
 * → 'replace'. The collection is deleted.
 */
import type { Rec } from '../client/api.js';
import { resource } from '../schema/model.js';
import { couldNotTell, need, observation, type Probe } from './types.js';

const KEY = 'update.semantics';

export const updateSemanticsProbe: Probe = {
  name: 'update semantics',
  keys: [KEY],
  phase: 2,
  writes: true,
  async run({ client, shared }) {
    const r = resource('collection');
    const strings = r.payload.filter((p) => p.kind === 'string');
    const changed = strings[0];
    const kept = strings.find((p) => p !== changed && !p.unique) ?? strings[1];
    if (!changed || !kept) return { [KEY]: couldNotTell(`${r.title} has fewer than two String payload properties`) };
    const item = shared.payload(r, 'update', 0);
    const created = await client.create(r, [item]);
    const ids = (created.value ?? []).map((x) => x?.id).filter((id): id is string => typeof id === 'string').concat(created.recovered ?? []);
    try {
      need(created, `create of one ${r.title}`);
      const id = ids[0];
      if (!id) return { [KEY]: couldNotTell('the created record has no id', created.exchange) };
      const newValue = shared.label('update', 'changed');
      const up = await client.update(r, [{ id, [changed.name]: newValue }]);
      need(up, `update of ${changed.name} alone`);
      const got = await shared.readBack(r, id, (x) => x[changed.recordField ?? changed.name] === newValue);
      const rec: Rec | undefined = got.rec;
      const ev = [created.exchange, up.exchange, got.exchange];
      if (!rec) return { [KEY]: couldNotTell('the updated record is not found by id', ...ev) };
      const field = kept.recordField ?? kept.name;
      if (rec[changed.recordField ?? changed.name] !== newValue) {
        return { [KEY]: couldNotTell(`the update did not change ${changed.name} (get shows ${JSON.stringify(rec[changed.name])})`, ...ev) };
      }
      const before = item[kept.name];
      if (rec[field] === before) return { [KEY]: observation('partial', `an update supplying only ${changed.name} left ${field} as created: only the supplied fields change (${r.prefix}/update)`, ...ev) };
      if (rec[field] === undefined || rec[field] === '' || rec[field] === null) {
        return { [KEY]: observation('replace', `an update supplying only ${changed.name} reset ${field} to ${JSON.stringify(rec[field] ?? null)}: the update replaces the record (${r.prefix}/update)`, ...ev) };
      }
      return { [KEY]: couldNotTell(`after an update of ${changed.name} alone, ${field} is ${JSON.stringify(rec[field])}, neither as created nor reset`, ...ev) };
    } finally {
      if (ids.length) await shared.deleteOwned(r, ids).catch(() => undefined);
    }
  },
};
