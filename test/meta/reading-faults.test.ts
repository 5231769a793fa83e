/**
 * A reading of a stack default applied in one place only (issue 25, item 5),
 * each caught by the class items of that property alone:
 * - the store keeps spaces at the edges of its Strings (text.trimming 'kept')
 *   while product create trims the name (trims-product-names: caught by the
 *   string.edge-whitespace items of product name). On a store that trims
 *   every String (trim-strings) it is no departure, and the checks pass;
 * - the store keeps '' (text.emptyRequired 'kept') while page update takes ''
 *   for "not supplied" (page-update-skips-empty: caught by the string.empty
 *   items of page's Strings). On a store refusing '' in its mandatory
 *   properties (empty-refused: every String of a page is one) no '' is sent there, and the checks pass.
 * - the store takes '007' as 7 (integers.leadingZeros 'taken') while product
 *   stores it as 0 (leading-zeros-to-zero-on-products: caught by the
 *   integer.leading-zeros items of product's Integers). On a store refusing
 *   leading zeros (integer-leading-zeros-refused) none is sent, and they pass.
 * - the store keeps a tag listed twice (lists.duplicates 'kept') while product
 *   keeps it once (product-tags-merged: caught by the list.duplicates items of
 *   product tags). On a store whose lists are sets (list-duplicates-merged) the
 *   same is its reading, and they pass.
 * - the store's GUID filters take a GUID of any version (filters.guidVersion
 *   'any') while the order customerid filter refuses one not of version 4
 *   (order-customerid-version-4: caught by the guid.max value of that key's
 *   #several list). On a store validating every GUID for version 4
 *   (guid-version-4) the max GUID is never sent, and they pass.
 * - the store keeps a DateTime of any year (time.dateTimeRange 'full') while
 *   coupon clamps its dates to a TIMESTAMP column's range (coupon-dates-clamped:
 *   caught by the datetime.before-1970 and .after-2038 items of coupon startdate
 *   and enddate). On a store whose DateTimes are TIMESTAMP columns
 *   (timestamp-columns) no such date is sent, and they pass.
 * - the store reads a date-only DateTime bound as the day's midnight
 *   (filters.dateOnlyBound) while order createdon_max reads it as the whole day
 *   (date-only-whole-day:order.createdon_max, the key of the first field the
 *   probe asks: the other fields outvote it): caught by order createdon_max's
 *   #day items alone. On a store reading every bound as the whole day
 *   (date-only-whole-day) it is no departure, and they pass. Its mirror,
 *   order-createdon-max-midnight (a whole-day store whose order createdon_max
 *   reads the midnight), is caught by the same items alone.
 * - the store keeps a combining sequence as sent (text.normalization 'kept')
 *   while product stores its name NFC-normalized (product-name-stored-nfc:
 *   caught by the string.combining items of product name). On a store
 *   normalizing every String on input (nfc-input) it is no departure.
 * - the store's String filters tell canonical equivalents apart
 *   (collation.normalization 'sensitive') while the product vendor filter
 *   equates them (product-vendor-canonical-equivalents: caught by the
 *   precomposed twin of the fixture's e + U+0301 vendor in that key's
 *   #several list). On a store whose filters all equate them
 *   (collation-canonical) it is no departure. Its mirror, product-vendor-code-points
 *   (every other String filter equates them, vendor compares code points), is
 *   caught by the same item alone.
 * - page content's limit counted in bytes by create, cut where 65535 bytes end
 *   (limits.longTextUnit 'bytes cut'), while update keeps 65535 multi-byte
 *   characters (page-content-create-cut-at-65535-bytes: caught by the update
 *   apart of page.limits.page-content-65535). On a store cutting both
 *   (text-bytes-cut) it is no departure.
 * What is judged is consistency with the store's own reading, not one reading.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVE_SEED, proveFault, type FaultProof } from '../../reference/prove.js';
import type { Report } from '../../src/report/types.js';

const PROOF_TIMEOUT = 600_000;

interface Case {
  fault: string;
  only: string;
  /** the items the departure fails (one at least, ending with `fieldItem`), and the only ones it may */
  fails: RegExp;
  fieldItem: RegExp;
  /** a store whose own reading the fault does not depart from (or that never sends the class): the same checks pass */
  honest: string;
}

