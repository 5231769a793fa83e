/**
 * The schema model: built from a list of schema documents (by default
 * schemas/*.schema.json, read once) and exposing, per resource, what every
 * other part needs (validators, field kinds, filters, payload constraints,
 * date pairs, the order deletes go in), and the spec facts every resource
 * shares (the get cap, the string and integer limits, the all-zero GUID, the
 * response forms of GUIDs and dates), read from common.schema.json. Nothing
 * else in the project lists fields or restates a limit by hand; it asks here.
 */
import { compileAll, createAjv, type Validator, type ValidationResult } from './ajv.js';
import { defaultSchemaDocuments, documentById, resourceOrderOf, type JsonSchema } from './sources.js';

export { SCHEMA_DIR, type JsonSchema } from './sources.js';

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
  /** its row in the §1 table: reports and the model list resources in this order */
  position: number;
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
  /**
   * DateTime payload properties that read as a period, start first
   * (x-date-pairs of the Payload: coupon startdate/enddate, blog post
   * visibledate/visibledateend): generated values keep start ≤ end.
   */
  datePairs: Array<[start: string, end: string]>;
  /** the resources whose ids its payload holds (x-references), in payload order */
  references: string[];
  schemaId: string;
}

// ------------------------------------------------------------------ facts every resource shares

/**
 * The spec facts of common.schema.json that hold for every resource, for the
 * code that needs them as values (a limit to generate at, a cap to compare
 * with, a form to test a value against).
 */
export interface SpecFacts {
  /** §4 Common rules, §8 Limits: a get returns at most this many records (GetResponse maxItems) */
  getCap: number;
  /** §8 Limits: most String properties hold at most this many characters (InText maxLength) */
  textMaxLength: number;
  /** §8 Limits: Integer fields and filters have at most this many digits (InInteger x-integer) */
  integerDigits: number;
  /** §2 Conventions: what an unset reference field can hold (ZeroGuid) */
  zeroGuid: string;
  /** §2 Conventions: a GUID, a response DateTime, a customer birthdate (Guid, DateTime, Date patterns) */
  guidPattern: RegExp;
  dateTimePattern: RegExp;
  datePattern: RegExp;
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`common.schema.json: ${what} is missing`);
  return value;
}

/** The shared facts, read from a list's common.schema.json. */
export function specFactsOf(docs: readonly JsonSchema[]): SpecFacts {
  const defs = documentById(docs, 'common.schema.json').$defs ?? {};
  return {
    getCap: need<number>(defs.GetResponse?.maxItems, '$defs/GetResponse maxItems (the get cap)'),
    textMaxLength: need<number>(defs.InText?.maxLength, '$defs/InText maxLength'),
    integerDigits: need<number>(defs.InInteger?.['x-integer']?.digits, '$defs/InInteger x-integer digits'),
    zeroGuid: need<string>(defs.ZeroGuid?.const, '$defs/ZeroGuid const'),
    guidPattern: new RegExp(need<string>(defs.Guid?.pattern, '$defs/Guid pattern')),
    dateTimePattern: new RegExp(need<string>(defs.DateTime?.pattern, '$defs/DateTime pattern')),
    datePattern: new RegExp(need<string>(defs.Date?.pattern, '$defs/Date pattern')),
  };
}

/** The facts of the project's schemas (schemas/common.schema.json). */
export const SPEC_FACTS: Readonly<SpecFacts> = Object.freeze(specFactsOf(defaultSchemaDocuments()));
/** §4 Common rules, §8 Limits: a get returns at most this many records. */
export const GET_CAP = SPEC_FACTS.getCap;
/** §8 Limits: the length limit of most String properties (a property's own maxLength says which). */
export const TEXT_MAX_LENGTH = SPEC_FACTS.textMaxLength;
/** §8 Limits: the digits of Integer fields and filters (a property's own integerDigits says which). */
export const INTEGER_DIGITS = SPEC_FACTS.integerDigits;
/** §2 Conventions: the all-zero GUID an unset reference can hold. */
export const ZERO_GUID = SPEC_FACTS.zeroGuid;
/** §2 Conventions: the forms of a GUID, a response DateTime and a date. */
export const GUID_PATTERN = SPEC_FACTS.guidPattern;
export const DATETIME_PATTERN = SPEC_FACTS.dateTimePattern;
export const DATE_PATTERN = SPEC_FACTS.datePattern;

/** A property's own length limit (every String payload property and filter value has one: the model checks it). */
export function maxLengthOf(p: { maxLength?: number; name?: string; key?: string }): number {
  if (p.maxLength === undefined) throw new Error(`${p.name ?? p.key}: no maxLength in its schema`);
  return p.maxLength;
}

/** A property's own digit limit (every Integer payload property and filter has one: the model checks it). */
export function integerDigitsOf(p: { integerDigits?: number; name?: string; key?: string }): number {
  if (p.integerDigits === undefined) throw new Error(`${p.name ?? p.key}: no x-integer digits in its schema`);
  return p.integerDigits;
}

