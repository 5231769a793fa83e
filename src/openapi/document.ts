/**
 * The OpenAPI 3.1 document of the Online Store Administration API, built from
 * the schema model (src/schema/model.ts) and the schema files it loads: every
 * resource × operation of the model is a POST path `{prefix}/{operation}`
 * whose request body is the §4 envelope around the resource's definitions and
 * whose answer is the resource's record form. Nothing here lists a field or a
 * filter: fields, filters, payloads and their limits come from the schemas;
 * what is written here are the rules of §4/§5 that hold for every resource.
 */
import { GET_CAP, resources, schemaDocs, type FieldModel, type FilterModel, type Operation, type ResourceModel } from '../schema/model.js';
import { TOOL_VERSION } from '../version.js';
import { COMPONENT_PREFIX, ComponentSchemas } from './schemas.js';

/** "#/components/schemas/X" → "X" */
export function componentName(ref: { $ref?: string }): string {
  if (!ref.$ref?.startsWith(COMPONENT_PREFIX)) throw new Error(`openapi: ${ref.$ref} is not a component reference`);
  return ref.$ref.slice(COMPONENT_PREFIX.length);
}

export type OpenApiDocument = Record<string, any>;

export interface OpenApiOptions {
  /** info.version (default: the tool's version) */
  version?: string;
}

/** Component names of the §4 envelope and answers of one resource × operation. */
export function envelopeNames(r: ResourceModel, op: Operation): { request: string; response?: string } {
  const responses: Record<Operation, string | undefined> = {
    get: r.single ? undefined : `${r.title}GetResponse`,
    count: undefined,
    create: `${r.title}WriteResponse`,
    update: `${r.title}WriteResponse`,
    delete: undefined,
  };
  return { request: `${r.title}${op[0].toUpperCase()}${op.slice(1)}Request`, response: responses[op] };
}

export function operationId(r: ResourceModel, op: Operation): string {
  return r.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) + op[0].toUpperCase() + op.slice(1);
}


const INFO_DESCRIPTION = `The Online Store Administration API: every operation is an HTTP POST with a JSON body to
\`{base_url}{prefix}/{operation}\` (§4). Built by storecheck from its JSON Schemas (\`schemas/\`), the same
schemas its conformance checks judge a target by.

**Authentication (§5).** The API key travels in the JSON body as \`authentication.apiKey\`, never in a
header or a query parameter. OpenAPI security schemes cannot name a body property, so the document
declares none: every request schema requires \`authentication\` instead (\`x-authentication\` at the
root says the same for tools). Behaviour with a missing or invalid key: not shown.

**Answers.** Every scalar of an answer is a JSON string (numbers and booleans included, §2). Get and
create/update answers format booleans and some decimals differently (§4 "Formatting differs by
operation"): each answer's description lists the fields of each form, and the definitions
\`BooleanGet\`, \`BooleanWrite\`, \`DecimalDot\`, \`DecimalComma\`, \`DecimalEither\` describe them.
Error answers (shape, codes, HTTP statuses) are not shown (§7): every operation has an undescribed
\`default\` answer.

**Not shown by the spec** (and so not in this document): pagination defaults, the order of records,
how several filters combine, whether range bounds are inclusive, whether an update replaces the
record or changes only the supplied fields, request rate limits, the most items a \`data\` array or a
delete \`filter\` may hold.

Project keywords kept as \`x-\` extensions: \`x-kind\` (what a string holds), \`x-separator\` and
\`x-form\` (decimal separator, boolean form), \`x-filter\` (array, range or boolean filter), \`x-field\`
(the field a filter key filters), \`x-decimal\` / \`x-integer\` (digit limits, also given as a
\`pattern\`), \`x-known-values\` (Predefined values the spec shows, also given as \`examples\`),
\`x-quirk\` (a documented formatting quirk), \`x-unique\`, \`x-references\`, \`x-record-field\`,
\`x-optional-note\`, \`x-safe-value\` (payload notes), \`x-date-pairs\` (payload DateTime properties that read
as a period, start first).`;

