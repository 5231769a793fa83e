/**
 * consistency.readAfterWriteMs — whether a get right after a write shows it
 * is not shown (§4). A store whose reads lag its writes (a read replica behind
 * the primary) is conformant; checks must then read a little later.
 *
 * One collection is created, updated and deleted; after each write it is read
 * by id until the write shows (listed, changed, gone) or the visibility
 * deadline (--visibility-timeout-ms) passes. The value is the longest wait in
 * ms: 0 when every first read showed the write. The client then waits for each
 * write of the checks (ClientOptions.visibility).
 */
import type { Exchange } from '../client/http.js';
import { pollUntil } from '../client/poll.js';
import { resource } from '../schema/model.js';
import { couldNotTell, need, observation, type Probe } from './types.js';

const KEY = 'consistency.readAfterWriteMs';

/**
 * How long a write took to show, once a first read missed it: from the write's answer to the answer
 * of the read that showed it. Counted from the first read instead, it would leave out the moments
 * between the write's answer and that read (a main thread busy with other answers: every probe runs
 * side by side) and say less than a checker, reading right after its write, has to wait.
 */
function lagAfter(write: Exchange, shown: Exchange, fromFirstRead: number): number {
  if (write.answeredAt === undefined || shown.answeredAt === undefined) return fromFirstRead;
  return Math.max(fromFirstRead, Math.round(shown.answeredAt - write.answeredAt));
}

export const consistencyProbe: Probe = {
  name: 'read after write',
  keys: [KEY],
  phase: 2,
  writes: true,
  async run({ client, shared, config }) {
    const r = resource('collection');
    const prop = r.payload.find((p) => p.kind === 'string' && !p.unique) ?? r.payload.find((p) => p.kind === 'string');
    if (!prop) return { [KEY]: couldNotTell(`${r.title} has no String payload property to update`) };
    const field = prop.recordField ?? prop.name;
    const deadline = config.visibilityTimeoutMs;
    const created = await client.create(r, [shared.payload(r, 'lag', 0)]);
    const ids = (created.value ?? []).map((x) => x?.id).filter((id): id is string => typeof id === 'string').concat(created.recovered ?? []);
    const ev: Exchange[] = [created.exchange];
    const waits: Array<{ what: string; ms: number }> = [];
    try {
      need(created, `create of one ${r.title}`);
      const id = ids[0];
      if (!id) return { [KEY]: couldNotTell('the created record has no id', created.exchange) };
      const read = () => client.get(r, { filters: { id: [id] } });
      const wait = async (what: string, write: Exchange, shows: (recs: Array<Record<string, unknown>>) => boolean): Promise<boolean> => {
        // small pauses: the value is the delay itself, not the delay rounded up to a pause
        // a read never sent (the run stopping, its endpoint given up after time-outs) will not show the write
        const p = await pollUntil(read, (got) => got.ok && shows(got.value ?? []), deadline, { firstPauseMs: 20, maxPauseMs: 40, hopeless: (got) => got.exchange.notSent === true });
        ev.push(p.result.exchange);
        if (p.held) waits.push({ what, ms: p.repeated ? lagAfter(write, p.result.exchange, p.elapsedMs) : 0 });
        return p.held;
      };
      const mine = (recs: Array<Record<string, unknown>>) => recs.find((x) => String(x?.id).toLowerCase() === id.toLowerCase());
      if (!(await wait('the create', created.exchange, (recs) => !!mine(recs)))) return { [KEY]: couldNotTell(`the created ${r.title} is not listed by id within ${deadline} ms`, ...ev) };
      const value = shared.label('lag', 'updated');
      const up = await client.update(r, [{ id, [prop.name]: value }]);
      ev.push(up.exchange);
      need(up, `update of ${prop.name}`);
      if (!(await wait('the update', up.exchange, (recs) => mine(recs)?.[field] === value))) return { [KEY]: couldNotTell(`the updated ${prop.name} does not show within ${deadline} ms`, ...ev) };
      const del = await client.delete(r, [id]);
      ev.push(del.exchange);
      need(del, `delete of the ${r.title}`);
      if (!(await wait('the delete', del.exchange, (recs) => !mine(recs)))) return { [KEY]: couldNotTell(`the deleted ${r.title} is still listed after ${deadline} ms`, ...ev) };
      // its delete shown: nothing left to delete
      ids.length = 0;
      const longest = Math.max(...waits.map((w) => w.ms));
      const detail = longest === 0
        ? `a get by id right after each write showed it (create, update, delete of one ${r.title})`
        : `reads lag writes: ${waits.map((w) => `${w.what} showed after ${w.ms} ms`).join(', ')} (${r.prefix}); checks wait for each write, up to ${deadline} ms`;
      return { [KEY]: observation(longest, detail, ...ev.slice(0, 6)) };
    } finally {
      if (ids.length) await shared.deleteOwned(r, ids).catch(() => undefined);
    }
  },
};