/** A property's own decimal limit (every Decimal payload property and filter has one: the model checks it). */
export function decimalLimitOf(p: { decimal?: DecimalLimit; name?: string; key?: string }): DecimalLimit {
  if (p.decimal === undefined) throw new Error(`${p.name ?? p.key}: no x-decimal limit in its schema`);
  return p.decimal;
}

/** The values a Predefined payload property takes (every one has x-known-values: the model checks it). */
export function knownValuesOf(p: { knownValues?: string[]; name: string }): string[] {
  if (!p.knownValues?.length) throw new Error(`payload property ${p.name} is Predefined without known values`);
  return p.knownValues;
}

// ------------------------------------------------------------------ reading the documents

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

/**
 * Request values carry their limits (§8): text its length, integers their digits, decimals their
 * digits and scale. A schema without one is an error here, not a guess later.
 */
function requireLimits(base: string, what: string, kind: string | undefined, limits: { maxLength?: number; integerDigits?: number; decimal?: DecimalLimit }): void {
  if ((kind === 'string' || kind === 'predefined') && limits.maxLength === undefined) throw new Error(`schema ${base}: ${what} is a String without maxLength (§8)`);
  if (kind === 'integer' && limits.integerDigits === undefined) throw new Error(`schema ${base}: ${what} is an Integer without x-integer digits (§8)`);
  if (kind === 'decimal' && limits.decimal === undefined) throw new Error(`schema ${base}: ${what} is a Decimal without x-decimal digits and scale (§8)`);
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
    requireLimits(base, `filter ${key}`, f.valueKind, f);
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
      requireLimits(base, `payload property ${name}`, p.kind === 'list' ? p.itemKind : p.kind, p);
      if (p.kind === 'predefined' && !p.references && p.safeValue === undefined && !p.knownValues?.length) {
        throw new Error(`schema ${base}: payload property ${name} is Predefined without x-known-values (a generator needs values it can send)`);
      }
      return p;
    });
}

/** The Payload's x-date-pairs, each a pair of its DateTime (or date) properties. */
function datePairsOf(base: string, payloadSchema: JsonSchema | undefined, payload: PayloadPropModel[]): Array<[string, string]> {
  const pairs: unknown = payloadSchema?.['x-date-pairs'] ?? [];
  if (!Array.isArray(pairs)) throw new Error(`schema ${base}: x-date-pairs must be a list of [start, end]`);
  return pairs.map((pair) => {
    const names = Array.isArray(pair) && pair.length === 2 ? (pair as string[]) : [];
    for (const name of names) {
      const p = payload.find((x) => x.name === name);
      if (!p || (p.kind !== 'datetime' && p.kind !== 'date')) throw new Error(`schema ${base}: x-date-pairs names ${name}, not a DateTime property of the Payload`);
    }
    if (names.length !== 2) throw new Error(`schema ${base}: x-date-pairs holds ${JSON.stringify(pair)}, not [start, end]`);
    return [names[0], names[1]] as [string, string];
  });
}

function resourceOf(byId: Map<string, JsonSchema>, doc: JsonSchema): ResourceModel {
  const meta = doc['x-resource'];
  const id = doc.$id as string;
  const defs = doc.$defs ?? {};
  const payload = payloadOf(byId, id, defs.Payload);
  return {
    name: meta.name,
    position: meta.position,
    title: meta.title,
    prefix: meta.prefix,
    operations: meta.operations,
    audit: meta.audit === true,
    single: meta.single === true,
    documentedCountPath: meta.documentedCountPath,
    versionsOrder: meta.versionsOrder,
    writable: meta.operations.includes('create'),
    file: id,
    schemaId: id,
    fields: fieldsOf(byId, id, defs.Record),
    writeFields: defs.WriteRecord ? fieldsOf(byId, id, defs.WriteRecord) : [],
    filters: filtersOf(byId, id, defs.Filters),
    payload,
    datePairs: datePairsOf(id, defs.Payload, payload),
    references: [...new Set(payload.flatMap((p) => (p.references ? [p.references] : [])))],
  };
}

/**
 * The order deletes go in, from the references of the payloads: a resource
 * whose records hold ids of another's (products: categoryid, collectionid)
 * is deleted before it, so no record is deleted while another still points at
 * it. Otherwise §1 order. Only resources offering delete; a cycle of
 * references is a schema error.
 */
export function deletionOrderOf(resourceList: readonly ResourceModel[]): string[] {
  const deletable = resourceList.filter((r) => r.operations.includes('delete'));
  const left = new Set(deletable.map((r) => r.name));
  const order: string[] = [];
  while (left.size) {
    // the first (in §1 order) that no resource still to delete references
    const next = deletable.find((r) => left.has(r.name) && !deletable.some((o) => left.has(o.name) && o.name !== r.name && o.references.includes(r.name)));
    if (!next) throw new Error(`schemas: the references of ${[...left].join(', ')} form a cycle; no order can delete them`);
    order.push(next.name);
    left.delete(next.name);
  }
  return order;
}

// ------------------------------------------------------------------ the model