/** The fields of a record form grouped by how §4 formats them, as one description. */
export function formattingText(fields: FieldModel[], form: 'get' | 'write'): string {
  const scalars: { path: string; f: FieldModel }[] = [];
  const walk = (list: FieldModel[], prefix: string): void => {
    for (const f of list) {
      const path = prefix + f.name;
      if (f.itemFields) walk(f.itemFields, `${path}[].`);
      else if (f.objectFields) walk(f.objectFields, `${path}.`);
      else scalars.push({ path, f });
    }
  };
  walk(fields, '');
  const list = (pick: (f: FieldModel) => boolean): string => scalars.filter((s) => pick(s.f)).map((s) => `\`${s.path}\``).join(', ');
  const groups: [string, string][] = [
    ["booleans as 'true'/'false'", list((f) => f.kind === 'boolean' && f.booleanForm === 'get')],
    ["booleans as '1'/'0'", list((f) => f.kind === 'boolean' && f.booleanForm === 'write')],
    ['decimals with a dot', list((f) => f.kind === 'decimal' && f.separator === '.')],
    ['decimals with a comma', list((f) => f.kind === 'decimal' && f.separator === ',')],
    ['decimals with a dot or a comma (a client tolerates both)', list((f) => f.kind === 'decimal' && f.separator === 'either')],
  ];
  const said = groups.filter(([, names]) => names).map(([what, names]) => `${what}: ${names}`);
  const name = form === 'get' ? 'Get form' : 'Create/update form';
  let text = said.length
    ? `${name} (§4 Formatting differs by operation): ${said.join('; ')}.`
    : `${name}: no boolean or decimal field, so the get and create/update forms are the same.`;
  for (const s of scalars) if (s.f.quirk) text += ` Quirk: \`${s.path}\` is '${s.f.quirk.const}' (${s.f.quirk.note}).`;
  return text;
}

function valueText(f: FilterModel): string {
  const one = f.valueKind === 'datetime' ? 'DateTime' : f.valueKind[0].toUpperCase() + f.valueKind.slice(1);
  if (f.filter === 'array') return `${one}[]`;
  return f.acceptsArray ? `${one} or ${one}[]` : one;
}

function limitsText(f: FilterModel): string {
  const out: string[] = [];
  if (f.filter === 'array') out.push('at least 1 value');
  if (f.maxLength) out.push(`max ${f.maxLength} characters`);
  if (f.decimal) out.push(`${f.decimal.digits} digits, ${f.decimal.scale} decimals`);
  if (f.integerDigits) out.push(`max ${f.integerDigits} digits`);
  return out.join('; ');
}

/** One filter key, as a sentence (§4 Filter naming). */
export function filterText(f: FilterModel): string {
  let text: string;
  if (f.filter === 'array') text = `Array filter: records whose \`${f.field}\` equals any of the listed values.`;
  else if (f.filter === 'range') text = `Range filter: ${f.bound === 'min' ? 'lower' : 'upper'} bound of \`${f.field}\` (inclusive or not: not shown).`;
  else text = `Boolean filter on \`${f.field}\`: 'true' or 'false'.`;
  if (f.aliasOf) text += ` The key the filter samples use for \`${f.aliasOf}\` (§4); the filter table names it \`${f.aliasOf}\`.`;
  if (f.acceptsArray) text += ' The filter table types it as an array while the samples send one string: both are accepted.';
  return text;
}

