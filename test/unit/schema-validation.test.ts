/**
 * The validators built from schemas/ accept what the spec allows and reject what it does not:
 * a minimal valid sample per resource is made from the schema model (driven by field kinds),
 * then mutated one way at a time (§2 Conventions, §4 Formatting and Filters, §8 Limits).
 */
import { describe, expect, it } from 'vitest';
import {
  compileAllSchemas, resources, validator,
  type FieldModel, type FilterModel, type PayloadPropModel, type ResourceModel, type ScalarKind,
} from '../../src/schema/model.js';

type Obj = Record<string, unknown>;

const GUID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const ZERO_GUID = '00000000-0000-0000-0000-000000000000';
const DATETIME = '2024-03-05 14:07:09';

// validators compile on first use at run time; here every definition compiles, so a broken schema fails now
it('every definition of every schema compiles in strict mode', () => {
  expect(compileAllSchemas()).toBeGreaterThan(15 * 4);
});

// ---------------------------------------------------------------- minimal sample maker
function scalarFor(kind: ScalarKind | 'any' | undefined, f: Partial<FieldModel> = {}): string {
  switch (kind) {
    case 'guid': return GUID;
    case 'predefined': return f.knownValues?.[0] ?? 'VALUE';
    case 'integer': return '12';
    case 'decimal': return f.separator === ',' ? '1,50' : '1.50';
    case 'boolean': return f.booleanForm === 'write' ? '1' : 'true';
    case 'datetime': return DATETIME;
    case 'date': return '1990-07-14';
    default: return 'text';
  }
}

function sampleField(f: FieldModel): unknown {
  if (f.kind === 'array') {
    if (f.itemFields) return [sampleObject(f.itemFields)];
    return f.itemKind && f.itemKind !== 'any' ? [scalarFor(f.itemKind)] : [];
  }
  if (f.kind === 'object') return sampleObject(f.objectFields ?? []);
  if (f.kind === 'any') return {};
  return scalarFor(f.kind, f);
}

function sampleObject(fields: FieldModel[]): Obj {
  return Object.fromEntries(fields.map((f) => [f.name, sampleField(f)]));
}

function samplePayloadValue(p: PayloadPropModel): unknown {
  if (p.kind === 'list') return [scalarFor(p.itemKind)];
  if (p.kind === 'datetime') return '2024-03-05';
  return scalarFor(p.kind);
}

function samplePayload(r: ResourceModel): Obj {
  return Object.fromEntries(r.payload.filter((p) => p.required).map((p) => [p.name, samplePayloadValue(p)]));
}

function sampleFilterValue(f: FilterModel): unknown {
  if (f.filter === 'array') return [scalarFor(f.valueKind)];
  if (f.filter === 'boolean') return 'true';
  return f.valueKind === 'decimal' ? '1.5' : scalarFor(f.valueKind);
}

/** Register the test only where it applies (no skipped tests for resources without such fields). */
const itWhen = (cond: boolean): typeof it => (cond ? it : ((() => undefined) as unknown as typeof it));

const isScalar = (f: FieldModel) => f.kind !== 'array' && f.kind !== 'object' && f.kind !== 'any';
const clone = <T>(v: T): T => structuredClone(v);
const with_ = (o: Obj, key: string, value: unknown): Obj => ({ ...clone(o), [key]: value });

function expectValid(resource: string, def: string, value: unknown, what = ''): void {
  const res = validator(resource, def)(value);
  expect(res.errors, `${resource} ${def} ${what}`).toEqual([]);
  expect(res.ok).toBe(true);
}
function expectInvalid(resource: string, def: string, value: unknown, what: string): void {
  expect(validator(resource, def)(value).ok, `${resource} ${def} should reject ${what}`).toBe(false);
}

// ---------------------------------------------------------------- records
const all = resources();
const writable = all.filter((r) => r.writable);
const filtered = all.filter((r) => r.filters.length > 0);

