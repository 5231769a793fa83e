/**
 * What a store does with an empty String ('') in data (§2 and §4 say
 * nothing): one create of two products, read back by id, then deleted —
 *
 * text.emptyRequired — a mandatory String ('vendor') sent as '': stored as ''
 * ('kept'), stored as null (the record shows null or no such field), or
 * refused (ASP.NET's [Required] refuses '' by default; Laravel's
 * ConvertEmptyStringsToNull makes it null, which `required` refuses).
 *
 * text.emptyOptional — a String not in the mandatory list (product
 * 'description') sent as '': the same three readings (Laravel stores null in
 * a nullable column).
 *
 * When the create of both is refused, each is sent alone to tell which one
 * the store does not take (two creates more at most).
 */
import type { Rec } from '../client/api.js';
import { resources, type PayloadPropModel, type ResourceModel } from '../schema/model.js';
import { couldNotTell, observation, type Probe } from './types.js';
import { caseObservation, withProbeWrites, writeCases } from './write-probe.js';

const REQUIRED = 'text.emptyRequired';
const OPTIONAL = 'text.emptyOptional';

const plainString = (p: PayloadPropModel) => p.kind === 'string' && !p.unique && !p.references && p.safeValue === undefined;

/** The first writable resource with a mandatory String and one outside the mandatory list, and those two. */
function subject(): { r: ResourceModel; required: PayloadPropModel; optional: PayloadPropModel } | undefined {
  for (const r of resources()) {
    if (!r.writable) continue;
    const required = r.payload.find((p) => plainString(p) && p.required);
    const optional = r.payload.find((p) => plainString(p) && !p.required);
    if (required && optional) return { r, required, optional };
  }
  return undefined;
}

export const emptyStringProbe: Probe = {
  name: 'empty strings',
  keys: [REQUIRED, OPTIONAL],
  phase: 2,
  writes: true,
  async run({ shared }) {
    const found = subject();
    if (!found) return { [REQUIRED]: couldNotTell('no writable resource has both a mandatory String and one outside the mandatory list'), [OPTIONAL]: couldNotTell('no writable resource has both a mandatory String and one outside the mandatory list') };
    const { r, required, optional } = found;
    const props = [required, optional];
    const what = (i?: number) => `a create of ${i === undefined ? `two ${r.title.toLowerCase()} records, one with an empty ${required.name} (mandatory), one with an empty ${optional.name} (not mandatory)` : `a ${r.title.toLowerCase()} with an empty ${props[i].name}`}`;
    return withProbeWrites(shared, r, async (write) => {
      const outcomes = await writeCases(write, props.map((p, i) => shared.payload(r, 'empty', i, { [p.name]: '' })), what);
      const out: Record<string, ReturnType<typeof observation>> = {};
      props.forEach((p, i) => {
        const field = p.recordField ?? p.name;
        const said = `an empty ${p.name} (${p.required ? 'mandatory' : 'not in the mandatory list'})`;
        const where = `${r.prefix}/create, ${p.name}`;
        out[p.required ? REQUIRED : OPTIONAL] = caseObservation(outcomes[i], said, where, (rec, ev) => {
          const got = (rec as Rec)[field];
          if (got === '') return observation('kept', `${said} is stored as '' (${where})`, ...ev);
          if (got === null || got === undefined) return observation('null', `${said} is stored as null: the record shows ${got === null ? 'null' : `no ${field}`} (${where})`, ...ev);
          return couldNotTell(`${said} was stored as ${JSON.stringify(got)} (${where})`, ...ev);
        });
      });
      return out;
    });
  },
};
