/**
 * filters.guidVersion — whether a GUID the store would never make, of another
 * version than 4, is taken where a GUID is asked (§2: "hyphenated 36-character
 * identifier", no version). One get of a resource by the id filter with the
 * Max UUID (RFC 9562 §5.10, all f: no version nibble):
 *   2xx (no record, or whatever it names)        → 'any'
 *   4xx, while a get by a version-4 GUID no record
 *   has is answered 2xx (the control)            → 'version 4': refused for its form
 *   4xx to the control too                       → could not tell (an unknown id is
 *                                                  refused, not a form)
 *   5xx                                          → fits no reading
 * A GUID no record has is "unknown", not "invalid": the control tells a
 * refusal of the form from one of "no such record". Reads only.
 */
import { randomUUID } from 'node:crypto';
import { MAX_GUID } from '../values/index.js';
import { couldNotTell, is2xx, observation, statusText, unusableAnswer, type Probe } from './types.js';

const KEY = 'filters.guidVersion';

export const guidVersionProbe: Probe = {
  name: 'GUID version',
  keys: [KEY],
  phase: 1,
  async run({ client, shared }) {
    const r = shared.listResources().find((x) => x.filters.some((f) => f.key === 'id'));
    if (!r) return { [KEY]: couldNotTell('no resource has an id filter') };
    const asked = `a get of ${r.prefix} filtered by id [${MAX_GUID}] (the Max UUID, no version 4)`;
    const got = await client.get(r, { filters: { id: [MAX_GUID] } });
    const unusable = unusableAnswer(got.exchange, asked, got.problem);
    if (unusable) return { [KEY]: unusable };
    if (is2xx(got.exchange)) return { [KEY]: observation('any', `${asked} is taken: ${statusText(got.exchange)} with ${got.value?.length ?? 'no'} records`, got.exchange) };
    const control = randomUUID();
    const ctl = await client.get(r, { filters: { id: [control] } });
    const ctlUnusable = unusableAnswer(ctl.exchange, `a get of ${r.prefix} filtered by id [${control}] (version 4, no record's)`, ctl.problem);
    if (ctlUnusable) return { [KEY]: ctlUnusable };
    if (!is2xx(ctl.exchange)) return { [KEY]: couldNotTell(`${asked} is refused (${statusText(got.exchange)}), and so is a version-4 GUID no record has (${statusText(ctl.exchange)}): an unknown id, not its form, may be what is refused`, got.exchange, ctl.exchange) };
    return { [KEY]: observation('version 4', `${asked} is refused: ${statusText(got.exchange)}, while the version-4 GUID ${control} no record has is taken (${statusText(ctl.exchange)}): a GUID is validated for version 4`, got.exchange, ctl.exchange) };
  },
};
