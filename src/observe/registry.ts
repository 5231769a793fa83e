/**
 * The observation registry: every behaviour the spec leaves open ("not shown")
 * that storecheck probes, described once — its key, the type of its value, the
 * section that leaves it open, and the reading assumed until it is probed (or
 * when the probe could not tell). Probes (src/observe/*) answer these keys,
 * checks read them with `observed(key)` (src/check), and the reference
 * server's benign variants (reference/variants.ts) say which value each of
 * them should produce. A key used anywhere else is a type error.
 *
 * Adding an observation: one entry here, a probe whose `keys` name it, and
 * (for the reference server) the value each behaviour gives in
 * reference/variants.ts.
 */

/** One observable behaviour. `T` is the type of its value (null: could not tell). */
export interface ObservationSpec<T> {
  /** what the value says, in one sentence (report tables, `storecheck list --observations`) */
  describe: string;
  /** the section of the spec that leaves it open */
  section: string;
  /**
   * The reading checks assume when the probe found nothing (not probed, or it
   * could not tell): the spec's own where it has one (users count path), else
   * the reading of the reference server's default behaviour.
   */
  fallback: T;
}

import { GET_CAP, type DecimalReading } from '../schema/model.js';
import type {
  AccentReading, AstralReading, NormalizationCompareReading, NormalizationStoreReading, BlankReading, EmptyReading, ListDuplicatesReading, NumberSyntaxReading, CaseReading, DateOnlyBoundReading, DecimalScaleReading, IdLetterCase, IntegerWidth, TrailingSpaceReading,
  TrimmingReading, GuidVersionReading, DateTimeRangeReading,
} from '../values/readings.js';

const o = <T>(spec: ObservationSpec<T>): ObservationSpec<T> => spec;

/** What a long text's limit counts (limits.longTextUnit): characters, or UTF-8 bytes (a MySQL TEXT column) refusing or cutting what is beyond. */
export type LongTextUnit = 'characters' | 'bytes refused' | 'bytes cut';

/** How records are ordered when no order is asked (order.default). */
export type OrderReading = 'createdon asc' | 'createdon desc' | 'id asc' | 'id desc' | 'unordered';

