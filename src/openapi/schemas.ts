/**
 * The project's JSON Schemas (schemas/*.schema.json) translated into
 * `components/schemas` of an OpenAPI 3.1 document: plain JSON Schema 2020-12
 * that other tools accept, with the project's own keywords turned into what
 * standard JSON Schema can say (x-decimal and x-integer become patterns,
 * x-known-values `examples`) plus descriptions, and kept beside them as `x-`
 * extensions (annotations every 2020-12 validator ignores).
 *
 * Components are made on demand: a definition (`$defs/X`) becomes a component
 * the first time something refers to it, so the document holds exactly what
 * its paths reach. A definition is named after its `title` (unique across the
 * schema files); a titled sub-schema
 * (`ProductImage`, `OrderItem`) becomes a component of its own; a `$ref` into
 * the middle of a definition is inlined.
 */
import { deref, type JsonSchema } from '../schema/model.js';

export const COMPONENT_PREFIX = '#/components/schemas/';
/** What OpenAPI 3.1 allows as a key of `components/schemas`. */
export const COMPONENT_NAME = /^[a-zA-Z0-9._-]+$/;

/** Keywords that belong to a schema file, not to a component. */
const FILE_KEYWORDS = new Set(['$schema', '$id', '$defs', 'x-resource']);
/** Keywords whose value is one sub-schema. */
const SUBSCHEMA = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties']);
/** Keywords whose value is an array of sub-schemas. */
const SUBSCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to sub-schemas. */
const SUBSCHEMA_MAP = new Set(['properties', 'patternProperties', 'dependentSchemas']);

/** "8 digits with 2 decimals" as the x-decimal keyword checks it (src/schema/ajv.ts decimalWithin). */
export function decimalPattern(limit: { digits: number; scale: number }): string {
  const int = limit.digits > 0 ? `0*[0-9]{1,${limit.digits}}` : '0+';
  const frac = limit.scale > 0 ? `([.,][0-9]{1,${limit.scale}})?` : '';
  return `^-?${int}${frac}$`;
}

/** "at most 11 digits" as the x-integer keyword checks it (src/schema/ajv.ts integerWithin). */
export function integerPattern(limit: { digits: number }): string {
  return `^-?0*[0-9]{1,${Math.max(1, limit.digits)}}$`;
}

/** What a string of each x-kind holds (§2 Conventions); the separator and form refine it. */
function kindText(node: JsonSchema): string | undefined {
  switch (node['x-kind']) {
    case 'guid': return 'A GUID: 36 hexadecimal characters with hyphens (the all-zero GUID marks an unset reference, §2).';
    case 'predefined': return 'A Predefined value: the complete list of allowed values is not shown (§2); the values the spec shows are given as `examples`.';
    case 'integer': return 'An integer written as a JSON string (§2: every scalar of a response is a string).';
    case 'date': return 'A date written as a JSON string, `YYYY-MM-DD`.';
    case 'datetime': return 'A DateTime written as a JSON string: responses use `YYYY-MM-DD HH:MM:SS`; requests a date `YYYY-MM-DD` or a date with time (§2).';
    case 'boolean':
      if (node['x-form'] === 'get') return "A boolean as get answers show it: 'true' or 'false' (§4 Formatting differs by operation).";
      if (node['x-form'] === 'write') return "A boolean as create and update answer it: '1' or '0' (§4 Formatting differs by operation).";
      return "A boolean as requests send it: 'true' or 'false' (§2).";
    case 'decimal':
      if (node['x-separator'] === ',') return 'A decimal written as a JSON string with a comma (`12,50`): the form of several decimals in create and update answers and of a few in get answers (§4).';
      if (node['x-separator'] === 'either') return 'A decimal written as a JSON string with a dot or a comma: a client tolerates both forms (§4).';
      return 'A decimal written as a JSON string with a dot (`12.50`).';
    default: return undefined;
  }
}