describe.each(all.map((r) => [r.name, r] as const))('%s Record', (name, r) => {
  const forms: [string, FieldModel[]][] = [['Record', r.fields]];
  if (r.writable) forms.push(['WriteRecord', r.writeFields]);

  describe.each(forms)('%s', (def, fields) => {
    const sample = sampleObject(fields);
    const subLists = fields.filter((f) => f.itemFields?.length || f.objectFields?.length);

    it('a sample made from the model validates; extra fields are allowed; unset references may be the all-zero GUID', () => {
      expectValid(name, def, sample);
      expectValid(name, def, { ...clone(sample), somethingnew: 'x' }, 'with an extra field');
      for (const f of fields.filter((x) => x.kind === 'guid')) expectValid(name, def, with_(sample, f.name, ZERO_GUID), `${f.name} zero GUID`);
    });

    it('a JSON number in place of any top-level string scalar fails', () => {
      for (const f of fields.filter(isScalar)) expectInvalid(name, def, with_(sample, f.name, 12), `${f.name}: 12`);
    });

    itWhen(subLists.length > 0)('a JSON number inside a sub-list item or sub-object fails', () => {
      for (const f of subLists) {
        for (const i of (f.itemFields ?? f.objectFields)!.filter(isScalar)) {
          const bad = clone(sample);
          if (f.itemFields) (bad[f.name] as Obj[])[0][i.name] = 7;
          else (bad[f.name] as Obj)[i.name] = 7;
          expectInvalid(name, def, bad, `${f.name}.${i.name}: 7`);
        }
      }
    });

    it('null in place of any field fails, and so does a missing field', () => {
      for (const f of fields) {
        expectInvalid(name, def, with_(sample, f.name, null), `${f.name}: null`);
        const missing = clone(sample);
        delete missing[f.name];
        expectInvalid(name, def, missing, `missing ${f.name}`);
      }
    });

    it('strings that do not hold their kind fail (GUID, integer, date)', () => {
      for (const f of fields) {
        if (f.kind === 'guid') expectInvalid(name, def, with_(sample, f.name, 'not-a-guid'), `${f.name}: not-a-guid`);
        if (f.kind === 'integer') expectInvalid(name, def, with_(sample, f.name, '1.5'), `${f.name}: 1.5`);
        if (f.kind === 'date') {
          expectInvalid(name, def, with_(sample, f.name, '1990-07-14 00:00:00'), `${f.name} with a time`);
          expectInvalid(name, def, with_(sample, f.name, '1990-13-14'), `${f.name} month 13`);
        }
      }
    });

    const datetimes = fields.filter((f) => f.kind === 'datetime');
    itWhen(datetimes.length > 0)("a DateTime with 'T' between date and time fails, as does a date alone", () => {
      for (const f of datetimes) {
        expectInvalid(name, def, with_(sample, f.name, '2024-03-05T14:07:09'), `${f.name} with T`);
        expectInvalid(name, def, with_(sample, f.name, '2024-03-05'), `${f.name} date only`);
      }
      for (const f of fields.filter((x) => x.itemFields?.some((i) => i.kind === 'datetime'))) {
        for (const i of f.itemFields!.filter((x) => x.kind === 'datetime')) {
          const bad = clone(sample);
          (bad[f.name] as Obj[])[0][i.name] = '2024-03-05T14:07:09';
          expectInvalid(name, def, bad, `${f.name}[].${i.name} with T`);
        }
      }
    });

    const booleans = fields.filter((f) => f.kind === 'boolean');
    itWhen(booleans.length > 0)(
      def === 'Record' ? "a get boolean of '1' fails" : "a write boolean of 'true' fails",
      () => {
        for (const f of booleans) {
          if (f.booleanForm === 'get') {
            expect(def).toBe('Record');
            expectInvalid(name, def, with_(sample, f.name, '1'), `${f.name}: '1'`);
            expectInvalid(name, def, with_(sample, f.name, 'True'), `${f.name}: 'True'`);
          } else {
            expect(def).toBe('WriteRecord');
            expectInvalid(name, def, with_(sample, f.name, 'true'), `${f.name}: 'true'`);
            expectValid(name, def, with_(sample, f.name, '0'), `${f.name}: '0'`);
          }
        }
      },
    );

    const decimals = [
      ...fields.filter((f) => f.kind === 'decimal').map((f) => ({ f, path: [f.name] })),
      ...fields.flatMap((l) => (l.itemFields ?? []).filter((i) => i.kind === 'decimal').map((i) => ({ f: i, path: [l.name, 0, i.name] }))),
    ];
    itWhen(decimals.length > 0)('a decimal with the wrong separator fails; DecimalEither takes both', () => {
      for (const { f, path } of decimals) {
        const set = (v: string) => {
          const o = clone(sample);
          let node: any = o;
          for (const k of path.slice(0, -1)) node = node[k];
          node[path[path.length - 1]] = v;
          return o;
        };
        const where = path.join('.');
        if (f.separator === '.') expectInvalid(name, def, set('1,50'), `${where}: comma where a dot is required`);
        if (f.separator === ',') expectInvalid(name, def, set('1.50'), `${where}: dot where a comma is required`);
        if (f.separator === 'either') {
          expectValid(name, def, set('1,50'), `${where}: comma`);
          expectValid(name, def, set('1.50'), `${where}: dot`);
        }
        expectValid(name, def, set('12'), `${where}: no decimals`);
        expectInvalid(name, def, set('1.5.0'), `${where}: 1.5.0`);
      }
    });

    const predefined = fields.filter((f) => f.kind === 'predefined');
    itWhen(predefined.length > 0)('Predefined is not a closed list: an unseen value passes', () => {
      for (const f of predefined) expectValid(name, def, with_(sample, f.name, 'NOT_IN_THE_TABLE'), f.name);
    });
  });
});

