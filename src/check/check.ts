/**
 * `check()`: a small vitest test that names the rule it verifies.
 *
 *   check({ rule: 'filters.range', resource: 'product', subject: 'price' }, async (ctx) => { ... })
 *
 * registers test `product.filters.range.price — <rule title>`, records the
 * check's metadata on the task (read by the storecheck reporter), gives it a
 * scope whose records are deleted when it ends, collects every exchange it
 * makes as evidence, and turns what went wrong into a failure (the target broke
 * the rule) or a target error (the target did not answer).
 */
import * as allure from 'allure-js-commons';
import * as fc from 'fast-check';
import { test } from 'vitest';
import type { CallResult, StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import type { DepthProfile, RunConfig } from '../config.js';
import { rule as ruleOf, type RuleId } from '../rules.js';
import { resource as resourceModel, type ResourceModel } from '../schema/model.js';
import { CheckFailure, TargetError, isTargetError, requireOk, type FailureDetail } from './failure.js';
import { curlFor } from './reproducer.js';
import { runtime } from './runtime.js';
import { Scope } from './scope.js';

export interface CheckSpec {
  rule: RuleId;
  /** resource name, or '*' */
  resource: string;
  /** what within the resource: a field, a filter key, an operation */
  subject?: string;
  /** overrides the rule's title when the subject needs saying */
  title?: string;
  /** needs create/update/delete: skipped in --read-only runs */
  writes?: boolean;
  timeoutMs?: number;
}

/** What the reporter reads from `task.meta.storecheck`. */
export interface CheckTaskMeta {
  id: string;
  title: string;
  resource: string;
  rule: string;
  group: string;
  section: string;
  level: string;
  failure?: Omit<FailureDetail, 'evidence'> & { evidence?: EvidenceItem[]; curl?: string };
  targetError?: { message: string; evidence?: EvidenceItem[] };
  skipped?: string;
  requests: number;
  seed: number;
}

export interface EvidenceItem {
  request: { method: string; url: string; body: unknown };
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
}

export interface CheckContext {
  id: string;
  config: RunConfig;
  depth: DepthProfile;
  observations: Record<string, unknown>;
  client: StoreClient;
  /** the resource model, when the check is about one resource */
  model: ResourceModel | undefined;
  /** records created through it are deleted when the check ends */
  scope: Scope;
  /** every exchange made so far by this check */
  exchanges: Exchange[];
  /** the check's own seed (run seed mixed with its id): replays with --seed */
  seed: number;
  fail(detail: FailureDetail): never;
  /**
   * The check does not apply to what the target holds (nothing to judge, e.g.
   * an empty read-only resource): reported as skipped with the reason, never as
   * a pass. Call it from the check body, not from inside ctx.property.
   */
  skip(reason: string): never;
  /** the value of a call that must succeed; a 5xx/transport failure is a target error, anything else a failure */
  ok<T>(result: CallResult<T>, what: string): T;
  /** run a fast-check property with the check's seed; failures carry seed, path and counterexample */
  property<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, opts?: { runs?: number }): Promise<void>;
}

const registered = new Set<string>();
const MAX_EVIDENCE_BODY = 16_000;

export function checkId(spec: Pick<CheckSpec, 'rule' | 'resource' | 'subject'>): string {
  return [spec.resource === '*' ? 'all' : spec.resource, spec.rule, spec.subject].filter(Boolean).join('.');
}

export function check(spec: CheckSpec, fn: (ctx: CheckContext) => Promise<void>): void {
  const r = ruleOf(spec.rule);
  const id = checkId(spec);
  if (registered.has(id)) throw new Error(`duplicate check id ${id}: check ids must be unique (reports compare by id)`);
  registered.add(id);
  const title = spec.title ?? r.title;

  test(`${id} — ${title}`, { timeout: spec.timeoutMs }, async (t) => {
    const rt = runtime();
    const seed = mixSeed(rt.config.seed, id);
    const meta: CheckTaskMeta = { id, title, resource: spec.resource, rule: spec.rule, group: r.group, section: r.section, level: r.level, requests: 0, seed };
    (t.task.meta as any).storecheck = meta;
    // Allure: resource as epic, rule group as feature, rule as story (no-ops unless allure-vitest is set up)
    await allure.labels(
      { name: 'epic', value: spec.resource },
      { name: 'feature', value: r.group },
      { name: 'story', value: spec.rule },
      { name: 'severity', value: r.level === 'must' ? 'critical' : r.level === 'quirk' ? 'minor' : 'trivial' },
      { name: 'tag', value: `${r.level} ${r.section}` },
    );
    if (spec.writes && rt.config.readOnly) {
      meta.skipped = 'needs create/update/delete; the run is --read-only';
      t.skip(meta.skipped);
      return;
    }
    const exchanges: Exchange[] = [];
    // a client of the check's own: shares the pool, records only this check's exchanges
    const client = rt.client.fork((ex) => {
      exchanges.push(ex);
      meta.requests++;
    });
    const maxItems = rt.observations['limits.maxDataItems'];
    const scope = new Scope(client, typeof maxItems === 'number' ? maxItems : null);
    const ctx: CheckContext = {
      id, seed,
      config: rt.config,
      depth: rt.depth,
      observations: rt.observations,
      client,
      model: spec.resource === '*' ? undefined : resourceModel(spec.resource),
      scope,
      exchanges,
      fail(detail) {
        throw new CheckFailure(detail);
      },
      skip(reason) {
        meta.skipped = reason;
        // vitest's skip throws its PendingError: the test ends as skipped
        t.skip(reason);
        throw new Error(`skip: ${reason}`);
      },
      ok: (result, what) => requireOk(result, what),
      property: (arb, predicate, opts) => runProperty(ctx, arb, predicate, opts),
    };
    try {
      await fn(ctx);
    } catch (e) {
      if (meta.skipped !== undefined) throw e;
      recordOutcome(meta, e, exchanges);
      await attachToAllure(meta);
      throw e;
    } finally {
      await scope.close();
    }
  });
}

