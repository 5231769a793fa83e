/**
 * Benign variants: other honest choices where the spec says "not shown".
 * storecheck must pass against every one of them and record, as observations,
 * what each chose. `expectedObservations[variant]` is what it should record.
 */
import type { ObservedValues } from '../src/observe/registry.js';
import { GET_CAP, resource } from '../src/schema/model.js';
import { optionDefault } from '../src/cli/options.js';
import { DEFAULT_BEHAVIOUR, resolveBehaviour, type Behaviour } from './behaviour.js';

export interface Variant {
  name: string;
  description: string;
  behaviour: Partial<Behaviour>;
  /** what the verdict must name as not judged on this store (a store without orders is no silent pass) */
  notJudged?: string;
}

/** The observations a behaviour gives, for the keys the reference server decides (src/observe/registry.ts). */
export type Observations = { [K in keyof ObservedValues]?: ObservedValues[K] | Between };

/** An expected number within bounds: a measured delay is never exact. */
export interface Between { between: [number, number] }

const v = (name: string, description: string, behaviour: Partial<Behaviour>, notJudged?: string): Variant => ({ name, description, behaviour, ...(notJudged ? { notJudged } : {}) });

/** MySQL's utf8mb3_general_ci (PAD SPACE): case, accents and trailing spaces ignored. */
const MYSQL_GENERAL_CI: Partial<Behaviour> = { stringCase: 'insensitive', stringAccents: 'insensitive', trailingSpaces: 'ignored' };
/**
 * Laravel's default middleware and validation: TrimStrings, then ConvertEmptyStringsToNull, then `required` on
 * the mandatory properties — a String empty, or spaces only, is refused there; its integer rule
 * (FILTER_VALIDATE_INT); tags kept as a set (a pivot table written with sync()).
 */
const LARAVEL_INPUT: Partial<Behaviour> = { edgeSpaces: 'trimmed', blankStrings: 'refused', emptyRequired: 'refused', integerSyntax: 'no leading zeros', listDuplicates: 'merged' };
/** PHP's defaults: default_mimetype text/html (default_charset UTF-8), json_encode without flags. */
const PHP_JSON: Partial<Behaviour> = { jsonContentType: 'text/html; charset=UTF-8', jsonEscapes: 'non-ascii and slash' };