// ---------------------------------------------------------------- payloads
describe.each(writable.map((r) => [r.name, r] as const))('%s Payload', (name, r) => {
  const sample = samplePayload(r);

  it('a sample payload validates; UpdatePayload needs id as well', () => {
    expectValid(name, 'Payload', sample);
    expectValid(name, 'UpdatePayload', { ...clone(sample), id: GUID });
    expectInvalid(name, 'UpdatePayload', sample, 'no id');
    expectInvalid(name, 'UpdatePayload', { ...clone(sample), id: 'nope' }, 'a malformed id');
  });

  it('every mandatory property is required; a JSON number or null in place of a string fails', () => {
    for (const p of r.payload.filter((x) => x.required)) {
      const missing = clone(sample);
      delete missing[p.name];
      expectInvalid(name, 'Payload', missing, `missing ${p.name}`);
      expectInvalid(name, 'Payload', with_(sample, p.name, null), `${p.name}: null`);
      if (p.kind !== 'list') expectInvalid(name, 'Payload', with_(sample, p.name, 12), `${p.name}: 12`);
      else expectInvalid(name, 'Payload', with_(sample, p.name, [12]), `${p.name}: [12]`);
    }
  });

  it('string lengths: the limit passes, one more character fails (§8: 255; page content 65535)', () => {
    const strings = r.payload.filter((p) => p.maxLength);
    expect(strings.length).toBeGreaterThan(0);
    for (const p of strings) {
      const max = p.maxLength!;
      const val = (n: number) => (p.kind === 'list' ? ['a'.repeat(n)] : 'a'.repeat(n));
      expectValid(name, 'Payload', with_(sample, p.name, val(max)), `${p.name} of ${max}`);
      expectInvalid(name, 'Payload', with_(sample, p.name, val(max + 1)), `${p.name} of ${max + 1}`);
    }
    if (r.payload.some((p) => p.name === 'name')) {
      expectValid(name, 'Payload', with_(sample, 'name', 'n'.repeat(255)), 'name of 255');
      expectInvalid(name, 'Payload', with_(sample, 'name', 'n'.repeat(256)), 'name of 256');
    }
    if (name === 'page') {
      expectValid(name, 'Payload', with_(sample, 'content', 'c'.repeat(65535)), 'content of 65535');
      expectInvalid(name, 'Payload', with_(sample, 'content', 'c'.repeat(65536)), 'content of 65536');
    }
  });

  const decimals = r.payload.filter((p) => p.kind === 'decimal');
  itWhen(decimals.length > 0)('decimals: the largest value passes; more digits or decimals fail (x-decimal); a comma fails', () => {
    for (const p of decimals) {
      const { digits, scale } = p.decimal!;
      expectValid(name, 'Payload', with_(sample, p.name, `${'9'.repeat(digits)}.${'9'.repeat(scale)}`), `${p.name} at the limit`);
      expectInvalid(name, 'Payload', with_(sample, p.name, '1'.repeat(digits + 1)), `${p.name} with ${digits + 1} digits`);
      expectInvalid(name, 'Payload', with_(sample, p.name, `1.${'1'.repeat(scale + 1)}`), `${p.name} with ${scale + 1} decimals`);
      expectInvalid(name, 'Payload', with_(sample, p.name, '1,5'), `${p.name} with a comma`);
    }
  });

  const integers = r.payload.filter((p) => p.kind === 'integer');
  itWhen(integers.length > 0)('integers: 11 digits pass, 12 fail (x-integer)', () => {
    for (const p of integers) {
      expectValid(name, 'Payload', with_(sample, p.name, '9'.repeat(11)), `${p.name} of 11 digits`);
      expectInvalid(name, 'Payload', with_(sample, p.name, '9'.repeat(12)), `${p.name} of 12 digits`);
      expectInvalid(name, 'Payload', with_(sample, p.name, '1.5'), `${p.name}: 1.5`);
    }
  });

  const booleans = r.payload.filter((p) => p.kind === 'boolean');
  itWhen(booleans.length > 0)("booleans are sent as 'true'/'false' (§2): '1' fails", () => {
    for (const p of booleans) {
      expectValid(name, 'Payload', with_(sample, p.name, 'false'), p.name);
      expectInvalid(name, 'Payload', with_(sample, p.name, '1'), `${p.name}: '1'`);
    }
  });

  const datetimes = r.payload.filter((p) => p.kind === 'datetime');
  itWhen(datetimes.length > 0)("DateTime is a date or a date with time (§2); 'T' fails", () => {
    for (const p of datetimes) {
      expectValid(name, 'Payload', with_(sample, p.name, '2024-03-05'), `${p.name} date`);
      expectValid(name, 'Payload', with_(sample, p.name, DATETIME), `${p.name} date time`);
      expectInvalid(name, 'Payload', with_(sample, p.name, '2024-03-05T14:07:09'), `${p.name} with T`);
    }
  });
});

