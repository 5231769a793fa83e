/**
 * The fault registry: named, deliberately broken behaviours of the reference
 * server, each breaking exactly one documented rule (an id of src/rules.ts).
 * The meta-tests switch one on and expect storecheck to report that rule.
 *
 * Adding a fault: one `fault(name, ruleId, description, hooks)` entry. Hooks
 * are the Pipeline functions of pipeline.ts; each gets the usual arguments
 * plus `next`, the behaviour it replaces.
 */
import { RULES, type RuleId } from '../src/rules.js';
import { DATE_PATTERN, GET_CAP, TEXT_MAX_LENGTH, ZERO_GUID, resource } from '../src/schema/model.js';
import { ApiError } from './engine.js';
import { requestContext, type Fault, type FaultHooks, type Rec } from './pipeline.js';
import { findLocalFault } from './faults-generated.js';
import { utf8Cut } from './readings.js';

export type { Fault } from './pipeline.js';

function fault(name: string, breaks: RuleId, description: string, hooks: Partial<FaultHooks>, extra: Pick<Fault, 'stale' | 'proveDepth'> = {}): Fault {
  return { name, breaks, section: RULES[breaks].section, description, hooks, ...extra };
}

/** Hooks that change what create and update store alike: `stored` gets the record as the store would keep it. */
function storedAs(stored: (r: Parameters<FaultHooks['afterCreate']>[0], out: Rec) => Rec): Partial<FaultHooks> {
  return {
    afterCreate: (r, rec, item, next) => stored(r, next(r, rec, item)),
    afterUpdate: (r, rec, item, before, next) => stored(r, next(r, rec, item, before)),
  };
}

/** The array filter `key` of `resourceName` refusing (400) a value outside its field's enumeration: an enum-typed filter model. */
function refusesUnknownValues(resourceName: string, key: string): Partial<FaultHooks> {
  return {
    condition(site, next) {
      if (site.resource.name !== resourceName || site.key !== key || site.filter !== 'array') return next(site);
      const known = new Set(resource(resourceName).fields.find((f) => f.name === site.field)?.knownValues ?? []);
      const unknown = (site.value as unknown[]).map(String).find((v) => !known.has(v));
      if (unknown !== undefined) throw new ApiError(400, 'VALIDATION_FAILED', `invalid filters: ${key}: ${JSON.stringify(unknown)} is not one of its values`, [`/filters/${key} must be one of the enumeration's values`]);
      return next(site);
    },
  };
}

/** A fault only one near-miss case on one endpoint shows: proven at standard depth, which sends every case everywhere (Fault.proveDepth). */
const EVERY_CASE = { proveDepth: 'standard' } as const;

/** The resource of the request being handled (pipeline.ts requestContext). */
const handling = (name: string) => requestContext()?.resource.name === name;
/** The request being handled is `op` of resource `name`. */
const on = (name: string, op: string) => handling(name) && requestContext()?.op === op;
/** The filter keys of the request being handled. */
const filterKeys = () => {
  const f = requestContext()?.body.filters;
  return f && typeof f === 'object' && !Array.isArray(f) ? Object.keys(f) : [];
};

/** Records created in the last ms, by lower-cased id (count-lags-creates). */
const born = new Map<string, number>();
/** Deleted records, kept (delete-undone-by-update). */
const tombs = new Map<string, Rec>();
/** The last blog post delete (walk-repeats-after-delete). */
let lastDelete = { at: 0, count: 0 };

const isNumeric = (kind: string) => kind === 'integer' || kind === 'decimal';
const reverse = (list: Rec[]) => [...list].reverse();

