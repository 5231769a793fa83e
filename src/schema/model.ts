/**
 * The schema model: loads schemas/*.schema.json once and exposes, per resource,
 * what every other part needs (validators, field kinds, filters, payload
 * constraints). Nothing else in the project lists fields by hand; it asks here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileAll, createAjv, type JsonSchema, type Validator, type ValidationResult } from './ajv.js';
import { RESOURCE_ORDER } from './resource-order.js';

export const SCHEMA_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

export type Operation = 'get' | 'count' | 'create' | 'update' | 'delete';
export type ScalarKind =
  | 'guid' | 'string' | 'predefined' | 'integer' | 'decimal' | 'boolean' | 'datetime' | 'date';
export type DefName = 'Record' | 'WriteRecord' | 'Payload' | 'UpdatePayload' | 'Filters';

/** "Decimal (8 digits, 2 decimals)" (§8): `digits` as the x-decimal keyword states it, `scale` decimals. */
export interface DecimalLimit { digits: number; scale: number }

/**
 * How "8 digits, 2 decimals" counts its digits — the spec does not say (§8):
 * 'integer digits': 8 before the decimal point (largest 99999999.99);
 * 'digits in all': 8 in all, 2 of them decimals, as SQL DECIMAL(8,2) (largest 999999.99).
 * The observation limits.decimalDigits says which one a target takes.
 */
export type DecimalReading = 'integer digits' | 'digits in all';
export const DECIMAL_READINGS: readonly DecimalReading[] = ['integer digits', 'digits in all'];

/** A limit as digits before the decimal point under one reading. */
export function decimalLimitUnder(limit: DecimalLimit, reading: DecimalReading): DecimalLimit {
  return reading === 'digits in all' ? { digits: Math.max(0, limit.digits - limit.scale), scale: limit.scale } : limit;
}

/** What every reading accepts: where ordinary generated values stay (the limits themselves are probed apart). */
export function decimalLimitOfEveryReading(limit: DecimalLimit): DecimalLimit {
  return decimalLimitUnder(limit, 'digits in all');
}

/** A field of a record (get or write form), resolved through $ref. */
export interface FieldModel {
  name: string;
  /** scalar kind, or 'array' / 'object' for sub-lists and sub-objects */
  kind: ScalarKind | 'array' | 'object' | 'any';
  /** decimal separator required in this form: '.', ',' or 'either' */
  separator?: '.' | ',' | 'either';
  /** boolean form: 'get' ('true'/'false') or 'write' ('1'/'0') */
  booleanForm?: 'get' | 'write';
  required: boolean;
  knownValues?: string[];
  /** a documented quirk, e.g. product write `size` is always '0' */
  quirk?: { const: string; note: string };
  /** for arrays of objects: the item's fields */
  itemFields?: FieldModel[];
  /** for arrays of scalars: the item's kind */
  itemKind?: ScalarKind | 'any';
  /** for objects: the object's fields */
  objectFields?: FieldModel[];
  schema: JsonSchema;
}

/** One key of the filters object (§4 Filter naming). */
export interface FilterModel {
  key: string;
  /** array: field equals any listed value; range: `_min`/`_max` bound; boolean: 'true'/'false' */
  filter: 'array' | 'range' | 'boolean';
  /** the record field it filters */
  field: string;
  bound?: 'min' | 'max';
  /** kind of the values it takes */
  valueKind: ScalarKind;
  decimal?: DecimalLimit;
  integerDigits?: number;
  /** range filters typed as Decimal[] in the spec accept an array too */
  acceptsArray?: boolean;
  /** a documented alternative key (page `name` for `title`) */
  aliasOf?: string;
  maxLength?: number;
  schema: JsonSchema;
}

/** One property of a create/update payload item (§4 Create and update payloads). */
export interface PayloadPropModel {
  name: string;
  kind: ScalarKind | 'list';
  itemKind?: ScalarKind;
  required: boolean;
  maxLength?: number;
  decimal?: DecimalLimit;
  integerDigits?: number;
  knownValues?: string[];
  /** unique per record in practice (slug, code...): carries the run tag */
  unique?: boolean;
  /** must reference an existing record of this resource */
  references?: string;
  /** the record field this property shows up as (categoryid -> categories) */
  recordField?: string;
  /** the only value a run sends (page homepage 'false': 'true' would demote the store's real homepage) */
  safeValue?: string;
  schema: JsonSchema;
}

export interface ResourceModel {
  /** stable id: product, blog-post, ... */
  name: string;
  title: string;
  prefix: string;
  operations: Operation[];
  /** records carry author and createdon (§2 Conventions) */
  audit: boolean;
  /** store: get returns one object */
  single: boolean;
  /** a documented count path other than `${prefix}/count` (users, §4) */
  documentedCountPath?: string;
  /** versions ordering for blog posts and pages (§3) */
  versionsOrder?: 'oldest-first' | 'newest-first';
  writable: boolean;
  file: string;
  fields: FieldModel[];
  writeFields: FieldModel[];
  filters: FilterModel[];
  payload: PayloadPropModel[];
  schemaId: string;
}

