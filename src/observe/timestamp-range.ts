/**
 * time.dateTimeRange — the years a DateTime in data may take (§2 gives its
 * form, not its range): one create of two records of the first writable
 * resource with DateTime properties, every one of them set to a time before
 * 1970 in one record and after 2038 in the other (far enough from the edges
 * to be outside a MySQL TIMESTAMP column's 1970-01-01 00:00:01 to 2038-01-19
 * 03:14:07 UTC in any time zone), read back by id, then deleted —
 *   both stored as sent            → 'full' (DATETIME, datetime2, timestamptz)
 *   both refused                   → 'refused' (TIMESTAMP in strict mode)
 *   both stored otherwise          → 'changed' (TIMESTAMP without strict mode: zeroed)
 *   one way for one, another for the other → could not tell (no one reading)
 * When the create of both is refused, each is sent alone (two creates more at most).
 */
import type { Rec } from '../client/api.js';
import type { Observation } from '../report/types.js';
import { resources, type PayloadPropModel, type ResourceModel } from '../schema/model.js';
import { parseDateTime } from '../values/index.js';
import { couldNotTell, observation, type Probe } from './types.js';
import { caseObservation, withProbeWrites, writeCases } from './write-probe.js';

const KEY = 'time.dateTimeRange';
const CASES = [{ what: 'before 1970', sent: '1969-12-31 00:00:00' }, { what: 'after 2038', sent: '2038-01-20 12:00:00' }] as const;

/** The first writable resource needing no reference to exist with DateTime properties, and those properties. */
function subject(): { r: ResourceModel; props: PayloadPropModel[] } | undefined {
  for (const r of resources()) {
    if (!r.writable || r.payload.some((p) => p.references && p.required)) continue;
    const props = r.payload.filter((p) => p.kind === 'datetime');
    if (props.length) return { r, props };
  }
  return undefined;
}

/** One reading from both cases' observations: the same value for both, else none. */
export function joined(obs: Observation[]): Observation {
  const [a, b] = obs;
  if (a.value === null) return a;
  if (b.value === null) return b;
  // both cases are one create and one read-back unless each was sent alone
  const seen = new Set((a.evidence ?? []).map((x) => JSON.stringify(x)));
  const evidence = [...(a.evidence ?? []), ...(b.evidence ?? []).filter((x) => !seen.has(JSON.stringify(x)))];
  if (a.value === b.value) return { value: a.value, detail: `${a.detail}; ${b.detail}`, evidence };
  return { value: null, detail: `could not tell: no one reading — ${a.detail}; ${b.detail}`, evidence };
}

export const timestampRangeProbe: Probe = {
  name: 'DateTime range',
  keys: [KEY],
  phase: 2,
  writes: true,
  async run({ shared }) {
    const found = subject();
    if (!found) return { [KEY]: couldNotTell('no writable resource has a DateTime property') };
    const { r, props } = found;
    const names = props.map((p) => p.name).join(', ');
    const where = `${r.prefix}/create, ${names}`;
    const what = (i?: number) => `a create of ${i === undefined ? `two ${r.title.toLowerCase()} records whose ${names} are ${CASES.map((c) => c.sent).join(' or ')}` : `a ${r.title.toLowerCase()} whose ${names} are ${CASES[i].sent}`}`;
    return withProbeWrites(shared, r, async (write) => {
      const items = CASES.map((c, i) => shared.payload(r, 'dt-range', i, Object.fromEntries(props.map((p) => [p.name, c.sent]))));
      const outcomes = await writeCases(write, items, what);
      const obs = CASES.map((c, i) => {
        const said = `a DateTime ${c.what} (${c.sent})`;
        return caseObservation(outcomes[i], said, where, (rec, ev) => {
          const got = props.map((p) => (rec as Rec)[p.recordField ?? p.name]);
          if (got.every((g) => parseDateTime(g) === parseDateTime(c.sent))) return observation('full', `${said} is stored as sent (${where})`, ...ev);
          return observation('changed', `${said} is stored as ${got.map((g) => JSON.stringify(g)).join(', ')} (${where})`, ...ev);
        });
      });
      return { [KEY]: joined(obs) };
    });
  },
};
