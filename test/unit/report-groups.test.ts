/**
 * Failures grouped by rule (issue 17): src/report/groups.ts, used by report.md,
 * report.html and the terminal's closing summary.
 */
import { describe, expect, it } from 'vitest';
import { failureGroupHeadline, failureGroups } from '../../src/report/groups.js';
import { rule } from '../../src/rules.js';
import { resources } from '../../src/schema/model.js';
import { resourceOrder } from '../../src/schema/sources.js';
import { check } from '../fixtures/reports/build.js';

describe('failureGroups', () => {
  const checks = [
    check({ id: 'order.filters.range.total_min', resource: 'order', rule: 'filters.range', status: 'failed' }),
    check({ id: 'product.filters.range.price_max', resource: 'product', rule: 'filters.range', status: 'failed' }),
    check({ id: 'product.filters.range.price_min', resource: 'product', rule: 'filters.range', status: 'failed' }),
    check({ id: 'blog-post.filters.range.createdon_min', resource: 'blog-post', rule: 'filters.range', status: 'failed' }),
    check({ id: 'coupon.filters.count-agrees', resource: 'coupon', rule: 'filters.count-agrees', status: 'failed' }),
    check({ id: 'product.filters.count-agrees', resource: 'product', rule: 'filters.count-agrees', status: 'failed' }),
    check({ id: 'store.store.single-object', resource: 'store', rule: 'store.single-object', status: 'failed' }),
    check({ id: 'page.lifecycle.delete.gone', resource: 'page', rule: 'lifecycle.delete.gone', status: 'failed' }),
    // not failures: never grouped
    check({ id: 'product.filters.array.name', resource: 'product', rule: 'filters.array', status: 'error' }),
    check({ id: 'coupon.filters.array.code', resource: 'coupon', rule: 'filters.array', status: 'expected-fail' }),
    check({ id: 'page.filters.array.title', resource: 'page', rule: 'filters.array', status: 'unexpected-pass' }),
    check({ id: 'user.filters.boolean.active', resource: 'user', rule: 'filters.boolean', status: 'passed' }),
    check({ id: 'file.filters.boolean.x', resource: 'file', rule: 'filters.boolean', status: 'skipped' }),
  ];
  const groups = failureGroups(checks);

  it('groups failed checks only, by rule, the largest group first, ties by rule id', () => {
    expect(groups.map((g) => [g.rule, g.checks.length])).toEqual([
      ['filters.range', 4], ['filters.count-agrees', 2], ['lifecycle.delete.gone', 1], ['store.single-object', 1],
    ]);
    expect(groups.flatMap((g) => g.checks).every((c) => c.status === 'failed')).toBe(true);
    expect(failureGroups(checks.filter((c) => c.status !== 'failed'))).toEqual([]);
  });

  it('takes title, section and level from the rules table', () => {
    const g = groups[0];
    expect(g.title).toBe(rule('filters.range').title);
    expect(g.section).toBe('§4 Filter naming');
    expect(g.level).toBe('must');
    expect(groups[3].section).toBe(rule('store.single-object').section);
    expect(failureGroupHeadline(g)).toBe(`filters.range ×4 on 3 resources — ${rule('filters.range').title} (§4 Filter naming)`);
    expect(failureGroupHeadline(groups[2])).toMatch(/^lifecycle\.delete\.gone ×1 on 1 resource — /);
  });

  it('lists distinct resources, and the checks, in catalogue order', () => {
    expect(groups[0].resources).toEqual(['product', 'blog-post', 'order']);
    expect(groups[0].checks.map((c) => c.id)).toEqual([
      'product.filters.range.price_max', 'product.filters.range.price_min', 'blog-post.filters.range.createdon_min', 'order.filters.range.total_min',
    ]);
    expect(groups[1].resources).toEqual(['product', 'coupon']);
  });

  it('the catalogue order is the schema model order; unknown resources after it, cross-resource last', () => {
    expect(resources().map((r) => r.name)).toEqual([...resourceOrder()]);
    const g = failureGroups([
      check({ id: '*.auth.key-in-body', resource: '*', rule: 'auth.key-in-body', status: 'failed' }),
      check({ id: 'zz.auth.key-in-body', resource: 'zz', rule: 'auth.key-in-body', status: 'failed' }),
      check({ id: 'aa.auth.key-in-body', resource: 'aa', rule: 'auth.key-in-body', status: 'failed' }),
      check({ id: 'store.auth.key-in-body', resource: 'store', rule: 'auth.key-in-body', status: 'failed' }),
    ]);
    expect(g[0].resources).toEqual(['store', 'aa', 'zz', '*']);
  });

  it('a rule the table does not hold (an older report) takes its first check\'s title, section and level', () => {
    const g = failureGroups([
      check({ id: 'product.x', rule: 'old.rule', title: 'an old check', section: '§9 Old', level: 'quirk', status: 'failed' }),
      check({ id: 'product.y', rule: 'constructor', title: 'proto', section: '§0', status: 'failed' }),
    ]);
    expect(g.map((x) => [x.rule, x.title, x.section, x.level])).toEqual([
      ['constructor', 'proto', '§0', 'must'],
      ['old.rule', 'an old check', '§9 Old', 'quirk'],
    ]);
  });
});
