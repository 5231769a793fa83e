/**
 * The generated catalogue of LOCAL faults: each breaks one rule in one place
 * only — one filter key of one resource, one payload property, one field's
 * form, one resource's pages or counts or deletes, one operation's key check —
 * the way real regressions do (one column, one query builder, one endpoint).
 * Derived from the same schema model as the item catalogue (src/items), so a
 * new resource gets its faults with its schema. Each fault names the items
 * that must fail (`expects`: globs over item ids `<check>#<case>`); a proof
 * counts it caught only when a failing item matches them (reference/prove.ts).
 *
 * Names are stable: `<family>:<resource>.<key|field|op>`.
 */
import { DATE_PATTERN, GET_CAP, TEXT_MAX_LENGTH, ZERO_GUID, resources, type FieldModel, type FilterModel, type PayloadPropModel, type ResourceModel } from '../src/schema/model.js';
import { leaves } from '../src/schema/leaves.js';
import { allItems, rangePairs } from '../src/items/index.js';
import { globToRegExp } from '../src/items/glob.js';
import { RULES, type RuleId } from '../src/rules.js';
import { IN_LIST_LIMITS, classesFor, filterTarget, payloadTarget, type ReadingId, type ValueClass } from '../src/schema/value-classes.js';
import { requestContext, type Fault, type FaultHooks, type Rec } from './pipeline.js';

export interface LocalFault extends Fault {
  family: Family;
  /** the resource it touches */
  resource: string;
  /** the key, field, property or operation it touches */
  subject: string;
  /** item-id globs of which at least one must fail */
  expects: string[];
}

/** The families of faults that show for one class of values only (docs/value-classes.md). */
const VALUE_CLASS = [
  'filter-drops-class', 'in-list-capped', 'create-drops-class', 'update-skips-falsy', 'version-numbers-as-text',
  'page-number-as-text', 'create-drops-reading-class', 'filter-key-dropped-when-many',
  'limit-counts-utf16', 'list-text-capped', 'write-form-zero-empty', 'bound-int32-wrapped',
] as const;

export const FAMILIES = [
  'filter-ignored', 'count-ignores-filter', 'bound-exclusive', 'array-first-value-only', 'case-insensitive',
  'update-ignores-property', 'create-drops-property', 'update-truncates-string', 'get-form-wrong', 'write-form-wrong',
  'pages-overlap', 'page-one-too-many', 'default-get-uncapped', 'count-capped-1000', 'count-plus-one-filtered',
  'delete-first-id-only', 'delete-first-filter-only', 'auth-ignored', 'version-stale',
  // departures from the store's own reading of a stack default (docs/stack-defaults.md)
  'trailing-spaces-ignored', 'accents-ignored', 'date-only-whole-day', 'integer-clamped-32-bit', 'decimal-scale-rounded',
  'ids-upper-case', 'id-filter-exact', 'createdon-local-time',
  ...VALUE_CLASS,
] as const;
export type Family = (typeof FAMILIES)[number];

export const VALUE_CLASS_FAMILIES: ReadonlySet<Family> = new Set(VALUE_CLASS);

const LIST = () => resources().filter((r) => !r.single && r.operations.includes('get'));
const WRITABLE = () => resources().filter((r) => r.writable && r.payload.length > 0);
const lower = (v: unknown) => String(v ?? '').toLowerCase();
const on = (r: ResourceModel) => requestContext()?.resource.name === r.name;

/** Item-id glob → regular expression (`*` matches anything): the glob syntax of --expect. */
export const globRe = globToRegExp;

let itemIds: Map<string, string[]> | undefined;
/** The catalogue's item ids of one resource. */
function itemsOf(resource: string): string[] {
  if (!itemIds) {
    itemIds = new Map();
    for (const i of allItems()) {
      const list = itemIds.get(i.resource) ?? [];
      list.push(i.id);
      itemIds.set(i.resource, list);
    }
  }
  return itemIds.get(resource) ?? [];
}

/**
 * A fault, its `expects` kept to the globs that name items the catalogue has
 * for its resource (a property with no limit item has no limit glob); a fault
 * naming no item at all is a catalogue error.
 */
function local(family: Family, r: ResourceModel, subject: string, breaks: RuleId, description: string, globs: string[], hooks: Partial<FaultHooks>): LocalFault {
  const name = `${family}:${r.name}.${subject}`;
  const ids = itemsOf(r.name);
  const expects = globs.filter((g) => {
    const re = globRe(g);
    return ids.some((id) => re.test(id));
  });
  if (!expects.length) throw new Error(`local fault ${name}: none of ${globs.join(', ')} names an item of the catalogue (src/items)`);
  return { name, family, resource: r.name, subject, breaks, section: RULES[breaks].section, description, expects, hooks };
}

/** Items of every filter check of a key (and of its field's both-bounds and count checks). */
function filterItems(r: ResourceModel, f: FilterModel): string[] {
  // the id filter's own check is <r>.filters.id (no key segment); its count twin is count-agrees.id
  const out = f.key === 'id' ? [`${r.name}.filters.id#*`, `${r.name}.filters.count-agrees.id#*`] : [`${r.name}.filters.*.${f.key}#*`];
  if (f.filter === 'range' && rangePairs(r).some((p) => p.field === f.field)) out.push(`${r.name}.filters.*.${f.field}#both`);
  return out;
}

// ---------------------------------------------------------------- filters

