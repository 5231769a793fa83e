/**
 * The invariants in the report. Checks judge the answers of their own
 * requests in the workers (src/check/invariants) and leave a tally on their
 * task; the answers of the preflight and the probes are judged here, in the
 * main process, once the probes have said what the target chose. Added up,
 * the tallies become the results of the catalogue's invariant checks
 * (`<resource>.invariants.<name>`, src/items/invariants.ts): an item passes
 * when answers of its operation were judged and none broke it, fails naming
 * the item whose request showed the breach (its reproducer reruns both), and
 * is not judged, saying why, when no such answer came back in this run.
 */
import type { Exchange, Http } from '../client/http.js';
import { InvariantTally, type Claim, type InvariantOutcome, type Violation } from '../check/invariants/tally.js';
import { readingsOf } from '../check/invariants/judge.js';
import { observeFrom } from '../check/observed.js';
import { catalogue, isInvariantRule, type CheckDef, type ItemDef } from '../items/index.js';
import { onlySelects, selectedItems } from '../items/select.js';
import type { CheckResult, HttpExchange, ItemResult } from '../report/types.js';
import { rule as ruleOf } from '../rules.js';
import type { RunConfig } from '../config.js';
import { reproducerCommand, type ReproducerConfig } from './reproduce.js';

/** The run phases whose answers the main process judges, as a violation names them. */
export type MainPhase = 'the preflight' | 'the probes';

/**
 * The answers of the main process's client during the preflight and the
 * probes, kept until the probes' observations are known (a few hundred
 * exchanges at most: the probes are a fixed set of requests), then judged.
 */
export class MainAnswers {
  private readonly kept: Array<{ ex: Exchange; by: MainPhase }> = [];
  private phase: MainPhase = 'the preflight';
  private readonly listener = (ex: Exchange) => this.kept.push({ ex, by: this.phase });

  constructor(private readonly http: Http) {
    http.listeners.add(this.listener);
  }

  /** The answers from now on are the probes'. */
  probing(): void {
    this.phase = 'the probes';
  }

  /** Stop listening; judge what was kept under the observations the probes made. */
  judge(observations: Readonly<Record<string, unknown>>, apiKey: string): InvariantTally {
    this.http.listeners.delete(this.listener);
    // what reads observations while judging (the filter oracle) reads the probed ones in this process too
    observeFrom(() => observations);
    const k = readingsOf(observations, apiKey);
    const tally = new InvariantTally();
    for (const { ex, by } of this.kept.splice(0)) tally.see(ex, by, k);
    return tally;
  }
}