/** Descriptions of the project's annotation keywords at a node (other than x-kind, x-filter, x-field). */
function annotationText(node: JsonSchema): string[] {
  const out: string[] = [];
  const dec = node['x-decimal'];
  if (dec) out.push(`At most ${dec.digits} digits before the decimal separator and ${dec.scale} after (§8; "${dec.digits} digits with ${dec.scale} decimals" read as digits before the separator: a target using SQL DECIMAL(${dec.digits},${dec.scale}) allows ${dec.scale} fewer before it).`);
  const int = node['x-integer'];
  if (int) out.push(`At most ${int.digits} digits (§8).`);
  const known = node['x-known-values'];
  if (known) out.push(`Values the spec shows: ${known.join(', ')} (not a closed list).`);
  const quirk = node['x-quirk'];
  if (quirk) out.push(`Documented quirk, value '${quirk.const}' — ${quirk.note}.`);
  if (node['x-unique']) out.push('Unique per record in practice (it names the record).');
  const refs = node['x-references'];
  if (refs) out.push(`References existing ${refs} records (by id).`);
  const recordField = node['x-record-field'];
  if (recordField) out.push(`Shows up in the record as \`${recordField}\`.`);
  const note = node['x-optional-note'];
  if (note) out.push(`Note: ${note}.`);
  if (node['x-safe-value'] !== undefined) out.push(`storecheck only ever sends '${node['x-safe-value']}'.`);
  return out;
}

function appendDescription(node: JsonSchema, text: string[]): void {
  const parts = [node.description, ...text].filter((t): t is string => !!t);
  if (parts.length) node.description = parts.join(' ');
}

/** Add a pattern to a string schema that may hold one already (two patterns both apply). */
function addPattern(node: JsonSchema, pattern: string): void {
  node.type ??= 'string'; // as the $ref'd definition says: tools (ajv strictTypes) want the type beside a pattern
  if (node.pattern === undefined) node.pattern = pattern;
  else node.allOf = [...(node.allOf ?? []), { pattern }];
}

/** Splits "common.schema.json#/$defs/Guid" against the file it appears in. */
function splitRef(base: string, ref: string): { doc: string; pointer: string } {
  const hash = ref.indexOf('#');
  const file = hash === -1 ? ref : ref.slice(0, hash);
  return { doc: file || base, pointer: hash === -1 ? '' : ref.slice(hash + 1) };
}

