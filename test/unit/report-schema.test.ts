import { readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { conformantReport, hostileReport, nonConformantReport, twoCausesReport, wideReport } from '../fixtures/reports/build.js';

const Ajv2020 = (Ajv2020Module as any).default ?? Ajv2020Module;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;
const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'));

function validator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

/** What `writeReports` puts in report.json. */
const asWritten = (r: Report) => JSON.parse(JSON.stringify(r));

describe('schemas/report.schema.json', () => {
  it('is a 2020-12 schema with $id report.schema.json and no x- keywords; compiles under ajv strict', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe('report.schema.json');
    expect(JSON.stringify(schema)).not.toMatch(/"x-/);
    expect(() => validator()).not.toThrow();
  });

  it.each([
    ['non-conformant', nonConformantReport],
    ['conformant', conformantReport],
    ['hostile', hostileReport],
    ['two-causes', twoCausesReport],
    ['wide', wideReport],
  ])('validates the %s fixture report', (_name, make) => {
    const validate = validator();
    const ok = validate(asWritten(make()));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('validates the committed fixture files', () => {
    const validate = validator();
    for (const name of ['non-conformant', 'conformant', 'hostile', 'two-causes', 'wide']) {
      const doc = JSON.parse(readFileSync(new URL(`../fixtures/reports/${name}.json`, import.meta.url), 'utf8'));
      expect(validate(doc), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('rejects a report with a bad status, a missing summary or an unknown field', () => {
    const validate = validator();
    const bad1 = asWritten(conformantReport());
    bad1.checks[0].status = 'green';
    expect(validate(bad1)).toBe(false);
    const bad2 = asWritten(conformantReport());
    delete bad2.summary;
    expect(validate(bad2)).toBe(false);
    const bad3 = asWritten(conformantReport());
    bad3.surprise = 1;
    expect(validate(bad3)).toBe(false);
    const bad4 = asWritten(conformantReport());
    bad4.run.startedAt = 'yesterday';
    expect(validate(bad4)).toBe(false);
  });
});
