/**
 * Every field, filter and payload property of the spec is in schemas/, with its kind and limit,
 * and nothing else is: the loaded schema model is compared with test/fixtures/spec-table.ts,
 * a table typed in by hand from the spec.
 */
import { describe, expect, it } from 'vitest';
import { resources, type FieldModel, type FilterModel, type PayloadPropModel } from '../../src/schema/model.js';
import {
  DOCUMENTED_COUNT_PATHS, FILTER_ALIASES, SPEC, VERSIONS_ORDER,
  type SpecField, type SpecFilter, type SpecPayload,
} from '../fixtures/spec-table.js';

/** A get-form field as the spec table writes it. */
function describeField(f: FieldModel): SpecField | string {
  switch (f.kind) {
    case 'array':
      if (f.itemFields) return { list: Object.fromEntries(f.itemFields.map((i) => [i.name, describeField(i)])) } as SpecField;
      return `${f.itemKind ?? 'any'}[]`;
    case 'object':
      return { object: Object.fromEntries((f.objectFields ?? []).map((i) => [i.name, describeField(i)])) } as SpecField;
    case 'decimal':
      return f.separator === ',' ? 'decimal,' : f.separator === '.' ? 'decimal' : `decimal(separator ${f.separator})`;
    case 'boolean':
      return f.booleanForm === 'get' ? 'boolean' : `boolean(${f.booleanForm} form)`;
    default:
      return f.kind;
  }
}

function describeFilter(f: FilterModel): SpecFilter | string {
  if (f.filter === 'boolean') return f.valueKind === 'boolean' ? 'boolean' : `boolean(${f.valueKind})`;
  if (f.filter === 'array') return `array:${f.valueKind}`;
  if (f.valueKind === 'decimal') {
    const d = f.decimal ? `decimal(${f.decimal.digits},${f.decimal.scale})` : 'decimal(no limit)';
    return `range:${d}${f.acceptsArray ? '[]' : ''}`;
  }
  return `range:${f.valueKind}${f.acceptsArray ? '[]' : ''}`;
}

function describePayload(p: PayloadPropModel): SpecPayload | string {
  const opt = p.required ? '' : '?';
  switch (p.kind) {
    case 'string': return `${opt}string(${p.maxLength ?? 'unbounded'})`;
    case 'integer': return `${opt}integer(${p.integerDigits ?? 'unbounded'})`;
    case 'decimal': return p.decimal ? `${opt}decimal(${p.decimal.digits},${p.decimal.scale})` : `${opt}decimal(no limit)`;
    case 'list': return p.itemKind === 'string' ? `${opt}string[](${p.maxLength ?? 'unbounded'})` : `${opt}${p.itemKind}[]`;
    default: return `${opt}${p.kind}`;
  }
}

const model = resources();
const byName = new Map(model.map((r) => [r.name, r]));

