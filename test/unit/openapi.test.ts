/**
 * `storecheck openapi` (src/openapi/, src/cli/openapi.ts): the document is
 * valid OpenAPI 3.1 for a maintained validator, its schemas are strict JSON
 * Schema 2020-12, it holds every resource × operation and every filter key of
 * the model, and what the reference server answers validates against it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { HELP, OPTIONS, openapiCommand } from '../../src/cli/openapi.js';
import { UsageError } from '../../src/cli/options.js';
import { buildOpenApi, componentName, envelopeNames, operationId, type OpenApiDocument } from '../../src/openapi/document.js';
import { COMPONENT_NAME, decimalPattern, integerPattern } from '../../src/openapi/schemas.js';
import { decimalWithin, integerWithin } from '../../src/schema/ajv.js';
import { resources, validator, type Operation, type ResourceModel } from '../../src/schema/model.js';
import { TOOL_VERSION } from '../../src/version.js';
import type { ReferenceServer } from '../../reference/server.js';
import { call, payloadFor, referenceIds, res, start } from './reference-helpers.js';

const Ajv2020 = (Ajv2020Module as any).default ?? Ajv2020Module;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;

const doc = buildOpenApi();
const schemas: Record<string, any> = doc.components.schemas;

/** The component a `$ref` names. */
function deref(node: any): any {
  return node?.$ref ? schemas[componentName(node)] : node;
}

function operation(r: ResourceModel, op: Operation): any {
  return doc.paths[`${r.prefix}/${op}`]?.post;
}

/** Every key starting with x- anywhere under a node. */
function extensionKeys(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => extensionKeys(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('x-')) out.add(k);
      extensionKeys(v, out);
    }
  }
  return out;
}

/**
 * Validators of the document's component schemas: ajv 2020 in strict mode, the
 * x- extensions declared as annotations (no validation of their own: what
 * validates is standard JSON Schema only).
 */