export interface InvariantResults {
  checks: CheckResult[];
  items: ItemResult[];
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The results of every invariant check --only selects, from the run's tally. */
export function invariantResults(tally: InvariantTally, config: ReproducerConfig & Pick<RunConfig, 'only'>): InvariantResults {
  const selects = onlySelects(config.only);
  const checks: CheckResult[] = [];
  const items: ItemResult[] = [];
  for (const def of catalogue().filter((c) => isInvariantRule(c.rule) && selects(c.id))) {
    const mine = selectedItems(config.only, def).map((i) => itemResult(i, unclaimed(tally.get(i.id), tally.claimed(i.id)), config));
    if (!mine.length) continue;
    items.push(...mine);
    checks.push(checkResult(def, mine));
  }
  return { checks, items };
}

/** An outcome with the causes a designed check reported left to it: what the invariant still has to say. */
interface Unclaimed {
  o: InvariantOutcome | undefined;
  /** the violation to show: of the first asker in id order, among those showing a cause no check reported */
  shown?: Violation;
  /** the causes the invariant reports: none left when every cause it found was reported by `by` */
  open?: string[];
  claim?: Claim;
}

/**
 * One failure per cause: where the check designed for the same property (the
 * record schema of one form: conventions.record-schema, .write-record-schema)
 * failed for a cause itself, the invariant does not report that cause again.
 */
function unclaimed(o: InvariantOutcome | undefined, claim: Claim | undefined): Unclaimed {
  if (!o?.failed || !o.byCause || !claim) return { o, shown: o?.violations[0] };
  const open = Object.keys(o.byCause).filter((c) => !claim.causes.includes(c)).sort(byId);
  const shown = open.map((c) => o.byCause![c]).sort((x, y) => byId(x.seenBy, y.seenBy))[0];
  return { o, shown, open, claim };
}

function itemResult(i: ItemDef, u: Unclaimed, config: ReproducerConfig): ItemResult {
  const base = { id: i.id, check: i.check, rule: i.rule, resource: i.resource, kind: i.kind };
  const o = u.o;
  if (!o?.judged) return { ...base, status: 'not-judged', reason: notJudgedWhy(i, config) };
  if (!o.failed) return { ...base, status: 'passed' };
  if (!u.shown && u.claim) {
    const causes = Object.keys(o.byCause ?? {});
    return { ...base, status: 'not-judged', reason: `${o.failed} of the ${o.judged} answers judged broke it, each for a cause ${u.claim.by.join(' and ')} failed for (${causes.length === 1 ? causes[0] : `${causes.length} causes, e.g. ${causes[0]}`}): one failure per cause, reported there` };
  }
  // the violation shown is the first asker's in id order (the same whatever order the answers came in)
  const v = u.shown!;
  const others = o.seenBy.filter((by) => by !== v.seenBy).sort(byId);
  const seenBy = [v.seenBy, ...others];
  const r = ruleOf(i.rule);
  const more = o.failed > 1 ? `; ${o.failed} of the ${o.judged} answers judged broke it${others.length ? `, answering ${others.slice(0, 3).join(', ')}${others.length > 3 ? ` and ${others.length - 3} more` : ''} too` : ''}` : '';
  const left = u.claim && u.open ? `; beside the causes ${u.claim.by.join(' and ')} reported, ${u.open.length === 1 ? 'this one' : `these ${u.open.length}`}: ${u.open.slice(0, 3).join('; ')}` : '';
  return {
    ...base,
    status: 'failed',
    message: `the answer to a request of ${v.seenBy}: ${v.message}${more}${left} (${r.section}: ${r.title})`,
    expected: v.expected,
    actual: v.actual,
    evidence: v.evidence as HttpExchange[],
    seenBy,
    reproducer: {
      curl: v.curl,
      seed: config.seed,
      // the invariant item and the item whose request showed the breach (the probes run in every run)
      command: reproducerCommand(config, isRunPhase(v.seenBy) ? i.id : `${i.id},${v.seenBy}`),
    },
  };
}

const isRunPhase = (by: string) => by === 'the preflight' || by === 'the probes';

function notJudgedWhy(i: ItemDef, config: ReproducerConfig): string {
  const writes = i.case === 'create' || i.case === 'update';
  if (writes && config.readOnly) return `the run is --read-only: no ${i.case} answer to judge`;
  const what: Record<string, string> = {
    'invariants.only-asked-ids': `no ${i.case} of ${i.resource} filtered by id was answered with the run's key in this run`,
    'invariants.filter-satisfied': `no get of ${i.resource} filtered by a key this invariant can judge (a known key, taken by this target, with a valid value) came back with records in this run`,
    'invariants.ids-unique': `no ${i.case} answer of ${i.resource} holding records came back in this run`,
    'invariants.record-schema': `no ${i.case} answer of ${i.resource} holding records came back in this run`,
  };
  return what[i.rule] ?? `no successful ${i.case} answer of ${i.resource} to a request with the run's key came back in this run`;
}

function checkResult(def: CheckDef, items: ItemResult[]): CheckResult {
  const r = ruleOf(def.rule);
  const n = (s: ItemResult['status']) => items.filter((i) => i.status === s).length;
  const failed = items.find((i) => i.status === 'failed');
  const status = failed ? 'failed' : n('passed') ? 'passed' : 'skipped';
  const out: CheckResult = {
    id: def.id, title: def.title ?? r.title, resource: def.resource, rule: def.rule, group: r.group, section: r.section, level: r.level,
    status, durationMs: 0,
    items: { total: items.length, passed: n('passed'), failed: n('failed'), notJudged: n('not-judged'), errors: n('error') },
  };
  if (failed) Object.assign(out, pick(failed, ['message', 'expected', 'actual', 'evidence', 'seenBy', 'reproducer']));
  if (status === 'skipped') out.reason = items[0].reason;
  return out;
}

function pick<T extends object, K extends keyof T>(o: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Pick<T, K>;
}