function pointerGet(doc: JsonSchema, pointer: string): JsonSchema | undefined {
  let node: any = doc;
  for (const part of pointer.split('/').filter(Boolean)) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

export class ComponentSchemas {
  /** components/schemas, in the order they were first reached */
  readonly schemas: Record<string, JsonSchema> = {};
  /** a translated definition or titled sub-schema (by object identity) → its component name */
  private readonly names = new Map<object, string>();

  constructor(private readonly docs: Map<string, JsonSchema>) {}

  /** A `$ref` to the component of `$defs/<def>` of a schema file, made on first use. */
  refToDef(docId: string, def: string): JsonSchema {
    const doc = this.docs.get(docId);
    const node = doc?.$defs?.[def];
    if (!node) throw new Error(`openapi: ${docId} has no $defs/${def}`);
    // an untitled alias (common BooleanFilter → InBoolean) keeps its name; a resource's gets the file's title first
    const name = node.title ?? (doc!['x-resource'] ? `${doc!.title}${def}` : def);
    return this.refToNode(node, docId, name);
  }

  /** Add a component of the document's own (an envelope, a response); its name must be new. */
  add(name: string, schema: JsonSchema): JsonSchema {
    this.claim(name);
    this.schemas[name] = schema;
    return { $ref: COMPONENT_PREFIX + name };
  }

  /** The translated schema of a component (tests and descriptions read it). */
  get(name: string): JsonSchema | undefined {
    return this.schemas[name];
  }

  private claim(name: string): void {
    if (!COMPONENT_NAME.test(name)) throw new Error(`openapi: "${name}" is not a valid component name`);
    if (name in this.schemas) throw new Error(`openapi: two schemas would be the component "${name}"`);
  }

  private refToNode(node: JsonSchema, base: string, name: string): JsonSchema {
    const known = this.names.get(node);
    if (known) return { $ref: COMPONENT_PREFIX + known };
    this.claim(name);
    this.names.set(node, name);
    this.schemas[name] = {}; // placeholder: a recursive reference finds the name taken by this node
    this.schemas[name] = this.translateNode(node, base);
    return { $ref: COMPONENT_PREFIX + name };
  }

  /** Translate a schema found in file `base`; a titled object becomes a component of its own. */
  translate(node: JsonSchema | boolean, base: string): JsonSchema | boolean {
    if (typeof node !== 'object' || node === null) return node;
    if (typeof node.title === 'string' && !this.names.has(node)) return this.refToNode(node, base, node.title);
    if (this.names.has(node)) return { $ref: COMPONENT_PREFIX + this.names.get(node) };
    return this.translateNode(node, base);
  }

  private isString(node: JsonSchema, base: string): boolean {
    return deref(this.docs, base, node).schema.type === 'string';
  }

  /**
   * x-decimal / x-integer as a pattern. The keywords judge strings only, so at a
   * string-or-array node (order totalprice_min: "Decimal[]" sent as one string)
   * the pattern goes into the string alternatives: the same values pass.
   */
  private addLimit(out: JsonSchema, node: JsonSchema, base: string, pattern: string): void {
    if (this.isString(node, base)) return addPattern(out, pattern);
    const branches = node.anyOf ? 'anyOf' : node.oneOf ? 'oneOf' : undefined;
    const strings = branches ? (node[branches] as JsonSchema[]).map((b) => this.isString(b, base)) : [];
    if (!branches || !strings.some(Boolean)) throw new Error(`openapi: a digit limit on a schema that is not a string (${JSON.stringify(node).slice(0, 80)})`);
    out[branches] = (out[branches] as JsonSchema[]).map((b, i) => {
      if (!strings[i]) return b;
      const copy = { ...b };
      addPattern(copy, pattern);
      return copy;
    });
  }

  private translateNode(node: JsonSchema, base: string): JsonSchema {
    const out: JsonSchema = {};
    let inlined: JsonSchema | undefined;
    for (const [key, value] of Object.entries(node)) {
      if (FILE_KEYWORDS.has(key)) continue;
      if (key === '$ref') {
        const { doc, pointer } = splitRef(base, value as string);
        const def = /^\/\$defs\/([^/]+)$/.exec(pointer);
        if (def) Object.assign(out, this.refToDef(doc, def[1]));
        else {
          // a reference into the middle of a definition: the same schema, written out here
          const target = this.docs.get(doc) && pointerGet(this.docs.get(doc)!, pointer);
          if (!target) throw new Error(`openapi: unresolvable $ref ${value} in ${base}`);
          inlined = this.translate(target, doc) as JsonSchema;
        }
      } else if (SUBSCHEMA.has(key)) out[key] = this.translate(value, base);
      else if (SUBSCHEMA_LIST.has(key)) out[key] = (value as JsonSchema[]).map((s) => this.translate(s, base));
      else if (SUBSCHEMA_MAP.has(key)) out[key] = Object.fromEntries(Object.entries(value as JsonSchema).map(([k, s]) => [k, this.translate(s, base)]));
      else out[key] = structuredClone(value);
    }
    if (node['x-decimal']) this.addLimit(out, node, base, decimalPattern(node['x-decimal']));
    if (node['x-integer']) this.addLimit(out, node, base, integerPattern(node['x-integer']));
    if (node['x-known-values']) out.examples = [...node['x-known-values']];
    const kind = kindText(node);
    appendDescription(out, [...(kind ? [kind] : []), ...annotationText(node)]);
    if (!inlined) return out;
    if (Object.keys(out).length === 0) return inlined;
    out.allOf = [...(out.allOf ?? []), inlined];
    return out;
  }
}