function componentAjv(d: OpenApiDocument): { ajv: any; check: (name: string, value: unknown) => string[] } {
  const ajv = new Ajv2020({ strict: true, allErrors: true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  for (const keyword of [...extensionKeys(d.components.schemas), 'components']) ajv.addKeyword({ keyword });
  ajv.addSchema({ $id: 'openapi.json', components: d.components });
  const check = (name: string, value: unknown): string[] => {
    const fn = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
    if (!fn) throw new Error(`no component ${name}`);
    return fn(value) ? [] : (fn.errors ?? []).map((e: any) => `${e.instancePath || '(root)'} ${e.message}`);
  };
  return { ajv, check };
}

const { ajv, check } = componentAjv(doc);

/** Errors of a value against the 200 answer of an operation. */
function checkAnswer(r: ResourceModel, op: Operation, value: unknown): string[] {
  return check(componentName(operation(r, op).responses['200'].content['application/json'].schema), value);
}

function checkRequest(r: ResourceModel, op: Operation, value: unknown): string[] {
  return check(componentName(operation(r, op).requestBody.content['application/json'].schema), value);
}

describe('the document is valid OpenAPI 3.1', () => {
  it('passes @seriousme/openapi-schema-validator (schema and $refs) as 3.1', async () => {
    const v = new Validator();
    const result = await v.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(v.version).toBe('3.1');
  });

  it('the validator judges: a dangling $ref, a bad component name, a path without its slash are rejected', async () => {
    const dangling = structuredClone(doc);
    dangling.components.schemas.ProductGetResponse.items = { $ref: '#/components/schemas/NoSuchRecord' };
    expect((await new Validator().validate(dangling)).valid).toBe(false);
    const badName = structuredClone(doc);
    badName.components.schemas['Product Record'] = {};
    expect((await new Validator().validate(badName)).valid).toBe(false);
    const badPath = structuredClone(doc);
    badPath.paths['api/v1/products/get'] = badPath.paths['/api/v1/products/get'];
    expect((await new Validator().validate(badPath)).valid).toBe(false);
  });

  it('components have valid names, pass the 2020-12 meta-schema and compile in strict mode', () => {
    expect(Object.keys(schemas).length).toBeGreaterThan(50);
    for (const [name, schema] of Object.entries(schemas)) {
      expect(name).toMatch(COMPONENT_NAME);
      expect(ajv.validateSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema }), `${name}: ${ajv.errorsText()}`).toBe(true);
      expect(ajv.getSchema(`openapi.json#/components/schemas/${name}`), name).toBeTypeOf('function');
    }
  });

  it('keeps none of the schema files keywords that are not for a document ($id, $schema, $defs, x-resource)', () => {
    const text = JSON.stringify(doc);
    for (const k of ['"$id"', '"$schema"', '"$defs"', '"x-resource"', '.schema.json']) expect(text).not.toContain(k);
  });

  it('info.version is the tool version; servers carry a {base_url} variable', () => {
    expect(doc.info.version).toBe(TOOL_VERSION);
    expect(doc.servers[0].url).toBe('{base_url}');
    expect(doc.servers[0].variables.base_url.default).toMatch(/^https:\/\//);
  });

  it('says the key travels in the body (§5), and requires it in every request', () => {
    expect(doc.info.description).toMatch(/authentication\.apiKey/);
    expect(doc['x-authentication']).toEqual({ in: 'body', property: 'authentication.apiKey', section: '§5' });
    expect(doc.components.securitySchemes).toBeUndefined();
  });
});

describe('every resource × operation of the model', () => {
  const all = resources().flatMap((r) => r.operations.map((op) => [r, op] as const));

  it('is one POST path {prefix}/{operation}, and there are no others', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(all.map(([r, op]) => `${r.prefix}/${op}`).sort());
    for (const path of Object.keys(doc.paths)) expect(Object.keys(doc.paths[path])).toEqual(['post']);
  });

  it.each(all.map(([r, op]) => [`${r.name} ${op}`, r, op] as const))('%s has a request and a 200 answer schema', (_, r, op) => {
    const o = operation(r, op);
    expect(o.operationId).toBe(operationId(r, op));
    const request = deref(o.requestBody.content['application/json'].schema);
    expect(request.title).toBe(envelopeNames(r, op).request);
    expect(request.required).toContain('authentication');
    const answer = o.responses['200'].content['application/json'].schema;
    expect(deref(answer)).toBeTruthy();
    expect(o.responses.default.description).toMatch(/not shown/);
  });

  it('request bodies hold the §4 envelope keys of each operation', () => {
    for (const [r, op] of all) {
      const request = deref(operation(r, op).requestBody.content['application/json'].schema);
      const keys = Object.keys(request.properties).sort();
      const expected: Record<Operation, string[]> = {
        get: r.single ? ['authentication'] : ['authentication', 'filters', 'pagination'],
        count: ['authentication', 'filters'],
        create: ['authentication', 'data'],
        update: ['authentication', 'data'],
        delete: ['authentication', 'filter'],
      };
      expect(keys, `${r.name} ${op}`).toEqual(expected[op]);
    }
  });

  it('every filter key of every resource is in its Filters schema (get and count) and its filter table', () => {
    let keys = 0;
    for (const r of resources().filter((x) => x.filters.length)) {
      const filters = deref(deref(operation(r, 'get').requestBody.content['application/json'].schema).properties.filters);
      const countFilters = deref(deref(operation(r, 'count').requestBody.content['application/json'].schema).properties.filters);
      expect(countFilters).toBe(filters);
      expect(Object.keys(filters.properties).sort()).toEqual(r.filters.map((f) => f.key).sort());
      for (const f of r.filters) {
        const prop = filters.properties[f.key];
        expect(prop['x-filter'], `${r.name} ${f.key}`).toBe(f.filter);
        expect(prop.description).toContain(`${f.filter[0].toUpperCase()}${f.filter.slice(1)} filter`);
        expect(prop.description).toContain(`\`${f.field}\``);
        expect(filters.description).toContain(`| \`${f.key}\` | ${f.filter}`);
        keys++;
      }
    }
    expect(keys).toBe(resources().reduce((n, r) => n + r.filters.length, 0));
  });
});