function filterFaults(r: ResourceModel): LocalFault[] {
  const out: LocalFault[] = [];
  const rule = (f: FilterModel): RuleId => (f.key === 'id' ? 'filters.id' : `filters.${f.filter}` as RuleId);
  for (const f of r.filters) {
    const at = (site: { resource: ResourceModel; key: string }) => site.resource.name === r.name && site.key === f.key;
    out.push(local('filter-ignored', r, f.key, rule(f), `${r.name} get and count ignore the ${f.key} filter`, filterItems(r, f), {
      condition: (site, next) => (at(site) ? () => true : next(site)),
    }));
    out.push(local('count-ignores-filter', r, f.key, 'filters.count-agrees', `${r.name} count ignores the ${f.key} filter (get honours it)`, [`${r.name}.filters.count-agrees.${f.key}#*`, ...(f.filter === 'range' ? [`${r.name}.filters.count-agrees.${f.field}#both`] : [])], {
      condition: (site, next) => (at(site) && site.op === 'count' ? () => true : next(site)),
    }));
    if (f.filter === 'range') {
      out.push(local('bound-exclusive', r, f.key, 'filters.range', `${r.name} ${f.key} leaves out a record equal to the bound (every other bound inclusive)`, [`${r.name}.filters.range.${f.key}#equal`, `${r.name}.filters.count-agrees.${f.key}#equal`, `${r.name}.filters.range.${f.field}#both`], {
        condition: (site, next) => {
          const test = next(site);
          if (!at(site)) return test;
          const bound = String(Array.isArray(site.value) ? site.value[0] : site.value);
          return (rec) => test(rec) && compareEqual(rec[site.field], bound, site.kind) === false;
        },
      }));
    }
    if (f.filter === 'array' && f.key !== 'id') {
      out.push(local('array-first-value-only', r, f.key, 'filters.array', `${r.name} ${f.key} uses only the first listed value`, [`${r.name}.filters.array.${f.key}#several`, `${r.name}.filters.count-agrees.${f.key}#several`], {
        condition: (site, next) => (at(site) && Array.isArray(site.value) ? next({ ...site, value: site.value.slice(0, 1) }) : next(site)),
      }));
    }
    if (f.filter === 'array' && (f.valueKind === 'string' || f.valueKind === 'predefined')) {
      out.push(local('case-insensitive', r, f.key, 'filters.array', `${r.name} ${f.key} ignores letter case`, [`${r.name}.filters.array.${f.key}#exact`, `${r.name}.filters.count-agrees.${f.key}#exact`], {
        condition: (site, next) => {
          if (!at(site)) return next(site);
          const wanted = new Set((site.value as unknown[]).map(lower));
          return (rec) => wanted.has(lower(rec[site.field]));
        },
      }));
    }
  }
  return out;
}

// ---------------------------------------------------------------- value classes (docs/value-classes.md)

/** The filter key of a field, for a range pair its _min (the first key of the field). */
const keyOfField = (r: ResourceModel, name: string) => r.filters.find((f) => f.field === name && f.filter !== 'boolean' && f.key !== 'id');

/**
 * Classes a filter key's records hold in a run: those the field's payload
 * property takes (the filter fixture holds a record of each) and its filter
 * key takes too, no honest reading needed for either.
 */
function droppableClasses(r: ResourceModel, p: PayloadPropModel, f: FilterModel): ValueClass[] {
  const stored = payloadTarget(p);
  const kind = r.fields.find((x) => x.name === f.field)?.kind;
  const asked = filterTarget(f, kind && kind !== 'array' && kind !== 'object' && kind !== 'any' ? kind : f.valueKind);
  if (!stored || !asked || stored.kind === 'list') return [];
  const takes = new Set(classesFor(asked).judged.map((c) => c.name));
  return classesFor(stored).judged.filter((c) => takes.has(c.name));
}

/**
 * One class × one filter key of one writable resource: the key's condition
 * leaves out the records whose value is of that class (a query builder that
 * drops "0" with the falsy values, a LIKE that escapes nothing, a cast that
 * loses 0.29…). Each class of a resource goes to one key that takes it, the
 * keys taken in turn, so the family stays one fault per resource and class.
 */
function classFaults(r: ResourceModel): LocalFault[] {
  const out: LocalFault[] = [];
  const byClass = new Map<string, Array<{ p: PayloadPropModel; f: FilterModel; cls: ValueClass }>>();
  for (const p of r.payload) {
    const f = keyOfField(r, field(p));
    if (!f || p.references) continue;
    for (const cls of droppableClasses(r, p, f)) byClass.set(cls.name, [...(byClass.get(cls.name) ?? []), { p, f, cls }]);
  }
  let turn = 0;
  for (const options of byClass.values()) {
    const { p, f, cls } = options[turn++ % options.length];
    const t = payloadTarget(p)!;
    // the key and its aliases (page title and name): a store reads whichever its framework was given
    const keys = [f, ...r.filters.filter((x) => x.aliasOf === f.key)];
    const globs = [...keys.flatMap((k) => filterItems(r, k)), `${r.name}.filters.*.${f.field}#classes`];
    out.push(local('filter-drops-class', r, `${f.key}@${cls.name}`, f.filter === 'range' ? 'filters.range' : 'filters.array', `${r.name} ${keys.map((k) => k.key).join(' and ')} leave out the records whose ${f.field} is ${cls.title}`, globs, {
      condition: (site, next) => {
        const test = next(site);
        return site.resource.name === r.name && keys.some((k) => k.key === site.key) ? (rec) => test(rec) && !cls.has(String(rec[site.field] ?? ''), t) : test;
      },
    }));
  }
  return out;
}

/** Each class a resource's payload takes, with one property that takes it, the properties taken in turn (`keep`: which classes of which property). */
function propertyPerClass(r: ResourceModel, keep: (c: ValueClass, p: PayloadPropModel) => boolean): Array<{ p: PayloadPropModel; cls: ValueClass }> {
  const byClass = new Map<string, Array<{ p: PayloadPropModel; cls: ValueClass }>>();
  for (const p of r.payload) {
    const t = payloadTarget(p);
    if (!t || !r.fields.some((f) => f.name === field(p))) continue;
    for (const cls of classesFor(t).judged.filter((c) => keep(c, p))) byClass.set(cls.name, [...(byClass.get(cls.name) ?? []), { p, cls }]);
  }
  let turn = 0;
  return [...byClass.values()].map((options) => options[turn++ % options.length]);
}

