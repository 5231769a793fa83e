/**
 * users.countPath — §4: "The documented count URL for users is the shipping
 * methods count path (/api/v1/shipping/methods/count) with the users filter
 * table. A separate users count path: not shown."
 *
 * `/api/v1/users/count` answering {count} → that path (with whether its number
 * agrees with the users get lists). Otherwise the documented path, with a note
 * when its number is not the number of users (it then counts shipping methods).
 */
import { resource } from '../schema/model.js';
import { couldNotTell, observation, type Probe } from './types.js';
import { CAP } from './page-size.js';

const KEY = 'users.countPath';

export const usersCountProbe: Probe = {
  name: 'users count path',
  keys: [KEY],
  phase: 1,
  async run({ client }) {
    const users = resource('user');
    const own = `${users.prefix}/count`;
    const documented = users.documentedCountPath ?? '/api/v1/shipping/methods/count';
    const [mine, listed] = await Promise.all([
      client.count(users, { path: own }),
      client.get(users, { pagination: { pageSize: CAP } }),
    ]);
    const n = listed.ok ? listed.value!.length : undefined;
    const listedText = n === undefined ? `users get failed (${listed.problem})` : `users get lists ${n}${n >= CAP ? ' or more' : ''}`;
    if (mine.ok) {
      const agrees = n === undefined ? '' : mine.value === n || (n >= CAP && mine.value! >= n) ? ', which agrees' : ', which does not agree';
      return { [KEY]: observation(own, `${own} answers {count: '${mine.value}'}; ${listedText}${agrees}`, mine.exchange, listed.exchange) };
    }
    const doc = await client.count(users, { path: documented });
    if (!doc.ok) return { [KEY]: couldNotTell(`neither ${own} (${mine.problem}) nor ${documented} (${doc.problem}) answers a count`, mine.exchange, doc.exchange) };
    const note = n !== undefined && doc.value !== n && n < CAP
      ? `: it counts shipping methods, not users (${doc.value} ≠ ${n} users listed by get)`
      : n === undefined ? '' : ', which agrees with the users get';
    return { [KEY]: observation(documented, `${own} does not answer a count (${mine.problem}); the documented ${documented} answers {count: '${doc.value}'}${note}`, mine.exchange, doc.exchange, listed.exchange) };
  },
};
