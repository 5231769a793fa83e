/**
 * lists.duplicates — whether a list property is a list or a set (§4 types
 * tags as "Array of String" and says no more): one create of a blog post
 * whose tags hold one tag twice, read back by id, then deleted. Both kept
 * ('kept': a JSON column, a child table without a unique key), one
 * ('merged': a unique key with INSERT IGNORE, Laravel's sync()), or refused
 * (a unique key's error answered as a refusal).
 */
import type { Rec } from '../client/api.js';
import { resources, type PayloadPropModel, type ResourceModel } from '../schema/model.js';
import { couldNotTell, observation, type Probe } from './types.js';
import { caseObservation, withProbeWrites, writeCases } from './write-probe.js';

const KEY = 'lists.duplicates';

/** The first writable resource needing no reference to exist with a list of Strings, and that list. */
function subject(): { r: ResourceModel; prop: PayloadPropModel } | undefined {
  for (const r of resources()) {
    if (!r.writable || r.payload.some((p) => p.references && p.required)) continue;
    const prop = r.payload.find((p) => p.kind === 'list' && !p.references && (p.itemKind ?? 'string') === 'string');
    if (prop) return { r, prop };
  }
  return undefined;
}

/** The strings of a list field: its items, or the one field of each item ({tag}). */
function strings(r: ResourceModel, field: string, got: unknown): string[] | undefined {
  if (!Array.isArray(got)) return undefined;
  const one = r.fields.find((f) => f.name === field)?.itemFields;
  const out = got.map((x) => (one?.length === 1 && x && typeof x === 'object' ? (x as Rec)[one[0].name] : x));
  return out.every((x) => typeof x === 'string') ? out : undefined;
}

export const listDuplicatesProbe: Probe = {
  name: 'duplicates in a list',
  keys: [KEY],
  phase: 2,
  writes: true,
  async run({ shared }) {
    const found = subject();
    if (!found) return { [KEY]: couldNotTell('no writable resource has a list of Strings') };
    const { r, prop } = found;
    const field = prop.recordField ?? prop.name;
    const tag = `${shared.label('dup', 0)}-t`;
    const where = `${r.prefix}/create, ${prop.name}`;
    const said = `a ${prop.name} list holding ${JSON.stringify(tag)} twice`;
    return withProbeWrites(shared, r, async (write) => {
      const [o] = await writeCases(write, [shared.payload(r, 'dup', 0, { [prop.name]: [tag, tag] })], () => `a create of a ${r.title.toLowerCase()} whose ${said}`);
      return {
        [KEY]: caseObservation(o, said, where, (rec, ev) => {
          const list = strings(r, field, (rec as Rec)[field]);
          const n = list?.filter((x) => x === tag).length;
          if (list && n === 2 && list.length === 2) return observation('kept', `${said} is stored with both (${where})`, ...ev);
          if (list && n === 1 && list.length === 1) return observation('merged', `${said} is stored with it once: a set (${where})`, ...ev);
          return couldNotTell(`${said} was stored as ${JSON.stringify((rec as Rec)[field])} (${where})`, ...ev);
        }),
      };
    });
  },
};