export const OBSERVATIONS = {
  'pagination.firstPageNumber': o<number>({
    describe: 'the pageNumber of the first page (0 or 1)',
    section: '§4 Common rules: pagination defaults not shown',
    fallback: 1,
  }),
  'pagination.defaultPageSize': o<number | null>({
    describe: 'records in a page when pagination.pageSize is not given (null: at least as many as the largest resource holds)',
    section: '§4 Common rules: pagination defaults not shown',
    fallback: null,
  }),
  'pagination.maxPageSize': o<number>({
    describe: `the largest page the target returns, whatever pageSize asks (never above the ${GET_CAP} of §8)`,
    section: '§4 Common rules; §8 Limits',
    fallback: GET_CAP,
  }),
  'order.default': o<OrderReading | null>({
    describe: 'the order of records when none is asked',
    section: '§4 Common rules: order of returned records not shown',
    fallback: null,
  }),
  'filters.combination': o<'and' | 'or'>({
    describe: 'how several filters of one request combine',
    section: '§4 Common rules: how several filters combine not shown',
    fallback: 'and',
  }),
  'filters.unknownKey': o<'rejected' | 'ignored' | null>({
    describe: 'what a filter key the resource does not have gets: an error, or left out of the filtering',
    section: '§4 Common rules; §7 Errors',
    fallback: null,
  }),
  'filters.unknownPredefinedValue': o<'refused' | 'matches-nothing' | null>({
    describe: 'what a Predefined filter gets for a value outside the values the store knows: an error (an enum-typed filter model), or no record (a text column)',
    section: '§2 Conventions: complete lists of Predefined values not shown; §4 Filters per resource',
    fallback: null,
  }),
  'filters.rangeInclusive': o<boolean>({
    describe: 'whether a range bound equal to a value keeps the record',
    section: '§4 Common rules: whether range bounds are inclusive not shown',
    fallback: true,
  }),
  'update.semantics': o<'partial' | 'replace'>({
    describe: 'whether an update changes only the supplied properties or replaces the record',
    section: '§4 Common rules: update semantics not shown',
    fallback: 'partial',
  }),
  'auth.invalidKeyStatus': o<number | null>({
    describe: 'the HTTP status of a request with a wrong key',
    section: '§5 Authentication 3; §7 Errors',
    fallback: null,
  }),
  'auth.missingKeyStatus': o<number | null>({
    describe: 'the HTTP status of a request without a key',
    section: '§5 Authentication 3; §7 Errors',
    fallback: null,
  }),
  'errors.shape': o<string | null>({
    describe: "the shape of an error answer ('json {error:{code,message}}', 'text', ...)",
    section: '§7 Errors',
    fallback: null,
  }),
  'http.contentType': o<string | null>({
    describe: 'the content-type of a successful answer',
    section: '§4 Common rules',
    fallback: null,
  }),
  'auth.headerKeyAccepted': o<string | false | null>({
    describe: 'a header the key is also accepted in (false: none); §5.1 puts it in the body',
    section: '§5 Authentication 1',
    fallback: null,
  }),
  'pages.titleFilterKey': o<'both' | 'title' | 'name'>({
    describe: 'the filter key(s) the page title is filtered by: title (the table) or name (the samples)',
    section: '§4 Filters per resource: Pages',
    fallback: 'both',
  }),
  'users.countPath': o<string | false>({
    describe: 'the path that counts users (§4 documents the shipping methods count path); false: none does',
    section: '§4 Resource paths',
    fallback: '/api/v1/shipping/methods/count',
  }),
  'consistency.readAfterWriteMs': o<number>({
    describe: 'the longest a get waited to show a create, an update or a delete, in ms (0: every write showed at once)',
    section: '§4 Common rules: not shown',
    fallback: 0,
  }),
  'limits.overlongString': o<'rejected' | 'truncated' | 'accepted' | null>({
    describe: 'what a string over its maximum length gets',
    section: '§8 Limits',
    fallback: null,
  }),
  'limits.decimalDigits': o<DecimalReading>({
    describe: "how 'Decimal (8 digits, 2 decimals)' counts digits: 8 before the point ('integer digits') or 8 in all, as SQL DECIMAL(8,2) ('digits in all')",
    section: '§8 Limits',
    fallback: 'integer digits',
  }),
  'limits.maxDataItems': o<number | null>({
    describe: 'the most items one data array or delete filter takes (null: no limit found)',
    section: '§8 Limits: maximum number of items not shown',
    fallback: null,
  }),
  'delete.unknownId': o<string | null>({
    describe: 'what a delete naming an id that does not exist gets',
    section: '§4 Delete; §7 Errors',
    fallback: null,
  }),
  'update.unknownId': o<string | null>({
    describe: 'what an update naming an id that does not exist gets',
    section: '§4 Create and update payloads; §7 Errors',
    fallback: null,
  }),
  // ---- readings of stack defaults (docs/stack-defaults.md: which stacks choose each, how it is probed and judged)
  'collation.case': o<CaseReading | null>({
    describe: "whether a String array filter ignores letter case ('insensitive': a *_ci collation of MySQL or SQL Server; 'sensitive': binary, PostgreSQL's default)",
    section: '§4 Filter naming: "equals" under the store\'s collation (not shown)',
    fallback: null,
  }),
  'collation.accents': o<AccentReading | null>({
    describe: "whether a String array filter ignores accents ('insensitive': MySQL's utf8mb4_0900_ai_ci and *_general_ci)",
    section: '§4 Filter naming: "equals" under the store\'s collation (not shown)',
    fallback: null,
  }),
  'collation.trailingSpaces': o<TrailingSpaceReading | null>({
    describe: "whether a String array filter ignores trailing spaces ('ignored': PAD SPACE collations, SQL Server by SQL-92)",
    section: '§4 Filter naming: "equals" under the store\'s collation (not shown)',
    fallback: null,
  }),
  'collation.normalization': o<NormalizationCompareReading | null>({
    describe: "whether a String array filter finds a value written in another Unicode normalization form ('insensitive': e + U+0301 finds é — MySQL's utf8mb4_0900_ai_ci and unicode_ci, PostgreSQL's nondeterministic ICU collations, or a store normalizing its input; 'sensitive': binary collations, PostgreSQL's deterministic default, MySQL's *_general_ci)",
    section: '§4 Filter naming: "equals" under the store\'s collation (not shown)',
    fallback: null,
  }),
  'text.normalization': o<NormalizationStoreReading>({
    describe: "what a String holding a combining sequence (e + U+0301) gets: stored as sent ('kept': databases store what they are given), or NFC-normalized ('nfc': a stack normalizing its input)",
    section: '§2 Conventions: String (the Unicode normalization form is not shown)',
    fallback: 'kept',
  }),
  'limits.longTextUnit': o<LongTextUnit | null>({
    describe: "what the limit of a long text (page content, 65535) counts: 'characters', or UTF-8 bytes as a MySQL TEXT column does, longer text refused ('bytes refused': strict mode) or cut to a character boundary ('bytes cut')",
    section: '§8 Limits: Page content 65535 characters (whether a character counts as one or by its bytes is not shown)',
    fallback: null,
  }),
  'limits.integerWidth': o<IntegerWidth>({
    describe: "how wide an Integer column is: 'digits' (as many digits as §8 says), or the 32-bit column INT(11) usually is, refusing or clamping a value beyond 2147483647",
    section: '§8 Limits: Integer at most 11 digits',
    fallback: 'digits',
  }),
  'limits.decimalScale': o<DecimalScaleReading | null>({
    describe: 'what a Decimal with more decimals than its scale gets: refused, rounded (half away from zero) or truncated',
    section: '§8 Limits: Decimal (8 digits, 2 decimals)',
    fallback: null,
  }),
  'text.astral': o<AstralReading>({
    describe: "what a String holding a 4-byte character (an emoji) gets: kept, refused (MySQL utf8mb3, strict), or each such character stored as '?'",
    section: '§2 Conventions: String (the character set is not shown)',
    fallback: 'kept',
  }),
  'text.trimming': o<TrimmingReading>({
    describe: "what a String with spaces at its edges ('  a  ') gets: stored as sent, trimmed on input (Laravel's TrimStrings), or refused",
    section: '§2 Conventions: String (whether spaces at the edges are kept is not shown)',
    fallback: 'kept',
  }),
  'text.whitespaceOnly': o<BlankReading | null>({
    describe: "what a String of spaces only ('   ') gets: stored as sent, emptied (trimmed to ''), refused as blank (ASP.NET's [Required]), or stored as null",
    section: '§2 Conventions: String (whether a blank value is taken is not shown)',
    fallback: null,
  }),
  'text.emptyRequired': o<EmptyReading>({
    describe: "what an empty String ('') gets in a mandatory property: stored as '', stored as null, or refused (ASP.NET's [Required])",
    section: '§4 Create and update payloads: the properties are listed as mandatory (whether an empty String is a value is not shown)',
    fallback: 'kept',
  }),
  'text.emptyOptional': o<EmptyReading>({
    describe: "what an empty String ('') gets in a property not in the mandatory list (product description): stored as '', stored as null (Laravel's ConvertEmptyStringsToNull), or refused",
    section: '§4 Create and update payloads: Product samples also send description (not in the mandatory list)',
    fallback: 'kept',
  }),
  'integers.leadingZeros': o<NumberSyntaxReading>({
    describe: "what an Integer written with leading zeros ('007') gets: taken as the number (7), or refused (PHP's FILTER_VALIDATE_INT, Laravel's integer rule)",
    section: '§2 Conventions: Integer (how an Integer may be written is not shown)',
    fallback: 'taken',
  }),
  'integers.negativeZero': o<NumberSyntaxReading>({
    describe: "what an Integer written '-0' gets: taken as 0, or refused (a pattern such as ^(0|-?[1-9][0-9]*)$)",
    section: '§2 Conventions: Integer (how an Integer may be written is not shown)',
    fallback: 'taken',
  }),
  'lists.duplicates': o<ListDuplicatesReading>({
    describe: "what a list property holding one item twice (tags ['a', 'a']) gets: kept as sent, merged into one (a set), or refused",
    section: '§4 Create and update payloads: tags Array of String (whether it is a list or a set is not shown)',
    fallback: 'kept',
  }),
  'time.dateTimeRange': o<DateTimeRangeReading | null>({
    describe: "what a DateTime in data before 1970 or after 2038-01-19 03:14:07 UTC gets: stored as sent ('full': DATETIME), refused (a MySQL TIMESTAMP column in strict mode), or stored otherwise ('changed')",
    section: '§2 Conventions: DateTime (the range of years is not shown)',
    fallback: null,
  }),
  'time.createdonOffsetMinutes': o<number | null>({
    describe: "the offset from UTC, in minutes, of the createdon a store writes (0: UTC; else the store's local time)",
    section: '§2 Conventions: DateTime (the time zone is not shown)',
    fallback: null,
  }),
  'filters.dateOnlyBound': o<DateOnlyBoundReading | null>({
    describe: "what a date-only bound ('YYYY-MM-DD') of a DateTime range filter means: that day's midnight, or the whole day",
    section: '§2 Conventions; §4 Filter naming',
    fallback: null,
  }),
  'ids.letterCase': o<IdLetterCase | null>({
    describe: "the letter case GUIDs are written in: 'lower' (RFC 4122, .NET, PostgreSQL) or 'upper' (SQL Server's uniqueidentifier)",
    section: '§2 Conventions: GUID',
    fallback: null,
  }),
  'filters.idCase': o<'insensitive' | 'sensitive'>({
    describe: "whether the id filter matches a GUID written in the other letter case ('insensitive': a uuid or uniqueidentifier column, RFC 4122)",
    section: '§4 Filters per resource: id GUID[]',
    fallback: 'insensitive',
  }),
  'filters.guidVersion': o<GuidVersionReading | null>({
    describe: "whether a GUID filter takes a GUID of another version than 4 (the max GUID): 'any' (.NET's Guid, PostgreSQL's uuid, Laravel's uuid rule), or 'version 4' (a validator wanting the version nibble refuses it)",
    section: '§2 Conventions: GUID (a hyphenated 36-character identifier; its version is not shown)',
    fallback: null,
  }),
  'http.jsonEscapes': o<'none' | 'non-ascii' | 'slash' | 'non-ascii and slash' | null>({
    describe: "what a JSON answer escapes beyond what JSON requires: non-ASCII as \\uXXXX (System.Text.Json, PHP json_encode), '/' as '\\/' (PHP)",
    section: '§4 Common rules',
    fallback: null,
  }),
  'operation.notOffered': o<number | null>({
    describe: 'the HTTP status of an operation §1 does not offer (e.g. orders create)',
    section: '§1 What the service does; §7 Errors',
    fallback: null,
  }),
} as const satisfies Record<string, ObservationSpec<unknown>>;

export type ObservationKey = keyof typeof OBSERVATIONS;

/** The value type of an observation key. */
export type ObservationValue<K extends ObservationKey> = (typeof OBSERVATIONS)[K] extends ObservationSpec<infer T> ? T : never;

/** Observed values by key, as the workers receive them (null: could not tell). */
export type ObservedValues = { [K in ObservationKey]?: ObservationValue<K> | null };

export const OBSERVATION_KEYS = Object.keys(OBSERVATIONS) as ObservationKey[];

export function isObservationKey(key: string): key is ObservationKey {
  return Object.prototype.hasOwnProperty.call(OBSERVATIONS, key);
}

/** The value probed, or the key's fallback when it was not probed or could not be told. */
export function readObservation<K extends ObservationKey>(values: ObservedValues | Record<string, unknown>, key: K): ObservationValue<K> {
  const v = (values as Record<string, unknown>)[key];
  return (v === undefined || v === null ? OBSERVATIONS[key].fallback : v) as ObservationValue<K>;
}