export const VARIANTS: readonly Variant[] = [
  v('first-page-zero', 'pages are numbered from 0', { firstPageNumber: 0 }),
  v('page-size-25', 'the default page size is 25', { defaultPageSize: 25 }),
  v('page-size-below-one-empty', 'a pageSize below 1 ("0", "-2") answers a page of no records (LIMIT 0)', { pageSizeBelowOne: 'empty' }),
  v('page-size-below-one-default', 'a pageSize below 1 ("0", "-2") is read as absent: the default page (25 records)', { pageSizeBelowOne: 'default', defaultPageSize: 25 }),
  v('order-desc', 'records are returned newest first (createdon desc, id)', { order: 'createdon desc' }),
  v('order-id', 'records are returned by id', { order: 'id asc' }),
  v('or-filters', 'several filters combine with OR (the _min/_max of one field still bound together)', { filterCombination: 'or' }),
  v('exclusive-ranges', 'range bounds are exclusive', { rangeInclusive: false }),
  v('replace-updates', 'an update replaces the record: payload properties not supplied are reset', { updateSemantics: 'replace' }),
  v('error-403-flat', "a wrong or missing key gets 403 and errors are {success:'false', message}", { invalidKeyStatus: 403, missingKeyStatus: 403, errorShape: 'flat' }),
  v('error-text-400', 'a wrong or missing key gets 400 and errors are plain text', { invalidKeyStatus: 400, missingKeyStatus: 400, errorShape: 'text' }),
  v('overlong-truncated', 'strings over their maximum length are cut to it', { overlongString: 'truncated' }),
  v('overlong-accepted', 'strings over their maximum length are stored whole', { overlongString: 'accepted' }),
  v('max-batch-10', 'data and delete filters hold at most 10 items', { maxDataItems: 10 }),
  v('extra-fields', 'every record carries an undocumented extra field', { extraFields: true }),
  v('small-store', 'no resource holds more than 1000 records', { bigResource: null }),
  v('pages-name-only', 'the page title filter is only accepted under the key name', { pagesTitleFilterKey: 'name' }),
  v('page-size-max-500', 'a page holds at most 500 records, whatever pageSize asks', { maxPageSize: 500 }),
  v('missing-key-400', 'a missing key gets 400, a wrong key 401', { missingKeyStatus: 400 }),
  v('delete-unknown-404', 'a delete naming an id that does not exist answers 404 and removes nothing', { deleteUnknownId: 'not-found' }),
  v('update-unknown-ignored', 'an update naming an id that does not exist skips that item (answers the others)', { updateUnknownId: 'ignored' }),
  v('decimal-digits-in-all', "'8 digits, 2 decimals' read as SQL DECIMAL(8,2): at most 999999.99 (product weight at most 0.99)", { decimalDigits: 'digits in all' }),
  v('pages-name-lenient', 'the page title filter is only the key name, and filter keys it does not know are ignored', { pagesTitleFilterKey: 'name', unknownFilterKey: 'ignored' }),
  v('users-count-absent', 'no separate users count path (404); the documented /api/v1/shipping/methods/count counts shipping methods', { usersCountPath: 'absent' }, 'no path counts the records of /api/v1/users'),
  v('no-orders', 'a new store: no orders yet (what needs an order is not judged, and the verdict says so)', { emptyResources: ['order'] }, 'no order record'),
  v('replica-lag', 'get and count read a replica 120 ms behind the writes', { readLagMs: 120 }),
  v('pages-title-only', 'the page title filter is only accepted under the key title', { pagesTitleFilterKey: 'title' }),
  // ---- stores built the way common stacks build them (docs/stack-defaults.md), each reading of a stack default at once
  v('mysql-php-store', 'a PHP store on MySQL 5.7 with utf8 (utf8mb3_general_ci) in strict mode: filters ignore case, accents and trailing spaces; INT(11) columns refuse what is beyond 32 bits; excess decimals rounded; 4-byte characters refused; createdon in the server\'s local time (Europe/Paris); JSON sent as text/html with \\u escapes and \\/; strings in data trimmed and empty ones refused where mandatory, spaces only too (Laravel\'s TrimStrings, ConvertEmptyStringsToNull, required); Integers with leading zeros refused (its integer rule: FILTER_VALIDATE_INT); tags a set (sync()); DateTimes in TIMESTAMP columns (outside 1970-2038 refused)', {
    ...MYSQL_GENERAL_CI, integerWidth: '32-bit refused', decimalScale: 'rounded', astral: 'refused', timeZone: 'Europe/Paris', dateTimeRange: 'timestamp', ...PHP_JSON, ...LARAVEL_INPUT,
  }),
  v('sqlserver-dotnet-store', 'a .NET store on SQL Server (SQL_Latin1_General_CP1_CI_AS): filters ignore case and trailing spaces, not accents; int columns refuse what is beyond 32 bits; excess decimals truncated (SqlClient before 2.0); ids written in upper case; JSON with non-ASCII as \\uXXXX (System.Text.Json); a String empty or of spaces only refused where mandatory ([Required])', {
    stringCase: 'insensitive', trailingSpaces: 'ignored', integerWidth: '32-bit refused', decimalScale: 'truncated', idCase: 'upper', jsonEscapes: 'non-ascii', blankStrings: 'refused', emptyRequired: 'refused',
  }),
  // ---- the same readings one at a time
  v('collation-ci', 'String filters ignore letter case (a *_ci collation that keeps accents and trailing spaces)', { stringCase: 'insensitive' }),
  v('collation-ai', 'String filters ignore accents, not letter case (a *_CS_AI collation)', { stringAccents: 'insensitive' }),
  v('pad-space', 'String filters ignore trailing spaces (a PAD SPACE binary collation: utf8mb4_bin)', { trailingSpaces: 'ignored' }),
  v('int32-clamped', 'INT(11) columns clamp what is beyond 32 bits to 2147483647 (MySQL without strict mode)', { integerWidth: '32-bit clamped' }),
  v('int32-refused', 'INT(11) columns refuse what is beyond 32 bits (MySQL strict mode, SQL Server, PostgreSQL)', { integerWidth: '32-bit refused' }),
  v('decimal-scale-rounded', 'a Decimal with one decimal too many is rounded half away from zero (MySQL, SQL Server, PostgreSQL)', { decimalScale: 'rounded' }),
  v('decimal-scale-truncated', 'a Decimal with one decimal too many is truncated (SqlClient before 2.0)', { decimalScale: 'truncated' }),
  v('astral-refused', 'a String holding a 4-byte character is refused (MySQL utf8mb3, strict mode)', { astral: 'refused' }),
  v('astral-replaced', "each 4-byte character of a String is stored as '?' (utf8mb3 reached through a character set conversion)", { astral: 'replaced' }),
  v('trim-strings', "strings in data are trimmed on input, a String of spaces only becoming '' (Laravel's TrimStrings middleware)", { edgeSpaces: 'trimmed' }),
  v('blank-refused', "a String of spaces only is refused as blank; spaces at the edges of other strings are kept (ASP.NET's [Required], which does not trim)", { blankStrings: 'refused' }),
  v('edge-spaces-refused', 'a String beginning or ending with white-space is refused (a validator that takes no value with spaces at its ends)', { edgeSpaces: 'refused' }),
  v('empty-refused', "an empty String is refused where the property is mandatory, kept elsewhere (ASP.NET's [Required])", { emptyRequired: 'refused' }),
  v('empty-optional-refused', "an empty String is refused in a property outside the mandatory list (Laravel's `filled`: present means not empty), kept in the mandatory ones", { emptyOptional: 'refused' }),
  v('integer-leading-zeros-refused', "an Integer written with leading zeros ('007') is refused (PHP's FILTER_VALIDATE_INT, Laravel's integer rule); '-0' is taken as 0", { integerSyntax: 'no leading zeros' }),
  v('integer-canonical-only', "an Integer must be written canonically: '007' and '-0' are refused (a pattern ^(0|-?[1-9][0-9]*)$)", { integerSyntax: 'canonical' }),
  v('list-duplicates-merged', "a list of Strings is a set: tags holding one tag twice store it once (a unique key with INSERT IGNORE, Laravel's sync())", { listDuplicates: 'merged' }),
  v('list-duplicates-refused', 'tags holding one tag twice are refused (a unique key whose error is answered as a refusal)', { listDuplicates: 'refused' }),
  v('createdon-local-time', "createdon is written in the server's local time (Europe/Paris), and request DateTimes are taken through that zone (a time in a DST gap moves forward)", { timeZone: 'Europe/Paris' }),
  v('date-only-whole-day', 'a date-only bound of a DateTime range filter stands for the whole day', { dateOnlyBound: 'whole day' }),
  v('ids-upper-case', "GUIDs are written in upper case (SQL Server's uniqueidentifier)", { idCase: 'upper' }),
  // only the comparison: joined with a store writing ids in upper case (variantCombos), it is that store's ids compared exactly
  v('id-filter-exact', 'the id filter compares ids exactly (ids kept in a text column under a binary collation)', { idFilterCase: 'sensitive' }),
  v('ids-upper-filter-exact', 'GUIDs written in upper case in a text column under a binary collation: the id filter compares them exactly, so an id asked in lower case matches nothing (ids made upper-case by the application, e.g. .NET Guid.ToString().ToUpper(), stored as CHAR(36))', { idCase: 'upper', idFilterCase: 'sensitive' }),
  v('json-text-html', "JSON answers are sent as text/html; charset=UTF-8, non-ASCII as \\uXXXX and '/' as '\\/' (PHP's defaults)", PHP_JSON),
  v('postgres-node-store', 'a Node store on PostgreSQL: exact string comparison, integer columns refuse what is beyond 32 bits, excess decimals rounded, ids in a text column (the id filter compares them exactly), a date-only bound read as the whole day (DATE(createdon))', {
    integerWidth: '32-bit refused', decimalScale: 'rounded', idFilterCase: 'sensitive', dateOnlyBound: 'whole day',
  }),
  // ---- readings added since, one at a time (appended: the stores npm test joins keep their make-up)
  v('timestamp-columns', "DateTime columns are MySQL TIMESTAMP in strict mode: a DateTime in data outside 1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC is refused", { dateTimeRange: 'timestamp' }),
  v('guid-version-4', "a GUID in a filter, a reference or a delete must be a version-4 UUID (or the all-zero GUID of an unset reference): any other, the max GUID among them, is refused (class-validator's IsUUID('4'), Joi's uuidv4)", { guidVersion: 'version 4' }),
  v('nfc-input', 'Strings in data and in filters are NFC-normalized on input: e + U+0301 is stored and matched as the precomposed é (a stack normalizing its request strings: Normalizer::normalize in a PHP middleware, String.Normalize() in an ASP.NET model binder)', { normalization: 'nfc-input' }),
  v('collation-canonical', 'String filters compare canonically equivalent strings as equal (e + U+0301 finds é), stored as sent: a PostgreSQL nondeterministic ICU collation, accents and letter case still told apart', { normalization: 'canonical-collation' }),
  v('enum-filter-values', 'Predefined filters are enum-typed (an ASP.NET Core filter model binding Status[], a Laravel in: rule): a value outside the enumeration is refused with 400, names read in any letter case', { unknownPredefinedValue: 'refused' }),
  v('text-bytes', 'page content is a MySQL TEXT column (utf8mb4, strict mode): at most 65535 bytes of UTF-8, "65535 characters" in MySQL\'s own words for TEXT; longer content refused', { longTextUnit: 'bytes' }),
  v('collation-general-ci', "String filters compare under MySQL's utf8mb4_general_ci: one character at a time, letter case and accents ignored (é = e), a combining mark weighed as a character of its own (e + U+0301 is neither é nor e), ß = s (not ss), trailing spaces ignored (PAD SPACE)", {
    stringCase: 'insensitive', stringAccents: 'insensitive', trailingSpaces: 'ignored', collationWeights: 'general',
  }),
  v('text-bytes-cut', 'page content is a MySQL TEXT column outside strict mode: content over 65535 bytes of UTF-8 is cut to the longest start within them, whole characters ("Data truncated" is a warning there)', { longTextUnit: 'bytes cut' }),
];

