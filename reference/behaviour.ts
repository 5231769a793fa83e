/**
 * The reference server's choices for everything the spec leaves "not shown",
 * in one object. Every field has a default (the server's honest choice); the
 * benign variants in variants.ts switch them to other honest choices.
 */

import { GET_CAP, type DecimalReading } from '../src/schema/model.js';
import type { AstralReading, DateOnlyBoundReading, DecimalScaleReading, IntegerWidth, TrimmingReading } from '../src/values/readings.js';

export type OrderChoice = 'createdon asc' | 'createdon desc' | 'id asc';
export type ErrorShape = 'nested' | 'flat' | 'text';

export interface Behaviour {
  /** §4 "Pagination defaults: not shown": the number of the first page */
  firstPageNumber: number;
  /** §4: page size when `pagination.pageSize` is absent */
  defaultPageSize: number;
  /** largest page honoured; a larger pageSize is clamped (never above the §8 cap of 1000) */
  maxPageSize: number;
  /** a pageSize below 1 ("0", "-2"): refused (400), a page of no records (LIMIT 0), or read as absent (the default page) */
  pageSizeBelowOne: 'refused' | 'empty' | 'default';
  /** §4 "Order of returned records: not shown" (ties broken by id) */
  order: OrderChoice;
  /** §4 "How several filters combine": 'and' or 'or' (the _min/_max of one field always bound together) */
  filterCombination: 'and' | 'or';
  /** §4 "whether the range bounds are inclusive" */
  rangeInclusive: boolean;
  /** §4 "Whether an update replaces the whole record or changes only the supplied fields" */
  updateSemantics: 'partial' | 'replace';
  /** §5.3 / §7: HTTP status for a wrong key */
  invalidKeyStatus: number;
  /** §5.3 / §7: HTTP status for a missing key */
  missingKeyStatus: number;
  /** §7 error body shape */
  errorShape: ErrorShape;
  /** §8: a string over its maximum length */
  overlongString: 'rejected' | 'truncated' | 'accepted';
  /** §8 "Maximum number of items in data or in a delete filter": null = no limit */
  maxDataItems: number | null;
  /** true: every record carries one undocumented extra field */
  extraFields: boolean;
  /** the read-only resource seeded with more than 1000 records (null = small store) */
  bigResource: string | null;
  /** how many records the big resource holds */
  bigCount: number;
  /** §4 "The page filter samples use a name key instead of title": keys accepted */
  pagesTitleFilterKey: 'both' | 'title' | 'name';
  /** delete of an id that does not exist */
  deleteUnknownId: 'ignored' | 'not-found';
  /** update of an id that does not exist */
  updateUnknownId: 'not-found' | 'ignored';
  /** get and count read a replica this many ms behind the writes (0: reads see every write at once) */
  readLagMs: number;
  /** resources the store holds no record of (a new store: no orders yet) */
  emptyResources: readonly string[];
  /** §4 "A separate users count path: not shown": offered, or absent (404; the documented path counts shipping methods) */
  usersCountPath: 'offered' | 'absent';
  /** a filter key the resource does not have (also a page key the title mode does not take): 400, or left out of the filtering */
  unknownFilterKey: 'rejected' | 'ignored';
  /** a Predefined filter value outside the field's enumeration: matches no record (a text column), or 400 (an enum-typed filter model) */
  unknownPredefinedValue: 'matches-nothing' | 'refused';
  /** §8 "Decimal (8 digits, 2 decimals)": 8 before the point, or 8 in all (SQL DECIMAL(8,2)); over it → 400 */
  decimalDigits: DecimalReading;
  // ---- the readings of stack defaults (docs/stack-defaults.md; reference/readings.ts applies them)
  /** String and Predefined array filters: letter case ignored (a *_ci collation) or not */
  stringCase: 'sensitive' | 'insensitive';
  /** … accents ignored (utf8mb4_0900_ai_ci, *_general_ci) or not */
  stringAccents: 'sensitive' | 'insensitive';
  /** … trailing spaces ignored (PAD SPACE collations, SQL Server) or not */
  trailingSpaces: 'significant' | 'ignored';
  /**
   * Unicode normalization: none (code points stored and compared as sent), Strings in data and filter values
   * NFC-normalized on input ('nfc-input'), or canonical equivalents equal in String filters ('canonical-collation':
   * PostgreSQL's nondeterministic ICU collations); an accent-insensitive collation equates them too
   */
  normalization: 'none' | 'nfc-input' | 'canonical-collation';
  /**
   * How a case- or accent-insensitive collation weighs: 'uca' (utf8mb4_0900_ai_ci, utf8mb4_unicode_ci: a combining
   * mark weighs nothing, so e + U+0301 = e = é) or 'general' (*_general_ci: one character at a time, so é = e but a
   * combining mark is a character of its own and e + U+0301 is neither; ß = s)
   */
  collationWeights: 'uca' | 'general';
  /** a String whose limit is above the common one (page content, 65535): characters counted, or UTF-8 bytes (a MySQL TEXT column: longer refused in strict mode, cut to a character boundary outside it) */
  longTextUnit: 'characters' | 'bytes' | 'bytes cut';
  /** Integer columns: as many digits as §8 says, or 32-bit (INT(11)) refusing or clamping a value beyond */
  integerWidth: IntegerWidth;
  /** a Decimal with more decimals than its scale: refused (400), rounded half away from zero, truncated */
  decimalScale: DecimalScaleReading;
  /** a String holding a 4-byte character (emoji): kept, refused (400), each such character stored as '?' */
  astral: AstralReading;
  /** a String with spaces at its edges, in data: stored as sent, trimmed (Laravel's TrimStrings), or refused (400) */
  edgeSpaces: TrimmingReading;
  /** a String of spaces only, in data (after edgeSpaces): stored, or refused as blank (400: ASP.NET's [Required]) */
  blankStrings: 'kept' | 'refused';
  /** an empty String in a mandatory property: stored, or refused (400: ASP.NET's [Required]) */
  emptyRequired: 'kept' | 'refused';
  /** an empty String in a property outside the mandatory list: stored, or refused (400: Laravel's `filled`) */
  emptyOptional: 'kept' | 'refused';
  /** an Integer in data written '007' or '-0': taken, leading zeros refused (FILTER_VALIDATE_INT), or both refused (^(0|-?[1-9][0-9]*)$) */
  integerSyntax: 'lenient' | 'no leading zeros' | 'canonical';
  /** a list of Strings in data holding one item twice: kept, merged into one (a set), or refused (400) */
  listDuplicates: 'kept' | 'merged' | 'refused';
  /** a GUID in a filter, a reference or a delete: any taken, or only version 4 (and §2's all-zero GUID), others refused (400) */
  guidVersion: 'any' | 'version 4';
  /** a DateTime in data: any year taken (DATETIME), or a MySQL TIMESTAMP column's range only (1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC), others refused (400, strict mode) */
  dateTimeRange: 'full' | 'timestamp';
  /** the zone new records' createdon is written in ('UTC' or an IANA zone); request DateTimes are taken through it */
  timeZone: string;
  /** a date-only bound of a DateTime range filter: that day's midnight, or the whole day */
  dateOnlyBound: DateOnlyBoundReading;
  /** the letter case GUIDs are written in (SQL Server's uniqueidentifier: upper) */
  idCase: 'lower' | 'upper';
  /** GUID array filters (the id filter among them): case ignored, or compared exactly (ids in a text column) */
  idFilterCase: 'insensitive' | 'sensitive';
  /** the content-type header of JSON answers (PHP's default: text/html; charset=UTF-8) */
  jsonContentType: string;
  /** JSON text: as JSON.stringify writes it, non-ASCII as \uXXXX (System.Text.Json), or that and '/' as '\/' (PHP json_encode) */
  jsonEscapes: 'none' | 'non-ascii' | 'non-ascii and slash';
}