// every DateTime key's date-only bound judged, and the count of the one departing
const DATE_ONLY = '*.filters.date-only-bound.*,order.filters.count-agrees.createdon_max';
const ORDER_CREATEDON_MAX = /^order\.filters\.(date-only-bound|count-agrees)\.createdon_max#day$/;

const CASES: Case[] = [
  // spaces kept everywhere but in product names (string.edge-whitespace: a name ending in a space)
  {
    fault: 'trims-product-names', only: 'product.lifecycle.create.*', honest: 'trim-strings',
    fails: /^product\.lifecycle\.create\.(single#name|round-trip#name|batch#answer|batch#stored)$/, fieldItem: /#name$/,
  },
  // '' stored everywhere but in a page update, which takes it for "not supplied" (string.empty)
  {
    fault: 'page-update-skips-empty', only: 'page.lifecycle.update.*', honest: 'empty-refused',
    fails: /^page\.lifecycle\.update\.(response|changes|changes\.batch)#/, fieldItem: /\.(response|changes)#(seopagetitle|seopagedescription|seometakeywords|content)$/,
  },
  // '007' taken as 7 everywhere but in product, which stores it as 0 (integer.leading-zeros)
  {
    fault: 'leading-zeros-to-zero-on-products', only: 'product.lifecycle.create.*', honest: 'integer-leading-zeros-refused',
    fails: /^product\.lifecycle\.create\.((single|round-trip)#(minbuy|maxbuy|quantity|size)|batch#answer|batch#stored)$/, fieldItem: /#(minbuy|maxbuy|quantity|size)$/,
  },
  // a tag listed twice kept everywhere but in product, which keeps it once (list.duplicates)
  {
    fault: 'product-tags-merged', only: 'product.lifecycle.create.*', honest: 'list-duplicates-merged',
    fails: /^product\.lifecycle\.create\.((single|round-trip)#tags|batch#answer|batch#stored)$/, fieldItem: /#tags$/,
  },
  // a GUID of any version taken by every GUID filter but order customerid, which wants version 4 (guid.max)
  {
    fault: 'order-customerid-version-4', only: 'order.filters.*', honest: 'guid-version-4',
    fails: /^order\.filters\.(array|count-agrees)\.customerid#several$/, fieldItem: /^order\.filters\.array\.customerid#several$/,
  },
  // DateTimes of every year kept everywhere but in coupon dates, clamped to the TIMESTAMP range (datetime.before-1970, .after-2038)
  {
    fault: 'coupon-dates-clamped', only: 'coupon.lifecycle.create.*', honest: 'timestamp-columns',
    fails: /^coupon\.lifecycle\.create\.((single|round-trip)#(startdate|enddate)|batch#answer|batch#stored)$/, fieldItem: /#(startdate|enddate)$/,
  },
  // combining sequences kept as sent everywhere but in product names, stored NFC (string.combining)
  {
    fault: 'product-name-stored-nfc', only: 'product.lifecycle.create.*', honest: 'nfc-input',
    fails: /^product\.lifecycle\.create\.(single#name|round-trip#name|batch#answer|batch#stored)$/, fieldItem: /#name$/,
  },
  // canonical equivalents told apart by every String filter but product vendor (string.combining, asked in the other form)
  {
    fault: 'product-vendor-canonical-equivalents', only: 'product.filters.*', honest: 'collation-canonical',
    fails: /^product\.(filters\.(array|count-agrees)\.vendor#several|invariants\.filter-satisfied#get)$/, fieldItem: /^product\.filters\.array\.vendor#several$/,
  },
  // a date-only bound read as the midnight everywhere but order createdon_max, which reads the whole day (the key the probe asks first)
  { fault: 'date-only-whole-day:order.createdon_max', only: DATE_ONLY, honest: 'date-only-whole-day', fails: ORDER_CREATEDON_MAX, fieldItem: ORDER_CREATEDON_MAX },
  // page content cut where 65535 bytes end by create, kept whole by update: the probe (a create) reads 'bytes cut', the
  // update apart holding 65535 multi-byte characters keeps them (limits.longTextUnit); a store cutting both is its honest twin
  {
    fault: 'page-content-create-cut-at-65535-bytes', only: 'page.limits.page-content-65535', honest: 'text-bytes-cut',
    fails: /^page\.limits\.page-content-65535#content\.(create|update)$/, fieldItem: /#content\.update$/,
  },
];


function failingItems(p: FaultProof): string[] {
  // a run that wrote no report (killed, or ended before it): its problem says why, below
  if (!existsSync(join(p.reportDir!, 'report.json'))) return [];
  const report = JSON.parse(readFileSync(join(p.reportDir!, 'report.json'), 'utf8')) as Report;
  return (report.items ?? []).filter((i) => i.status === 'failed' || i.status === 'error').map((i) => i.id);
}

async function withProof(c: Case, seed: number, extra: string[], judge: (p: FaultProof, failing: string[], why: string) => void): Promise<void> {
  const p = await proveFault(c.fault, { seed, keepReport: true, extraArgs: ['--only', c.only, ...extra] });
  try {
    const failing = p.reportDir ? failingItems(p) : [];
    const why = `fault ${c.fault} (${p.description}): exit ${p.exitCode}${p.problem ? `, ${p.problem}` : ''}, failing: ${failing.join(', ') || 'none'}; replay: npm run conformance -- --depth quick --seed ${seed} --only '${c.only}' --reference-faults ${c.fault} ${extra.join(' ')}`;
    expect(p.problem, why).toBeUndefined();
    judge(p, failing, why);
  } finally {
    if (p.reportDir) rmSync(p.reportDir, { recursive: true, force: true });
  }
}

describe.concurrent('a store departing in one place from its own reading', () => {
  for (const c of CASES) {
    // one seed: the class values that catch these are the designed ones, sent at every seed and depth
    // (npm run mutation proves every fault at three seeds with the whole suite)
    it(`${c.fault} is caught by the class items of the property`, () => withProof(c, PROVE_SEED + 7919, [], (p, failing, why) => {
      expect(p.exitCode, why).toBe(1);
      expect(failing.filter((id) => c.fieldItem.test(id)).length, why).toBeGreaterThan(0);
      expect(failing.filter((id) => !c.fails.test(id)), why).toEqual([]);
    }), PROOF_TIMEOUT);
    it(`${c.fault} passes on ${c.honest}: no departure from that store's own reading`, () => withProof(c, PROVE_SEED, ['--reference-variant', c.honest], (p, failing, why) => {
      expect(failing, why).toEqual([]);
      expect(p.exitCode, why).toBe(0);
    }), PROOF_TIMEOUT);
  }
});

describe('a code-point key on a store whose filters equate canonical equivalents', () => {
  // the mirror of product-vendor-canonical-equivalents: every other String filter equates e + U+0301 and é (the probe's
  // collection name among them: collation.normalization 'insensitive'), so no variant is its honest twin
  const c: Case = { fault: 'product-vendor-code-points', only: 'product.filters.*', honest: '', fails: /^product\.filters\.(array|count-agrees)\.vendor#several$/, fieldItem: /^product\.filters\.array\.vendor#several$/ };
  it(`${c.fault} is caught by product vendor's #several alone`, () => withProof(c, PROVE_SEED + 7919, [], (p, failing, why) => {
    expect(p.exitCode, why).toBe(1);
    expect(failing.filter((id) => c.fieldItem.test(id)).length, why).toBeGreaterThan(0);
    expect(failing.filter((id) => !c.fails.test(id)), why).toEqual([]);
  }), PROOF_TIMEOUT);
});

describe('a midnight key on a store reading a date-only bound as the whole day', () => {
  // the mirror of date-only-whole-day:order.createdon_max: the whole store departs from the default server's
  // reading but one key, so no variant is its honest twin; the other 16 keys keep the store's reading and pass
  const c: Case = { fault: 'order-createdon-max-midnight', only: DATE_ONLY, honest: '', fails: ORDER_CREATEDON_MAX, fieldItem: ORDER_CREATEDON_MAX };
  it(`${c.fault} is caught by order createdon_max's #day items alone`, () => withProof(c, PROVE_SEED + 7919, [], (p, failing, why) => {
    expect(p.exitCode, why).toBe(1);
    expect(failing.filter((id) => c.fieldItem.test(id)).length, why).toBeGreaterThan(0);
    expect(failing.filter((id) => !c.fails.test(id)), why).toEqual([]);
  }), PROOF_TIMEOUT);
});
