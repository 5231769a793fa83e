/**
 * How a store reads an Integer written unusually (§2 gives Integers as
 * strings and says nothing of their form): one create of two records, read
 * back by id, then deleted —
 *
 * integers.leadingZeros — an Integer property sent as '007': taken as 7
 * ('taken': .NET int.Parse, SQL casts), or refused (PHP's FILTER_VALIDATE_INT
 * and Laravel's `integer` rule; JSON's number grammar has no leading zeros).
 *
 * integers.negativeZero — sent as '-0': taken as 0, or refused (a pattern
 * such as ^(0|-?[1-9][0-9]*)$).
 *
 * When the create of both is refused, each is sent alone to tell which one
 * the store does not take (two creates more at most).
 */
import type { Rec } from '../client/api.js';
import { resources, type PayloadPropModel, type ResourceModel } from '../schema/model.js';
import { normalizeInteger } from '../values/index.js';
import { couldNotTell, observation, type Probe } from './types.js';
import { caseObservation, withProbeWrites, writeCases } from './write-probe.js';

const LEADING = 'integers.leadingZeros';
const NEGATIVE = 'integers.negativeZero';

/** The first writable resource needing no reference to exist with an Integer property, and that property. */
function subject(): { r: ResourceModel; prop: PayloadPropModel } | undefined {
  for (const r of resources()) {
    if (!r.writable || r.payload.some((p) => p.references && p.required)) continue;
    const prop = r.payload.find((p) => p.kind === 'integer' && p.safeValue === undefined);
    if (prop) return { r, prop };
  }
  return undefined;
}

export const numberSyntaxProbe: Probe = {
  name: 'integer syntax',
  keys: [LEADING, NEGATIVE],
  phase: 2,
  writes: true,
  async run({ shared }) {
    const found = subject();
    if (!found) return { [LEADING]: couldNotTell('no writable resource has an Integer property'), [NEGATIVE]: couldNotTell('no writable resource has an Integer property') };
    const { r, prop } = found;
    const field = prop.recordField ?? prop.name;
    const where = `${r.prefix}/create, ${prop.name}`;
    const cases = [{ key: LEADING, sent: '007', as: '7' }, { key: NEGATIVE, sent: '-0', as: '0' }];
    const what = (i?: number) => `a create of ${i === undefined ? `two ${r.title.toLowerCase()} records whose ${prop.name} is '007' or '-0'` : `a ${r.title.toLowerCase()} whose ${prop.name} is ${JSON.stringify(cases[i].sent)}`}`;
    return withProbeWrites(shared, r, async (write) => {
      const outcomes = await writeCases(write, cases.map((c, i) => shared.payload(r, 'int-syntax', i, { [prop.name]: c.sent })), what);
      return Object.fromEntries(cases.map((c, i) => {
        const said = `an Integer written ${JSON.stringify(c.sent)}`;
        return [c.key, caseObservation(outcomes[i], said, where, (rec, ev) => {
          const got = (rec as Rec)[field];
          if (normalizeInteger(got) === c.as) return observation('taken', `${said} is taken as ${c.as}: stored ${JSON.stringify(got)} (${where})`, ...ev);
          return couldNotTell(`${said} was stored as ${JSON.stringify(got)}, not ${c.as} (${where})`, ...ev);
        })];
      }));
    });
  },
};
