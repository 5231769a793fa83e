/**
 * The full run against the embedded reference server passes, and the report
 * holds at least one check per documented rule per resource the rule applies
 * to — the applicability derived from the schema model, not a hand list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { RULES } from '../../src/rules.js';
import { resources } from '../../src/schema/model.js';
import { runCli } from '../helpers/cli.js';

let report: Report;
let stderr = '';
beforeAll(async () => {
  const r = await runCli(['--depth', 'quick', '--seed', '2026']);
  stderr = r.stderr;
  report = r.report!;
}, 600_000);

function has(rule: string, resource: string, subject?: string): boolean {
  return report.checks.some((c) => c.rule === rule && c.resource === resource && (subject === undefined || c.id.endsWith(`.${subject}`) || c.id.includes(`.${subject}.`)));
}

describe('the full run against the reference server', () => {
  it('is conformant, with hundreds of checks, each with its section and level', () => {
    expect(report, stderr).toBeDefined();
    const failed = report.checks.filter((c) => c.status !== 'passed' && c.status !== 'skipped');
    expect(failed.map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(report.summary.verdict).toBe('conformant');
    expect(report.checks.length).toBeGreaterThanOrEqual(300);
    for (const c of report.checks) {
      expect(c.section, c.id).toMatch(/^§\d/);
      expect(['must', 'quirk', 'observe'], c.id).toContain(c.level);
      expect(RULES, c.id).toHaveProperty([c.rule]);
    }
  });

  it('check ids are unique', () => {
    const ids = report.checks.map((c) => c.id);
    expect(ids.length).toBe(new Set(ids).size);
  });

  it('covers every rule of the rules table at least once', () => {
    const covered = new Set(report.checks.map((c) => c.rule));
    expect(Object.keys(RULES).filter((r) => !covered.has(r))).toEqual([]);
  });

  it('covers each rule on every resource it applies to', () => {
    const missing: string[] = [];
    const need = (rule: string, resource: string, subject?: string) => {
      if (!has(rule, resource, subject)) missing.push(`${resource}: ${rule}${subject ? ` (${subject})` : ''}`);
    };
    for (const r of resources()) {
      need('conventions.scalar-strings', r.name);
      need('conventions.record-schema', r.name);
      if (r.fields.some((f) => f.kind === 'guid')) need('conventions.guid-form', r.name);
      if (r.fields.some((f) => f.kind === 'datetime')) need('conventions.datetime-form', r.name);
      if (r.name !== 'store') need('conventions.audit-fields', r.name);
      if (r.fields.some((f) => f.kind === 'boolean')) need('format.get.boolean', r.name);
      if (r.single) continue;
      need('filters.id', r.name);
      need('filters.count-agrees', r.name);
      for (const f of r.filters.filter((x) => x.key !== 'id')) need(`filters.${f.filter}`, r.name, f.key);
      need('pagination.page-size', r.name);
      need('pagination.partition', r.name);
      need('auth.invalid-key-no-records', r.name);
      need('auth.missing-key-no-records', r.name);
      if (!r.writable) continue;
      need('conventions.write-record-schema', r.name);
      for (const rule of ['lifecycle.create.single', 'lifecycle.create.batch', 'lifecycle.create.round-trip', 'lifecycle.update.changes', 'lifecycle.update.response', 'lifecycle.update.others-untouched', 'lifecycle.delete.response', 'lifecycle.delete.exact', 'lifecycle.delete.gone', 'limits.string-255', 'limits.text-encoding', 'auth.invalid-key-no-change']) need(rule, r.name);
      if (r.writeFields.some((f) => f.kind === 'boolean')) need('format.write.boolean', r.name);
      if (r.payload.some((p) => p.integerDigits)) need('limits.integer-11-digits', r.name);
      if (r.payload.some((p) => p.decimal)) need('limits.decimal-digits', r.name);
      if (r.versionsOrder) for (const rule of ['versions.initial', 'versions.append', 'versions.order']) need(rule, r.name);
    }
    need('pagination.cap-1000', '*'); // on whichever resource holds more than 1000 records
    need('format.write.product-size-zero', 'product');
    need('lifecycle.create.references', 'product');
    need('limits.page-content-65535', 'page');
    need('format.get.decimal-comma', 'order');
    need('format.get.decimal-comma', 'shipping-method');
    need('conventions.date-form', 'customer');
    need('store.single-object', 'store');
    need('store.apikey-field', 'store');
    expect(missing).toEqual([]);
  });

  it('records every observation key the issue names, with evidence', () => {
    for (const key of ['pagination.firstPageNumber', 'pagination.defaultPageSize', 'pagination.maxPageSize', 'order.default', 'filters.combination', 'filters.rangeInclusive', 'update.semantics', 'auth.invalidKeyStatus', 'auth.missingKeyStatus', 'errors.shape', 'pages.titleFilterKey', 'users.countPath', 'limits.overlongString', 'limits.maxDataItems']) {
      expect(report.observations, key).toHaveProperty([key]);
      expect(report.observations[key].evidence?.length ?? 0, key).toBeGreaterThan(0);
    }
  });

  it('leaves nothing behind', () => {
    expect(report.cleanup?.leftBehind).toEqual([]);
  });
});
