/**
 * A vitest reporter that turns finished tests into CheckResults, using the
 * metadata each check records on its task, and reports progress.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CheckTaskMeta } from '../check/check.js';
import type { ItemRecord } from '../check/items.js';
import { findCheckDef } from '../items/index.js';
import type { CheckResult, CheckStatus, HttpExchange, ItemResult } from '../report/types.js';

export interface Progress {
  done: number;
  total: number;
  failed: number;
  errors: number;
  last?: CheckResult;
}

export class CheckCollector implements Reporter {
  readonly results: CheckResult[] = [];
  /** every item of the checks that ran, in catalogue order within each check */
  readonly items: ItemResult[] = [];
  /** problems of the suite itself (a check file that did not load, an unhandled error) */
  readonly engineErrors: string[] = [];
  /** requests made by checks, as the checks counted them */
  requests = 0;
  private total = 0;
  private failed = 0;
  private errors = 0;

  constructor(private readonly onProgress?: (p: Progress) => void) {}

  onTestModuleCollected(module: TestModule): void {
    for (const t of module.children.allTests()) if (t.options.mode !== 'skip' && t.options.mode !== 'todo') this.total++;
    for (const e of module.errors()) this.engineErrors.push(`${relative(module.moduleId)}: ${e.message}`);
  }

  onTestCaseResult(testCase: TestCase): void {
    const meta = (testCase.meta() as any).storecheck as CheckTaskMeta | undefined;
    const result = testCase.result();
    if (!meta) {
      // filtered out by --only / shard (never ran), or a test that is not a check
      if (result.state === 'skipped') { this.total--; return; }
      if (result.state === 'failed') this.engineErrors.push(`${testCase.fullName}: ${result.errors?.[0]?.message ?? 'failed'} (not a storecheck check)`);
      return;
    }
    this.requests += meta.requests;
    const stopped = cutShort(meta, result.errors);
    if (meta.suiteError) this.engineErrors.push(`${meta.id}: ${meta.suiteError}`);
    const status = stopped ? 'skipped' : meta.suiteError ? 'error' : statusOf(result.state, meta);
    const check: CheckResult = {
      id: meta.id,
      title: meta.title,
      resource: meta.resource,
      rule: meta.rule,
      group: meta.group as CheckResult['group'],
      section: meta.section,
      level: meta.level as CheckResult['level'],
      status,
      durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    };
    if (status === 'failed') {
      const f = meta.failure;
      const message = f?.message ?? result.errors?.[0]?.message ?? 'failed';
      check.message = message;
      if (f) {
        check.expected = f.expected;
        check.actual = f.actual;
        check.evidence = f.evidence;
        check.reproducer = {
          curl: f.curl,
          seed: f.seed ?? meta.seed,
          path: f.path,
          command: `npm run conformance -- --only '${meta.id}' --seed <run seed>`,
        };
        if (f.counterexample !== undefined) check.actual = check.actual ?? { counterexample: f.counterexample };
      }
      this.failed++;
    } else if (status === 'error') {
      check.message = meta.suiteError ? `storecheck error: ${meta.suiteError}` : meta.targetError?.message ?? result.errors?.[0]?.message;
      check.evidence = meta.targetError?.evidence;
      this.errors++;
    } else if (status === 'skipped') {
      check.reason = stopped ?? meta.skipped;
    }
    const items = this.itemsOf(meta, stopped);
    check.items = {
      total: items.length,
      passed: items.filter((i) => i.status === 'passed').length,
      failed: items.filter((i) => i.status === 'failed').length,
      notJudged: items.filter((i) => i.status === 'not-judged').length,
      errors: items.filter((i) => i.status === 'error').length,
    };
    this.items.push(...items);
    this.results.push(check);
    this.onProgress?.({ done: this.results.length, total: Math.max(this.total, this.results.length), failed: this.failed, errors: this.errors, last: check });
  }

  /** The check's items as report entries: what the worker recorded, cut-short runs turned into not judged. */
  private itemsOf(meta: CheckTaskMeta, stopped: string | undefined): ItemResult[] {
    const def = findCheckDef(meta.id);
    if (!def) return [];
    const out: ItemResult[] = [];
    for (const item of def.items) {
      const rec: ItemRecord | undefined = meta.items?.[item.case];
      if (!rec) continue; // not selected (--only names other items of this check)
      const base = { id: item.id, check: item.check, rule: item.rule, resource: item.resource, kind: item.kind };
      if (stopped && rec.status !== 'failed' && rec.status !== 'passed') {
        out.push({ ...base, status: 'not-judged', reason: stopped });
        continue;
      }
      const r: ItemResult = { ...base, status: rec.status };
      if (rec.message !== undefined) r.message = rec.message;
      if (rec.reason !== undefined) r.reason = rec.reason;
      if (rec.status === 'failed') {
        if (rec.expected !== undefined) r.expected = rec.expected;
        if (rec.actual !== undefined) r.actual = rec.actual ?? (rec.counterexample !== undefined ? { counterexample: rec.counterexample } : undefined);
        if (rec.evidence) r.evidence = rec.evidence as HttpExchange[];
        r.reproducer = {
          ...(rec.curl ? { curl: rec.curl } : {}),
          seed: rec.seed ?? meta.seed,
          ...(rec.path ? { path: rec.path } : {}),
          command: `npm run conformance -- --only '${item.id}' --seed <run seed>`,
        };
      } else if (rec.status === 'error' && rec.evidence) r.evidence = rec.evidence as HttpExchange[];
      out.push(r);
    }
    return out;
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    for (const e of unhandledErrors) this.engineErrors.push(`unhandled error: ${e.message ?? String(e)}`);
  }
}

/**
 * A check the run stopped (signal, deadline) before it could judge: vitest
 * aborted it, or its requests came back CANCELLED. Neither a failure of the
 * target nor a target error — reported as skipped, with why.
 */
function cutShort(meta: CheckTaskMeta, errors: ReadonlyArray<{ name?: string; message?: string }> | undefined): string | undefined {
  if (meta.skipped !== undefined) return undefined;
  const aborted = (errors ?? []).some((e) => e?.name === 'TestRunAbortError' || /test run was aborted/i.test(e?.message ?? ''));
  const evidence = [...(meta.failure?.evidence ?? []), ...(meta.targetError?.evidence ?? [])];
  const cancelled = evidence.some((ev) => typeof ev.error === 'string' && ev.error.startsWith('CANCELLED'));
  return aborted || cancelled ? 'cut short: the run was stopped (signal or --deadline-s) before this check could judge' : undefined;
}

function statusOf(state: string, meta: CheckTaskMeta): CheckStatus {
  if (state === 'passed') return 'passed';
  if (state === 'skipped' || state === 'pending') return 'skipped';
  if (meta.targetError && !meta.failure) return 'error';
  return 'failed';
}

function relative(p: string): string {
  const cwd = process.cwd() + '/';
  return p.startsWith(cwd) ? p.slice(cwd.length) : p;
}
