/**
 * The first page of a resource's existing records (the store object for the single store): what
 * the read-only checks of the conventions and format suites judge, read once per file.
 */
import { requireOk, type Depth, type Exchange, type FixtureContext, type Rec, type ResourceModel } from '../../src/check/index.js';

export interface Page {
  /** the records read (the store object alone for the single store) */
  records: Rec[];
  exchange: Exchange;
  /** how the records were read, for messages */
  what: string;
}

/** Records per read: a page large enough to show sub-lists, small enough to stay cheap. */
function pageSize(depth: Depth): number {
  return depth === 'quick' ? 50 : depth === 'standard' ? 100 : 200;
}

/** One get of the first page (the page number the target was observed to start at). */
export async function readFirstPage(r: ResourceModel, f: FixtureContext): Promise<Page> {
  const client = f.client;
  if (r.single) {
    const res = await client.store();
    return { records: [requireOk(res, 'store get')], exchange: res.exchange, what: 'the store get' };
  }
  const pagination = { pageNumber: f.observed('pagination.firstPageNumber'), pageSize: pageSize(f.config.depth) };
  const res = await client.get(r, { pagination });
  const what = `${r.name} get (first page of ${pagination.pageSize})`;
  return { records: requireOk(res, what), exchange: res.exchange, what: `the ${what}` };
}