// ---------------------------------------------------------------- filters
describe.each(filtered.map((r) => [r.name, r] as const))('%s Filters', (name, r) => {
  const sample = Object.fromEntries(r.filters.map((f) => [f.key, sampleFilterValue(f)]));

  it('every filter key at once validates; the empty object validates; an unknown key fails', () => {
    expectValid(name, 'Filters', sample);
    expectValid(name, 'Filters', {});
    expectInvalid(name, 'Filters', { ...clone(sample), notafilter: ['x'] }, 'an unknown key');
    expectInvalid(name, 'Filters', { notafilter: ['x'] }, 'an unknown key alone');
  });

  it('array filters need a non-empty array; range and boolean filters a single string', () => {
    for (const f of r.filters) {
      const one = { [f.key]: sampleFilterValue(f) };
      expectValid(name, 'Filters', one, f.key);
      if (f.filter === 'array') {
        expectInvalid(name, 'Filters', { [f.key]: [] }, `${f.key}: []`);
        expectInvalid(name, 'Filters', { [f.key]: scalarFor(f.valueKind) }, `${f.key}: a bare string`);
        expectInvalid(name, 'Filters', { [f.key]: [12] }, `${f.key}: [12]`);
      } else if (f.filter === 'boolean') {
        expectInvalid(name, 'Filters', { [f.key]: '1' }, `${f.key}: '1'`);
        expectInvalid(name, 'Filters', { [f.key]: true }, `${f.key}: true`);
      } else if (f.acceptsArray) {
        expectValid(name, 'Filters', { [f.key]: ['1.5'] }, `${f.key}: ['1.5'] (typed Decimal[])`);
      } else {
        expectInvalid(name, 'Filters', { [f.key]: [sampleFilterValue(f)] }, `${f.key}: an array`);
      }
    }
  });

  it('range bounds hold their kind and limits', () => {
    for (const f of r.filters.filter((x) => x.filter === 'range')) {
      if (f.valueKind === 'datetime') {
        expectValid(name, 'Filters', { [f.key]: '2024-03-05' }, `${f.key} date`);
        expectInvalid(name, 'Filters', { [f.key]: '2024-03-05T14:07:09' }, `${f.key} with T`);
      }
      if (f.valueKind === 'integer') {
        expectValid(name, 'Filters', { [f.key]: '9'.repeat(11) }, `${f.key} 11 digits`);
        expectInvalid(name, 'Filters', { [f.key]: '9'.repeat(12) }, `${f.key} 12 digits`);
      }
      if (f.valueKind === 'decimal') {
        const { digits, scale } = f.decimal!;
        expectValid(name, 'Filters', { [f.key]: `${'9'.repeat(digits)}.${'9'.repeat(scale)}` }, `${f.key} at the limit`);
        expectInvalid(name, 'Filters', { [f.key]: '1'.repeat(digits + 1) }, `${f.key} ${digits + 1} digits`);
        expectInvalid(name, 'Filters', { [f.key]: `1.${'1'.repeat(scale + 1)}` }, `${f.key} ${scale + 1} decimals`);
        expectInvalid(name, 'Filters', { [f.key]: '1,5' }, `${f.key} with a comma`);
      }
    }
    for (const f of r.filters.filter((x) => x.filter === 'array' && x.valueKind === 'integer')) {
      expectInvalid(name, 'Filters', { [f.key]: ['9'.repeat(12)] }, `${f.key} 12 digits`);
    }
    for (const f of r.filters.filter((x) => x.filter === 'array' && x.valueKind === 'string')) {
      expectInvalid(name, 'Filters', { [f.key]: ['s'.repeat(256)] }, `${f.key} 256 characters`);
    }
  });
});

