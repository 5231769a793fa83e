/**
 * pagination.firstPageNumber (§4 "Pagination defaults: not shown"): is the
 * first page numbered 0 or 1?
 *
 * Three gets with a small pageSize k on a resource holding at least 3k records:
 * pageNumber 0 (A), pageNumber 1 (B), and no pageNumber at all (D, the default
 * page, which any sane server makes the first page). What each server choice
 * produces:
 *   - 1-based, 0 rejected            → A is an error, B the first records        → 1
 *   - 1-based, 0 read as "nothing"   → A is empty, B the first records           → 1
 *   - 1-based, 0 clamped to 1        → A and B are the same records             → 1
 *   - 0-based                        → A and B are two disjoint, non-empty pages,
 *                                      and D equals A                            → 0
 *   - 1-based, 0 wraps (to the last page, say) → A and B disjoint, D equals B   → 1
 *   - pageNumber ignored             → A, B and page 2 all the same             → cannot tell
 * So: equal A and B are settled by a fourth get (page 2) telling "clamped" from
 * "ignored"; disjoint A and B by which of the two the default page is.
 */
import { resource } from '../schema/model.js';
import type { Probe } from './types.js';
import { couldNotTell, is2xx, observation, statusText } from './types.js';
import { disjoint, sameIds } from './shared.js';
import type { Rec } from '../client/api.js';

const KEY = 'pagination.firstPageNumber';

export const firstPageProbe: Probe = {
  name: 'first page number',
  keys: [KEY],
  phase: 1,
  async run({ client, shared }) {
    const candidates = await shared.byCount(3);
    if (!candidates.length) return { [KEY]: couldNotTell('no resource holds 3 records or more to compare pages') };
    const { r, count } = candidates[0];
    const k = Math.min(3, Math.floor(count / 3));
    const page = (pageNumber?: number) => client.get(r, { pagination: pageNumber === undefined ? { pageSize: k } : { pageNumber, pageSize: k } });
    const [a, b, d] = await Promise.all([page(0), page(1), page()]);
    const recs = (x: typeof a): Rec[] | undefined => (x.ok ? x.value! : undefined);
    const A = recs(a);
    const B = recs(b);
    const D = recs(d);
    const where = `${resource(r.name).prefix}/get with pageSize ${k} (${count} records)`;
    if (!B) return { [KEY]: couldNotTell(`pageNumber 1 did not answer with records on ${where}: ${b.problem}`, a.exchange, b.exchange) };
    if (!A || A.length === 0) {
      if (B.length === 0) return { [KEY]: couldNotTell(`pageNumber 0 and 1 both returned nothing on ${where}`, a.exchange, b.exchange) };
      const how = !A ? `was answered ${statusText(a.exchange)}${is2xx(a.exchange) ? ' without a records array' : ''}` : 'returned no records';
      return { [KEY]: observation(1, `pages are numbered from 1: pageNumber 0 ${how}, pageNumber 1 returned the first ${B.length} record(s) (${where})`, a.exchange, b.exchange) };
    }
    if (sameIds(A, B)) {
      const c = await page(2);
      if (c.ok && sameIds(B, c.value!)) {
        return { [KEY]: couldNotTell(`pageNumber 0, 1 and 2 returned the same records on ${where}: pageNumber seems ignored`, a.exchange, b.exchange, c.exchange) };
      }
      return { [KEY]: observation(1, `pages are numbered from 1: pageNumber 0 is read as 1 (both returned the same ${A.length} record(s)) and pageNumber 2 moves on (${where})`, a.exchange, b.exchange, c.exchange) };
    }
    if (B.length && disjoint(A, B)) {
      if (D && sameIds(D, A)) {
        return { [KEY]: observation(0, `pages are numbered from 0: pageNumber 0 and 1 returned two disjoint pages and the default page (no pageNumber) is page 0 (${where})`, a.exchange, b.exchange, d.exchange) };
      }
      if (D && sameIds(D, B)) {
        return { [KEY]: observation(1, `pages are numbered from 1: the default page (no pageNumber) is page 1; pageNumber 0 returned other records (${where})`, a.exchange, b.exchange, d.exchange) };
      }
      if (!D) {
        return { [KEY]: observation(0, `pages are numbered from 0: pageNumber 0 and 1 returned two disjoint, non-empty pages (a get without pageNumber was answered ${statusText(d.exchange)}) (${where})`, a.exchange, b.exchange, d.exchange) };
      }
      return { [KEY]: couldNotTell(`pageNumber 0 and 1 returned disjoint pages but the default page matches neither (${where})`, a.exchange, b.exchange, d.exchange) };
    }
    return { [KEY]: couldNotTell(`pageNumber 0 and 1 returned overlapping, different pages (${where})`, a.exchange, b.exchange) };
  },
};