/** The model of one list of schema documents: every resource, its validators, the deletion order. */
export class SchemaModel {
  readonly byId: Map<string, JsonSchema>;
  /** every resource, in §1 order (x-resource.position) */
  readonly resources: readonly ResourceModel[];
  /** the order deletes go in (references first: deletionOrderOf) */
  readonly deletionOrder: readonly string[];
  readonly facts: SpecFacts;
  private readonly validators = new Map<string, Validator>();
  private ajvInstance: any;
  private precompiled?: ReadonlyMap<string, (value: unknown) => boolean>;

  constructor(docs: readonly JsonSchema[]) {
    this.byId = new Map(docs.map((d) => [d.$id as string, d]));
    if (this.byId.size !== docs.length) throw new Error('schema documents: two with one $id');
    this.facts = specFactsOf(docs);
    const order = resourceOrderOf(docs);
    this.resources = docs
      .filter((d) => d['x-resource'])
      .map((d) => resourceOf(this.byId, d))
      .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
    const names = new Set(this.resources.map((r) => r.name));
    for (const r of this.resources) {
      for (const ref of r.references) if (!names.has(ref)) throw new Error(`schema ${r.schemaId}: x-references names ${ref}, which no schema describes`);
    }
    this.deletionOrder = deletionOrderOf(this.resources);
  }

  resource(name: string): ResourceModel {
    const r = this.resources.find((x) => x.name === name);
    if (!r) throw new Error(`unknown resource "${name}" (known: ${this.resources.map((x) => x.name).join(', ')})`);
    return r;
  }

  /** The ajv instance holding every schema, made on first use (the model alone needs none). */
  private ajv(): any {
    return (this.ajvInstance ??= createAjv([...this.byId.values()]));
  }

  /** Compile every definition of every schema now; returns how many (tests: a broken schema fails here). */
  compileAll(): number {
    return compileAll(this.ajv(), this.byId.values());
  }

  /** A compiled validator for one definition of a resource schema, e.g. ('product', 'Record'). */
  validator(resourceName: string, def: DefName | string): Validator {
    return this.validatorAt(this.resource(resourceName).schemaId, def);
  }

  /** A validator for a definition of common.schema.json, e.g. 'CountResponse'. */
  commonValidator(def: string): Validator {
    return this.validatorAt('common.schema.json', def);
  }

  /**
   * Use these compiled validators (src/schema/precompiled.ts: compiled once, kept in the run's cache)
   * instead of compiling each definition again; a definition they lack is compiled as before.
   */
  usePrecompiled(validators: ReadonlyMap<string, (value: unknown) => boolean>): void {
    this.precompiled = validators;
  }

  private validatorAt(schemaId: string, def: string): Validator {
    const key = `${schemaId}#/$defs/${def}`;
    let v = this.validators.get(key);
    if (!v) {
      const fn: any = this.precompiled?.get(key) ?? this.ajv().getSchema(key);
      if (!fn) throw new Error(`${schemaId} has no $defs/${def}`);
      v = (value: unknown): ValidationResult =>
        fn(value) ? { ok: true, errors: [] } : { ok: false, errors: (fn.errors ?? []).map(formatAjvError) };
      this.validators.set(key, v);
    }
    return v;
  }
}

let defaultModel: SchemaModel | undefined;

/** The model of the project's schemas (schemas/), built on first use. */
export function schemaModel(): SchemaModel {
  return (defaultModel ??= new SchemaModel(defaultSchemaDocuments()));
}

/** Compile every definition of every schema now; returns how many (tests: a broken schema fails here). */
export function compileAllSchemas(): number {
  return schemaModel().compileAll();
}

export function resources(): ResourceModel[] {
  return schemaModel().resources as ResourceModel[];
}

export function resource(name: string): ResourceModel {
  return schemaModel().resource(name);
}

export function schemaDocs(): Map<string, JsonSchema> {
  return schemaModel().byId;
}

/** The order deletes go in (products before the categories and collections they reference). */
export function deletionOrder(): readonly string[] {
  return schemaModel().deletionOrder;
}

/** Where a resource's deletes go in deletionOrder(); a name it does not hold (a foreign ledger's) goes last. */
export function deletionRank(name: string): number {
  const order = schemaModel().deletionOrder;
  const i = order.indexOf(name);
  return i === -1 ? order.length : i;
}

/** A compiled validator for one definition of a resource schema, e.g. ('product', 'Record'). */
export function validator(resourceName: string, def: DefName | string): Validator {
  return schemaModel().validator(resourceName, def);
}

/** A validator for a definition of common.schema.json, e.g. 'CountResponse'. */
export function commonValidator(def: string): Validator {
  return schemaModel().commonValidator(def);
}

function formatAjvError(e: { instancePath: string; message?: string; params?: any }): string {
  const where = e.instancePath || '(root)';
  const extra = e.params?.allowedValues ? ` ${JSON.stringify(e.params.allowedValues)}` : '';
  return `${where} ${e.message ?? 'is invalid'}${extra}`;
}