/** The resource's filter table (§4 Filters per resource), as Markdown. */
export function filterTable(r: ResourceModel): string {
  const rows = r.filters.map((f) => `| \`${f.key}\` | ${f.filter}${f.bound ? ` (_${f.bound})` : ''} | \`${f.field}\` | ${valueText(f)} | ${limitsText(f)} |`);
  return [
    `Filters of ${r.name} (§4 Filters per resource), the same for get and count; omitted, every record is addressed.`,
    'How several filters combine: not shown.',
    '',
    '| key | kind | field | value | limits |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const OPERATION_TEXT: Record<Operation, string> = {
  get: `Lists records: an array of at most ${GET_CAP} records in the get form. Pagination defaults and the order of records: not shown.`,
  count: 'Counts the records the filters address: `{count}` holding an integer as a string.',
  create: 'Creates the records of `data` (each item the payload, every mandatory property required) and answers them in the create/update form.',
  update: 'Updates the records of `data` (the payload plus the required `id`) and answers them in the create/update form. Whether an update replaces the whole record or changes only the supplied properties: not shown.',
  delete: "Deletes the records whose ids the `filter` objects list (`filter` is singular: `[{id: [GUID]}]`) and answers `{success: 'true'}`.",
};

export function buildOpenApi(opts: OpenApiOptions = {}): OpenApiDocument {
  const docs = schemaDocs();
  const comps = new ComponentSchemas(docs);
  const paths: Record<string, any> = {};
  const tags = resources().map((r) => {
    const schemas = new ResourceSchemas(r, docs, comps);
    for (const op of r.operations) {
      const path = `${r.prefix}/${op}`;
      if (paths[path]) throw new Error(`openapi: two operations at ${path}`);
      paths[path] = { post: operationOf(schemas, op) };
    }
    return schemas.tag();
  });
  noteDocumentedCountPaths(paths);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Online Store Administration API',
      version: opts.version ?? TOOL_VERSION,
      description: INFO_DESCRIPTION,
      'x-generated-by': `storecheck ${TOOL_VERSION} (storecheck openapi)`,
    },
    servers: [{
      url: '{base_url}',
      description: "The store's secure address (HTTPS, port 443); every path starts with the interface version /api/v1/ (§9).",
      variables: { base_url: { default: 'https://store.example.com', description: "The store's address, without a trailing slash." } },
    }],
    'x-authentication': { in: 'body', property: 'authentication.apiKey', section: '§5' },
    tags,
    paths,
    components: { schemas: Object.fromEntries(Object.entries(comps.schemas).sort(([a], [b]) => a.localeCompare(b))) },
  };
}

/** One resource's schema file, as the components its operations refer to (made on first use). */
class ResourceSchemas {
  private readonly defs: Record<string, unknown>;
  private filtersRef?: Record<string, string>;

  constructor(readonly r: ResourceModel, private readonly docs: ReturnType<typeof schemaDocs>, readonly comps: ComponentSchemas) {
    this.defs = docs.get(r.schemaId)!.$defs ?? {};
  }

  has(name: string): boolean {
    return name in this.defs;
  }

  def(name: string): Record<string, any> {
    return this.comps.refToDef(this.r.schemaId, name);
  }

  common(name: string): Record<string, any> {
    return this.comps.refToDef('common.schema.json', name);
  }

  /** The resource's Filters component, its keys and table described once. */
  filters(): Record<string, string> {
    if (this.filtersRef) return this.filtersRef;
    this.filtersRef = this.def('Filters');
    const component = this.comps.get(componentName(this.filtersRef))!;
    for (const f of this.r.filters) {
      const prop = component.properties[f.key];
      prop.description = [filterText(f), prop.description].filter(Boolean).join(' ');
    }
    component.description = [component.description, filterTable(this.r)].filter(Boolean).join('\n\n');
    return this.filtersRef;
  }

  writeRecord(): Record<string, any> {
    return this.def(this.has('WriteRecord') ? 'WriteRecord' : 'Record');
  }

  tag(): { name: string; description: string } {
    const doc = this.docs.get(this.r.schemaId)!;
    return { name: this.r.name, description: `${doc.description ?? this.r.title} Prefix \`${this.r.prefix}\`; operations ${this.r.operations.join(', ')}.` };
  }
}

/** What an operation's body holds beside `authentication`, and what it answers. */
interface OperationBody {
  properties: Record<string, any>;
  required: string[];
  response: any;
  responseText: string;
}

const AUTHENTICATION_TEXT = 'The API key (§5): in the body, never in a header or the query.';