describe('the quirks and formatting differences are described', () => {
  it('get vs create/update forms of booleans and decimals, and product size', () => {
    const get = schemas.ProductGetResponse.description;
    expect(get).toMatch(/booleans as 'true'\/'false': [^;]*`taxable`/);
    expect(get).toMatch(/decimals with a dot: [^;]*`price`/);
    const write = schemas.ProductWriteResponse.description;
    expect(write).toMatch(/booleans as '1'\/'0': [^;]*`taxable`/);
    expect(write).toMatch(/decimals with a comma: [^;]*`price`/);
    expect(write).toMatch(/`size` is '0'/);
    expect(schemas.OrderGetResponse.description).toMatch(/decimals with a comma: `items\[\]\.unitprice`/);
    expect(schemas.DecimalComma.description).toMatch(/comma/);
  });

  it('the users count path and the page name/title filter key', () => {
    const users = res('user');
    expect(operation(users, 'count')['x-documented-path']).toBe(users.documentedCountPath);
    expect(operation(users, 'count').description).toContain(users.documentedCountPath!);
    expect(doc.paths[users.documentedCountPath!].post.description).toMatch(/documented user count URL/);
    expect(schemas.PageFilters.properties.name.description).toMatch(/samples use for `title`/);
  });

  it('x-decimal and x-integer become standard patterns, x-known-values examples', () => {
    expect(schemas.ProductPayload.properties.weight.pattern).toBe(decimalPattern({ digits: 2, scale: 2 }));
    expect(schemas.InInteger.allOf).toContainEqual({ pattern: integerPattern({ digits: 11 }) });
    expect(schemas.ProductRecord.properties.type.examples).toEqual(['PHYSICAL']);
  });
});

describe('the translated limits validate as the project keywords do', () => {
  const alphabet = fc.constantFrom(...'-0123456789.,');
  it('decimalPattern agrees with x-decimal (decimalWithin) on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 16 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 4 }), (s, digits, scale) => {
        expect(new RegExp(decimalPattern({ digits, scale }), 'u').test(s)).toBe(decimalWithin(s, { digits, scale }));
      }),
      { numRuns: 3000 },
    );
  });
  it('integerPattern agrees with x-integer (integerWithin) on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 16 }), fc.integer({ min: 1, max: 12 }), (s, digits) => {
        expect(new RegExp(integerPattern({ digits }), 'u').test(s)).toBe(integerWithin(s, { digits }));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the document judges requests as the project schemas do', () => {
  const GUID = '0f8fad5b-d9cb-469f-a165-70867728950e';
  /** valid and invalid values of every kind: each is tried under every filter key and payload property */
  const SCALARS = ['', 'x', 'a'.repeat(255), 'a'.repeat(256), 'true', 'false', '1', '0', 'yes', '-7', '007', '12345678901', '123456789012',
    '1.5', '1,5', '0.99', '99.99', '100.00', '999.999', '1000.000', '12345678.99', '123456789.00', '1.234', '.5', '1.',
    '2024-02-03', '2024-02-03 04:05:06', '2024-13-03', '2024-02-03T04:05:06', GUID, GUID.toUpperCase(), GUID.slice(1), 'PHYSICAL'];
  const VALUES: unknown[] = [...SCALARS, ...SCALARS.map((v) => [v]), [], ['1.00', '2.00'], [GUID, 'x'], 5, true, null, {}];

  it('filters: every key of every resource with every value', () => {
    let compared = 0;
    for (const r of resources().filter((x) => x.filters.length)) {
      const mine = validator(r.name, 'Filters');
      const name = componentName(deref(operation(r, 'get').requestBody.content['application/json'].schema).properties.filters);
      for (const f of r.filters) {
        for (const value of VALUES) {
          const filters = { [f.key]: value };
          expect(check(name, filters).length === 0, `${r.name} ${JSON.stringify(filters)}`).toBe(mine(filters).ok);
          compared++;
        }
      }
      expect(check(name, { nosuchkey: ['x'] })).not.toEqual([]);
    }
    expect(compared).toBeGreaterThan(5000);
  });

  it('create and update payloads: every property of every writable resource with every value', () => {
    for (const r of resources().filter((x) => x.writable)) {
      const base = payloadFor(r, {});
      for (const def of ['Payload', 'UpdatePayload'] as const) {
        const mine = validator(r.name, def);
        const name = `${r.title}${def}`;
        const item = def === 'Payload' ? base : { ...base, id: GUID };
        expect(check(name, item), `${r.name} ${def}`).toEqual([]);
        for (const p of [...r.payload.map((x) => x.name), 'id']) {
          for (const value of VALUES) {
            const changed = { ...item, [p]: value };
            expect(check(name, changed).length === 0, `${r.name} ${def} ${p}=${JSON.stringify(value)}`).toBe(mine(changed).ok);
          }
          const { [p]: _, ...without } = item;
          expect(check(name, without).length === 0, `${r.name} ${def} without ${p}`).toBe(mine(without).ok);
        }
      }
    }
  });
});

