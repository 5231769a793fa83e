/**
 * ids.letterCase — the letter case GUIDs are written in (§2 "hyphenated
 * 36-character identifier"; RFC 4122 writes lower case, SQL Server's
 * uniqueidentifier upper): read off the ids of the default pages the probes
 * already hold (no request of its own).
 * filters.idCase — whether the id filter matches an id written in the other
 * letter case (a uuid or uniqueidentifier column: yes; ids in a text column
 * under a binary collation: no). One get by a record's id in the other case,
 * beside one by the id as written (the control).
 */
import { flipAsciiCase, letterCaseOf } from '../values/index.js';
import { idsOf } from './shared.js';
import { couldNotTell, observation, type Probe } from './types.js';
import type { Observation } from '../report/types.js';

const CASE = 'ids.letterCase';
const FILTER = 'filters.idCase';

export const idsProbe: Probe = {
  name: 'id letter case',
  keys: [CASE, FILTER],
  phase: 1,
  async run({ client, shared }) {
    const out: Record<string, Observation> = {};
    const resources = (await shared.byCount(1, (r) => r.filters.some((f) => f.key === 'id'))).slice(0, 3);
    const seen = new Map<string, string[]>();
    const exchanges = [];
    let subject: { r: (typeof resources)[number]['r']; id: string } | undefined;
    // the pages side by side, taken in the order of the resources (a failed one ends the probe, the first in that order)
    const pages = await Promise.allSettled(resources.map(({ r }) => shared.page(r.name)));
    for (const [i, { r }] of resources.entries()) {
      const settled = pages[i];
      if (settled.status === 'rejected') throw settled.reason;
      const page = settled.value;
      exchanges.push(page.exchange);
      for (const x of page.records) {
        const c = typeof x?.id === 'string' ? letterCaseOf(x.id) : undefined;
        if (!c) continue;
        seen.set(c, [...(seen.get(c) ?? []), `${r.name} ${x.id}`]);
        subject ??= { r, id: x.id };
      }
    }
    const cases = [...seen.keys()];
    if (!cases.length) out[CASE] = couldNotTell('no record id with letters was read', ...exchanges);
    else {
      const value = cases.length === 1 ? cases[0] : 'mixed';
      const detail = cases.map((c) => `${seen.get(c)!.length} ${c} (e.g. ${seen.get(c)![0]})`).join(', ');
      out[CASE] = observation(value, `ids written in ${value === 'mixed' ? 'more than one' : value} case on ${resources.map((x) => x.r.prefix).join(', ')}: ${detail}`, ...exchanges);
    }
    if (!subject) {
      out[FILTER] = couldNotTell('no record id with letters was read', ...exchanges);
      return out;
    }
    const { r, id } = subject;
    const other = flipAsciiCase(id)!;
    const [asWritten, flipped] = await Promise.all([client.get(r, { filters: { id: [id] } }), client.get(r, { filters: { id: [other] } })]);
    const has = (ids: string[]) => ids.includes(id.toLowerCase());
    if (!asWritten.ok || !has(idsOf(asWritten.value!))) out[FILTER] = couldNotTell(`${r.prefix}/get {id: [${id}]} did not return that record${asWritten.ok ? '' : `: ${asWritten.problem}`}`, asWritten.exchange);
    else if (!flipped.ok) out[FILTER] = couldNotTell(`${r.prefix}/get {id: [${other}]} failed: ${flipped.problem}`, asWritten.exchange, flipped.exchange);
    else {
      const value = has(idsOf(flipped.value!)) ? 'insensitive' : 'sensitive';
      out[FILTER] = observation(value, `${r.prefix}/get {id: [${other}]} (the id ${id} in the other letter case) ${value === 'insensitive' ? 'returned' : 'did not return'} that record, which {id: [${id}]} returns: the id filter is case-${value}`, asWritten.exchange, flipped.exchange);
    }
    return out;
  },
};