/** The POST operation of one resource × operation: its request body, its answer, its description. */
function operationOf(schemas: ResourceSchemas, op: Operation): Record<string, any> {
  const { r, comps } = schemas;
  const names = envelopeNames(r, op);
  const body = BODIES[op](schemas, names);
  const properties = { authentication: { ...schemas.common('Authentication'), description: AUTHENTICATION_TEXT }, ...body.properties };
  const request = comps.add(names.request, { title: names.request, type: 'object', properties, required: ['authentication', ...body.required], description: `The body of ${r.name} ${op} (§4 Common rules).` });
  const path = `${r.prefix}/${op}`;
  const description = [OPERATION_TEXT[op]];
  if (op === 'get' && r.versionsOrder) description.push(`\`versions\` lists the ${r.versionsOrder === 'oldest-first' ? 'oldest' : 'newest'} version first (§3).`);
  const operation: Record<string, any> = {
    operationId: operationId(r, op),
    summary: `${r.name} ${op}`,
    tags: [r.name],
    requestBody: { required: true, content: { 'application/json': { schema: request } } },
    responses: {
      200: { description: body.responseText, content: { 'application/json': { schema: body.response } } },
      default: { description: 'An error: shape, codes and HTTP statuses not shown (§7).' },
    },
  };
  if (op === 'count' && r.documentedCountPath && r.documentedCountPath !== path) {
    description.push(`Quirk (§4): the documented count URL for ${r.name} is \`${r.documentedCountPath}\` with the ${r.name} filter table; a separate \`${path}\` is not shown.`);
    operation['x-documented-path'] = r.documentedCountPath;
  }
  operation.description = description.join(' ');
  return operation;
}

/** Each operation's body and answer (§4): the envelope around the resource's definitions. */
const BODIES: Record<Operation, (s: ResourceSchemas, names: { request: string; response?: string }) => OperationBody> = {
  get(s, names) {
    const { r } = s;
    const properties: Record<string, any> = {};
    if (s.has('Filters')) properties.filters = { ...s.filters(), description: 'Optional; omitted, every record is addressed.' };
    if (r.single) {
      return { properties, required: [], response: { ...s.def('Record'), description: `One object, not a list (§4). ${formattingText(r.fields, 'get')}` }, responseText: 'The store: one object' };
    }
    properties.pagination = { ...s.common('Pagination'), description: `Optional: \`pageNumber\` and \`pageSize\` are strings holding integers. Defaults: not shown. A get returns at most ${GET_CAP} records.` };
    const response = s.comps.add(names.response!, {
      title: names.response, type: 'array', maxItems: GET_CAP, items: s.def('Record'),
      description: `The records (at most ${GET_CAP}). ${formattingText(r.fields, 'get')}`,
    });
    return { properties, required: [], response, responseText: `An array of ${r.name} records (get form)` };
  },
  count(s) {
    const properties: Record<string, any> = {};
    if (s.has('Filters')) properties.filters = { ...s.filters(), description: 'Optional; the same keys as get.' };
    return { properties, required: [], response: s.common('CountResponse'), responseText: 'The count, an integer written as a string' };
  },
  create: writeBody('create'),
  update: writeBody('update'),
  delete(s) {
    return {
      properties: { filter: { ...s.common('DeleteFilter'), description: 'The ids to delete: an array of `{id: [GUID]}` objects (the key is singular).' } },
      required: ['filter'],
      response: s.common('DeleteResponse'),
      responseText: "`{success: 'true'}`",
    };
  },
};

/** Create and update: `data`, the payloads; the answer, the records in their create/update form (one component for both). */
function writeBody(op: 'create' | 'update'): (s: ResourceSchemas, names: { response?: string }) => OperationBody {
  return (s, names) => {
    const { r, comps } = s;
    const data = {
      type: 'array', items: s.def(op === 'create' ? 'Payload' : 'UpdatePayload'),
      description: op === 'create' ? 'The records to create.' : 'The records to update, each with its `id`.',
    };
    const response = comps.get(names.response!)
      ? { $ref: COMPONENT_PREFIX + names.response }
      : comps.add(names.response!, {
        title: names.response, type: 'array', items: s.writeRecord(),
        description: `The created or updated records. ${formattingText(r.writeFields.length ? r.writeFields : r.fields, 'write')}`,
      });
    return { properties: { data }, required: ['data'], response, responseText: `An array of the ${op}d ${r.name} records (create/update form)` };
  };
}

/** A path another resource's count is documented at says so too (users count → shipping methods count). */
function noteDocumentedCountPaths(paths: Record<string, any>): void {
  for (const r of resources()) {
    const at = r.documentedCountPath && r.documentedCountPath !== `${r.prefix}/count` && paths[r.documentedCountPath]?.post;
    if (at) at.description += ` Quirk (§4): the documented ${r.name} count URL is this path, with the ${r.name} filter table (see ${operationId(r, 'count')}).`;
  }
}