describe('shipping-method realtime against type (§2 Shipping method)', () => {
  const r = all.find((x) => x.name === 'shipping-method')!;
  const sample = sampleObject(r.fields);
  const held: Record<string, string> = { provider: 'FEDEX', key: 'k', keyPassword: 'p', accountNumber: '1', meterNumber: '', serverType: 'PROD' };

  it('a REALTIME method holds provider, key, keyPassword, accountNumber, meterNumber and serverType (values may be empty)', () => {
    expectValid('shipping-method', 'Record', { ...clone(sample), type: 'REALTIME', realtime: held });
    expectInvalid('shipping-method', 'Record', { ...clone(sample), type: 'REALTIME', realtime: {} }, 'a REALTIME method whose realtime is {}');
    for (const k of Object.keys(held)) {
      const { [k]: _gone, ...rest } = held;
      expectInvalid('shipping-method', 'Record', { ...clone(sample), type: 'REALTIME', realtime: rest }, `a REALTIME method without realtime.${k}`);
    }
  });

  it('a PICKUP method has realtime {}; a type the enumeration table does not show is not judged', () => {
    expectValid('shipping-method', 'Record', { ...clone(sample), type: 'PICKUP', realtime: {} });
    expectInvalid('shipping-method', 'Record', { ...clone(sample), type: 'PICKUP', realtime: held }, 'a PICKUP method with a filled realtime');
    expectValid('shipping-method', 'Record', { ...clone(sample), type: 'FLAT_RATE', realtime: {} });
    expectValid('shipping-method', 'Record', { ...clone(sample), type: 'FLAT_RATE', realtime: held });
  });
});

describe('store', () => {
  it('has no Filters, no Payload and no WriteRecord (§4: get only, no filters)', () => {
    expect(() => validator('store', 'Filters')).toThrow();
    expect(() => validator('store', 'Payload')).toThrow();
    expect(() => validator('store', 'WriteRecord')).toThrow();
  });
});