export const DEFAULT_BEHAVIOUR: Readonly<Behaviour> = Object.freeze({
  firstPageNumber: 1,
  defaultPageSize: 100,
  maxPageSize: GET_CAP,
  pageSizeBelowOne: 'refused',
  order: 'createdon asc',
  filterCombination: 'and',
  rangeInclusive: true,
  updateSemantics: 'partial',
  invalidKeyStatus: 401,
  missingKeyStatus: 401,
  errorShape: 'nested',
  overlongString: 'rejected',
  maxDataItems: null,
  extraFields: false,
  bigResource: 'file',
  bigCount: 1200,
  pagesTitleFilterKey: 'both',
  deleteUnknownId: 'ignored',
  updateUnknownId: 'not-found',
  decimalDigits: 'integer digits',
  unknownFilterKey: 'rejected',
  unknownPredefinedValue: 'matches-nothing',
  usersCountPath: 'offered',
  emptyResources: [],
  readLagMs: 0,
  stringCase: 'sensitive',
  stringAccents: 'sensitive',
  trailingSpaces: 'significant',
  normalization: 'none',
  collationWeights: 'uca',
  longTextUnit: 'characters',
  integerWidth: 'digits',
  decimalScale: 'refused',
  astral: 'kept',
  edgeSpaces: 'kept',
  blankStrings: 'kept',
  emptyRequired: 'kept',
  emptyOptional: 'kept',
  integerSyntax: 'lenient',
  listDuplicates: 'kept',
  guidVersion: 'any',
  dateTimeRange: 'full',
  timeZone: 'UTC',
  dateOnlyBound: 'midnight',
  idCase: 'lower',
  idFilterCase: 'insensitive',
  jsonContentType: 'application/json; charset=utf-8',
  jsonEscapes: 'none',
} satisfies Behaviour);

