/**
 * Registration: the filter checks of one resource, from the item catalogue
 * (src/items/filters.ts) — a get check per filter key (and per range field
 * for both bounds together) and a count check per key, each judging its
 * cases. A case's values are drawn from the same seed for its get and its
 * count check, so both judge the same requests (query.ts shares them).
 */
import fc from 'fast-check';
import {
  carriesTag, check, checksOf, expectation, hasOpen, judgeGet, lower, rangePairs, forValues, termsText, GET_ONLY_CASES, type CheckContext, type Fixture, type ItemContext, type Rec, type CheckDef,
  type FilterModel, type ResourceModel, type Term,
} from '../../src/check/index.js';
import { allKeysCase, arrayCase, booleanCase, bothCase, classesCase, dayCase, idCase, rangeCase, type CaseSpec, type CaseValues } from './cases.js';
import type { ClassEnv } from './classes.js';
import { andMode, ask, inclusive, rejected, scopedFilters, settledWalk, showFilters, type CaseAnswer } from './query.js';
import type { Scoped } from './scoped.js';
import { numberSyntaxKeptOut, observedNotTaken } from '../support/classes.js';

/** The readings whose classes join the filter lists and bounds where probed not taken (the others are kept out per property, or the oracle does not judge under them); of number-syntax, the classes the store was seen to take (numberSyntaxKeptOut). */
const FILTER_READINGS: readonly string[] = ['int32', 'utf8mb3', 'decimal-digits', 'case-insensitive', 'number-syntax', 'guid-version', 'timestamp-range', 'normalization'];

const GET_RULES = ['filters.id', 'filters.array', 'filters.range', 'filters.date-only-bound', 'filters.boolean'] as const;

/** The case of a check subject (a filter key, a range field for #both and #classes, or the id filter). */
function caseSpec(s: Scoped, subject: string, c: string, env: ClassEnv): CaseSpec {
  const { r } = s;
  const f = r.filters.find((x) => x.key === subject);
  if (subject === 'id' && f) return idCase(s, f, c, env);
  if (f?.filter === 'array') return arrayCase(s, f, c, env);
  if (f?.filter === 'boolean') return booleanCase(f, c);
  if (f?.filter === 'range') return c === 'day' ? dayCase(s, f) : rangeCase(s, f, c);
  const pair = rangePairs(r).find((p) => p.field === subject);
  if (pair) return c === 'classes' ? classesCase(s, pair.min, pair.max, env) : bothCase(s, pair.min, pair.max);
  throw new Error(`no filter case for ${r.name} ${subject}#${c}`);
}

/**
 * How a case draws class values: the depth's values per class, seeded by the case's label, so that its get
 * check and its count check draw the same values and send the same requests (query.ts shares them).
 */
const envOf = (it: ItemContext, label: string): ClassEnv => ({ perClass: it.depth.classValues, draw: (arb, what) => it.sampleShared(arb, `${label}:${what}`), idCase: it.observed('filters.idCase'), readings: observedNotTaken().filter((x) => FILTER_READINGS.includes(x)), keptOut: numberSyntaxKeptOut() });

/** The case specs of a scope, built once for the get check and the count check of a case (they are the same: same seed, same scope). */
const specs = new WeakMap<Scoped, Map<string, CaseSpec>>();

/** The spec of the item's case on scope `s` (exported for its unit test). */
export function sharedCaseSpec(it: ItemContext, s: Scoped, subject: string): CaseSpec {
  const label = labelOf(s.r, subject, it.case);
  let byLabel = specs.get(s);
  if (!byLabel) specs.set(s, (byLabel = new Map()));
  let spec = byLabel.get(label);
  if (!spec) byLabel.set(label, (spec = caseSpec(s, subject, it.case, envOf(it, label))));
  return spec;
}

/** Keys the target does not take, by an honest choice the observations recorded (the page title filter key). */
function untaken(r: ResourceModel, keys: FilterModel[], ctx: CheckContext): string | undefined {
  const mode = ctx.observed('pages.titleFilterKey');
  for (const f of keys) {
    const paired = f.aliasOf !== undefined || r.filters.some((x) => x.aliasOf === f.key);
    if (paired && mode !== 'both' && mode !== f.key) {
      return `this target takes the ${r.title.toLowerCase()} title filter as ${mode} only, not ${f.key} (observation pages.titleFilterKey; §4: the samples use name, the table title)`;
    }
  }
  return undefined;
}