/** As propertyPerClass, for the classes judged under `readings` that are not judged without them. */
function propertyPerClassUnder(r: ResourceModel, readings: readonly ReadingId[]): Array<{ p: PayloadPropModel; cls: ValueClass }> {
  const byClass = new Map<string, Array<{ p: PayloadPropModel; cls: ValueClass }>>();
  for (const p of r.payload) {
    const t = payloadTarget(p);
    if (!t || !r.fields.some((f) => f.name === field(p))) continue;
    const plain = new Set(classesFor(t).judged.map((c) => c.name));
    for (const cls of classesFor(t, readings).judged.filter((c) => !plain.has(c.name))) byClass.set(cls.name, [...(byClass.get(cls.name) ?? []), { p, cls }]);
  }
  let turn = 0;
  return [...byClass.values()].map((options) => options[turn++ % options.length]);
}

/** The values a careless truthiness test takes for "nothing supplied": "0", 0, "false", "null", false, []. */
const FALSY = /^(string\.(falsy-zero|falsy-false|null-word)|integer\.zero|decimal\.zero|boolean\.false|list\.empty)$/;

/**
 * One class × one property of one writable resource: create stores the
 * property's default when the value sent is of that class (not a class the
 * default belongs to: storing it would change nothing); update keeps the
 * old value when the new one is falsy to a loose truthiness test (PHP's
 * empty(), JavaScript's `if (value)`), so "0" or 0 can never be set.
 */
function payloadClassFaults(r: ResourceModel): LocalFault[] {
  const create = propertyPerClass(r, (c, p) => !c.has(dropped(p), payloadTarget(p)!)).map(({ p, cls }) => local('create-drops-class', r, `${p.name}@${cls.name}`, 'lifecycle.create.batch', `${r.name} create stores ${p.name}'s default when the value sent is ${cls.title}`, [`${r.name}.lifecycle.create.*#*`], {
    afterCreate: (rr, rec, item, next) => {
      if (rr.name === r.name && cls.has(item[p.name], payloadTarget(p)!)) rec[field(p)] = dropped(p);
      return next(rr, rec, item);
    },
  }));
  const update = propertyPerClass(r, (c) => FALSY.test(c.name)).map(({ p, cls }) => local('update-skips-falsy', r, `${p.name}@${cls.name}`, 'lifecycle.update.changes', `${r.name} update keeps ${p.name} when the new value is ${cls.title}`, [`${r.name}.lifecycle.update.*#*`], {
    afterUpdate: (rr, rec, item, before, next) => {
      if (rr.name === r.name && p.name in item && cls.has(item[p.name], payloadTarget(p)!)) rec[field(p)] = before[field(p)];
      return next(rr, rec, item, before);
    },
  }));
  return [...create, ...update, ...readingClassFaults(r)];
}

/**
 * The readings the default reference store does not take (64-bit Integer
 * columns, 4-byte characters kept, 8 digits before the point): a class that
 * depends on one is valid there, and judged where the store was observed so
 * (docs/value-classes.md). Not case-insensitive: string.case-twin's members
 * are every string with a letter, so a fault on it is no fault of one class.
 */
const NOT_TAKEN_BY_DEFAULT = ['int32', 'utf8mb3', 'decimal-digits'] as const;

/**
 * Where a reading is judged on one property beside the create items: its limits
 * item, and the consistency check of the reading on its resource. The reading's
 * probe looks at one property: a fault there leaves the reading unknown, so the
 * create items do not judge its classes, and these items are the ones that fail.
 */
const READING_ITEMS: Record<(typeof NOT_TAKEN_BY_DEFAULT)[number], (r: ResourceModel, p: PayloadPropModel) => string[]> = {
  int32: (r, p) => [`${r.name}.limits.integer-11-digits#${p.name}.create`, `all.observe.consistent.integer-width#${r.name}`],
  utf8mb3: (r, p) => [`${r.name}.limits.text-encoding#${p.name}.create`],
  'decimal-digits': (r, p) => [`${r.name}.limits.decimal-digits#${p.name}.create`],
};

/** One reading-dependent class × one property: create stores the property's default when the value is of that class. */
function readingClassFaults(r: ResourceModel): LocalFault[] {
  const plain = (p: PayloadPropModel) => new Set(classesFor(payloadTarget(p)!).judged.map((c) => c.name));
  return propertyPerClassUnder(r, NOT_TAKEN_BY_DEFAULT).filter(({ p, cls }) => !plain(p).has(cls.name) && !cls.has(dropped(p), payloadTarget(p)!))
    .map(({ p, cls }) => local('create-drops-reading-class', r, `${p.name}@${cls.name}`, 'lifecycle.create.batch', `${r.name} create stores ${p.name}'s default when the value sent is ${cls.title} (valid on a store that does not take the reading it depends on)`, [`${r.name}.lifecycle.create.*#*`, ...READING_ITEMS[cls.reading!(payloadTarget(p)!) as keyof typeof READING_ITEMS](r, p)], {
      afterCreate: (rr, rec, item, next) => {
        if (rr.name === r.name && cls.has(item[p.name], payloadTarget(p)!)) rec[field(p)] = dropped(p);
        return next(rr, rec, item);
      },
    }));
}

/** The conditions the fault below keeps of one request's filters (a query builder with this many slots). */
const KEPT_KEYS = 3;

/**
 * One resource applies only the first three filter keys a request gives and
 * ignores the others (a query builder with three condition slots): a request
 * of one key, or of a field's _min and _max beside the id filter, never shows
 * it; only many keys at once do.
 */
