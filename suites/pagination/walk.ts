/**
 * A walk over a set whose size is known: the pages it fills are read side by
 * side, not one after another.
 *
 * A walk of consecutive pages ends at the first page holding fewer records than
 * a full page. When the walk is over records the check knows (its own set by an
 * id filter, the records one get returned), which pages that takes is known
 * before the first is read: the pages the records fill and, when the last of
 * them is full, the empty one after it. Read together they cost the target's
 * latency once instead of once a page: a walk of 12 pages at 30 ms was 12
 * round trips on the run's critical path, now 1. The requests are the same a
 * walk one page at a time sends to a store that answers as the spec says.
 *
 * Pages past those are read one at a time, and only while every page so far
 * came back full (a store holding more than the set, or ignoring the page
 * size), up to `maxPages`, as before. Nothing about the order of the answers
 * is judged: pages are taken in page order, whatever order they came back in.
 */

/**
 * The most pages read together. `held` is what a get returned, so a target
 * answering an id filter with records it did not ask for could make it any
 * number: past this many the walk goes one page at a time, as it always did.
 * No walk of the suite needs more (the long walk reads at most 26 pages,
 * suites/pagination/long-walk.ts).
 */
export const MAX_PAGES_TOGETHER = 32;

/** The pages a walk over `held` records in pages of `per` reads together: floor(held ÷ per) + 1 (the last short, or empty), at most MAX_PAGES_TOGETHER. */
export function pagesTogether(held: number, per: number, maxPages: number): number {
  return Math.max(1, Math.min(maxPages, MAX_PAGES_TOGETHER, Math.floor(Math.max(0, held) / Math.max(1, per)) + 1));
}

/**
 * Pages 0, 1, … read with `read(index)` until one holds fewer than `per`
 * records or `maxPages` were read: the pages in page order up to the first
 * short one, and whether the walk ended on one. The first `pagesTogether`
 * pages go together; a rejected read rejects the walk (as it did one at a time).
 */
export async function walkKnownSet<P extends { records: readonly unknown[] }>(
  held: number,
  per: number,
  maxPages: number,
  read: (index: number) => Promise<P>,
): Promise<{ pages: P[]; ended: boolean }> {
  const pages: P[] = [];
  const first = pagesTogether(held, per, maxPages);
  const batch = await Promise.all(Array.from({ length: first }, (_, i) => read(i)));
  for (let i = 0; i < maxPages; i++) {
    const got = i < batch.length ? batch[i] : await read(i);
    pages.push(got);
    if (got.records.length < per) return { pages, ended: true };
  }
  return { pages, ended: false };
}