/** The filters object a case sends: the scope's id filter beside the terms (AND), or the terms alone (OR). */
function filtersOf(s: Scoped, terms: Term[]): Rec {
  return scopedFilters(s, Object.fromEntries(terms.map((t) => [t.f.key, t.value])));
}

/** The shared label of a case: its values are the same for the get check and the count check. */
const labelOf = (r: ResourceModel, subject: string, c: string) => `${r.name}.filters.${subject}#${c}`;

/**
 * The designed value (one run), then generated ones for the rest of the depth's values; a case with `all` values: each of them.
 * `run` learns whether the value is one whose count is asked (the first DepthProfile.countedValues of the case);
 * `countedOnly`: those values alone (the count check). Exported for its unit test.
 */
export async function valuesOf(it: ItemContext, spec: CaseValues<unknown>, label: string, run: (v: unknown, counted: boolean) => Promise<void>, countedOnly = false): Promise<void> {
  if (spec.all) {
    for (const v of spec.all) await run(v, true);
    return;
  }
  let seen = 0;
  const counted = it.depth.countedValues;
  await forValues(it, spec.designed, spec.generated as fc.Arbitrary<unknown>, (v) => run(v, seen++ < counted), label, countedOnly ? counted : Infinity);
}

/** The terms' filter models, to check they are taken (drawn from one value of the case: its keys, not its values, matter). */
function keysOf(spec: CaseValues<unknown>, it: ItemContext): FilterModel[] {
  const v = spec.all?.[0] ?? it.sample((spec.designed ?? spec.generated) as fc.Arbitrary<unknown>, 'filter keys');
  return spec.terms(v).map((t) => t.f);
}

function subjectOf(def: CheckDef): string {
  return def.subject ?? 'id';
}

export function registerFilterChecks(r: ResourceModel, fx: Fixture<Scoped>): void {
  const scoped = async (ctx: CheckContext): Promise<Scoped> => {
    const s = await fx.get(ctx);
    if (!s.records.length) ctx.notJudged(`${s.what} holds no ${r.title.toLowerCase()} record: nothing to filter`);
    return s;
  };
  /** Per item: the case spec, or why it is not judged; the value classes its values carry are recorded. */
  const prepare = (ctx: ItemContext, s: Scoped, subject: string): CaseValues<unknown> => {
    const spec = sharedCaseSpec(ctx, s, subject);
    if ('notJudged' in spec) ctx.notJudged(spec.notJudged);
    const why = untaken(r, keysOf(spec, ctx), ctx);
    if (why) ctx.notJudged(why);
    if (spec.classes) ctx.classes(spec.classes.judged, spec.classes.notJudged);
    return spec;
  };

  for (const def of GET_RULES.flatMap((rule) => checksOf(rule, r.name))) {
    const subject = subjectOf(def);
    check(def, async (ctx) => {
      const s = await scoped(ctx);
      await Promise.all(def.items.map((item) => ctx.item(item.case, async (it) => {
        const spec = prepare(it, s, subject);
        await valuesOf(it, spec, labelOf(r, subject, item.case), async (v, counted) => {
          const terms = spec.terms(v);
          const ans = await ask(it, s, filtersOf(s, terms), false, { count: counted && !GET_ONLY_CASES.has(item.case) });
          const get = ans.get;
          if (rejected(get)) {
            return it.fail({
              message: `${r.title} get with filters ${showFilters(ans.filters)} was not accepted: ${get.problem}`,
              why: `§4 Filters per resource: ${terms.map((t) => t.f.key).join(', ')} are documented filters of ${r.prefix} and the values are valid`,
              expected: '2xx with the matching records',
              actual: get.problem,
              evidence: get.exchanges.slice(-1),
            });
          }
          const incl = inclusive();
          const missing = (w: typeof get) => {
            const returned = new Set(w.records.map((x) => lower(x?.id)));
            return s.records.filter((x) => expectation(r, terms, x, incl) === 'in' && !returned.has(lower(x.id))).length;
          };
          judgeGet(it, s, terms, await settledWalk(it, s, ans.filters, get, missing));
        });
      })));
    });
  }

  for (const def of checksOf('filters.all-keys', r.name)) {
    check(def, async (ctx) => {
      const s = await scoped(ctx);
      await ctx.item('get', (it) => allKeys(it, s));
    });
  }

  for (const def of checksOf('filters.count-agrees', r.name)) {
    const subject = subjectOf(def);
    check(def, async (ctx) => {
      const s = await scoped(ctx);
      await Promise.all(def.items.map((item) => ctx.item(item.case, async (it) => {
        const spec = prepare(it, s, subject);
        let compared = 0;
        let churned = 0;
        await valuesOf(it, spec, labelOf(r, subject, item.case), async (v) => {
          const terms = spec.terms(v);
          const outcome = await countAgrees(it, s, terms);
          if (outcome === 'compared') compared++;
          if (outcome === 'churned') churned++;
        }, true);
        if (!compared && churned) it.notJudged(`under OR the filters reach the run's other ${r.name} records too, and at every look count and get differed by no more than those records changed between the looks (filters.combination or): nothing to compare that stood still`);
        else if (!compared) it.notJudged(`get did not accept the filters, so there is nothing to compare count with (judged by ${r.name}.filters.*.${subject})`);
      })));
    });
  }
}