/** What storecheck should observe against a server with this behaviour. */
export function observationsFor(b: Behaviour): Observations {
  return {
    'pagination.firstPageNumber': b.firstPageNumber,
    'pagination.defaultPageSize': b.defaultPageSize,
    'pagination.maxPageSize': Math.min(b.maxPageSize, GET_CAP),
    'order.default': b.order,
    'filters.combination': b.filterCombination,
    'filters.rangeInclusive': b.rangeInclusive,
    'update.semantics': b.updateSemantics,
    'auth.invalidKeyStatus': b.invalidKeyStatus,
    'auth.missingKeyStatus': b.missingKeyStatus,
    'pages.titleFilterKey': b.pagesTitleFilterKey,
    'limits.overlongString': b.overlongString,
    'limits.maxDataItems': b.maxDataItems,
    'delete.unknownId': b.deleteUnknownId === 'ignored' ? 'ignored' : 'error 404',
    'update.unknownId': b.updateUnknownId === 'ignored' ? 'ignored' : 'error 404',
    'limits.decimalDigits': b.decimalDigits,
    'filters.unknownKey': b.unknownFilterKey,
    'filters.unknownPredefinedValue': b.unknownPredefinedValue,
    'consistency.readAfterWriteMs': b.readLagMs > 0 ? { between: [b.readLagMs / 2, optionDefault('visibility-timeout-ms') as number] } : 0,
    'users.countPath': b.usersCountPath === 'offered' ? `${resource('user').prefix}/count` : false,
    'collation.case': b.stringCase,
    'collation.accents': b.stringAccents,
    'collation.trailingSpaces': b.trailingSpaces,
    // an accent-insensitive collation drops the combining mark too (UCA: marks weigh nothing at the first level)
    'collation.normalization': b.normalization !== 'none' || (b.stringAccents === 'insensitive' && b.collationWeights === 'uca') ? 'insensitive' : 'sensitive',
    'text.normalization': b.normalization === 'nfc-input' ? 'nfc' : 'kept',
    'limits.longTextUnit': b.longTextUnit === 'bytes' ? 'bytes refused' : b.longTextUnit,
    'limits.integerWidth': b.integerWidth,
    'limits.decimalScale': b.decimalScale,
    'text.astral': b.astral,
    'text.trimming': b.edgeSpaces,
    'text.whitespaceOnly': b.blankStrings === 'refused' || b.edgeSpaces === 'refused' ? 'refused' : b.edgeSpaces === 'trimmed' ? 'emptied' : 'kept',
    'text.emptyRequired': b.emptyRequired,
    'text.emptyOptional': b.emptyOptional,
    'lists.duplicates': b.listDuplicates,
    'integers.leadingZeros': b.integerSyntax === 'lenient' ? 'taken' : 'refused',
    'integers.negativeZero': b.integerSyntax === 'canonical' ? 'refused' : 'taken',
    'time.createdonOffsetMinutes': offsetNow(b.timeZone),
    'filters.dateOnlyBound': b.dateOnlyBound,
    'ids.letterCase': b.idCase,
    'filters.idCase': b.idFilterCase,
    'filters.guidVersion': b.guidVersion,
    'time.dateTimeRange': b.dateTimeRange === 'full' ? 'full' : 'refused',
    'http.contentType': b.jsonContentType,
    'http.jsonEscapes': b.jsonEscapes,
  };
}