describe('requests and answers of the reference server against the document', () => {
  let srv: ReferenceServer;
  let refs: Record<string, string>;
  beforeAll(async () => {
    srv = await start();
    refs = await referenceIds(srv);
  });
  afterAll(async () => srv?.close());

  /** Sends a body the document accepts, answers what the server said (HTTP 200). */
  async function send(r: ResourceModel, op: Operation, body: Record<string, unknown>): Promise<any> {
    const full = { authentication: { apiKey: srv.apiKey }, ...body };
    expect(checkRequest(r, op, full), `${r.name} ${op} request`).toEqual([]);
    const got = await call(srv, `${r.prefix}/${op}`, body);
    expect(got.status, got.text).toBe(200);
    return got.body;
  }

  it('get of products, orders, pages and the store; count of products and users', async () => {
    const page = { pagination: { pageNumber: '1', pageSize: '20' } };
    for (const name of ['product', 'order', 'page', 'shipping-method']) {
      const got = await send(res(name), 'get', page);
      expect(got.length).toBeGreaterThan(0);
      expect(checkAnswer(res(name), 'get', got), name).toEqual([]);
    }
    expect(checkAnswer(res('store'), 'get', await send(res('store'), 'get', {}))).toEqual([]);
    const filtered = await send(res('product'), 'count', { filters: { price_min: '1.00', visible: 'true' } });
    expect(checkAnswer(res('product'), 'count', filtered)).toEqual([]);
    expect(checkAnswer(res('user'), 'count', await send(res('user'), 'count', {}))).toEqual([]);
    expect(checkAnswer(res('page'), 'get', await send(res('page'), 'get', { filters: { name: ['x'] } }))).toEqual([]);
  });

  it('create, update and delete of a product and a page', async () => {
    for (const name of ['product', 'page']) {
      const r = res(name);
      const created = await send(r, 'create', { data: [payloadFor(r, refs)] });
      expect(checkAnswer(r, 'create', created), `${name} create`).toEqual([]);
      const id = created[0].id;
      const updated = await send(r, 'update', { data: [{ ...payloadFor(r, refs), id }] });
      expect(checkAnswer(r, 'update', updated), `${name} update`).toEqual([]);
      const deleted = await send(r, 'delete', { filter: [{ id: [id] }] });
      expect(checkAnswer(r, 'delete', deleted), `${name} delete`).toEqual([]);
    }
  });

  it('the answer schemas judge: the other form, a comma price, a non-string count fail', async () => {
    const product = res('product');
    const created = await send(product, 'create', { data: [payloadFor(product, refs)] });
    // the create answer is in the write form: the get answer's schema refuses its booleans
    expect(checkAnswer(product, 'get', created).join()).toMatch(/taxable/);
    const [record] = await send(product, 'get', { filters: { id: [created[0].id] } });
    expect(checkAnswer(product, 'get', [{ ...record, price: '12,50' }]).join()).toMatch(/price/);
    expect(checkAnswer(product, 'create', [record]).join()).toMatch(/taxable/);
    const { taxable: _, ...missing } = record;
    expect(checkAnswer(product, 'get', [missing]).join()).toMatch(/taxable/);
    expect(checkAnswer(product, 'count', { count: 3 })).not.toEqual([]);
    expect(checkAnswer(product, 'delete', { success: 'false' })).not.toEqual([]);
    expect(checkAnswer(res('store'), 'get', [record])).not.toEqual([]);
    await send(product, 'delete', { filter: [{ id: [created[0].id] }] });
  });

  it('the request schemas judge: no key, numbers in pagination, an unknown filter key, a limit broken', () => {
    const product = res('product');
    const auth = { authentication: { apiKey: 'k' } };
    expect(checkRequest(product, 'get', {})).not.toEqual([]);
    expect(checkRequest(product, 'get', { ...auth, pagination: { pageNumber: 1, pageSize: 10 } })).not.toEqual([]);
    expect(checkRequest(product, 'get', { ...auth, filters: { colour: ['red'] } })).not.toEqual([]);
    expect(checkRequest(product, 'get', { ...auth, filters: { price_min: '123456789.00' } })).not.toEqual([]);
    expect(checkRequest(product, 'get', { ...auth, filters: { price_min: '12345678.00' } })).toEqual([]);
    expect(checkRequest(product, 'count', { ...auth, filters: { quantity_min: '123456789012' } })).not.toEqual([]);
    const payload = payloadFor(product, refs);
    expect(checkRequest(product, 'create', { ...auth, data: [{ ...payload, weight: '100.00' }] })).not.toEqual([]);
    expect(checkRequest(product, 'update', { ...auth, data: [payload] }).join()).toMatch(/id/);
    expect(checkRequest(product, 'delete', { ...auth, filter: [{ id: ['not-a-guid'] }] })).not.toEqual([]);
    expect(checkRequest(product, 'delete', { ...auth, filter: [] })).not.toEqual([]);
  });
});