export function resolveBehaviour(...parts: Array<Partial<Behaviour> | undefined>): Behaviour {
  const b: Behaviour = { ...DEFAULT_BEHAVIOUR };
  for (const p of parts) {
    if (!p) continue;
    for (const [k, v] of Object.entries(p)) if (v !== undefined) (b as any)[k] = v;
  }
  return b;
}

/** Transport-level faults for robustness tests. Seeded: the same request sequence gets the same faults. */
export interface TransportFaults {
  /** PRNG seed for the rate decisions */
  seed: number;
  /** added before every answer (errors included) */
  latencyMs: number;
  /**
   * Slow writes: every create, update and delete takes between these many ms
   * (seeded, uniformly spread; its own PRNG, so the other seeded draws stay as
   * they were) before it is carried out, on top of latencyMs. 0 and 0: off.
   */
  slowWriteMinMs: number;
  slowWriteMaxMs: number;
  /** fraction of eligible requests answered 503 with Retry-After */
  rate503: number;
  /** the Retry-After header value sent with a 503 (seconds) */
  retryAfterSeconds: number;
  /** fraction of eligible requests answered 429 with Retry-After (retryAfterSeconds), not processed */
  rate429: number;
  /** a rate limit: requests beyond this many a second (every operation) get 429 with Retry-After: 1; 0 = none */
  limitRps: number;
  /** fraction of eligible requests whose socket is destroyed without an answer */
  resetRate: number;
  /** fraction of eligible requests answered with the first half of the JSON body (Content-Length of the half) */
  truncateRate: number;
  /** fraction of eligible requests answered 200 text/html with an HTML error page */
  htmlErrorRate: number;
  /** delay for a slowRate fraction of eligible requests (meant to exceed a client timeout) */
  slowMs: number;
  /** fraction of eligible requests delayed by slowMs (default: all of them when slowMs > 0) */
  slowRate: number;
  /** the canary: echo the key sent in headers of every answer (its UTF-8 bytes raw among them) and in every error message (several encodings) */
  echoKey: boolean;
  /** false (default): only get and count are affected by the rate faults; true: every operation */
  allOperations: boolean;
  /**
   * A lying target: a create stores the records but answers them (the values
   * sent, run tag included) under the ids of records the store held before —
   * a run that trusted those ids would update and delete the store's own records.
   */
  createAnswersExistingIds: boolean;
  /**
   * Fraction of writes (create, update, delete) the server carries out and then
   * answers with nothing: the socket is closed once the work is done. The
   * client cannot know the outcome and must resolve it without doing the
   * write twice (no duplicate record, no second version).
   */
  dropWriteAnswerRate: number;
  /** lying about updates: an update's answer shows the records of ids the store held before (not the ones named) */
  updateAnswersExistingIds: boolean;
  /** lying about gets: every get by an array filter also lists a record the store held before, whatever the filter */
  getAddsForeignRecord: boolean;
  /**
   * Padded answers: every get of a resource (not the store get), whatever its
   * filters — the id filter included — also lists this many records the store
   * held before (0: off). A client cannot read absence from such an answer.
   */
  padGets: number;
  /**
   * Huge answers: every get of a resource (not the store get) is answered
   * 200 with a JSON array this many MB long, streamed (Infinity: endless).
   * 0: off. `hugeGetResource` narrows it to one resource.
   */
  hugeGetMb: number;
  hugeGetResource?: string;
  /** every get of a resource (not the store get) answered with JSON nested this deep (0: off); `deepNestingResource` narrows it to one */
  deepNesting: number;
  deepNestingResource?: string;
  /**
   * An endpoint that never finishes an answer: every request to this path
   * ('' = off; e.g. /api/v1/products/get) is answered 200 with headers and a
   * body that gains one byte every `dripEveryMs` ms and never ends — a stuck
   * upstream behind a proxy that keeps the connection alive. Only the client's
   * own time limit ends such a request.
   */
  dripPath: string;
  dripEveryMs: number;
  /** An endpoint that reads every request to this path ('' = off) and never answers: a silent socket. */
  silentPath: string;
}

export const DEFAULT_TRANSPORT: Readonly<TransportFaults> = Object.freeze({
  seed: 1,
  latencyMs: 0,
  slowWriteMinMs: 0,
  slowWriteMaxMs: 0,
  rate503: 0,
  rate429: 0,
  limitRps: 0,
  retryAfterSeconds: 0,
  resetRate: 0,
  truncateRate: 0,
  htmlErrorRate: 0,
  slowMs: 0,
  slowRate: 1,
  echoKey: false,
  allOperations: false,
  createAnswersExistingIds: false,
  dropWriteAnswerRate: 0,
  updateAnswersExistingIds: false,
  getAddsForeignRecord: false,
  padGets: 0,
  hugeGetMb: 0,
  deepNesting: 0,
  dripPath: '',
  dripEveryMs: 500,
  silentPath: '',
});
