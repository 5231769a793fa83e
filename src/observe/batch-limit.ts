/**
 * limits.maxDataItems — §8 "Maximum number of items in data or in a delete
 * filter: not shown". Create collections in one batch of 100 items first: a
 * store that takes it has no limit up to 100 (null), found in one create and
 * one delete. Otherwise batches of 1, 10 and 50; at the first size refused (a
 * 4xx — a 5xx or no answer is a target error, not a refusal), or at 100,
 * bisect between the last size accepted and it (≤ 6 more creates for the
 * 50–100 gap) to the exact maximum. Each accepted batch is deleted at once, in
 * delete filters no larger than the largest accepted batch.
 */
import type { Exchange } from '../client/http.js';
import { resource } from '../schema/model.js';
import { couldNotTell, observation, statusText, type Probe } from './types.js';

const KEY = 'limits.maxDataItems';
const SIZES = [1, 10, 50, 100];

export const batchLimitProbe: Probe = {
  name: 'data batch limit',
  keys: [KEY],
  phase: 2,
  writes: true,
  async run({ client, shared }) {
    const r = resource('collection');
    let attempt = 0;
    let largestAccepted = 0;
    const seen: Exchange[] = [];
    /** true accepted, false refused; throws on a target error */
    const tryBatch = async (size: number): Promise<boolean> => {
      const tag = attempt++;
      const items = Array.from({ length: size }, (_, i) => shared.payload(r, `batch${tag}`, i));
      const res = await client.create(r, items);
      seen.push(res.exchange);
      const ids = (res.value ?? []).map((x) => x?.id).filter((id): id is string => typeof id === 'string').concat(res.recovered ?? []);
      // a batch the create accepted is deleted in one filter of the same size; should the
      // target limit delete filters more tightly, one id at a time
      if (ids.length) {
        const [del] = await shared.deleteOwned(r, ids, ids.length).catch(() => []);
        if (del && !(del.response && del.response.status < 300)) await shared.deleteOwned(r, ids, 1).catch(() => undefined);
      }
      const ex = res.exchange;
      if (!ex.response || ex.response.status >= 500) throw new BatchTargetError(`a create of ${size} item(s) got no usable answer: ${res.problem}`, ex);
      if (res.ok && ids.length === size) {
        largestAccepted = Math.max(largestAccepted, size);
        return true;
      }
      return false;
    };
    try {
      const most = SIZES[SIZES.length - 1];
      if (await tryBatch(most)) return { [KEY]: observation(null, `a batch of ${most} items was accepted: no limit up to ${most} (${r.prefix}/create)`, seen[0]) };
      let lo = 0;
      let hi = most;
      for (const size of SIZES.slice(0, -1)) {
        if (await tryBatch(size)) lo = size;
        else {
          hi = size;
          break;
        }
      }
      if (lo === 0) return { [KEY]: couldNotTell(`a create of a single valid item was refused: ${statusText(seen[1])}`, seen[1]) };
      const refusedAt = hi === most ? seen[0] : seen[seen.length - 1];
      const tried = [most, ...SIZES.filter((x) => x < most && x <= hi)].join(', ');
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (await tryBatch(mid)) lo = mid;
        else hi = mid;
      }
      return { [KEY]: observation(lo, `a data array of ${lo} item(s) is accepted and one of ${hi} refused (${r.prefix}/create; sizes tried: ${tried}, then bisected)`, refusedAt, seen[seen.length - 1]) };
    } catch (e) {
      if (e instanceof BatchTargetError) return { [KEY]: couldNotTell(e.message, e.exchange) };
      throw e;
    }
  },
};

class BatchTargetError extends Error {
  constructor(message: string, readonly exchange: Exchange) {
    super(message);
  }
}
