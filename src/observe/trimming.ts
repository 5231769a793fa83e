/**
 * What a store does with spaces at the edges of a String (§2 says nothing):
 * one create of two collections, read back by id, then deleted —
 *
 * text.trimming — a description with spaces at both edges ('  …  '): stored
 * as sent ('kept': PostgreSQL, SQL Server and MySQL VARCHAR columns keep
 * them, ASP.NET model binding does not trim), stored trimmed ('trimmed':
 * Laravel's TrimStrings middleware, on by default), or refused.
 *
 * text.whitespaceOnly — a description of spaces only: stored as sent, emptied
 * (trimmed to ''), refused as blank (ASP.NET's [Required]; Laravel's
 * TrimStrings, ConvertEmptyStringsToNull and `required`), or stored as null.
 *
 * When the create of both is refused, each is sent alone to tell which one
 * the store does not take (two creates more at most).
 */
import type { Rec } from '../client/api.js';
import { resource } from '../schema/model.js';
import { trimmedText } from '../values/index.js';
import { couldNotTell, observation, type Probe } from './types.js';
import { caseObservation, withProbeWrites, writeCases } from './write-probe.js';

const TRIM = 'text.trimming';
const BLANK = 'text.whitespaceOnly';


export const trimmingProbe: Probe = {
  name: 'spaces at the edges',
  keys: [TRIM, BLANK],
  phase: 2,
  writes: true,
  async run({ shared }) {
    const r = resource('collection');
    const prop = r.payload.find((p) => p.kind === 'string' && !p.unique && !p.references && p.maxLength);
    if (!prop) return { [TRIM]: couldNotTell(`${r.title} has no String payload property that is not unique`), [BLANK]: couldNotTell(`${r.title} has no String payload property that is not unique`) };
    const field = prop.recordField ?? prop.name;
    const edge = `  ${shared.label('trim', 0)}  `;
    const blank = '   ';
    const where = `${r.prefix}/create, ${prop.name}`;
    const cases = [edge, blank];
    const what = (i?: number) => `a create of ${i === undefined ? `two ${r.title.toLowerCase()} records whose ${prop.name} has spaces at its edges, or is spaces only` : `a ${r.title.toLowerCase()} whose ${prop.name} is ${JSON.stringify(cases[i])}`}`;
    return withProbeWrites(shared, r, async (write) => {
      const [e, b] = await writeCases(write, cases.map((v, i) => shared.payload(r, 'trim', i, { [prop.name]: v })), what);
      const edgeSaid = `a ${field} with spaces at its edges, ${JSON.stringify(edge)},`;
      const blankSaid = `a ${field} of spaces only, ${JSON.stringify(blank)},`;
      return {
        [TRIM]: caseObservation(e, edgeSaid, where, (rec, ev) => {
          const got = (rec as Rec)[field];
          if (got === edge) return observation('kept', `${edgeSaid} is stored as sent (${where})`, ...ev);
          if (got === trimmedText(edge)) return observation('trimmed', `${edgeSaid} is stored trimmed: ${JSON.stringify(got)} (${where})`, ...ev);
          return couldNotTell(`${edgeSaid} was stored as ${JSON.stringify(got)}: neither as sent nor trimmed (${where})`, ...ev);
        }),
        [BLANK]: caseObservation(b, blankSaid, where, (rec, ev) => {
          const got = (rec as Rec)[field];
          if (got === blank) return observation('kept', `${blankSaid} is stored as sent (${where})`, ...ev);
          if (got === '') return observation('emptied', `${blankSaid} is stored as the empty string (${where})`, ...ev);
          if (got === null || got === undefined) return observation('null', `${blankSaid} is stored as null: the record shows ${got === null ? 'null' : `no ${field}`} (${where})`, ...ev);
          return couldNotTell(`${blankSaid} was stored as ${JSON.stringify(got)} (${where})`, ...ev);
        }),
      };
    });
  },
};
