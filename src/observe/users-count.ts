/**
 * users.countPath — §4: "The documented count URL for users is the shipping
 * methods count path (/api/v1/shipping/methods/count) with the users filter
 * table. A separate users count path: not shown."
 *
 * `/api/v1/users/count` answering {count} → that path (with whether its number
 * agrees with the users get lists). Otherwise the documented path when it counts
 * users — all of them, and those of a users-only filter key as get lists them —
 * or false: no path counts users (it then counts shipping methods), and users
 * count items are not judged.
 */
import { resource, resources } from '../schema/model.js';
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
    const head = `${own} does not answer a count (${mine.problem}); the documented ${documented} answers {count: '${doc.value}'}`;
    // does the documented path count users "with the users filter table" (§4)? a key only users have, on a value users hold
    const shipping = resources().find((x) => `${x.prefix}/count` === documented);
    const userOnly = users.filters.find((f) => f.filter === 'array' && f.valueKind === 'string' && !shipping?.filters.some((s) => s.key === f.key));
    const sample = listed.ok && userOnly ? listed.value!.find((u) => typeof u[userOnly.field] === 'string' && u[userOnly.field] !== '') : undefined;
    if (userOnly && sample && n !== undefined && n < CAP) {
      const v = sample[userOnly.field];
      const want = listed.value!.filter((u) => u[userOnly.field] === v).length;
      const filtered = await client.count(users, { path: documented, filters: { [userOnly.key]: [v] } });
      const ev = [mine.exchange, doc.exchange, filtered.exchange, listed.exchange];
      if (filtered.ok && filtered.value === want && doc.value === n) {
        return { [KEY]: observation(documented, `${head}, which agrees with the users get, and counts ${want} user(s) by the users filter ${userOnly.key} as the users get lists`, ...ev) };
      }
      const what = filtered.ok ? `{count: '${filtered.value}'} for users filter ${userOnly.key} (the users get lists ${want})` : `a refusal of the users filter ${userOnly.key} (${filtered.problem})`;
      return { [KEY]: observation(false, `${head} and ${what}: it does not count users (${n} listed by get), so no path does`, ...ev) };
    }
    const note = n !== undefined && doc.value !== n && n < CAP
      ? `: it counts something else, not users (${doc.value} ≠ ${n} users listed by get), so no path counts users`
      : n === undefined ? '' : ', which agrees with the users get';
    return { [KEY]: observation(note.includes('no path') ? false : documented, `${head}${note}`, mine.exchange, doc.exchange, listed.exchange) };
  },
};
