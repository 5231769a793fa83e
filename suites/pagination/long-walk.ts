/**
 * The long page walk's page size (docs/value-classes.md "page walks"; value
 * class `integer.length-change`): page numbers compared or sorted as text go
 * wrong from 10 on ("2" > "11"), so a walk must reach page 10 on a full page
 * and go on to the page after it. One rule for every resource: the records the
 * run made on a writable one, the records one get returns on a read-only one.
 */

/** Full pages the walk needs: the tenth is the first whose number has two digits (from page 1). */
export const LONG_WALK_FULL_PAGES = 10;
/** The most pages the long walk reads: with a small largest page (observed), it is not judged rather than walk on. */
export const LONG_WALK_MAX_PAGES = 25;

export type LongWalkPlan =
  /** `size` asked per page; the records fill `pages` pages (the last may be short; when it is full, one more read finds the end) */
  | { size: number; pages: number; reason?: undefined }
  /** why no walk past page 10 can be made of these records */
  | { reason: string; size?: undefined; pages?: undefined };

/**
 * The page size for a walk of `held` records past page 10: the largest size,
 * within the largest page the target serves (`max`, observed), that still
 * fills 10 pages — the fewest pages (and requests) with page 10 full. Not
 * judged when fewer than 10 records are held (no 10 pages of one record), or
 * when pages of `max` would take more than LONG_WALK_MAX_PAGES pages.
 */
export function longWalkPlan(held: number, max: number): LongWalkPlan {
  const size = Math.min(max, Math.floor(held / LONG_WALK_FULL_PAGES));
  if (size < 1) {
    return { reason: `${held} record(s) cannot fill ${LONG_WALK_FULL_PAGES} pages${max < 1 ? ` (largest page ${max})` : ' of one record'}` };
  }
  const pages = Math.ceil(held / size);
  if (pages > LONG_WALK_MAX_PAGES) {
    return { reason: `${held} records in pages of at most ${max} (observation pagination.maxPageSize) make ${pages} pages, more than the ${LONG_WALK_MAX_PAGES} the walk reads` };
  }
  return { size, pages };
}

/** Records page `index` (from 0) of a walk of `held` records in pages of `size` must hold. */
export const recordsOnPage = (held: number, size: number, index: number): number => Math.max(0, Math.min(size, held - index * size));