export const FAULTS: readonly Fault[] = [
  // §2 Conventions
  fault('get-number-scalar', 'conventions.scalar-strings', 'get shows the first Integer/Decimal field of each record as a JSON number', {
    renderGet(r, rec, next) {
      const out = next(r, rec);
      const f = r.fields.find((x) => isNumeric(x.kind));
      if (f && typeof out[f.name] === 'string') out[f.name] = Number(out[f.name].replace(',', '.'));
      return out;
    },
  }),
  fault('get-nested-number', 'conventions.scalar-strings', 'get shows an Integer/Decimal inside the first item of a sub-list as a JSON number', {
    renderGet(r, rec, next) {
      const out = next(r, rec);
      for (const f of r.fields) {
        const inner = f.itemFields?.find((x) => isNumeric(x.kind));
        if (!inner || !out[f.name]?.length) continue;
        out[f.name][0][inner.name] = Number(String(out[f.name][0][inner.name]).replace(',', '.'));
        break;
      }
      return out;
    },
  }),
  fault('datetime-with-T', 'conventions.datetime-form', "DateTime values are shown as 'YYYY-MM-DDTHH:MM:SS'", {
    formatDateTime: (v, next) => next(v).replace(' ', 'T'),
  }),
  fault('write-number-scalar', 'conventions.scalar-strings', 'create and update show the first Integer/Decimal field of each record as a JSON number', {
    renderWrite(r, rec, next) {
      const out = next(r, rec);
      const f = r.writeFields.find((x) => isNumeric(x.kind));
      if (f && typeof out[f.name] === 'string') out[f.name] = Number(out[f.name].replace(',', '.'));
      return out;
    },
  }),
  fault('guid-uppercase-no-hyphen', 'conventions.guid-form', 'record ids are shown in upper case without hyphens (32 hex digits)', {
    renderGet: (r, rec, next) => ({ ...next(r, rec), id: String(rec.id).toUpperCase().replace(/-/g, '') }),
    renderWrite: (r, rec, next) => ({ ...next(r, rec), id: String(rec.id).toUpperCase().replace(/-/g, '') }),
  }),
  fault('birthdate-with-time', 'conventions.date-form', "Date fields (customer birthdate) are shown as 'YYYY-MM-DD 00:00:00'", {
    renderGet(r, rec, next) {
      const out = next(r, rec);
      for (const f of r.fields) if (f.kind === 'date' && out[f.name]) out[f.name] = `${out[f.name]} 00:00:00`;
      return out;
    },
  }),
  fault('missing-author', 'conventions.audit-fields', 'get leaves author out of every record', {
    renderGet(r, rec, next) {
      const { author: _dropped, ...rest } = next(r, rec);
      return rest;
    },
  }),
  fault('country-with-createdon', 'conventions.audit-fields', 'get gives countries a createdon', {
    renderGet: (r, rec, next) => (!r.audit && !r.single ? { ...next(r, rec), createdon: '2020-01-01 00:00:00' } : next(r, rec)),
  }),
  fault('get-drops-field', 'conventions.record-schema', 'get leaves out the last String field of every record', {
    renderGet(r, rec, next) {
      const out = next(r, rec);
      const f = r.fields.filter((x) => x.kind === 'string' && x.name !== 'author').pop();
      if (f) delete out[f.name];
      return out;
    },
  }),
  fault('write-drops-field', 'conventions.write-record-schema', 'create and update leave out the last String field of every record', {
    renderWrite(r, rec, next) {
      const out = next(r, rec);
      const f = r.writeFields.filter((x) => x.kind === 'string' && x.name !== 'author').pop();
      if (f) delete out[f.name];
      return out;
    },
  }),

  // §4 Formatting differs by operation
  fault('get-boolean-1-0', 'format.get.boolean', "get shows booleans as '1'/'0'", {
    renderGet(r, rec, next) {
      const out = next(r, rec);
      for (const f of r.fields) if (f.kind === 'boolean') out[f.name] = out[f.name] === 'true' ? '1' : '0';
      return out;
    },
  }),
  fault('write-boolean-true-false', 'format.write.boolean', "create and update show booleans as 'true'/'false'", {
    renderWrite(r, rec, next) {
      const out = next(r, rec);
      for (const f of r.writeFields) if (f.kind === 'boolean') out[f.name] = out[f.name] === '1' ? 'true' : 'false';
      return out;
    },
  }),
  fault('product-size-echoed', 'format.write.product-size-zero', "product create and update return the size sent instead of '0'", {
    renderWrite(r, rec, next) {
      const out = next(r, rec);
      for (const f of r.writeFields) if (f.quirk) out[f.name] = String(rec[f.name]);
      return out;
    },
  }),
  fault('get-decimal-comma', 'format.get.decimal-dot', 'get shows the dot decimals (product price, order totals...) with a comma', {
    renderGet(r, rec, next) {
      const out = next(r, rec);
      for (const f of r.fields) if (f.kind === 'decimal' && f.separator === '.' && typeof out[f.name] === 'string') out[f.name] = out[f.name].replace('.', ',');
      return out;
    },
  }),
  fault('get-comma-decimals-dot', 'format.get.decimal-comma', 'get shows order item unitprice and shipping handlingfee/fixedamount with a dot', {
    renderGet(r, rec, next) {
      const out = next(r, rec);
      const dot = (o: Rec, fields: typeof r.fields) => {
        for (const f of fields) if (f.separator === ',' && typeof o?.[f.name] === 'string') o[f.name] = o[f.name].replace(',', '.');
      };
      dot(out, r.fields);
      for (const f of r.fields) if (f.itemFields && Array.isArray(out[f.name])) for (const item of out[f.name]) dot(item, f.itemFields);
      return out;
    },
  }),
  fault('write-decimal-dot', 'format.write.decimal-comma', 'create and update show price, weight, discountamount and minimumpurchase with a dot', {
    renderWrite(r, rec, next) {
      const out = next(r, rec);
      for (const f of r.writeFields) if (f.separator === ',' && typeof out[f.name] === 'string') out[f.name] = out[f.name].replace(',', '.');
      return out;
    },
  }),

  // §4 Filters
  fault('range-as-text', 'filters.range', 'numeric range bounds are compared as text (so 9 > 10)', {
    compareRange: (value, bound, kind, next) => (isNumeric(kind) ? (value < bound ? -1 : value > bound ? 1 : 0) : next(value, bound, kind)),
  }),
  fault('array-filter-first-value-only', 'filters.array', 'an array filter only uses its first value', {
    matchArray: (value, wanted, kind, next) => next(value, wanted.slice(0, 1), kind),
  }),
  fault('array-filter-substring', 'filters.array', 'a String array filter matches records whose field contains a listed value', {
    matchArray: (value, wanted, kind, next) => (kind === 'string' ? wanted.some((w) => value.includes(w)) : next(value, wanted, kind)),
  }),
  fault('one-item-create-drops-falsy', 'lifecycle.create.single', 'a create holding one item in data stores a String sent as "0" or "false" as empty (a truthiness test on that path only: PHP\'s $v ?: \'\'); several items in data keep them', {
    afterCreate(r, rec, item, next) {
      const data = requestContext()?.body.data;
      if (Array.isArray(data) && data.length === 1) {
        for (const p of r.payload) if (p.kind === 'string' && (item[p.name] === '0' || item[p.name] === 'false')) rec[p.recordField ?? p.name] = '';
      }
      return next(r, rec, item);
    },
  }),
  fault('integer-filter-as-written', 'filters.array', "an Integer array filter matches a record only when the value is written as the record shows it: '007' finds no record holding 7, though creates take '007' as 7", {
    matchArray: (value, wanted, kind, next) => (kind === 'integer' ? wanted.includes(value) : next(value, wanted, kind)),
  }),
  fault('count-ignores-filters', 'filters.count-agrees', 'count ignores the filters and returns the total', {
    count: (_matched, all) => all.length,
  }),
  fault('array-filter-case-insensitive', 'filters.array', 'a String array filter ignores case', {
    matchArray: (value, wanted, kind, next) => (kind === 'string' ? wanted.some((w) => w.toLowerCase() === value.toLowerCase()) : next(value, wanted, kind)),
  }),
  fault('range-min-exclusive-when-inclusive', 'filters.range', 'a value equal to a _min bound is left out while one equal to a _max bound is kept', {
    compareRange: (value, bound, kind, next) => (next(value, bound, kind) === 0 ? -1 : next(value, bound, kind)),
  }),
  fault('range-max-ignored', 'filters.range', 'a _max bound is ignored: values above it are kept', {
    compareRange: (value, bound, kind, next) => Math.min(next(value, bound, kind), 0),
  }),
  fault('datetime-range-as-text', 'filters.range', "DateTime bounds are compared as unpadded text ('2024-10-1 9:15:0' sorts before '2024-9-30 …')", {
    compareRange(value, bound, kind, next) {
      const text = (s: string) => s.split(/[-: T]/).map(Number).join('-');
      return kind === 'datetime' && value ? (text(value) < text(bound) ? -1 : text(value) > text(bound) ? 1 : 0) : next(value, bound, kind);
    },
  }),
  fault('date-only-bound-rejected', 'filters.date-only-bound', "a DateTime range bound given as a date only ('YYYY-MM-DD') is rejected with 400", {
    compareRange(value, bound, kind, next) {
      if (kind === 'datetime' && DATE_PATTERN.test(bound)) throw new ApiError(400, 'VALIDATION_FAILED', `invalid filters: ${bound} is not a date with time`);
      return next(value, bound, kind);
    },
  }),
  fault('count-off-by-one', 'filters.count-agrees', 'count with filters that narrow the records reports one more than match', {
    count: (matched, all, next) => next(matched, all) + (matched.length < all.length ? 1 : 0),
  }),
  fault('id-filter-ignored', 'filters.id', 'GUID array filters (the id filter among them) match every record', {
    matchArray: (value, wanted, kind, next) => (kind === 'guid' ? true : next(value, wanted, kind)),
  }),

  fault('boolean-filter-string-truthy', 'filters.boolean', "a Boolean filter reads its value as a truthy string: 'false' also matches the records whose field is true", {
    matchBoolean: (value, wanted, next) => next(value, wanted === '' ? 'false' : 'true'),
  }),
  fault('boolean-filter-ignored', 'filters.boolean', 'a Boolean filter is ignored: records with either value are returned', {
    matchBoolean: () => true,
  }),
  fault('boolean-filter-inverted', 'filters.boolean', "a Boolean filter is inverted: 'true' matches the records whose field is false", {
    matchBoolean: (value, wanted, next) => !next(value, wanted),
  }),

  // §4 / §8 Pagination
  fault('cap-not-applied', 'pagination.cap-1000', `a get returns as many records as pageSize asks, beyond ${GET_CAP}`, {
    paginate: (list, p, next) => next(list, { ...p, cap: Number.POSITIVE_INFINITY }),
  }),
  fault('pages-overlap', 'pagination.partition', 'every page after the first starts one record early (pages overlap by one)', {
    paginate(list, p, next) {
      if (p.pageIndex === 0) return next(list, p);
      const size = Math.min(p.pageSize, p.cap);
      return list.slice(p.pageIndex * size - 1, p.pageIndex * size - 1 + size);
    },
  }),
  fault('page-size-ignored', 'pagination.page-size', 'pagination.pageSize is ignored: every page holds up to 100 records', {
    paginate: (list, p, next) => next(list, { ...p, pageSize: 100 }),
  }),
  fault('page-size-below-one-served', 'pagination.page-size', 'a pageSize below 1 is served, not refused: the size is used as a slice end, so "0" gives no records and "-2" every record but the last two', ((): Partial<FaultHooks> => {
    let below: number | undefined; // set per request by authenticate; the engine handles a request synchronously
    return {
      // the engine refuses a pageSize below 1 before paginating: the request's size is swapped for 1 so
      // it gets that far, and put back in paginate, which then serves it as the size it was sent
      authenticate(a, next) {
        const pag = requestContext()?.body.pagination;
        const asked = pag && typeof pag === 'object' && /^\s*-?[0-9]+\s*$/.test(String(pag.pageSize)) ? Number(pag.pageSize) : undefined;
        below = requestContext()?.op === 'get' && asked !== undefined && asked < 1 ? asked : undefined;
        if (below !== undefined) pag.pageSize = '1';
        return next(a);
      },
      paginate: (list, p, next) => next(list, below === undefined ? p : { ...p, pageSize: below }),
    };
  })()),
  fault('pages-gap', 'pagination.partition', 'every page after the first starts one record late (a record between pages is never returned)', {
    paginate(list, p, next) {
      const size = Math.min(p.pageSize, p.cap);
      return p.pageIndex === 0 ? next(list, p) : list.slice(p.pageIndex * size + 1, p.pageIndex * size + 1 + size);
    },
  }),
  fault('order-unstable', 'pagination.partition', 'records come in a new random order on every request, so pages do not partition them', {
    paginate: (list, p, next) => next(list.map((x) => [Math.random(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x), p),
  }),
  fault('count-unfiltered-wrong', 'pagination.count-total', 'count without filters reports one record more than get can walk', {
    count: (matched, all, next) => next(matched, all) + (matched.length === all.length ? 1 : 0),
  }),

  fault('count-capped-at-1000', 'pagination.count-total', `count never reports more than ${GET_CAP} (the get cap applied to count too)`, {
    count: (matched, all, next) => Math.min(next(matched, all), GET_CAP),
  }),
  fault('order-ties-unstable', 'pagination.partition', 'records with the same createdon come in a new random order on every request (the sort has no tie-breaker)', {
    paginate(list, p, next) {
      const out: Rec[] = [];
      for (let i = 0, j = 0; i < list.length; i = j) {
        for (j = i + 1; j < list.length && list[j].createdon === list[i].createdon;) j++;
        out.push(...list.slice(i, j).map((x) => [Math.random(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x));
      }
      return next(out, p);
    },
  }),

  // §4 Create, update, delete
  fault('update-drops-field', 'lifecycle.update.changes', 'update ignores the first property it is given (keeps the old value)', {
    afterUpdate(r, rec, item, before, next) {
      const prop = r.payload.find((x) => x.name in item);
      if (prop) rec[prop.recordField ?? prop.name] = before[prop.recordField ?? prop.name];
      return next(r, rec, item, before);
    },
  }),
  fault('delete-too-much', 'lifecycle.delete.exact', 'delete also removes the record stored next to the first deleted one', {
    selectDeletes(ids, all, next) {
      const out = new Set(next(ids, all));
      const i = all.findIndex((x) => ids.has(String(x.id).toLowerCase()));
      const neighbour = i < 0 ? undefined : all[i + 1] ?? all[i - 1];
      if (neighbour) out.add(String(neighbour.id).toLowerCase());
      return out;
    },
  }),
  fault('create-batch-only-first', 'lifecycle.create.batch', 'a create with several items in data answers all of them but stores only the first: the others never show in get or count', ((): Partial<FaultHooks> => {
    const lost = new Set<unknown>();
    let inCreate = false; // the items of one create are built in one synchronous run
    const shown = (list: Rec[]) => list.filter((x) => !lost.has(x.id));
    return {
      afterCreate(r, rec, item, next) {
        if (inCreate) lost.add(rec.id);
        else { inCreate = true; queueMicrotask(() => { inCreate = false; }); }
        return next(r, rec, item);
      },
      paginate: (list, p, next) => next(shown(list), p),
      count: (matched, all, next) => next(shown(matched), shown(all)),
    };
  })()),
  fault('update-wrong-record', 'lifecycle.update.others-untouched', 'an update is applied to the record created right after the named one; the named one keeps its values', ((): Partial<FaultHooks> => {
    const made = new Map<string, Rec[]>(); // stored records by resource, in creation order
    return {
      afterCreate(r, rec, item, next) {
        const out = next(r, rec, item);
        (made.get(r.name) ?? made.set(r.name, []).get(r.name)!).push(out);
        return out;
      },
      afterUpdate(r, rec, item, before, next) {
        const list = made.get(r.name) ?? [];
        const i = list.findIndex((x) => x.id === before.id);
        const other = i < 0 ? undefined : list[i + 1];
        if (!other) return next(r, rec, item, before);
        for (const p of r.payload) if (p.name in item) other[p.recordField ?? p.name] = rec[p.recordField ?? p.name];
        return before;
      },
    };
  })()),
  fault('delete-nothing', 'lifecycle.delete.gone', "delete answers {success: 'true'} but removes nothing", {
    selectDeletes: () => new Set<string>(),
  }),
  fault('tags-dropped', 'lifecycle.create.references', 'create stores no tags: tags is an empty list whatever was sent', {
    afterCreate(r, rec, item, next) {
      const out = next(r, rec, item);
      for (const p of r.payload) if (p.kind === 'list' && !p.references) out[p.recordField ?? p.name] = [];
      return out;
    },
  }),
  fault('categories-empty', 'lifecycle.create.references', 'create accepts categoryid but stores no categories: categories is an empty list', {
    afterCreate(r, rec, item, next) {
      const out = next(r, rec, item);
      for (const p of r.payload) if (p.references === 'category') out[p.recordField ?? p.name] = [];
      return out;
    },
  }),
  fault('create-empty-image-row', 'lifecycle.create.sub-record-ids', "a product just created lists one image nobody sent, an empty row: id the all-zero GUID, url '', rank '0' (a LEFT JOIN with no match); updated products and other lists are right", {
    afterCreate(r, rec, item, next) {
      const out = next(r, rec, item);
      return r.name === 'product' ? { ...out, images: [...(out.images ?? []), { id: ZERO_GUID, url: '', rank: '0' }] } : out;
    },
  }),
  fault('categoryid-unchecked', 'lifecycle.unknown-reference', "product create and update take a categoryid that is no category's id (stored as a category with that id and no name); collectionid is still checked", {
    referenceTarget: (r, prop, stored, next) => (r.name === 'product' && prop.name === 'categoryid' ? { byId: { has: () => true } } : next(r, prop, stored)),
  }),
  fault('delete-answers-404', 'lifecycle.delete.response', 'delete of ids that exist answers 404 RECORD_NOT_FOUND (and removes nothing)', {
    selectDeletes() {
      throw new ApiError(404, 'RECORD_NOT_FOUND', 'no record with these ids');
    },
  }),

  fault('create-drops-last-string', 'lifecycle.create.single', "create ignores the last String property it is given: the record keeps '' (and is answered so)", {
    afterCreate(r, rec, item, next) {
      const prop = [...r.payload].reverse().find((x) => x.kind === 'string' && typeof item[x.name] === 'string' && item[x.name] !== '');
      if (prop) rec[prop.recordField ?? prop.name] = '';
      return next(r, rec, item);
    },
  }),
  fault('create-echoes-unsaved-value', 'lifecycle.create.round-trip', 'create answers the values sent, but stores the first String property without its last character', ((): Partial<FaultHooks> => {
    const sent = new WeakMap<Rec, [string, string]>();
    return {
      afterCreate(r, rec, item, next) {
        const out = next(r, rec, item);
        const prop = r.payload.find((x) => x.kind === 'string' && [...String(out[x.recordField ?? x.name] ?? '')].length > 1);
        const f = prop && (prop.recordField ?? prop.name);
        if (f) { sent.set(out, [f, out[f]]); out[f] = [...out[f]].slice(0, -1).join(''); }
        return out;
      },
      renderWrite(r, rec, next) {
        const out = next(r, rec);
        const s = sent.get(rec);
        if (s) out[s[0]] = s[1];
        return out;
      },
    };
  })()),
  fault('update-answers-old-values', 'lifecycle.update.response', 'update stores the change but answers each record as it was before the update', ((): Partial<FaultHooks> => {
    const old = new WeakMap<Rec, Rec>();
    return {
      afterUpdate(r, rec, item, before, next) { const out = next(r, rec, item, before); old.set(out, before); return out; },
      renderWrite: (r, rec, next) => next(r, old.get(rec) ?? rec),
    };
  })()),
  fault('update-batch-only-first', 'lifecycle.update.changes', 'an update with several items in data changes only the first record; the others keep their values, though all are answered as changed', ((): Partial<FaultHooks> => {
    const answered = new WeakMap<Rec, Rec>();
    let inUpdate = false; // the items of one update are handled in one synchronous run
    return {
      afterUpdate(r, rec, item, before, next) {
        const out = next(r, rec, item, before);
        if (!inUpdate) { inUpdate = true; queueMicrotask(() => { inUpdate = false; }); return out; }
        const kept = { ...before };
        answered.set(kept, out);
        return kept;
      },
      renderWrite: (r, rec, next) => next(r, answered.get(rec) ?? rec),
    };
  })()),

  // §3 Versions
  fault('blog-versions-reversed', 'versions.order', 'blog post versions are listed newest first', {
    orderVersions: (r, v, next) => (r.versionsOrder === 'oldest-first' ? reverse(next(r, v)) : next(r, v)),
  }),
  fault('page-versions-oldest-first', 'versions.order', 'page versions are listed oldest first', {
    orderVersions: (r, v, next) => (r.versionsOrder === 'newest-first' ? reverse(next(r, v)) : next(r, v)),
  }),
  fault('version-number-not-incremented', 'versions.append', 'an update appends a version with the same number as the last one', {
    nextVersion: (v, next) => String(Number(next(v)) - 1),
  }),
  fault('version-content-stale', 'versions.append', 'the version an update appends holds the content from before the update', {
    afterUpdate(r, rec, item, before, next) {
      const out = next(r, rec, item, before);
      const added = Array.isArray(out.versions) ? out.versions[out.versions.length - 1] : undefined;
      if (added) added.content = String(before.content ?? '');
      return out;
    },
  }),
  fault('version-createdon-not-updated', 'versions.append', "the version an update appends carries the createdon of the record's creation, not of the update", {
    afterUpdate(r, rec, item, before, next) {
      const out = next(r, rec, item, before);
      const added = Array.isArray(out.versions) ? out.versions[out.versions.length - 1] : undefined;
      if (added) added.createdon = before.createdon;
      return out;
    },
  }),

  fault('first-version-numbered-0', 'versions.initial', 'a created blog post or page gets its first version numbered 0 (later ones follow on: 1, 2, ...)', {
    afterCreate(r, rec, item, next) {
      const out = next(r, rec, item);
      if (Array.isArray(out.versions)) out.versions = out.versions.map((v: Rec) => ({ ...v, version: '0' }));
      return out;
    },
  }),

  // §5 Authentication
  fault('wrong-key-accepted', 'auth.invalid-key-no-records', 'any non-empty key is accepted', {
    authenticate: (a, next) => (next(a) === 'invalid' ? 'ok' : next(a)),
  }),
  fault('key-from-header-only', 'auth.key-in-body', 'the key is read from an X-Api-Key / Authorization header; the body key is ignored', {
    authenticate(a, next) {
      const h = a.headers['x-api-key'] ?? a.headers['apikey'] ?? a.headers.authorization?.replace(/^Bearer\s+/i, '');
      return next({ ...a, bodyKey: Array.isArray(h) ? h[0] : h });
    },
  }),
  fault('missing-key-accepted', 'auth.missing-key-no-records', 'a request without authentication is served', {
    authenticate: (a, next) => (next(a) === 'missing' ? 'ok' : next(a)),
  }),
  fault('wrong-key-create-succeeds', 'auth.invalid-key-no-change', 'a create or update with a wrong key is carried out, then answered 401 (reads and deletes are still refused)', ((): Partial<FaultHooks> => {
    let wrong = false; // set per request by authenticate; the engine handles a request synchronously
    const refuse = () => new ApiError(401, 'INVALID_KEY', 'the API key is not valid');
    const guard = <A extends unknown[], R>(f: (...a: A) => R) => (...a: A): R => { if (wrong) throw refuse(); return f(...a); };
    return {
      authenticate(a, next) { const v = next(a); wrong = v === 'invalid'; return wrong ? 'ok' : v; },
      renderWrite: (r, rec, next) => { const out = next(r, rec); if (wrong) throw refuse(); return out; },
      renderGet: (r, rec, next) => guard(next)(r, rec),
      count: (m, all, next) => guard(next)(m, all),
      storeObject: (store, next) => guard(next)(store),
      selectDeletes: (ids, all, next) => guard(next)(ids, all),
    };
  })()),

  fault('store-served-to-wrong-key', 'auth.invalid-key-no-records', 'store get ignores the key: a wrong key gets the store object, apikey included (every other operation refuses it)', ((): Partial<FaultHooks> => {
    let wrong = false; // set per request by authenticate; the engine handles a request synchronously
    const refuse = <A extends unknown[], R>(f: (...a: A) => R) => (...a: A): R => {
      if (wrong) throw new ApiError(401, 'INVALID_KEY', 'the API key is not valid');
      return f(...a);
    };
    return {
      authenticate(a, next) { const v = next(a); wrong = v === 'invalid'; return wrong ? 'ok' : v; },
      paginate: (list, p, next) => refuse(next)(list, p),
      count: (m, all, next) => refuse(next)(m, all),
      afterCreate: (r, rec, item, next) => refuse(next)(r, rec, item),
      afterUpdate: (r, rec, item, before, next) => refuse(next)(r, rec, item, before),
      selectDeletes: (ids, all, next) => refuse(next)(ids, all),
    };
  })()),
  fault('delete-without-key-succeeds', 'auth.invalid-key-no-change', 'a delete without authentication is carried out (every other operation refuses a missing key)', ((): Partial<FaultHooks> => {
    let missing = false; // set per request by authenticate; the engine handles a request synchronously
    const refuse = <A extends unknown[], R>(f: (...a: A) => R) => (...a: A): R => {
      if (missing) throw new ApiError(401, 'MISSING_KEY', 'authentication.apiKey is missing');
      return f(...a);
    };
    return {
      authenticate(a, next) { const v = next(a); missing = v === 'missing'; return missing ? 'ok' : v; },
      paginate: (list, p, next) => refuse(next)(list, p),
      count: (m, all, next) => refuse(next)(m, all),
      storeObject: (store, next) => refuse(next)(store),
      afterCreate: (r, rec, item, next) => refuse(next)(r, rec, item),
      afterUpdate: (r, rec, item, before, next) => refuse(next)(r, rec, item, before),
    };
  })()),

  // §5.1 near-miss keys: a key comparison that is not exact on one operation of one resource, for one
  // case of near-miss key; quick runs spread the cases over the resources (each resource sends one or two
  // per operation, the seed moving them), standard and deep send every case everywhere: proven at standard
  fault('near-miss-case-insensitive', 'auth.near-miss-no-records', 'order count compares the key ignoring letter case (a case-insensitive collation on one query); every other operation compares exactly', {
    authenticate: (a, next) => (on('order', 'count') && typeof a.bodyKey === 'string' && a.bodyKey.toLowerCase() === a.serverKey.toLowerCase() ? 'ok' : next(a)),
  }, EVERY_CASE),
  fault('near-miss-trimmed', 'auth.near-miss-no-change', 'coupon update trims spaces off the key before comparing it; every other operation compares exactly', {
    authenticate: (a, next) => (on('coupon', 'update') && typeof a.bodyKey === 'string' && a.bodyKey.trim() === a.serverKey ? 'ok' : next(a)),
  }, EVERY_CASE),
  fault('near-miss-prefix', 'auth.near-miss-no-records', 'blog post get accepts any non-empty beginning of the key (a length-bound compare); every other operation compares exactly', {
    authenticate: (a, next) => (on('blog-post', 'get') && typeof a.bodyKey === 'string' && a.bodyKey.length > 0 && a.serverKey.startsWith(a.bodyKey) ? 'ok' : next(a)),
  }, EVERY_CASE),

  // §5 / §4 Store
  fault('store-without-apikey', 'store.apikey-field', 'store get omits the apikey field', {
    storeObject(store, next) {
      const { apikey: _dropped, ...rest } = next(store);
      return rest;
    },
  }),
  fault('store-returns-array', 'store.single-object', 'store get returns the store object inside an array: [store]', {
    storeObject: (store, next) => [next(store)] as unknown as Rec,
  }),

  fault('store-number-scalar', 'conventions.scalar-strings', 'store get shows its Integer fields (startingordernumber) as JSON numbers', {
    storeObject(store, next) {
      const out = next(store);
      for (const f of resource('store').fields) if (f.kind === 'integer' && typeof out[f.name] === 'string') out[f.name] = Number(out[f.name]);
      return out;
    },
  }),

  // §8 Limits
  fault('truncate-at-200', 'limits.string-255', 'String values over 200 characters are silently cut to 200', {
    inputString: (v, max, next) => next(v.length > 200 ? v.slice(0, 200) : v, max),
  }),
  fault('emoji-mangled', 'limits.text-encoding', 'characters outside the BMP (emoji) are stored as U+FFFD', {
    inputString: (v, max, next) => next(v.replace(/[\u{10000}-\u{10FFFF}]/gu, '\uFFFD'), max),
  }),
  fault('integer-11-digit-overflow', 'limits.integer-11-digits', 'create stores Integer values as signed 32-bit numbers (99999999999 wraps to 1215752191)', {
    afterCreate(r, rec, item, next) {
      for (const p of r.payload) if (p.kind === 'integer' && /^-?[0-9]+$/.test(String(rec[p.name]))) rec[p.name] = String(BigInt.asIntN(32, BigInt(rec[p.name])));
      return next(r, rec, item);
    },
  }),
  fault('decimal-rounded-1', 'limits.decimal-digits', 'create stores Decimal values rounded to 1 decimal', {
    afterCreate(r, rec, item, next) {
      for (const p of r.payload) if (p.kind === 'decimal' && rec[p.name] != null) rec[p.name] = Number(String(rec[p.name]).replace(',', '.')).toFixed(1);
      return next(r, rec, item);
    },
  }),

  fault('string-255-rejected', 'limits.string-255', 'a String value of exactly 255 characters is rejected with 400 (the limit is off by one: 254)', {
    inputString(v, max, next) {
      if (max === TEXT_MAX_LENGTH && [...v].length === max) throw new ApiError(400, 'VALIDATION_FAILED', `invalid data: must NOT have more than ${max - 1} characters`);
      return next(v, max);
    },
  }),
  fault('page-content-cut-at-65000', 'limits.page-content-65535', 'page content longer than 65000 characters is silently cut to 65000', {
    // the page content is the String whose limit is above the common one (§8: 65535 characters)
    inputString: (v, max, next) => next((max ?? 0) > TEXT_MAX_LENGTH && v.length > 65000 ? [...v].slice(0, 65000).join('') : v, max),
  }),
  fault('accents-mangled', 'limits.text-encoding', "non-ASCII text is stored re-decoded as Latin-1 (mojibake): 'é' comes back as 'Ã©'", {
    inputString: (v, max, next) => next(/[^\x00-\x7f]/.test(v) ? Buffer.from(v, 'utf8').toString('latin1') : v, max),
  }),

  // §3, §4 sequences and concurrency: each local to one resource, shown by sequences or by overlapping requests
  fault('update-lost-concurrent', 'concurrency.updates', 'a collection update reads the record, pauses 40 ms, then writes it back with its change: an update landing meanwhile is lost', {}, {
    stale: { resource: 'collection', part: 'record', pauseMs: 40 },
  }),
  fault('version-number-stale', 'concurrency.updates', 'a page update numbers its version from the versions it read 40 ms earlier: overlapping updates append the same number twice', {}, {
    stale: { resource: 'page', part: 'version-number', pauseMs: 40 },
  }),
  fault('create-ids-from-stale-counter', 'concurrency.creates', 'a coupon create numbers its ids from the record count it read 40 ms earlier: creates landing together answer the same ids', {}, {
    stale: { resource: 'coupon', part: 'id-counter', pauseMs: 40 },
  }),
  fault('walk-repeats-after-delete', 'concurrency.delete-walk', 'for 3 s after a blog post delete, pages start as many records too early as were deleted (a cursor that compensates twice): a walk under way lists records again', {
    selectDeletes(ids, all, next) {
      const doomed = next(ids, all);
      if (handling('blog-post') && doomed.size) lastDelete = { at: Date.now(), count: doomed.size };
      return doomed;
    },
    paginate(list, p, next) {
      if (!handling('blog-post') || Date.now() - lastDelete.at > 3_000) return next(list, p);
      const size = Math.min(p.pageSize, p.cap);
      const start = Math.max(0, p.pageIndex * size - lastDelete.count);
      return list.slice(start, start + size);
    },
  }),
  fault('count-lags-creates', 'concurrency.count', 'the coupon count leaves out coupons created in the last 10 s (a count cache), while get shows them at once', {
    afterCreate(r, rec, item, next) {
      const out = next(r, rec, item);
      if (r.name === 'coupon') born.set(String(out.id).toLowerCase(), Date.now());
      return out;
    },
    count(matched, all, next) {
      if (!handling('coupon')) return next(matched, all);
      const now = Date.now();
      return next(matched.filter((x) => now - (born.get(String(x.id).toLowerCase()) ?? 0) >= 10_000), all);
    },
  }),
  fault('delete-undone-by-update', 'model.sequence', 'an update naming a category deleted earlier brings it back, with the update applied', {
    selectDeletes(ids, all, next) {
      const doomed = next(ids, all);
      if (handling('category')) for (const rec of all) if (doomed.has(String(rec.id).toLowerCase())) tombs.set(String(rec.id).toLowerCase(), structuredClone(rec));
      return doomed;
    },
    updateTarget(r, id, current, next) {
      return next(r, id, current) ?? (r.name === 'category' ? tombs.get(id.toLowerCase()) : undefined);
    },
  }),
  fault('update-batch-leak', 'model.sequence', "in a product update of several items, the last item's first text value also lands in the first item's record", {
    afterUpdate(r, rec, item, before, next) {
      const out = next(r, rec, item, before);
      const data = requestContext()?.body.data;
      if (r.name !== 'product' || !Array.isArray(data) || data.length < 2 || String(data[0]?.id) !== String(item.id)) return out;
      const last = data[data.length - 1];
      const p = r.payload.find((x) => x.kind === 'string' && !x.unique && typeof last?.[x.name] === 'string') ?? r.payload.find((x) => x.kind === 'string' && typeof last?.[x.name] === 'string');
      if (p) out[p.recordField ?? p.name] = last[p.name];
      return out;
    },
  }),

  // observed behaviour ("not shown" choices applied consistently)
  fault('customers-newest-first', 'observe.consistent', 'customers are listed newest first while every other resource keeps the default order', {
    paginate: (list, p, next) => next(list[0] && 'birthdate' in list[0] ? reverse(list) : list, p),
  }),
  // invariants of every answer, broken where no check looks on purpose (src/check/invariants)
  fault('duplicate-with-second-key', 'invariants.ids-unique', 'product get with two or more filter keys lists the first record of its page twice (at the end); count and every other get are right', {
    paginate(list, p, next) {
      const page = next(list, p);
      return on('product', 'get') && filterKeys().length >= 2 && page.length ? [...page, page[0]] : page;
    },
  }),
  fault('unmatched-without-id-filter', 'invariants.filter-satisfied', 'coupon get filtered by code without an id filter also lists, after its page, the first stored coupon the filter leaves out (count and every get with an id filter are right)', ((): Partial<FaultHooks> => {
    let stray: Rec | undefined; // the first coupon the code filter left out, of the request being handled
    return {
      condition(site, next) {
        const test = next(site);
        if (!(site.resource.name === 'coupon' && site.op === 'get' && site.key === 'code' && !filterKeys().includes('id'))) return test;
        stray = undefined;
        return (rec) => {
          const ok = test(rec);
          if (!ok && !stray) stray = rec;
          return ok;
        };
      },
      paginate(list, p, next) {
        const page = next(list, p);
        const extra = stray;
        stray = undefined;
        return extra && on('coupon', 'get') ? [...page, extra] : page;
      },
    };
  })()),
  // a reading of stack defaults applied in one place only (docs/stack-defaults.md): the rest of the store keeps spaces at the edges
  fault('trims-product-names', 'lifecycle.create.round-trip', 'product create and update store the name trimmed of spaces at its edges (Laravel-style TrimStrings on one field); every other property and resource stores strings as sent', {
    afterCreate(r, rec, item, next) {
      const out = next(r, rec, item);
      if (r.name === 'product' && typeof out.name === 'string') out.name = out.name.trim();
      return out;
    },
    afterUpdate(r, rec, item, before, next) {
      const out = next(r, rec, item, before);
      if (r.name === 'product' && typeof out.name === 'string') out.name = out.name.trim();
      return out;
    },
  }),
  fault('page-update-skips-empty', 'lifecycle.update.changes', "page update leaves a String unchanged when its new value is '' (PHP's empty() taken for 'not supplied'); create, and every other resource's update, store ''", {
    afterUpdate(r, rec, item, before, next) {
      const out = next(r, rec, item, before);
      if (r.name !== 'page') return out;
      for (const p of r.payload) if (p.kind === 'string' && item[p.name] === '') out[p.recordField ?? p.name] = before[p.recordField ?? p.name];
      return out;
    },
  }),
  fault('leading-zeros-to-zero-on-products', 'lifecycle.create.round-trip', "product create and update store an Integer written with leading zeros ('007') as 0 (PHP's (int) filter_var($v, FILTER_VALIDATE_INT): false, then 0); every other resource takes it as the number", ((): Partial<FaultHooks> => {
    const zeroed = (r: Parameters<FaultHooks['afterCreate']>[0], out: Rec, item: Rec) => {
      if (r.name !== 'product') return out;
      for (const p of r.payload) if (p.kind === 'integer' && /^-?0[0-9]/.test(String(item[p.name] ?? ''))) out[p.recordField ?? p.name] = '0';
      return out;
    };
    return {
      afterCreate: (r, rec, item, next) => zeroed(r, next(r, rec, item), item),
      afterUpdate: (r, rec, item, before, next) => zeroed(r, next(r, rec, item, before), item),
    };
  })()),
  fault('integer-leading-zeros-octal', 'lifecycle.create.round-trip', "create and update read an Integer written with leading zeros as octal ('010' stored as 8: PHP's intval($v, 0), C's strtol with base 0); '007' is 7 either way, so a probe writing it sees leading zeros taken", ((): Partial<FaultHooks> => {
    const octal = (r: Parameters<FaultHooks['afterCreate']>[0], out: Rec, item: Rec) => {
      for (const p of r.payload) {
        const sent = String(item[p.name] ?? '');
        if (p.kind === 'integer' && /^-?0[0-7]+$/.test(sent)) out[p.recordField ?? p.name] = String(parseInt(sent, 8));
      }
      return out;
    };
    return {
      afterCreate: (r, rec, item, next) => octal(r, next(r, rec, item), item),
      afterUpdate: (r, rec, item, before, next) => octal(r, next(r, rec, item, before), item),
    };
  })()),
  fault('product-tags-merged', 'lifecycle.create.round-trip', 'product create and update store tags as a set (a tag listed twice kept once); blog posts keep every tag sent', ((): Partial<FaultHooks> => {
    const merged = (r: Parameters<FaultHooks['afterCreate']>[0], out: Rec) => {
      if (r.name !== 'product' || !Array.isArray(out.tags)) return out;
      const seen = new Set<string>();
      out.tags = out.tags.filter((x: Rec) => !seen.has(String(x?.tag)) && !!seen.add(String(x?.tag)));
      return out;
    };
    return storedAs(merged);
  })()),
  fault('order-customerid-version-4', 'filters.array', "the order customerid filter refuses a GUID that is not version 4 (400: the max GUID), where the store's other GUID filters take any", {
    condition(site, next) {
      const wanted = Array.isArray(site.value) ? site.value.map(String) : [];
      const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
      const bad = wanted.find((x) => x !== ZERO_GUID && !v4.test(x));
      if (site.resource.name === 'order' && site.key === 'customerid' && bad) throw new ApiError(400, 'VALIDATION_FAILED', `invalid filters: customerid: ${bad} is not a version-4 UUID`);
      return next(site);
    },
  }),
  fault('coupon-dates-clamped', 'lifecycle.create.round-trip', "coupon create and update store a startdate or enddate outside a TIMESTAMP column's range at its edge (1970-01-01 00:00:01, 2038-01-19 03:14:07), where the store's other DateTimes keep every year", ((): Partial<FaultHooks> => {
    const edges = ['1970-01-01 00:00:01', '2038-01-19 03:14:07'] as const;
    const clamped = (r: Parameters<FaultHooks['afterCreate']>[0], out: Rec) => {
      if (r.name !== 'coupon') return out;
      for (const f of ['startdate', 'enddate']) {
        const v = String(out[f] ?? '');
        if (v && v < edges[0]) out[f] = edges[0];
        else if (v > edges[1]) out[f] = edges[1];
      }
      return out;
    };
    return storedAs(clamped);
  })()),
  // the mirror of date-only-whole-day:order.createdon_max: a whole-day store with one key reading the day's midnight, the
  // key of the first field the filters.dateOnlyBound probe asks (read-only, most records): the other fields outvote it
  fault('order-createdon-max-midnight', 'filters.date-only-bound', "the store reads a date-only bound of a DateTime range filter as the whole day (DATE(column), inclusive), but order createdon_max compares the column with the date's midnight", {
    condition(site, next) {
      const bound = String(Array.isArray(site.value) ? site.value[0] : site.value);
      if (site.filter !== 'range' || site.kind !== 'datetime' || !DATE_PATTERN.test(bound)) return next(site);
      const at = (rec: Rec) => (typeof rec[site.field] === 'string' ? String(rec[site.field]) : undefined);
      if (site.resource.name === 'order' && site.key === 'createdon_max') return (rec) => (at(rec) ?? '\uffff') <= `${bound} 00:00:00`;
      const day = (rec: Rec) => at(rec)?.slice(0, 10);
      return site.bound === 'min' ? (rec) => (day(rec) ?? '') >= bound : (rec) => (day(rec) ?? '\uffff') <= bound;
    },
  }),
  // the store keeps combining sequences as sent (text.normalization 'kept') but for one field, normalized on its way in
  fault('product-name-stored-nfc', 'lifecycle.create.round-trip', "product create and update store the name NFC-normalized (e + U+0301 becomes é: a Normalizer::normalize on one field); every other property and resource stores strings as sent", ((): Partial<FaultHooks> => {
    const nfc = (r: Parameters<FaultHooks['afterCreate']>[0], out: Rec) => {
      if (r.name === 'product' && typeof out.name === 'string') out.name = out.name.normalize('NFC');
      return out;
    };
    return storedAs(nfc);
  })()),
  // the store's filters tell canonical equivalents apart (collation.normalization 'sensitive') but for one key
  fault('product-vendor-canonical-equivalents', 'filters.array', 'the product vendor filter compares canonically equivalent strings as equal (e + U+0301 finds é: a column under a nondeterministic ICU collation); every other String filter compares code points', {
    condition(site, next) {
      if (site.resource.name !== 'product' || site.key !== 'vendor' || site.filter !== 'array') return next(site);
      const wanted = new Set((Array.isArray(site.value) ? site.value : [site.value]).map((w) => String(w).normalize('NFC')));
      return (rec) => typeof rec.vendor === 'string' && wanted.has(rec.vendor.normalize('NFC'));
    },
  }),
  // its mirror: every String filter equates canonical equivalents (the probe's collection name among them) but one
  fault('product-vendor-code-points', 'filters.array', 'String filters compare canonically equivalent strings as equal (a nondeterministic ICU collation), but the product vendor filter compares code points (a column left under a deterministic collation)', {
    condition(site, next) {
      if (site.filter !== 'array' || site.kind !== 'string' || (site.resource.name === 'product' && site.key === 'vendor')) return next(site);
      const wanted = new Set((Array.isArray(site.value) ? site.value : [site.value]).map((w) => String(w).normalize('NFC')));
      return (rec) => typeof rec[site.field] === 'string' && wanted.has(String(rec[site.field]).normalize('NFC'));
    },
  }),
  // §2 Shipping method: realtime is {} when the method is not a real-time one, otherwise it holds provider, key, …
  fault('realtime-emptied', 'conventions.record-schema', "get shows a real-time shipping method's realtime as {} (§2: a REALTIME method's realtime holds provider, key, keyPassword, accountNumber, meterNumber, serverType)", {
    renderGet(r, rec, next) {
      const out = next(r, rec);
      if (r.name === 'shipping-method' && out.type === 'REALTIME') out.realtime = {};
      return out;
    },
  }),
  // a store whose Predefined filters match nothing for a value they do not know, but one of whose filter models is
  // enum-typed: a departure from the store's own reading — on a key the unknown-value probe asks among others
  // (coupon type), and on the key it asks first (product type), which the other keys' answers outvote
  fault('coupon-type-refuses-unknown', 'filters.array', 'Predefined filters answer a value outside the enumeration with no record, but the coupon type filter refuses it with 400 (one filter model enum-typed)', refusesUnknownValues('coupon', 'type')),
  fault('product-type-refuses-unknown', 'filters.array', 'Predefined filters answer a value outside the enumeration with no record, but the product type filter (the first the unknown-value probe asks) refuses it with 400', refusesUnknownValues('product', 'type')),
  // page numbers whose written length changes (docs/value-classes.md "page walks"), on read-only resources: only a
  // walk of 10 pages or more shows them, and the run cannot add records there
  fault('order-page-number-one-digit', 'pagination.partition', 'order get reads pagination.pageNumber with a one-digit pattern (/[0-9]/ where /[0-9]+/ was meant): pages 10 to 19 are served as page 1; order pages 1 to 9, and every other resource, are right', {
    paginate(list, p, next) {
      const sent = String(requestContext()?.body.pagination?.pageNumber ?? '').trim();
      const digit = /[0-9]/.exec(sent);
      if (!on('order', 'get') || !digit || !/^[0-9]+$/.test(sent)) return next(list, p);
      const first = Number(sent) - p.pageIndex; // the store's first page number (0 or 1)
      return next(list, { ...p, pageIndex: Math.max(0, Number(digit[0]) - first) });
    },
  }),
  fault('country-two-digit-page-short', 'pagination.partition', 'country get drops the last record of a page whose number is written with two digits or more (page 10 on); pages 1 to 9, and every other resource, are right', {
    paginate(list, p, next) {
      const page = next(list, p);
      const sent = String(requestContext()?.body.pagination?.pageNumber ?? '').trim();
      return on('country', 'get') && sent.length >= 2 && page.length ? page.slice(0, -1) : page;
    },
  }),
  // page content's limit counted in characters (limits.longTextUnit 'characters') on one write path and not the other, or
  // counted in bytes at another size: the limit check judges 65535 multi-byte characters in create and update alike
  fault('page-content-update-cut-at-65535-bytes', 'limits.page-content-65535', 'page create keeps content of 65535 multi-byte characters, page update cuts it where 65535 UTF-8 bytes end (the update path writes through a TEXT column)', {
    inputString: (v, max, next) => next((max ?? 0) > TEXT_MAX_LENGTH && requestContext()?.op === 'update' ? utf8Cut(v, max!) : v, max),
  }),
  fault('page-content-create-cut-at-65535-bytes', 'limits.page-content-65535', 'page create cuts content where 65535 UTF-8 bytes end (a TEXT column outside strict mode), page update keeps 65535 multi-byte characters (the update path writes through a MEDIUMTEXT)', {
    inputString: (v, max, next) => next((max ?? 0) > TEXT_MAX_LENGTH && requestContext()?.op === 'create' ? utf8Cut(v, max!) : v, max),
  }),
  fault('page-content-cut-at-100000-bytes', 'limits.page-content-65535', 'page content is cut where 100 000 UTF-8 bytes end (a column sized for the limit at about 1.5 bytes a character): 65535 ASCII characters, and 65535 characters in 65536 bytes, are kept; 65535 multi-byte characters are not', {
    inputString: (v, max, next) => next((max ?? 0) > TEXT_MAX_LENGTH ? utf8Cut(v, 100_000) : v, max),
  }),
];

const BY_NAME = new Map(FAULTS.map((f) => [f.name, f]));

export function faultNames(): string[] {
  return FAULTS.map((f) => f.name);
}

/** A hand-written fault, or a local one of the generated catalogue (faults-generated.ts, `<family>:<resource>.<subject>`). */
export function getFault(name: string): Fault {
  const f = BY_NAME.get(name) ?? findLocalFault(name);
  if (!f) throw new Error(`unknown fault "${name}" (hand-written: ${faultNames().join(', ')}; generated: <family>:<resource>.<subject>, see reference/faults-generated.ts)`);
  return f;
}
