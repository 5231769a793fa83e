/**
 * The rules table: every documented rule of the Store Administration API that
 * storecheck verifies, with a stable id (never renamed once reports are
 * compared across runs), the spec section, the level and the report group.
 * Check ids are `<resource>.<rule>[.<subject>]`; faults in reference/ name
 * the rule they break; a unit test rejects ids not in this table.
 */
import type { Level, RuleGroup } from './report/types.js';

export interface Rule {
  /** the rule as a sentence: what a conformant target does */
  title: string;
  section: string;
  level: Level;
  group: RuleGroup;
}

const r = (group: RuleGroup, level: Level, section: string, title: string): Rule => ({ group, level, section, title });

export const RULES = {
  // §2 Conventions
  'conventions.scalar-strings': r('conventions', 'must', '§2 Conventions', 'every scalar in a response is a JSON string, at every depth'),
  'conventions.guid-form': r('conventions', 'must', '§2 Conventions', 'GUID fields hold a hyphenated 36-character identifier (unset references the all-zero GUID)'),
  'conventions.datetime-form': r('conventions', 'must', '§2 Conventions', "DateTime fields have the form 'YYYY-MM-DD HH:MM:SS'"),
  'conventions.date-form': r('conventions', 'must', '§2 Conventions', "customer birthdate has the form 'YYYY-MM-DD'"),
  'conventions.audit-fields': r('conventions', 'must', '§2 Conventions', 'records carry author and createdon, except country and store'),
  'conventions.record-schema': r('conventions', 'must', '§2 Resources and their fields', 'every record returned by get has every documented field with its type'),
  'conventions.write-record-schema': r('conventions', 'must', '§4 Responses', 'create and update return the resulting records with every documented field'),

  // §4 Formatting differs by operation
  'format.get.boolean': r('format', 'quirk', '§4 Formatting differs by operation', "get shows booleans as 'true' or 'false'"),
  'format.get.decimal-dot': r('format', 'quirk', '§4 Formatting differs by operation', 'get shows decimals with a dot'),
  'format.get.decimal-comma': r('format', 'quirk', '§4 Formatting differs by operation', 'get shows order item unitprice, shipping handlingfee and fixedamount with a comma'),
  'format.write.boolean': r('format', 'quirk', '§4 Formatting differs by operation', "create and update show booleans as '1' or '0'"),
  'format.write.decimal-comma': r('format', 'quirk', '§4 Formatting differs by operation', 'create and update show price, weight, discountamount and minimumpurchase with a comma'),
  'format.write.product-size-zero': r('format', 'quirk', '§4 Formatting differs by operation', "product create and update return size '0'"),

  // §4 Create, update, delete
  'lifecycle.create.single': r('lifecycle', 'must', '§4 Create and update payloads', 'create with one item returns that record with the values sent'),
  'lifecycle.create.batch': r('lifecycle', 'must', '§4 Create and update payloads', 'create with several items in one data returns each record with the values sent'),
  'lifecycle.create.round-trip': r('lifecycle', 'must', '§4 Responses', 'get by id returns a created record with the values sent'),
  'lifecycle.create.references': r('lifecycle', 'must', '§4 Create and update payloads', 'product categoryid and collectionid become categories and collections; tags become tags'),
  'lifecycle.create.sub-record-ids': r('lifecycle', 'must', '§2 Conventions', 'a record just created lists no sub-record whose own id is the all-zero GUID (kept for unset references)'),
  'lifecycle.unknown-reference': r('lifecycle', 'must', '§4 Create and update payloads', "a create or update naming a categoryid or collectionid that is no record's id is refused and stores nothing"),
  'lifecycle.update.changes': r('lifecycle', 'must', '§4 Create and update payloads', 'update changes the supplied values and get shows the change'),
  'lifecycle.update.response': r('lifecycle', 'must', '§4 Responses', 'update returns the updated records with the new values'),
  'lifecycle.update.others-untouched': r('lifecycle', 'must', '§4 Create and update payloads', 'update changes only the records named by id'),
  'lifecycle.delete.response': r('lifecycle', 'must', '§4 Delete', "delete answers {success: 'true'}"),
  'lifecycle.delete.exact': r('lifecycle', 'must', '§4 Delete', 'delete removes exactly the named ids; other records survive'),
  'lifecycle.delete.gone': r('lifecycle', 'must', '§4 Delete', 'a deleted id is gone from get and count'),

  // §4 Filter naming, Filters per resource
  'filters.id': r('filters', 'must', '§4 Filters per resource', 'the id filter returns exactly the records with the listed ids'),
  'filters.array': r('filters', 'must', '§4 Filter naming', 'an array filter matches records whose field equals any listed value'),
  'filters.range': r('filters', 'must', '§4 Filter naming', 'a range filter _min/_max bounds the field from below/above, compared as numbers or instants'),
  'filters.boolean': r('filters', 'must', '§4 Filters per resource', "a boolean filter matches records whose field has that value"),
  'filters.count-agrees': r('filters', 'must', '§4 Filters per resource', 'count agrees with get for the same filters'),
  'filters.date-only-bound': r('filters', 'must', '§2 Conventions', 'a DateTime bound may be a date or a date with time'),
  'filters.all-keys': r('filters', 'must', '§4 Filters per resource', 'every filter key of a resource in one request: the records they match together, as the observed combination says'),

  // §4, §8 Pagination and the cap
  'pagination.page-size': r('pagination', 'must', '§4 Common rules', 'pagination.pageSize bounds the number of records returned'),
  'pagination.partition': r('pagination', 'must', '§4 Common rules', 'consecutive pages partition the records: no overlap, no gap'),
  'pagination.cap-1000': r('pagination', 'must', '§8 Limits', 'a get returns at most 1000 records'),
  'pagination.count-total': r('pagination', 'must', '§4 Responses', 'count without filters equals the number of records get can walk'),

  // §4 Store
  'store.single-object': r('store', 'must', '§4 Responses', 'store get returns one object, not a list'),
  'store.apikey-field': r('store', 'must', '§5 Authentication', 'the store record contains the field apikey'),

  // §3 Versions
  'versions.initial': r('versions', 'must', '§3 States and transitions', 'a created blog post or page has one version, numbered 1, with the content as created'),
  'versions.append': r('versions', 'must', '§3 States and transitions', 'each update appends a version with the next number, the new content and the createdon of the update'),
  'versions.order': r('versions', 'must', '§3 States and transitions', 'versions are listed oldest first for blog posts and newest first for pages'),

  // §5 Authentication
  'auth.key-in-body': r('auth', 'must', '§5 Authentication', 'the key travels in the JSON body as authentication.apiKey'),
  'auth.invalid-key-no-records': r('auth', 'must', '§5 Authentication', 'a wrong key returns no records'),
  'auth.missing-key-no-records': r('auth', 'must', '§5 Authentication', 'a missing key returns no records'),
  'auth.invalid-key-no-change': r('auth', 'must', '§5 Authentication', 'a create, update or delete with a wrong or missing key changes nothing'),
  'auth.near-miss-no-records': r('auth', 'must', '§5 Authentication', 'a key that is almost the key (letter case swapped, cut short, extended, padded with a space, one character changed) is refused: no records'),
  'auth.near-miss-no-change': r('auth', 'must', '§5 Authentication', 'a create, update or delete with a key that is almost the key is refused and changes nothing'),

  // §8 Limits
  'limits.string-255': r('limits', 'must', '§8 Limits', 'strings of exactly 255 characters are accepted and stored intact'),
  'limits.page-content-65535': r('limits', 'must', '§8 Limits', 'page content of exactly 65535 characters is accepted and stored intact'),
  'limits.integer-11-digits': r('limits', 'must', '§8 Limits', 'integers of 11 digits are accepted and stored intact'),
  'limits.decimal-digits': r('limits', 'must', '§8 Limits', 'decimals at their digit and scale limits (8.2, 2.2) are accepted and stored intact'),
  'limits.text-encoding': r('limits', 'must', '§2 Conventions', 'text with accents, emoji, quotes and backslashes is stored intact'),

  // §3, §4 Sequences and concurrency: the records a sequence of requests leaves, against a model of them
  'model.sequence': r('model', 'must', '§4 Endpoints', "any sequence of creates, updates, deletes, gets, counts and page walks of the run's own records agrees with a model of those records"),
  'concurrency.updates': r('concurrency', 'must', '§4 Create and update payloads', 'concurrent updates of one record are all applied: none is lost, and each appends its own version (numbered 1..n, no gap, no duplicate)'),
  'concurrency.creates': r('concurrency', 'must', '§4 Create and update payloads', 'concurrent creates store every item once, each under an id of its own'),
  'concurrency.count': r('concurrency', 'must', '§4 Responses', 'a count sent while creates land lies between the counts before and after them, and the count after them includes them'),
  'concurrency.delete-walk': r('concurrency', 'must', '§4 Common rules', 'a page walk while records are deleted lists no record twice and only records that existed'),

  // properties of every answer the run receives (src/check/invariants): judged on the answers of every check, item and probe
  'invariants.ids-unique': r('invariants', 'must', '§4 Responses', 'the records of one get, create or update answer have distinct ids'),
  'invariants.record-schema': r('invariants', 'must', '§2 Resources and their fields', 'every record of every answer has every documented field with its type: the get form in a get answer, the write form in a create or update answer'),
  'invariants.page-bound': r('invariants', 'must', '§8 Limits', 'no get answer holds more records than its pageSize asks, nor more than 1000'),
  'invariants.count-form': r('invariants', 'must', '§4 Responses', 'every count answer is {count: String} holding a non-negative integer'),
  'invariants.only-asked-ids': r('invariants', 'must', '§4 Filters per resource', 'a get filtered by id lists only the ids asked, and a count so filtered counts no more records than ids were asked'),
  'invariants.filter-satisfied': r('invariants', 'must', '§4 Filter naming', 'every record of a filtered get satisfies its filters, combined and bounded as this target does (observations filters.combination, filters.rangeInclusive)'),

  // observed behaviour, recorded with evidence ("not shown" in §2–§9)
  'observe.consistent': r('observe', 'observe', '§4 Common rules', 'a behaviour the spec leaves open is applied consistently'),
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

export function rule(id: string): Rule {
  const found = (RULES as Record<string, Rule>)[id];
  if (!found) throw new Error(`unknown rule "${id}": add it to src/rules.ts`);
  return found;
}