function manyKeysFaults(r: ResourceModel): LocalFault[] {
  const keys = r.filters.filter((f) => f.key !== 'id' && f.aliasOf === undefined);
  if (keys.length < KEPT_KEYS) return [];
  return [local('filter-key-dropped-when-many', r, 'keys', 'filters.all-keys', `${r.name} applies only the first ${KEPT_KEYS} filter keys of a request and ignores the others`, [`${r.name}.filters.all-keys#get`], {
    condition: (site, next) => {
      const given = requestContext()?.body.filters;
      const at = given && typeof given === 'object' ? Object.keys(given).indexOf(site.key) : -1;
      return site.resource.name === r.name && at >= KEPT_KEYS ? () => true : next(site);
    },
  })];
}

/** The id filter of one resource uses only its first `limit` values (an IN list cut at a driver's or database's limit). */
function inListFaults(r: ResourceModel): LocalFault[] {
  const f = r.filters.find((x) => x.key === 'id');
  if (!f) return [];
  return Object.entries(IN_LIST_LIMITS).map(([db, limit]) => local('in-list-capped', r, `id@${db}`, 'filters.id', `${r.name} get and count use only the first ${limit} ids of an id filter (the ${db} limit of one IN list)`, filterItems(r, f), {
    condition: (site, next) => (site.resource.name === r.name && site.key === 'id' && Array.isArray(site.value) ? next({ ...site, value: site.value.slice(0, limit) }) : next(site)),
  }));
}

/** Equal as the reference compares them (numbers by value, instants by text after normalising). */
function compareEqual(value: unknown, bound: string, kind: string): boolean {
  const v = String(value ?? '');
  if (kind === 'integer' || kind === 'decimal') return Number(v.replace(',', '.')) === Number(bound.replace(',', '.'));
  const norm = (x: string) => (x.length === 10 ? `${x} 00:00:00` : x).replace('T', ' ');
  if (kind === 'datetime') return norm(v) === norm(bound);
  if (kind === 'date') return v.slice(0, 10) === bound.slice(0, 10);
  return v === bound;
}

// ---------------------------------------------------------------- payload properties

const field = (p: PayloadPropModel) => p.recordField ?? p.name;

/** What a dropped property leaves: the engine's default of its kind. */
function dropped(p: PayloadPropModel): unknown {
  if (p.kind === 'list') return [];
  switch (p.kind) {
    case 'boolean': return 'false';
    case 'integer': case 'decimal': return '0';
    case 'guid': return ZERO_GUID;
    case 'datetime': return '1970-01-01 00:00:00';
    default: return '';
  }
}

function propertyFaults(r: ResourceModel): LocalFault[] {
  const out: LocalFault[] = [];
  for (const p of r.payload) {
    if (!r.fields.some((f) => f.name === field(p))) continue; // shows as no record field (product fileid)
    out.push(local('update-ignores-property', r, p.name, 'lifecycle.update.changes', `${r.name} update ignores ${p.name} (keeps the old value; answers it too)`, [`${r.name}.lifecycle.update.*#${p.name}`, `${r.name}.lifecycle.update.changes.batch#*`, `${r.name}.limits.*#${p.name}.update`], {
      afterUpdate: (rr, rec, item, before, next) => {
        if (rr.name === r.name && p.name in item) rec[field(p)] = before[field(p)];
        return next(rr, rec, item, before);
      },
    }));
    out.push(local('create-drops-property', r, p.name, 'lifecycle.create.single', `${r.name} create drops ${p.name} (the record keeps its default)`, [`${r.name}.lifecycle.create.*#${p.name}`, `${r.name}.lifecycle.create.batch#*`, `${r.name}.limits.*#${p.name}.create`, `${r.name}.lifecycle.create.references.${field(p)}#*`], {
      afterCreate: (rr, rec, item, next) => {
        if (rr.name === r.name && p.name in item) rec[field(p)] = dropped(p);
        return next(rr, rec, item);
      },
    }));
    if (p.kind === 'string' && (p.maxLength ?? 0) > 200) {
      out.push(local('update-truncates-string', r, p.name, 'limits.string-255', `${r.name} update (not create) cuts ${p.name} to 200 characters`, [`${r.name}.limits.*#${p.name}.update`], {
        afterUpdate: (rr, rec, item, before, next) => {
          const v = rec[field(p)];
          if (rr.name === r.name && p.name in item && typeof v === 'string' && [...v].length > 200) rec[field(p)] = [...v].slice(0, 200).join('');
          return next(rr, rec, item, before);
        },
      }));
    }
  }
  return out;
}

/**
 * One Integer range key of a resource reads its bound into a signed 32-bit
 * integer (a query parameter bound as INT over a 64-bit column): a bound past
 * 2147483647 wraps (2147483648 becomes −2147483648), every other is exact —
 * only a bound of the classes a 32-bit reading does not hold shows it.
 */
function int32BoundFaults(r: ResourceModel, k: number): LocalFault[] {
  const keys = r.filters.filter((f) => f.filter === 'range' && f.valueKind === 'integer');
  const f = keys[k % Math.max(1, keys.length)];
  if (!f) return [];
  const wrap = (v: unknown) => (typeof v === 'string' && /^-?[0-9]+$/.test(v) ? BigInt.asIntN(32, BigInt(v)).toString() : v);
  return [local('bound-int32-wrapped', r, f.key, 'filters.range', `${r.name} ${f.key} reads its bound as a signed 32-bit integer: a bound past 2147483647 wraps`, [...filterItems(r, f), `${r.name}.filters.*.${f.field}#classes`], {
    condition: (site, next) => (site.resource.name === r.name && site.key === f.key ? next({ ...site, value: Array.isArray(site.value) ? site.value.map(wrap) : wrap(site.value) }) : next(site)),
  })];
}

// ---------------------------------------------------------------- limits, off for one class of values

