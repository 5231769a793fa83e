/**
 * A vitest reporter that turns finished tests into CheckResults, using the
 * metadata each check records on its task, and reports progress.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CheckTaskMeta } from '../check/check.js';
import { InvariantTally } from '../check/invariants/tally.js';
import type { ItemRecord } from '../check/items.js';
import { findCheckDef } from '../items/index.js';
import type { RunPlan } from '../items/plan.js';
import { onlySelects } from '../items/select.js';
import type { CheckResult, CheckStatus, HttpExchange, ItemResult } from '../report/types.js';
import { reproducerCommand, type ReproducerConfig } from './reproduce.js';
import { INVOCATION } from '../invocation.js';

export interface Progress {
  done: number;
  total: number;
  failed: number;
  errors: number;
  last?: CheckResult;
  /** checks started and not finished yet */
  running?: number;
  /** the check started last of those still running (its id), for the progress line */
  current?: string;
}

export class CheckCollector implements Reporter {
  readonly results: CheckResult[] = [];
  /** every item of the checks that ran, in catalogue order within each check */
  readonly items: ItemResult[] = [];
  /** problems of the suite itself (a check file that did not load, an unhandled error) */
  readonly engineErrors: string[] = [];
  /** suite files whose registered checks differ from the plan (a stale REGISTERS declaration: src/items/plan.ts) */
  readonly planMismatches: string[] = [];
  /** requests made by checks, as the checks counted them */
  requests = 0;
  /** what the invariants found in the answers of every check (src/check/invariants), added up */
  readonly invariants = new InvariantTally();
  /** the checks whose waits for a write to show reached the visibility deadline, with how many (report.json run.visibilityWaits) */
  readonly waitsAtDeadline = new Map<string, number>();
  private total = 0;
  private plan?: RunPlan;
  private failed = 0;
  private errors = 0;
  /** checks started and not finished yet, by test id (insertion order: the last is the latest) */
  private readonly running = new Map<string, string>();
  private selects?: (id: string) => boolean;
  private kitChecks = 0;

  /**
   * `config`: the run's, for the reproducer commands (its seed, target, depth…);
   * without it (unit tests) a reproducer command names the check only.
   */
  constructor(
    private readonly onProgress?: (p: Progress) => void,
    private readonly config?: ReproducerConfig & { only?: string },
  ) {}

  /**
   * The checks the run will finish, known before the first (src/items/plan.ts): the progress total from the start.
   * `kitChecks`: the checks the kit judges on every answer (the invariants), done when the suites are.
   */
  setPlan(plan: RunPlan, kitChecks = 0): void {
    this.plan = plan;
    this.kitChecks = kitChecks;
    this.total = plan.total + kitChecks;
  }

  /** The total the progress line shows: planned, or (without a plan) counted as vitest collects each file. */
  get planned(): number {
    return this.total;
  }

  onTestModuleCollected(module: TestModule): void {
    for (const e of module.errors()) this.engineErrors.push(`${relative(module.moduleId)}: ${e.message}`);
    if (!this.plan) {
      for (const t of module.children.allTests()) if (t.options.mode !== 'skip' && t.options.mode !== 'todo') this.total++;
      return;
    }
    // the plan said which checks this file registers (its REGISTERS declaration): a file that
    // registers others corrects the total now, and is named in planMismatches
    const selects = onlySelects(this.config?.only);
    const file = relative(module.moduleId);
    const registered = [...module.children.allTests()].map((t) => t.name.split(' — ')[0]).filter(selects);
    const planned = new Set(this.plan.byFile.get(module.moduleId) ?? this.plan.byFile.get(file) ?? []);
    if (registered.length === planned.size && registered.every((id) => planned.has(id))) return;
    this.total += registered.length - planned.size;
    // a file that did not load registers nothing: an engine error (above), not a stale plan
    if (!module.errors().length) this.planMismatches.push(`${file}: registers ${registered.length} selected check(s), the plan says ${planned.size}`);
  }

  /** A check started: the progress line names the check running now (one --only selects: the others end at once, skipped). */
  onTestCaseReady(testCase: TestCase): void {
    const id = testCase.name.split(' — ')[0];
    this.selects ??= onlySelects(this.config?.only);
    if (!this.selects(id)) return;
    this.running.set(testCase.id, id);
    this.onProgress?.(this.progress());
  }

  private progress(last?: CheckResult): Progress {
    const current = [...this.running.values()].at(-1);
    return {
      done: this.results.length, total: Math.max(this.total, this.results.length), failed: this.failed, errors: this.errors,
      running: this.running.size, ...(current ? { current } : {}), ...(last ? { last } : {}),
    };
  }

  onTestCaseResult(testCase: TestCase): void {
    this.running.delete(testCase.id);
    const meta = (testCase.meta() as any).storecheck as CheckTaskMeta | undefined;
    const result = testCase.result();
    if (!meta) {
      // filtered out by --only / shard (never ran), or a test that is not a check
      if (result.state === 'skipped') {
        // without a plan, every test of a collected file was counted: one that never ran is taken off
        if (!this.plan) this.total--;
        return;
      }
      if (result.state === 'failed') this.engineErrors.push(`${testCase.fullName}: ${result.errors?.[0]?.message ?? 'failed'} (not a storecheck check)`);
      return;
    }
    this.requests += meta.requests;
    this.invariants.add(meta.invariants);
    if (meta.waitsAtDeadline) this.waitsAtDeadline.set(meta.id, (this.waitsAtDeadline.get(meta.id) ?? 0) + meta.waitsAtDeadline);
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
      requests: meta.requests,
      ...(meta.roundTrips !== undefined ? { roundTrips: meta.roundTrips } : {}),
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
          command: this.command(meta.id, f.seed, f.path),
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
    this.onProgress?.(this.progress(check));
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
      if (rec.classes && (rec.classes.judged.length || rec.classes.notJudged.length)) r.classes = rec.classes;
      if (rec.status === 'failed') {
        if (rec.expected !== undefined) r.expected = rec.expected;
        if (rec.actual !== undefined) r.actual = rec.actual ?? (rec.counterexample !== undefined ? { counterexample: rec.counterexample } : undefined);
        if (rec.evidence) r.evidence = rec.evidence as HttpExchange[];
        r.reproducer = {
          ...(rec.curl ? { curl: rec.curl } : {}),
          seed: rec.seed ?? meta.seed,
          ...(rec.path ? { path: rec.path } : {}),
          command: this.command(item.id, rec.seed, rec.path),
        };
      } else if (rec.status === 'error' && rec.evidence) r.evidence = rec.evidence as HttpExchange[];
      out.push(r);
    }
    return out;
  }

  /** The command that reruns one check or item as this run ran it (with --replay when a property failed). */
  private command(id: string, seed: number | undefined, path: string | undefined): string {
    if (!this.config) return `${INVOCATION} --only '${id}'`;
    return reproducerCommand(this.config, id, { seed, path });
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    for (const e of unhandledErrors) this.engineErrors.push(`unhandled error: ${e.message ?? String(e)}`);
    // the invariant checks are judged on every answer the suites had: done with them (their verdicts come with the results)
    if (this.kitChecks && this.results.length) {
      const done = this.results.length + this.kitChecks;
      this.onProgress?.({ done, total: Math.max(this.total, done), failed: this.failed, errors: this.errors });
    }
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