describe('storecheck openapi', () => {
  const dir = mkdtempSync(join(tmpdir(), 'storecheck-openapi-'));

  it('--out FILE writes the JSON document; a .yaml FILE or --format yaml writes the same as YAML', async () => {
    const json = join(dir, 'api.json');
    expect(await openapiCommand(['--out', json])).toBe(0);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toEqual(doc);
    const yaml = join(dir, 'api.yaml');
    expect(await openapiCommand(['--out', yaml])).toBe(0);
    const text = readFileSync(yaml, 'utf8');
    expect(text).not.toMatch(/^\s*[&*]\w/m); // no anchors or aliases
    expect(parseYaml(text)).toEqual(doc);
    const forced = join(dir, 'api.txt');
    expect(await openapiCommand(['--out', forced, '--format=yaml'])).toBe(0);
    expect(readFileSync(forced, 'utf8')).toBe(text);
    expect((await new Validator().validate(text)).valid).toBe(true);
  });

  it('writes to stdout without --out', async () => {
    let out = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string, cb?: () => void) => {
      out += chunk;
      cb?.();
      return true;
    }) as any);
    try {
      expect(await openapiCommand([])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(JSON.parse(out)).toEqual(doc);
  });

  it('a bad flag, a bad format, an argument or an unwritable --out is a UsageError', async () => {
    await expect(openapiCommand(['--outt', 'x'])).rejects.toThrow(UsageError);
    await expect(openapiCommand(['--format', 'xml'])).rejects.toThrow(/--format must be one of json, yaml/);
    await expect(openapiCommand(['extra'])).rejects.toThrow(UsageError);
    await expect(openapiCommand(['--out', join(dir, 'missing-dir', 'api.json')])).rejects.toThrow(/cannot write \(ENOENT\)/);
    await expect(openapiCommand(['--out', dir])).rejects.toThrow(UsageError);
  });

  it('--help and -h print HELP, --version the version; every line at most 100 columns, every option in it', async () => {
    let out = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string) => ((out += chunk), true)) as any);
    try {
      expect(await openapiCommand(['--help'])).toBe(0);
      expect(await openapiCommand(['--format', 'yaml', '-h'])).toBe(0);
      expect(await openapiCommand(['--version'])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(out).toBe(`${HELP}\n${HELP}\n${TOOL_VERSION}\n`);
    for (const line of HELP.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    for (const o of OPTIONS) expect(HELP).toContain(`--${o.flag}`);
  });
});