/** `s` cut to at most `max` UTF-16 units, whole code points. */
function cutUtf16(s: string, max: number): string {
  let out = '';
  for (const ch of s) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/** How many characters a list of text keeps when joined into one column (`a,b,c`): a VARCHAR(8192) of serialized tags. */
const JOINED_LIST_CAP = 8192;

/**
 * Limits wrong for one class of values only: one String property of 255 of
 * each writable resource counts its limit in UTF-16 units (JavaScript's
 * length, SQL Server's nvarchar) and cuts what is longer — BMP text at the
 * limit passes, 4-byte text at the limit loses its end, while the resource's
 * other properties keep it; and a list of text kept joined in one column of
 * JOINED_LIST_CAP characters — five tags at the limit fit, fifty do not.
 */
function limitClassFaults(r: ResourceModel, k: number): LocalFault[] {
  const out: LocalFault[] = [];
  const texts = r.payload.filter((p) => p.kind === 'string' && p.maxLength === TEXT_MAX_LENGTH && r.fields.some((f) => f.name === field(p)));
  const p = texts[k % Math.max(1, texts.length)];
  const cutting = (rr: ResourceModel, rec: Rec, item: Rec, q: PayloadPropModel, cut: (v: unknown) => unknown) => {
    if (rr.name === r.name && q.name in item) rec[field(q)] = cut(rec[field(q)]);
  };
  if (p) {
    const cut = (v: unknown) => (typeof v === 'string' && v.length > TEXT_MAX_LENGTH ? cutUtf16(v, TEXT_MAX_LENGTH) : v);
    out.push(local('limit-counts-utf16', r, p.name, 'limits.string-255', `${r.name} ${p.name} counts its ${TEXT_MAX_LENGTH}-character limit in UTF-16 units and cuts 4-byte text at the limit (the other properties count characters)`, [`${r.name}.limits.string-255#${p.name}.create`], {
      afterCreate: (rr, rec, item, next) => { cutting(rr, rec, item, p, cut); return next(rr, rec, item); },
      afterUpdate: (rr, rec, item, before, next) => { cutting(rr, rec, item, p, cut); return next(rr, rec, item, before); },
    }));
  }
  for (const q of r.payload.filter((x) => x.kind === 'list' && (x.itemKind ?? 'string') === 'string' && !x.references)) {
    const cap = (v: unknown) => {
      if (!Array.isArray(v)) return v;
      let used = -1;
      return v.filter((x) => (used += 1 + String(x?.tag ?? x).length) <= JOINED_LIST_CAP);
    };
    out.push(local('list-text-capped', r, q.name, 'limits.string-255', `${r.name} keeps ${q.name} joined in one column of ${JOINED_LIST_CAP} characters: the items past it are lost`, [`${r.name}.limits.string-255#${q.name}.*`], {
      afterCreate: (rr, rec, item, next) => { cutting(rr, rec, item, q, cap); return next(rr, rec, item); },
      afterUpdate: (rr, rec, item, before, next) => { cutting(rr, rec, item, q, cap); return next(rr, rec, item, before); },
    }));
  }
  return out;
}

// ---------------------------------------------------------------- forms

/** Set a value at a leaf path of a rendered record (every item of sub-lists). */
function bend(rec: Rec, trail: FieldModel[], change: (v: unknown) => unknown): void {
  const [f, ...rest] = trail;
  if (!rec || typeof rec !== 'object' || !(f.name in rec)) return;
  if (!rest.length) {
    rec[f.name] = change(rec[f.name]);
    return;
  }
  const v = rec[f.name];
  if (Array.isArray(v)) for (const x of v) bend(x, rest, change);
  else bend(v, rest, change);
}

function formFaults(r: ResourceModel): LocalFault[] {
  const out: LocalFault[] = [];
  for (const leaf of leaves(r.fields)) {
    const f = leaf.field;
    const change = f.kind === 'boolean' ? (v: unknown) => (v === 'true' ? '1' : v === 'false' ? '0' : v)
      : f.kind === 'decimal' && f.separator === '.' ? (v: unknown) => (typeof v === 'string' ? v.replace('.', ',') : v)
        : f.kind === 'decimal' && f.separator === ',' ? (v: unknown) => (typeof v === 'string' ? v.replace(',', '.') : v) : undefined;
    if (!change) continue;
    const rule: RuleId = f.kind === 'boolean' ? 'format.get.boolean' : f.separator === '.' ? 'format.get.decimal-dot' : 'format.get.decimal-comma';
    out.push(local('get-form-wrong', r, leaf.subject, rule, `${r.name} get shows ${leaf.subject} in the wrong form`, [`${r.name}.format.get.*.${leaf.subject}#get`], {
      renderGet: (rr, rec, next) => {
        const o = next(rr, rec);
        if (rr.name === r.name) bend(o, leaf.trail, change);
        return o;
      },
      storeObject: (store, next) => next(store),
    }));
  }
  for (const f of r.writeFields) {
    const change = f.quirk ? undefined
      : f.kind === 'boolean' ? (v: unknown) => (v === '1' ? 'true' : v === '0' ? 'false' : v)
        : f.kind === 'decimal' && f.separator === ',' ? (v: unknown) => (typeof v === 'string' ? v.replace(',', '.') : v) : undefined;
    if (!change) continue;
    out.push(local('write-form-wrong', r, f.name, f.kind === 'boolean' ? 'format.write.boolean' : 'format.write.decimal-comma', `${r.name} create and update show ${f.name} in the get form`, [`${r.name}.format.write.*.${f.name}#*`], {
      renderWrite: (rr, rec, next) => {
        const o = next(rr, rec);
        if (rr.name === r.name) o[f.name] = change(o[f.name]);
        return o;
      },
    }));
  }
  return out;
}

/**
 * One comma decimal of each writable resource's create and update answers
 * written as '' when it is zero (PHP's `$v ?: ''`, a formatter that skips a
 * falsy value): every other value, and every other field, keeps its form.
 */
function zeroFormFaults(r: ResourceModel, k: number): LocalFault[] {
  const fields = r.writeFields.filter((f) => !f.quirk && f.kind === 'decimal' && f.separator === ',');
  const f = fields[k % Math.max(1, fields.length)];
  if (!f) return [];
  return [local('write-form-zero-empty', r, f.name, 'format.write.decimal-comma', `${r.name} create and update answers write ${f.name} as '' when it is zero`, [`${r.name}.format.write.*.${f.name}#*`], {
    renderWrite: (rr, rec, next) => {
      const o = next(rr, rec);
      if (rr.name === r.name && typeof o[f.name] === 'string' && /^-?0+([.,]0*)?$/.test(o[f.name] as string)) o[f.name] = '';
      return o;
    },
  })];
}

// ---------------------------------------------------------------- pages, counts, deletes, keys, versions

function resourceFaults(r: ResourceModel): LocalFault[] {
  const out: LocalFault[] = [];
  out.push(local('pages-overlap', r, 'pages', 'pagination.partition', `${r.name} pages after the first start one record early`, [`${r.name}.pagination.partition#*`], {
    paginate: (list, p, next) => {
      if (!on(r) || p.pageIndex === 0) return next(list, p);
      const size = Math.min(p.pageSize, p.cap);
      return list.slice(p.pageIndex * size - 1, p.pageIndex * size - 1 + size);
    },
  }));
  // page numbers whose written length changes: the last page's number compared as text ("2" > "11"), so past
  // 9 pages the pages after the first come back empty; only a walk of 10 pages or more shows it (every list
  // resource is walked so: a read-only one over the records one get returns)
  out.push(local('page-number-as-text', r, 'pages', 'pagination.partition', `${r.name} compares the page number with the last page's as text: with 10 pages or more, pages 2 to 9 come back empty`, [`${r.name}.pagination.partition#walk`], {
    paginate: (list, p, next) => {
      if (!on(r)) return next(list, p);
      const last = Math.ceil(list.length / Math.max(1, Math.min(p.pageSize, p.cap)));
      return String(p.pageIndex + 1) > String(last) ? [] : next(list, p);
    },
  }));
  out.push(local('page-one-too-many', r, 'pages', 'pagination.page-size', `${r.name} pages hold one record more than pageSize`, [`${r.name}.pagination.page-size#*`, `${r.name}.pagination.partition#*`], {
    paginate: (list, p, next) => {
      if (!on(r)) return next(list, p);
      const size = Math.min(p.pageSize, p.cap);
      return list.slice(p.pageIndex * size, p.pageIndex * size + size + 1);
    },
  }));
  out.push(local('default-get-uncapped', r, 'get', 'pagination.cap-1000', `${r.name} get without pagination returns every record matched, beyond ${GET_CAP}`, [`${r.name}.pagination.cap-1000#default-get`], {
    paginate: (list, p, next) => (on(r) && requestContext()?.body.pagination === undefined ? list : next(list, p)),
  }));
  out.push(local('count-capped-1000', r, 'count', 'pagination.count-total', `${r.name} count never says more than ${GET_CAP}`, [`${r.name}.pagination.count-total#over-1000`], {
    count: (matched, all, next) => (on(r) ? Math.min(GET_CAP, next(matched, all)) : next(matched, all)),
  }));
  out.push(local('count-plus-one-filtered', r, 'count', 'filters.count-agrees', `${r.name} count with filters that narrow the records says one more`, [`${r.name}.filters.count-agrees.*#*`], {
    count: (matched, all, next) => next(matched, all) + (on(r) && matched.length < all.length ? 1 : 0),
  }));
  if (r.writable) {
    out.push(local('delete-first-id-only', r, 'delete', 'lifecycle.delete.exact', `${r.name} delete removes only the first id of each filter object`, [`${r.name}.lifecycle.delete.*#several-ids`], {
      selectDeletes: (ids, all, next) => {
        if (!on(r)) return next(ids, all);
        const objects = (requestContext()?.body.filter ?? []) as Array<{ id?: unknown[] }>;
        return next(new Set(objects.map((o) => lower(o?.id?.[0])).filter(Boolean)), all);
      },
    }));
    out.push(local('delete-first-filter-only', r, 'delete', 'lifecycle.delete.exact', `${r.name} delete honours only the first filter object`, [`${r.name}.lifecycle.delete.*#several-filters`], {
      selectDeletes: (ids, all, next) => {
        if (!on(r)) return next(ids, all);
        const first = ((requestContext()?.body.filter ?? []) as Array<{ id?: unknown[] }>)[0]?.id ?? [];
        return next(new Set(first.map(lower)), all);
      },
    }));
  }
  if (r.versionsOrder) {
    out.push(local('version-stale', r, 'versions', 'versions.append', `${r.name} the version an update appends holds the content from before it`, [`${r.name}.versions.append#*`], {
      afterUpdate: (rr, rec, item, before, next) => {
        const o = next(rr, rec, item, before);
        const added = rr.name === r.name && Array.isArray(o.versions) ? o.versions[o.versions.length - 1] : undefined;
        if (added) added.content = String(before.content ?? '');
        return o;
      },
    }));
    // numbers compared as text ("9" > "10"): right up to version 10, wrong from the history that crosses it
    const asText = (v: Rec) => String(v.version ?? '');
    out.push(local('version-numbers-as-text', r, 'versions.next', 'versions.append', `${r.name} the next version number is the text-largest one + 1 (after 10 comes 10 again)`, [`${r.name}.versions.append#*`], {
      nextVersion: (v, next) => (on(r) && v.length ? String(Number(v.map(asText).sort().at(-1)) + 1) : next(v)),
    }));
    out.push(local('version-numbers-as-text', r, 'versions.order', 'versions.order', `${r.name} versions are sorted by their numbers as text (10 before 9)`, [`${r.name}.versions.order#*`], {
      orderVersions: (rr, v, next) => {
        if (rr.name !== r.name) return next(rr, v);
        const sorted = [...v].sort((a, b) => asText(a).localeCompare(asText(b)));
        return rr.versionsOrder === 'newest-first' ? sorted.reverse() : sorted;
      },
    }));
  }
  return out;
}

function authFaults(r: ResourceModel): LocalFault[] {
  const out: LocalFault[] = [];
  const ops = r.single ? ['get'] : r.writable ? ['get', 'count', 'create', 'update', 'delete'] : ['get', 'count'];
  for (const op of ops) {
    const items = ['create', 'update', 'delete'].includes(op)
      ? [`${r.name}.auth.invalid-key-no-change#${op}`]
      : [`${r.name}.auth.invalid-key-no-records#${op}`, `${r.name}.auth.missing-key-no-records#${op}`];
    out.push(local('auth-ignored', r, op, ['create', 'update', 'delete'].includes(op) ? 'auth.invalid-key-no-change' : 'auth.invalid-key-no-records', `${r.name} ${op} serves a wrong or missing key`, items, {
      authenticate: (a, next) => {
        const c = requestContext();
        return c?.resource.name === r.name && c.op === op ? 'ok' : next(a);
      },
    }));
  }
  return out;
}

// ---------------------------------------------------------------- departures from the store's own readings

const INT32_MAX = 2n ** 31n - 1n;

/** A string without its combining accents (é → e). */
const unaccented = (v: string) => v.normalize('NFD').replace(/[\u0300-\u036f]/g, '').normalize('NFC');

/** The kind of the record field a filter key filters. */
const fieldKindOf = (r: ResourceModel, f: FilterModel) => r.fields.find((x) => x.name === f.field)?.kind;

/** A 'YYYY-MM-DD HH:MM:SS' wall time moved by `seconds`. */
function shifted(wall: unknown, seconds: number): unknown {
  const ms = Date.parse(`${String(wall).replace(' ', 'T')}Z`);
  return Number.isNaN(ms) ? wall : new Date(ms + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Excess decimals rounded half away from zero (where the store itself refuses them). */
function roundScale(v: string, scale: number): string {
  const m = /^([0-9]+)\.([0-9]+)$/.exec(v);
  if (!m || m[2].length <= scale) return v;
  const units = BigInt(m[1] + m[2].slice(0, scale)) + (Number(m[2][scale]) >= 5 ? 1n : 0n);
  const text = units.toString().padStart(scale + 1, '0');
  return scale ? `${text.slice(0, -scale)}.${text.slice(-scale)}` : text;
}

/**
 * One key, property or resource departing from the reading the rest of the
 * store takes (the default server's: exact comparison, Integer columns as wide
 * as §8's digits, excess decimals refused, ids in lower case compared
 * ignoring case, createdon in UTC) — what a store built on a database's
 * defaults with one column, query or endpoint set up otherwise does.
 */
function readingFaults(r: ResourceModel): LocalFault[] {
  const out: LocalFault[] = [];
  const consistent = (subject: string) => `all.observe.consistent.${subject}#${r.name}`;
  for (const f of r.filters.filter((x) => x.filter === 'array' && (x.valueKind === 'string' || x.valueKind === 'predefined'))) {
    out.push(local('trailing-spaces-ignored', r, f.key, 'filters.array', `${r.name} ${f.key} ignores trailing spaces (a PAD SPACE column in an exact store)`, [`${r.name}.filters.array.${f.key}#exact`, `${r.name}.filters.count-agrees.${f.key}#exact`], {
      condition: (site, next) => {
        if (site.resource.name !== r.name || site.key !== f.key) return next(site);
        const wanted = new Set((site.value as unknown[]).map((v) => String(v).replace(/ +$/, '')));
        return (rec) => wanted.has(String(rec[site.field] ?? '').replace(/ +$/, ''));
      },
    }));
  }
  for (const f of r.filters.filter((x) => x.filter === 'array' && (x.valueKind === 'string' || x.valueKind === 'predefined'))) {
    out.push(local('accents-ignored', r, f.key, 'filters.array', `${r.name} ${f.key} ignores accents (an accent-insensitive column in an exact store)`, [`${r.name}.filters.array.${f.key}#exact`, `${r.name}.filters.count-agrees.${f.key}#exact`], {
      condition: (site, next) => {
        if (site.resource.name !== r.name || site.key !== f.key) return next(site);
        const wanted = new Set((site.value as unknown[]).map((v) => unaccented(String(v))));
        return (rec) => wanted.has(unaccented(String(rec[site.field] ?? '')));
      },
    }));
  }
  for (const f of r.filters.filter((x) => x.filter === 'range' && x.bound === 'max' && fieldKindOf(r, x) === 'datetime')) {
    out.push(local('date-only-whole-day', r, f.key, 'filters.range', `${r.name} ${f.key} reads a date-only bound as the whole day (every other key as its midnight)`, [`${r.name}.filters.date-only-bound.${f.key}#day`, `${r.name}.filters.count-agrees.${f.key}#day`], {
      condition: (site, next) => {
        const bound = String(Array.isArray(site.value) ? site.value[0] : site.value);
        if (site.resource.name !== r.name || site.key !== f.key || !DATE_PATTERN.test(bound)) return next(site);
        return (rec) => typeof rec[site.field] === 'string' && rec[site.field].slice(0, 10) <= bound;
      },
    }));
  }
  if (r.writable) {
    for (const p of r.payload.filter((x) => x.kind === 'integer' && x.safeValue === undefined)) {
      out.push(local('integer-clamped-32-bit', r, p.name, 'observe.consistent', `${r.name} ${p.name} is a 32-bit column clamping what is beyond 2147483647 (every other Integer as wide as its digits)`, [consistent('integer-width'), `${r.name}.limits.integer-11-digits#${p.name}.*`], {
        inputColumn: (rr, prop, v, next) => (rr.name === r.name && prop.name === p.name && /^[0-9]+$/.test(v) && BigInt(v) > INT32_MAX ? INT32_MAX.toString() : next(rr, prop, v)),
      }));
    }
    for (const p of r.payload.filter((x) => x.kind === 'decimal' && !!x.decimal?.scale && x.safeValue === undefined)) {
      out.push(local('decimal-scale-rounded', r, p.name, 'observe.consistent', `${r.name} ${p.name} rounds excess decimals (every other Decimal refuses them)`, [consistent('decimal-scale')], {
        inputColumn: (rr, prop, v, next) => (rr.name === r.name && prop.name === p.name ? roundScale(v, p.decimal!.scale) : next(rr, prop, v)),
      }));
    }
    if (r.audit) {
      out.push(local('createdon-local-time', r, 'createdon', 'observe.consistent', `${r.name} writes createdon in UTC+01:00 (every other resource in UTC)`, [consistent('createdon-zone')], {
        afterCreate: (rr, rec, item, next) => {
          const o = next(rr, rec, item);
          if (rr.name === r.name) o.createdon = shifted(o.createdon, 3600);
          return o;
        },
      }));
    }
  }
  if (!r.single) {
    const upper = (rr: ResourceModel, o: Rec) => (rr.name === r.name && typeof o.id === 'string' ? { ...o, id: o.id.toUpperCase() } : o);
    out.push(local('ids-upper-case', r, 'id', 'observe.consistent', `${r.name} writes its ids in upper case (every other resource in lower case)`, [consistent('id-case')], {
      renderGet: (rr, rec, next) => upper(rr, next(rr, rec)),
      renderWrite: (rr, rec, next) => upper(rr, next(rr, rec)),
    }));
    out.push(local('id-filter-exact', r, 'id', 'observe.consistent', `${r.name} id filter compares ids exactly: an id in upper case finds nothing (every other resource ignores case)`, [consistent('id-case')], {
      condition: (site, next) => {
        if (site.resource.name !== r.name || site.key !== 'id') return next(site);
        const wanted = new Set((site.value as unknown[]).map(String));
        return (rec) => wanted.has(String(rec.id));
      },
    }));
  }
  return out;
}

/** The families that only show on more than 1000 records of their resource. */
const OVER_1000: ReadonlySet<Family> = new Set(['default-get-uncapped', 'count-capped-1000']);

/**
 * The values a run can send a property when they are all it can send: its
 * x-safe-value (page homepage: only 'false', as a page made the home page
 * could take that role from the store's own), the known values of a
 * Predefined one (product type: PHYSICAL); undefined when it sends others.
 */
function onlyValues(p: PayloadPropModel): string[] | undefined {
  if (p.safeValue !== undefined) return [p.safeValue];
  if (p.kind === 'predefined' && p.knownValues?.length) return [...p.knownValues];
  return undefined;
}

/**
 * Why no run can show a property fault, on any target: an update keeping the
 * old value of a property the run sets to one value only (the old value is
 * that value), a create storing the default instead of a property whose every
 * sendable value is that default (homepage 'false'). Undefined: it can show.
 */
function unshowableProperty(f: LocalFault): string | undefined {
  if (f.family !== 'create-drops-property' && f.family !== 'update-ignores-property') return undefined;
  const p = resources().find((r) => r.name === f.resource)?.payload.find((x) => x.name === f.subject);
  const only = p && onlyValues(p);
  if (!p || !only) return undefined;
  if (f.family === 'update-ignores-property') return only.length === 1 ? `the run only ever sends ${p.name} ${only[0]}: an update cannot change it, so one ignoring it changes nothing` : undefined;
  return only.every((v) => v === dropped(p)) ? `the run only ever sends ${p.name} ${only.join(' or ')}, the default a create dropping it stores` : undefined;
}

/**
 * Why the default reference server cannot show this fault at all, or
 * undefined when it can: the families about the 1000 cap need more than 1000
 * records — a writable resource (the run creates them) or the big seeded one
 * (`bigResource`, reference/seed.ts); a property fault no run can show
 * (unshowableProperty). A fault it cannot show is reported unobservable by
 * the proofs, never caught nor escaped.
 */
export function unobservableReason(f: LocalFault, bigResource = 'file'): string | undefined {
  if (OVER_1000.has(f.family) && f.resource !== bigResource && !resources().some((r) => r.name === f.resource && r.writable)) {
    return 'the reference data holds no more than 1000 of these records';
  }
  return unshowableProperty(f);
}

/** Can the default reference server show this fault at all? (unobservableReason says why not.) */
export function observableOnReference(f: LocalFault, bigResource = 'file'): boolean {
  return unobservableReason(f, bigResource) === undefined;
}

let cache: readonly LocalFault[] | undefined;

/** The whole generated catalogue, in a stable order (resources in §1 order, families in FAMILIES order). */
export function localFaults(): readonly LocalFault[] {
  if (cache) return cache;
  const all: LocalFault[] = [];
  for (const r of LIST()) all.push(...filterFaults(r));
  for (const r of WRITABLE()) all.push(...propertyFaults(r));
  for (const r of WRITABLE()) if (!r.single) all.push(...classFaults(r), ...payloadClassFaults(r));
  WRITABLE().filter((r) => !r.single).forEach((r, k) => all.push(...limitClassFaults(r, k), ...zeroFormFaults(r, k)));
  for (const r of LIST()) all.push(...inListFaults(r), ...manyKeysFaults(r));
  LIST().forEach((r, k) => all.push(...int32BoundFaults(r, k)));
  for (const r of resources()) all.push(...formFaults(r));
  for (const r of resources()) all.push(...(r.single ? [] : resourceFaults(r)), ...authFaults(r));
  for (const r of LIST()) all.push(...readingFaults(r));
  const rank = (f: LocalFault) => FAMILIES.indexOf(f.family);
  cache = all.sort((a, b) => rank(a) - rank(b));
  return cache;
}

const byName = () => new Map(localFaults().map((f) => [f.name, f]));
let index: Map<string, LocalFault> | undefined;

export function findLocalFault(name: string): LocalFault | undefined {
  return (index ??= byName()).get(name);
}