async function runProperty<T>(ctx: CheckContext, arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, opts: { runs?: number } = {}): Promise<void> {
  const numRuns = opts.runs ?? ctx.depth.runs;
  const out = await fc.check(fc.asyncProperty(arb, predicate), {
    seed: ctx.seed,
    numRuns,
    endOnFailure: !ctx.depth.shrink,
    // shrinking costs requests: bound it so a failure never holds the run hostage
    interruptAfterTimeLimit: 60_000,
    markInterruptAsFailure: false,
  });
  if (!out.failed) return;
  const err = out.errorInstance;
  if (err instanceof TargetError) throw err;
  const base: FailureDetail = err instanceof CheckFailure ? err.detail : { message: String((err as Error)?.message ?? err) };
  throw new CheckFailure({
    ...base,
    message: `${base.message} (property failed after ${out.numRuns} run(s), shrunk ${out.numShrinks} time(s))`,
    seed: out.seed,
    path: out.counterexamplePath ?? undefined,
    counterexample: out.counterexample?.[0],
  });
}

function recordOutcome(meta: CheckTaskMeta, e: unknown, exchanges: Exchange[]): void {
  if (e instanceof TargetError) {
    const ev = e.evidence.length ? e.evidence : exchanges.filter(isTargetError).slice(-1);
    meta.targetError = { message: e.message, evidence: ev.map(toEvidence) };
    return;
  }
  const detail: FailureDetail = e instanceof CheckFailure ? e.detail : { message: (e as Error)?.message ?? String(e) };
  const ev = detail.evidence?.length ? detail.evidence : exchanges.slice(-2);
  meta.failure = {
    message: detail.message,
    expected: detail.expected,
    actual: detail.actual,
    seed: detail.seed,
    path: detail.path,
    counterexample: trimValue(detail.counterexample),
    evidence: ev.map(toEvidence),
    curl: ev.length ? curlFor(ev[ev.length - 1]) : undefined,
  };
}

async function attachToAllure(meta: CheckTaskMeta): Promise<void> {
  const detail = meta.failure ?? meta.targetError;
  if (!detail) return;
  if (meta.failure?.curl) await allure.attachment('reproducer.sh', meta.failure.curl, 'text/plain');
  await allure.attachment('evidence.json', JSON.stringify(detail, null, 2), 'application/json');
}

function toEvidence(ex: Exchange): EvidenceItem {
  const body = ex.response?.text ?? '';
  return {
    request: { method: ex.request.method, url: ex.request.url, body: trimValue(ex.request.body) },
    response: ex.response && {
      status: ex.response.status,
      headers: ex.response.headers,
      body: body.length > MAX_EVIDENCE_BODY ? `${body.slice(0, MAX_EVIDENCE_BODY)}… [${body.length - MAX_EVIDENCE_BODY} more characters]` : body,
    },
    error: ex.transportError ? `${ex.transportError.code}: ${ex.transportError.message}` : ex.parseError,
  };
}

/** Keep evidence and counterexamples readable: long strings shortened, structure kept. */
function trimValue(v: unknown, max = 2_000): unknown {
  if (typeof v === 'string') return v.length > max ? `${v.slice(0, max)}… [${v.length} characters]` : v;
  if (Array.isArray(v)) return v.length > 200 ? [...v.slice(0, 200).map((x) => trimValue(x, max)), `… ${v.length - 200} more`] : v.map((x) => trimValue(x, max));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trimValue(x, max)]));
  return v;
}

/** A stable per-check seed: the run seed mixed with the check id (FNV-1a). */
export function mixSeed(seed: number, id: string): number {
  let h = 0x811c9dc5 ^ (seed | 0);
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}