/** The offset from UTC of a zone's wall clock now, in minutes (what time.createdonOffsetMinutes should say). */
function offsetNow(zone: string): number {
  if (zone === 'UTC') return 0;
  const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const now = Math.floor(Date.now() / 1000) * 1000;
  const p = Object.fromEntries(f.formatToParts(now).map((x) => [x.type, x.value]));
  return (Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - now) / 60000;
}

/** The default server's observations. */
export const DEFAULT_OBSERVATIONS: Observations = observationsFor({ ...DEFAULT_BEHAVIOUR });

/** variant name -> every observation key -> expected value. */
export const expectedObservations: Record<string, Observations> = Object.fromEntries(
  VARIANTS.map((x) => [x.name, observationsFor(resolveBehaviour(x.behaviour))]),
);

const BY_NAME = new Map(VARIANTS.map((x) => [x.name, x]));

/**
 * The variants `npm test` proves (all of them run in `npm run mutation`): in
 * catalogue order, each variant that is the first to vary an observation key
 * from the default, that varies none (its point is elsewhere: extra fields, a
 * small store), or whose verdict must name what it cannot judge — so
 * every honest choice the probes observe is proven in every CI run, and a
 * second variant of the same key waits for the mutation run.
 */
export function variantSample(): string[] {
  const covered = new Set<string>();
  const out: string[] = [];
  for (const x of VARIANTS) {
    const expected = expectedObservations[x.name] as Record<string, unknown>;
    const varied = Object.entries(DEFAULT_OBSERVATIONS).filter(([k, d]) => JSON.stringify(expected[k]) !== JSON.stringify(d)).map(([k]) => k);
    const fresh = varied.filter((k) => !covered.has(k));
    if (fresh.length || !varied.length || x.notJudged) out.push(x.name);
    for (const k of fresh) covered.add(k);
  }
  return out;
}

