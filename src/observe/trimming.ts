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
import type { Observation } from '../report/types.js';
import { resource } from '../schema/model.js';
import { trimmedText } from '../values/index.js';
import { couldNotTell, observation, statusText, type Probe } from './types.js';
import { exchangesOf, withProbeWrites, type Written } from './write-probe.js';

const TRIM = 'text.trimming';
const BLANK = 'text.whitespaceOnly';

/** How the String with spaces at its edges was stored. */
function edgeOf(w: Written, i: number, field: string, sent: string, where: string): Observation {
  const rec = w.stored[i];
  const got = rec?.[field];
  const ev = exchangesOf(w);
  if (got === sent) return observation('kept', `a ${field} with spaces at its edges, ${JSON.stringify(sent)}, is stored as sent (${where})`, ...ev);
  if (got === trimmedText(sent)) return observation('trimmed', `a ${field} with spaces at its edges, ${JSON.stringify(sent)}, is stored trimmed: ${JSON.stringify(got)} (${where})`, ...ev);
  return couldNotTell(`a ${field} with spaces at its edges, ${JSON.stringify(sent)}, ${rec ? `was stored as ${JSON.stringify(got)}: neither as sent nor trimmed` : 'was not found by its id'} (${where})`, ...ev);
}

/** How the String of spaces only was stored. */
function blankOf(w: Written, i: number, field: string, sent: string, where: string): Observation {
  const rec = w.stored[i];
  const got = rec?.[field];
  const ev = exchangesOf(w);
  const said = `a ${field} of spaces only, ${JSON.stringify(sent)},`;
  if (!rec) return couldNotTell(`${said} was not found by its id (${where})`, ...ev);
  if (got === sent) return observation('kept', `${said} is stored as sent (${where})`, ...ev);
  if (got === '') return observation('emptied', `${said} is stored as the empty string (${where})`, ...ev);
  if (got === null || got === undefined) return observation('null', `${said} is stored as null: the record shows ${got === null ? 'null' : `no ${field}`} (${where})`, ...ev);
  return couldNotTell(`${said} was stored as ${JSON.stringify(got)} (${where})`, ...ev);
}

const refusedObs = (what: string, w: Written, where: string, ...more: Written[]) =>
  observation('refused', `${what} is refused: ${statusText(w.exchange)} (${where})`, ...[...more, w].flatMap(exchangesOf));

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
    const item = (i: number, v: string): Rec => shared.payload(r, 'trim', i, { [prop.name]: v });
    const where = `${r.prefix}/create, ${prop.name}`;
    return withProbeWrites(shared, r, async (write) => {
      const both = await write([item(0, edge), item(1, blank)], `a create of two ${r.title.toLowerCase()} records whose ${prop.name} has spaces at its edges, or is spaces only`);
      if (both.unusable) return { [TRIM]: both.unusable, [BLANK]: both.unusable };
      if (!both.refused) return { [TRIM]: edgeOf(both, 0, field, edge, where), [BLANK]: blankOf(both, 1, field, blank, where) };
      // one of them is not taken: each alone tells which
      const alone = await write([item(0, edge)], `a create of a ${r.title.toLowerCase()} whose ${prop.name} has spaces at its edges`);
      if (alone.unusable) return { [TRIM]: alone.unusable, [BLANK]: alone.unusable };
      if (!alone.refused) {
        return { [TRIM]: edgeOf(alone, 0, field, edge, where), [BLANK]: refusedObs(`a ${prop.name} of spaces only, sent beside one with spaces at its edges (taken alone),`, both, where, alone) };
      }
      const blankAlone = await write([item(1, blank)], `a create of a ${r.title.toLowerCase()} whose ${prop.name} is spaces only`);
      const trim = refusedObs(`a ${prop.name} with spaces at its edges, ${JSON.stringify(edge)},`, alone, where, both);
      if (blankAlone.unusable) return { [TRIM]: trim, [BLANK]: blankAlone.unusable };
      return { [TRIM]: trim, [BLANK]: blankAlone.refused ? refusedObs(`a ${prop.name} of spaces only`, blankAlone, where) : blankOf(blankAlone, 0, field, blank, where) };
    });
  },
};
