/**
 * operation.notOffered — §1 offers orders get and count only; what does
 * `/api/v1/orders/create` answer? The body carries an empty `data`, so even a
 * target that did offer it creates nothing. Counted as a write (a create path):
 * not sent in --read-only runs.
 */
import { resource } from '../schema/model.js';
import { couldNotTell, observation, statusText, type Probe } from './types.js';
import { shapeOf } from './shared.js';

const KEY = 'operation.notOffered';

export const notOfferedProbe: Probe = {
  name: 'operation not offered',
  keys: [KEY],
  phase: 2,
  writes: true,
  async run({ client }) {
    const r = resource('order');
    const path = `${r.prefix}/create`;
    const ex = await client.raw(path, client.body({ data: [] }));
    if (!ex.response) return { [KEY]: couldNotTell(`${path} got no answer: ${ex.transportError?.message}`, ex) };
    return { [KEY]: observation(ex.response.status, `${path} (not offered, §1) is answered ${statusText(ex)} with ${shapeOf(ex)}`, ex) };
  },
};