describe('schema coverage against the spec table', () => {
  it('has exactly the 15 resources of §1, in §1 order', () => {
    expect(model.map((r) => r.name)).toEqual(Object.keys(SPEC));
  });

  describe.each(Object.entries(SPEC))('%s', (name, spec) => {
    const r = byName.get(name)!;

    it('has the prefix, operations and flags of §1, §2, §3 and §4 Resource paths', () => {
      expect(r, `resource ${name} missing`).toBeDefined();
      expect(r.prefix).toBe(spec.prefix);
      expect(r.operations).toEqual(spec.operations);
      expect(r.writable).toBe(spec.operations.includes('create'));
      expect(r.audit).toBe(spec.audit);
      expect(r.single).toBe(spec.single === true);
      expect(r.documentedCountPath).toBe(DOCUMENTED_COUNT_PATHS[name]);
      expect(r.versionsOrder).toBe(VERSIONS_ORDER[name]);
      expect(r.file).toBe(`${name}.schema.json`);
    });

    it('Record has every §2 field with its kind, and no other', () => {
      const actual = Object.fromEntries(r.fields.map((f) => [f.name, describeField(f)]));
      expect(actual).toEqual(spec.fields);
    });

    it('audit fields follow §2 Conventions', () => {
      const names = r.fields.map((f) => f.name);
      if (spec.audit) expect(names).toEqual(expect.arrayContaining(['author', 'createdon']));
      else expect(names).not.toContain('author');
    });

    it('every Record field and list item field is required; sub-object fields are optional', () => {
      for (const f of r.fields) {
        expect(f.required, `${name}.${f.name}`).toBe(true);
        for (const i of f.itemFields ?? []) expect(i.required, `${name}.${f.name}[].${i.name}`).toBe(true);
        for (const o of f.objectFields ?? []) expect(o.required, `${name}.${f.name}.${o.name}`).toBe(false);
      }
    });

    it('Predefined fields carry exactly the §2 enumeration values', () => {
      const actual: Record<string, string[]> = {};
      for (const f of r.fields) {
        if (f.kind === 'predefined') actual[f.name] = f.knownValues ?? [];
        for (const o of f.objectFields ?? []) if (o.kind === 'predefined') actual[`${f.name}.${o.name}`] = o.knownValues ?? [];
      }
      expect(actual).toEqual(spec.known ?? {});
    });

    it('Filters has every §4 filter key with its kind and limit, and no other', () => {
      const actual = Object.fromEntries(r.filters.map((f) => [f.key, describeFilter(f)]));
      expect(actual).toEqual(spec.filters);
    });

    it('every filter names a record field; integer filters take at most 11 digits; string filters 255 characters', () => {
      const fieldNames = new Set(r.fields.map((f) => f.name));
      for (const f of r.filters) {
        expect(fieldNames.has(f.field), `${name} filter ${f.key} -> ${f.field}`).toBe(true);
        if (f.valueKind === 'integer') expect(f.integerDigits, `${name} filter ${f.key}`).toBe(11);
        if (f.valueKind === 'string') expect(f.maxLength, `${name} filter ${f.key}`).toBe(255);
        if (f.filter === 'range') expect(f.key).toBe(`${f.field}_${f.bound}`);
      }
      const aliases = Object.fromEntries(r.filters.filter((f) => f.aliasOf).map((f) => [f.key, f.aliasOf]));
      expect(aliases).toEqual(FILTER_ALIASES[name] ?? {});
    });

    if (spec.payload) {
      it('Payload has every §4 payload property with its limit, and no other', () => {
        const actual = Object.fromEntries(r.payload.map((p) => [p.name, describePayload(p)]));
        expect(actual).toEqual(spec.payload);
      });

      it('payload references and record fields match §4', () => {
        const refs = Object.fromEntries(r.payload.filter((p) => p.references).map((p) => [p.name, p.references]));
        expect(refs).toEqual(spec.references ?? {});
        const fieldNames = new Set(r.fields.map((f) => f.name));
        for (const p of r.payload.filter((x) => x.required)) {
          expect(fieldNames.has(p.recordField!), `${name} payload ${p.name} -> record field ${p.recordField}`).toBe(true);
        }
      });

      it('payload Predefined properties carry the enumeration values of the record field', () => {
        for (const p of r.payload.filter((x) => x.kind === 'predefined')) {
          expect(p.knownValues, `${name} payload ${p.name}`).toEqual(spec.known?.[p.recordField!]);
        }
      });

      it('WriteRecord: same fields; booleans 1/0; §4 comma decimals with a comma, others either', () => {
        const get = new Map(r.fields.map((f) => [f.name, f]));
        expect(r.writeFields.map((f) => f.name).sort()).toEqual([...get.keys()].sort());
        for (const w of r.writeFields) {
          const g = get.get(w.name)!;
          if (g.kind === 'boolean') expect(w.booleanForm, `${name} write ${w.name}`).toBe('write');
          else if (g.kind === 'decimal') {
            expect(w.separator, `${name} write ${w.name}`).toBe(spec.writeComma!.includes(w.name) ? ',' : 'either');
          } else expect(describeField(w), `${name} write ${w.name}`).toEqual(describeField(g));
        }
      });
    } else {
      it('is not writable: no payload, no WriteRecord', () => {
        expect(r.payload).toEqual([]);
        expect(r.writeFields).toEqual([]);
      });
    }
  });
});