/**
 * count and get with the same filters (§4 Filters per resource: "Filters are
 * the same for get and count"): the count is the number of records the get
 * walk found (at least that many when the walk stopped early). Under OR
 * combination the filters are not scoped by the id filter: other checks'
 * records come and go between the two requests (and shift the pages of a
 * walk), so a disagreement counts only when it holds on a second and third
 * look and is larger than the run's own churn those looks show
 * (ownChurn). Returns 'refused' when the get was refused (nothing to
 * compare), 'churned' when the churn explains the difference.
 */
async function countAgrees(it: ItemContext, s: Scoped, terms: Term[]): Promise<'compared' | 'refused' | 'churned'> {
  const filters = filtersOf(s, terms);
  let ans: CaseAnswer = await ask(it, s, filters);
  if (rejected(ans.get)) return 'refused';
  const looks = [ans];
  for (let look = 1; look < (andMode() ? 1 : 3) && disagrees(ans); look++) looks.push((ans = await ask(it, s, filters, true)));
  const get = ans.get;
  if (rejected(get)) return 'refused';
  if (!ans.count.ok && 'notJudged' in ans.count) it.notJudged(ans.count.notJudged);
  if (!ans.count.ok) {
    it.fail({
      message: `${s.r.name} count with filters ${showFilters(filters)} was not accepted (${ans.count.problem}) while get accepted them`,
      why: '§4 Filters per resource: filters are the same for get and count',
      expected: '2xx {count}',
      actual: ans.count.problem,
      evidence: [...get.exchanges.slice(-1), ans.count.exchange],
    });
  }
  if (disagrees(ans) && ans.count.ok) {
    const walked = get.records.length;
    if (!andMode() && Math.abs(ans.count.value - walked) <= ownChurn(looks, it.config.runTag)) return 'churned';
    it.fail({
      message: `${s.r.name} count with ${termsText(terms)}${andMode() ? ` (and the id filter of ${s.what})` : ''} answered ${ans.count.value} while get returned ${walked} record(s)${get.complete ? '' : ' before the walk stopped'}${hasOpen(s, terms) ? ' (records on the bound’s day count as the get showed them)' : ''}`,
      why: '§4 Filters per resource: filters are the same for get and count; count says how many records get returns',
      expected: get.complete ? walked : `at least ${walked}`,
      actual: ans.count.value,
      evidence: [...get.exchanges.slice(-1), ans.count.exchange],
    });
  }
  return 'compared';
}

function disagrees(a: CaseAnswer): boolean {
  if (rejected(a.get) || !a.count.ok) return false;
  return a.get.complete ? a.count.value !== a.get.records.length : a.count.value < a.get.records.length;
}

/**
 * How much the records matching the filters changed between the looks, as far
 * as the looks show it: the run's own records (carrying its tag) that some
 * walks listed and others did not, or the spread of the counts, whichever is
 * larger. The store's own records do not change during a run; a count wrong
 * by a constant (one too many, a key ignored) shows on a resource nothing else
 * is writing to, and in AND mode, where the id filter scopes every look.
 */
function ownChurn(looks: CaseAnswer[], runTag: string): number {
  const own = looks.map((l) => (rejected(l.get) ? new Set<string>() : new Set(l.get.records.filter((x) => carriesTag(x, runTag)).map((x) => String(x.id).toLowerCase()))));
  const all = new Set(own.flatMap((ids) => [...ids]));
  const moved = [...all].filter((id) => !own.every((ids) => ids.has(id))).length;
  const counts = looks.map((l) => (l.count.ok ? l.count.value : undefined)).filter((n): n is number => n !== undefined);
  return Math.max(moved, counts.length ? Math.max(...counts) - Math.min(...counts) : 0);
}