export function variantNames(): string[] {
  return VARIANTS.map((x) => x.name);
}

/**
 * A variant by name — or several joined by '+' (`first-page-zero+or-filters`):
 * one honest store making all those choices at once, as real stores do. The
 * parts must vary different behaviours.
 */
export function getVariant(name: string): Variant {
  if (name.includes('+')) {
    const parts = name.split('+').map(getVariant);
    const behaviour: Partial<Behaviour> = {};
    for (const part of parts) {
      for (const [k, v] of Object.entries(part.behaviour)) {
        if (k in behaviour) throw new Error(`variants ${name}: more than one of them sets ${k}`);
        (behaviour as Record<string, unknown>)[k] = v;
      }
    }
    const notJudged = parts.map((p) => p.notJudged).filter(Boolean).join('; ');
    return v(name, parts.map((p) => p.description).join('; '), behaviour, notJudged || undefined);
  }
  const found = BY_NAME.get(name);
  if (!found) throw new Error(`unknown variant "${name}" (known: ${variantNames().join(', ')})`);
  return found;
}

/** What storecheck should observe against a variant (or variants joined by '+'). */
export function expectedObservationsOf(name: string): Observations {
  return expectedObservations[name] ?? observationsFor(resolveBehaviour(getVariant(name).behaviour));
}

/**
 * Variants joined into stores of several honest choices at once, in order: a
 * variant joins the first store that varies none of its behaviours and holds
 * fewer than `size`; one whose verdict must name what it cannot judge stays
 * alone (the verdict line names one reason first). Deterministic.
 */
export function variantCombos(names: readonly string[], size: number): string[] {
  const stores: Array<{ names: string[]; keys: Set<string> }> = [];
  for (const name of names) {
    const x = getVariant(name);
    const keys = Object.keys(x.behaviour);
    const home = x.notJudged ? undefined : stores.find((s) => s.names.length < size && !s.names.some((n) => getVariant(n).notJudged) && keys.every((k) => !s.keys.has(k)));
    if (home) {
      home.names.push(name);
      for (const k of keys) home.keys.add(k);
    } else stores.push({ names: [name], keys: new Set(keys) });
  }
  return stores.map((s) => s.names.join('+'));
}
