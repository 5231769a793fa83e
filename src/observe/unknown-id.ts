/**
 * What the target does with an id that never existed (not shown in §4):
 *   delete.unknownId — 'ignored' (answered {success: 'true'}) or 'error <status>'
 *   update.unknownId — 'ignored' (2xx, nothing updated), 'upserted' (a record
 *                      came back: it is deleted at once) or 'error <status>'
 * The GUIDs are fresh random ones, registered in the ledger as probes (the
 * client only updates or deletes ids the run owns).
 */
import { randomUUID } from 'node:crypto';
import type { Exchange } from '../client/http.js';
import { resource } from '../schema/model.js';
import { couldNotTell, is2xx, observation, statusText, type Probe } from './types.js';
import { shapeOf } from './shared.js';

function errorValue(ex: Exchange): string {
  return `error ${ex.response!.status}`;
}

export const unknownIdProbe: Probe = {
  name: 'unknown ids',
  keys: ['delete.unknownId', 'update.unknownId'],
  phase: 2,
  writes: true,
  async run({ client, shared }) {
    const r = resource('collection');
    const forDelete = randomUUID();
    const forUpdate = randomUUID();
    client.ledger?.recordProbe(r.name, forDelete);
    client.ledger?.recordProbe(r.name, forUpdate);
    const [del, up] = await Promise.all([
      client.delete(r, [forDelete]),
      client.update(r, [{ id: forUpdate, ...shared.payload(r, 'unknown', 0) }]),
    ]);
    const out: Record<string, ReturnType<typeof observation>> = {};
    const d = del.exchange;
    if (!d.response) out['delete.unknownId'] = couldNotTell(`the delete got no answer: ${d.transportError?.message}`, d);
    else if (del.ok) out['delete.unknownId'] = observation('ignored', `deleting a GUID that never existed is answered ${statusText(d)} {success: 'true'} (${r.prefix}/delete)`, d);
    else if (is2xx(d)) out['delete.unknownId'] = observation(`answered ${shapeOf(d)}`, `deleting a GUID that never existed is answered ${statusText(d)} with ${shapeOf(d)} (${r.prefix}/delete)`, d);
    else out['delete.unknownId'] = observation(errorValue(d), `deleting a GUID that never existed is answered ${statusText(d)} with ${shapeOf(d)} (${r.prefix}/delete)`, d);

    const u = up.exchange;
    if (!u.response) out['update.unknownId'] = couldNotTell(`the update got no answer: ${u.transportError?.message}`, u);
    else if (up.ok) {
      const back = (up.value ?? []).map((x) => x?.id).filter((id): id is string => typeof id === 'string');
      if (back.length) {
        client.ledger?.recordCreated(r.name, back);
        const cleanup: Exchange[] = await shared.deleteOwned(r, back).catch(() => []);
        out['update.unknownId'] = observation('upserted', `updating a GUID that never existed created ${back.length} record(s) (deleted again) (${r.prefix}/update)`, u, ...cleanup);
      } else {
        out['update.unknownId'] = observation('ignored', `updating a GUID that never existed is answered ${statusText(u)} with an empty array (${r.prefix}/update)`, u);
      }
    } else if (is2xx(u)) out['update.unknownId'] = observation(`answered ${shapeOf(u)}`, `updating a GUID that never existed is answered ${statusText(u)} with ${shapeOf(u)} (${r.prefix}/update)`, u);
    else out['update.unknownId'] = observation(errorValue(u), `updating a GUID that never existed is answered ${statusText(u)} with ${shapeOf(u)} (${r.prefix}/update)`, u);
    return out;
  },
};