export type { JsonSchema } from './ajv.js';

interface LoadedSchemas {
  byId: Map<string, JsonSchema>;
  resources: ResourceModel[];
  validators: Map<string, Validator>;
}

let cache: LoadedSchemas | undefined;

function readAll(): JsonSchema[] {
  return readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(SCHEMA_DIR + f, 'utf8')) as JsonSchema);
}

/** Resolve a local or cross-file $ref ("common.schema.json#/$defs/Guid", "#/$defs/X"). */
function resolveRef(byId: Map<string, JsonSchema>, base: string, ref: string): { schema: JsonSchema; base: string } {
  const [file, pointer = ''] = ref.split('#');
  const docId = file ? file : base;
  const doc = byId.get(docId);
  if (!doc) throw new Error(`schema ${base}: unresolvable $ref ${ref}`);
  let node: any = doc;
  for (const part of pointer.split('/').filter(Boolean)) {
    node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (node === undefined) throw new Error(`schema ${base}: unresolvable $ref ${ref}`);
  return { schema: node, base: docId };
}

/** Merge a node with everything its $ref chain points at; the node's own keywords win. */
export function deref(byId: Map<string, JsonSchema>, base: string, node: JsonSchema): { schema: JsonSchema; base: string } {
  let merged: JsonSchema = { ...node };
  let curBase = base;
  let guard = 0;
  while (merged.$ref && guard++ < 20) {
    const { $ref, ...own } = merged;
    const target = resolveRef(byId, curBase, $ref);
    curBase = target.base;
    merged = { ...target.schema, ...own };
    if (target.schema.$ref) merged.$ref = target.schema.$ref;
    else delete merged.$ref;
  }
  return { schema: merged, base: curBase };
}

function fieldsOf(byId: Map<string, JsonSchema>, base: string, objSchema: JsonSchema): FieldModel[] {
  const { schema: obj, base: objBase } = deref(byId, base, objSchema);
  const required = new Set<string>(obj.required ?? []);
  return Object.entries<JsonSchema>(obj.properties ?? {}).map(([name, raw]) => {
    const { schema, base: b } = deref(byId, objBase, raw);
    const f: FieldModel = { name, kind: 'any', required: required.has(name), schema };
    if (schema.type === 'array') {
      f.kind = 'array';
      if (schema.items) {
        const item = deref(byId, b, schema.items);
        if (item.schema.type === 'object') f.itemFields = fieldsOf(byId, b, schema.items);
        else f.itemKind = (item.schema['x-kind'] as ScalarKind) ?? 'any';
      }
    } else if (schema.type === 'object') {
      f.kind = 'object';
      f.objectFields = fieldsOf(byId, b, raw);
    } else if (schema['x-kind']) {
      f.kind = schema['x-kind'];
      if (schema['x-separator']) f.separator = schema['x-separator'];
      if (schema['x-form']) f.booleanForm = schema['x-form'];
    }
    if (schema['x-known-values']) f.knownValues = schema['x-known-values'];
    if (schema['x-quirk']) f.quirk = schema['x-quirk'];
    return f;
  });
}

function filtersOf(byId: Map<string, JsonSchema>, base: string, filtersSchema: JsonSchema | undefined): FilterModel[] {
  if (!filtersSchema) return [];
  return Object.entries<JsonSchema>(filtersSchema.properties ?? {}).map(([key, raw]) => {
    const { schema, base: b } = deref(byId, base, raw);
    const kind = schema['x-filter'] as FilterModel['filter'];
    if (!kind) throw new Error(`schema ${base}: filter ${key} lacks x-filter`);
    const m = /^(.*)_(min|max)$/.exec(key);
    const bound = kind === 'range' ? (m?.[2] as 'min' | 'max') : undefined;
    if (kind === 'range' && !bound) throw new Error(`schema ${base}: range filter ${key} must end in _min or _max`);
    const field = schema['x-field'] ?? (kind === 'range' ? m![1] : key);
    let valueSchema = schema;
    let acceptsArray = false;
    if (schema.type === 'array') valueSchema = deref(byId, b, schema.items).schema;
    if (schema.anyOf) {
      acceptsArray = true;
      const scalar = schema.anyOf.find((s: JsonSchema) => deref(byId, b, s).schema.type !== 'array');
      valueSchema = deref(byId, b, scalar).schema;
    }
    const f: FilterModel = {
      key, filter: kind, field, bound,
      valueKind: valueSchema['x-kind'] as ScalarKind,
      schema,
    };
    if (schema['x-decimal']) f.decimal = schema['x-decimal'];
    const intLimit = schema['x-integer'] ?? valueSchema['x-integer'];
    if (intLimit && f.valueKind === 'integer') f.integerDigits = intLimit.digits;
    if (acceptsArray) f.acceptsArray = true;
    if (schema['x-field'] && kind !== 'range') f.aliasOf = schema['x-field'];
    if (valueSchema.maxLength) f.maxLength = valueSchema.maxLength;
    return f;
  });
}

function payloadOf(byId: Map<string, JsonSchema>, base: string, payloadSchema: JsonSchema | undefined): PayloadPropModel[] {
  if (!payloadSchema) return [];
  const required = new Set<string>(payloadSchema.required ?? []);
  return Object.entries<JsonSchema>(payloadSchema.properties ?? {})
    .filter(([name]) => name !== 'id')
    .map(([name, raw]) => {
      const { schema, base: b } = deref(byId, base, raw);
      const p: PayloadPropModel = { name, kind: 'string', required: required.has(name), schema };
      if (schema.type === 'array') {
        p.kind = 'list';
        const item = deref(byId, b, schema.items).schema;
        p.itemKind = item['x-kind'];
        if (item.maxLength) p.maxLength = item.maxLength;
      } else {
        p.kind = schema['x-kind'];
        if (schema.maxLength) p.maxLength = schema.maxLength;
      }
      if (schema['x-decimal']) p.decimal = schema['x-decimal'];
      if (schema['x-integer']) p.integerDigits = schema['x-integer'].digits;
      if (schema['x-known-values']) p.knownValues = schema['x-known-values'];
      if (schema['x-unique']) p.unique = true;
      if (schema['x-references']) p.references = schema['x-references'];
      if (schema['x-safe-value'] !== undefined) p.safeValue = schema['x-safe-value'];
      p.recordField = schema['x-record-field'] ?? name;
      return p;
    });
}

function load(): LoadedSchemas {
  if (cache) return cache;
  const docs = readAll();
  const byId = new Map(docs.map((d) => [d.$id as string, d]));
  const resources: ResourceModel[] = [];
  for (const doc of docs) {
    const meta = doc['x-resource'];
    if (!meta) continue;
    const id = doc.$id as string;
    const defs = doc.$defs ?? {};
    const writable = meta.operations.includes('create');
    resources.push({
      name: meta.name,
      title: meta.title,
      prefix: meta.prefix,
      operations: meta.operations,
      audit: meta.audit === true,
      single: meta.single === true,
      documentedCountPath: meta.documentedCountPath,
      versionsOrder: meta.versionsOrder,
      writable,
      file: id,
      schemaId: id,
      fields: fieldsOf(byId, id, defs.Record),
      writeFields: defs.WriteRecord ? fieldsOf(byId, id, defs.WriteRecord) : [],
      filters: filtersOf(byId, id, defs.Filters),
      payload: payloadOf(byId, id, defs.Payload),
    });
  }
  resources.sort((a, b) => RESOURCE_ORDER.indexOf(a.name) - RESOURCE_ORDER.indexOf(b.name));
  cache = { byId, resources, validators: new Map() };
  return cache;
}

/** The ajv instance holding every schema, made on first use (the model alone needs none). */
function ajvOf(l: LoadedSchemas): any {
  return ((l as any).ajv ??= createAjv([...l.byId.values()]));
}

/** Compile every definition of every schema now; returns how many (tests: a broken schema fails here). */
export function compileAllSchemas(): number {
  const l = load();
  return compileAll(ajvOf(l), l.byId.values());
}

export function resources(): ResourceModel[] {
  return load().resources;
}

export function resource(name: string): ResourceModel {
  const r = load().resources.find((x) => x.name === name);
  if (!r) throw new Error(`unknown resource "${name}" (known: ${load().resources.map((x) => x.name).join(', ')})`);
  return r;
}

export function schemaDocs(): Map<string, JsonSchema> {
  return load().byId;
}

/** A compiled validator for one definition of a resource schema, e.g. ('product', 'Record'). */
export function validator(resourceName: string, def: DefName | string): Validator {
  const l = load();
  const r = resource(resourceName);
  const key = `${r.schemaId}#/$defs/${def}`;
  let v = l.validators.get(key);
  if (!v) {
    const fn = ajvOf(l).getSchema(key);
    if (!fn) throw new Error(`schema ${r.schemaId} has no $defs/${def}`);
    v = (value: unknown): ValidationResult =>
      fn(value) ? { ok: true, errors: [] } : { ok: false, errors: (fn.errors ?? []).map(formatAjvError) };
    l.validators.set(key, v);
  }
  return v;
}

/** A validator for a definition of common.schema.json, e.g. 'CountResponse'. */
export function commonValidator(def: string): Validator {
  const l = load();
  const key = `common.schema.json#/$defs/${def}`;
  let v = l.validators.get(key);
  if (!v) {
    const fn = ajvOf(l).getSchema(key);
    if (!fn) throw new Error(`common.schema.json has no $defs/${def}`);
    v = (value: unknown): ValidationResult =>
      fn(value) ? { ok: true, errors: [] } : { ok: false, errors: (fn.errors ?? []).map(formatAjvError) };
    l.validators.set(key, v);
  }
  return v;
}

function formatAjvError(e: { instancePath: string; message?: string; params?: any }): string {
  const where = e.instancePath || '(root)';
  const extra = e.params?.allowedValues ? ` ${JSON.stringify(e.params.allowedValues)}` : '';
  return `${where} ${e.message ?? 'is invalid'}${extra}`;
}