/**
 * Every filter key of the resource but id in one request (the keys the
 * target takes: an alias stands for its key where only it is taken), judged
 * by the oracle under the observed combination (filters.combination).
 */
async function allKeys(it: ItemContext, s: Scoped): Promise<void> {
  const { r } = s;
  const keys = r.filters.filter((f) => f.key !== 'id' && !untaken(r, [f], it))
    .filter((f, _, all) => f.aliasOf === undefined || !all.some((x) => x.key === f.aliasOf));
  const spec = allKeysCase(s, keys);
  if ('notJudged' in spec) return it.notJudged(spec.notJudged);
  const ans = await ask(it, s, filtersOf(s, spec.terms), false, { count: false });
  const get = ans.get;
  const note = spec.left.length ? ` (${spec.left.join(', ')} left out: no value of the records within their limits)` : '';
  if (rejected(get)) {
    return it.fail({
      message: `${r.title} get with ${spec.terms.length} filter keys at once (${showFilters(ans.filters)}) was not accepted: ${get.problem}`,
      why: `§4 Filters per resource: ${spec.terms.map((t) => t.f.key).join(', ')} are documented filters of ${r.prefix} and the values are valid`,
      expected: '2xx with the matching records',
      actual: get.problem,
      evidence: get.exchanges.slice(-1),
    });
  }
  if (andMode()) return judgeGet(it, s, spec.terms, get, note);
  judgeAny(it, s, spec.terms, await settledWalk(it, s, ans.filters, get, (w) => anyMissing(s, spec.terms, w).length), note);
}

/**
 * Under OR (observation filters.combination) a record is one of the answer
 * when any key's condition holds (the _min and _max of one field bound it
 * together): every record returned must satisfy one, and every record of the
 * scope satisfying one must be returned (when the walk was complete).
 */
function judgeAny(it: ItemContext, s: Scoped, terms: Term[], get: Exclude<CaseAnswer['get'], { problem: string }>, note: string): void {
  const any = anyOf(s, terms);
  const label = `${s.r.name} ${termsText(terms)}${note} (filters combine with OR on this target: observation filters.combination)`;
  const why = `§4 Filters per resource; several filters combine with OR on this target (observation filters.combination): a record matches when any key's condition holds`;
  const evidence = get.exchanges.slice(-2);
  const wrong = get.records.filter((x) => any(x) === 'out');
  if (wrong.length) it.fail({ message: `${label} returned ${wrong.length} record(s) no key matches, e.g. ${wrong[0]?.id}`, why, expected: 'records one key matches', actual: wrong.slice(0, 12).map((x) => x?.id), evidence });
  if (!get.complete) return;
  const missing = anyMissing(s, terms, get);
  if (missing.length) it.fail({ message: `${label} left out ${missing.length} record(s) of ${s.what} a key matches, e.g. ${missing[0]?.id}; it returned ${get.records.length}`, why, expected: missing.slice(0, 12).map((x) => x.id), actual: `${get.records.length} records`, evidence });
}

/** Under OR: a record is in when any key's condition holds (the _min and _max of one field bound it together). */
function anyOf(s: Scoped, terms: Term[]): (rec: Rec) => 'in' | 'out' | 'unknown' {
  const byKey = new Map<string, Term[]>();
  for (const t of terms) {
    const k = t.f.filter === 'range' ? `range:${t.f.field}` : t.f.key;
    byKey.set(k, [...(byKey.get(k) ?? []), t]);
  }
  const groups = [...byKey.values()];
  return (rec: Rec) => {
    const each = groups.map((g) => expectation(s.r, g, rec));
    return each.includes('in') ? 'in' : each.every((e) => e === 'out') ? 'out' : 'unknown';
  };
}

/** The records of the scope some key matches that a walk did not return. */
function anyMissing(s: Scoped, terms: Term[], get: Exclude<CaseAnswer['get'], { problem: string }>): Rec[] {
  const any = anyOf(s, terms);
  const returned = new Set(get.records.map((x) => lower(x?.id)));
  return s.records.filter((x) => any(x) === 'in' && !returned.has(lower(x.id)));
}
