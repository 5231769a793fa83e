/**
 * Proofs of the generated local faults (faults-generated.ts) at several seeds.
 *
 * A fault is caught at a seed when the run says non-conformant (exit 1) and a
 * failing item matches the fault's `expects`; it is caught when caught at
 * every seed. A fault none of whose expected items could be judged on the
 * reference data (e.g. the 1000 cap of a resource holding 30 records), or
 * one observableOnReference says the reference server cannot show (a
 * property the run only ever sends as its default), is unobservable there:
 * reported apart, never counted as caught nor escaped.
 *
 * A catalogue of ~900 faults × 3 seeds, one whole run each, would take hours;
 * so one run carries several faults that cannot interfere: faults on different
 * resources, or on different fields of one resource (filters, properties,
 * forms), never two on one field and never a resource-wide fault (pages,
 * counts, deletes, keys, versions) beside another fault of its resource. A
 * batch stands only when every failing item of its run belongs to one of its
 * faults; otherwise each of its faults is proven again alone — and so is any
 * fault its batch did not catch (another fault may have hidden its items).
 */
import { rmSync } from 'node:fs';
import type { ItemResult, Report } from '../src/report/types.js';
import { runStorecheck, type CliRun } from './cli-process.js';
import { globRe, localFaults, observableOnReference, VALUE_CLASS_FAMILIES, type Family, type LocalFault } from './faults-generated.js';
import { allItems } from '../src/items/index.js';
import { runPool } from './pool.js';
import { DATE_ONLY_FIELDS } from '../src/observe/date-only.js';

export type LocalVerdict = 'caught' | 'escaped' | 'unobservable' | 'broken';

export interface LocalSeedProof {
  seed: number;
  verdict: LocalVerdict;
  /** failing items matching the fault */
  detectedBy: string[];
  /** how the run went when it did not end with a report */
  problem?: string;
  /** the command that replays the run the verdict came from */
  replay: string;
  /** the batch the proof ran in (fault names), when not alone */
  batch?: string[];
}

export interface LocalProof {
  name: string;
  family: string;
  resource: string;
  expects: string[];
  seeds: LocalSeedProof[];
  /** caught at every seed; unobservable at every seed; else escaped */
  verdict: LocalVerdict;
}

export interface LocalProofRun {
  proofs: LocalProof[];
  runs: number;
  /** faults proven again alone (a batch with unattributed failures, or a fault its batch did not catch) */
  reruns: number;
  ms: number;
}

const matcher = (f: LocalFault) => {
  const res = f.expects.map(globRe);
  return (id: string) => res.some((re) => re.test(id));
};

/** What a fault may not share a run with: its field (field-level families) or its whole resource. */
const FIELD_LEVEL = new Set(['filter-ignored', 'count-ignores-filter', 'bound-exclusive', 'array-first-value-only', 'case-insensitive', 'update-ignores-property', 'create-drops-property', 'update-truncates-string', 'get-form-wrong', 'write-form-wrong']);

function scopeOf(f: LocalFault): { resource: string; field?: string } {
  if (!FIELD_LEVEL.has(f.family)) return { resource: f.resource };
  // filter keys share a field with their _min/_max twin and with the payload property of the field
  const field = f.subject.replace(/_(min|max)$/, '').split('.')[0];
  return { resource: f.resource, field };
}

/**
 * How faults may share a run: `field` (the default: different fields of one
 * resource may share, resource-wide faults never) or `resource` (at most one
 * fault per resource: every failing item of a resource belongs to its one
 * fault, so collateral failures can never be credited to another fault).
 */
export type Sharing = 'field' | 'resource';

/**
 * Families whose departures are judged against a reading most of the store's
 * keys decide (filters.dateOnlyBound: the reading most of the DateTime fields
 * the probe asks show): a run holding as many departing keys as the probe asks
 * is a store taking their reading, no departure, and every fault of it would
 * be proven again alone. At most a minority of the fields asked share a run.
 */
const MAJORITY_DECIDED: Partial<Record<Family, number>> = { 'date-only-whole-day': Math.floor((DATE_ONLY_FIELDS - 1) / 2) };

/** Group faults into runs that cannot interfere (greedy, in catalogue order), at most `cap` per run. */
export function planBatches(faults: readonly LocalFault[], cap = 24, sharing: Sharing = 'field'): LocalFault[][] {
  const batches: Array<{ faults: LocalFault[]; wide: Set<string>; fields: Map<string, Set<string>> }> = [];
  for (const f of faults) {
    const s = sharing === 'resource' ? { resource: f.resource } : scopeOf(f);
    const most = MAJORITY_DECIDED[f.family];
    const fits = (b: (typeof batches)[number]) => {
      if (b.faults.length >= cap || b.wide.has(s.resource)) return false;
      if (most !== undefined && b.faults.filter((g) => g.family === f.family).length >= most) return false;
      const used = b.fields.get(s.resource);
      if (!s.field) return !used;
      return !used?.has(s.field);
    };
    let b = batches.find(fits);
    if (!b) {
      b = { faults: [], wide: new Set(), fields: new Map() };
      batches.push(b);
    }
    b.faults.push(f);
    if (!s.field) b.wide.add(s.resource);
    else b.fields.set(s.resource, new Set([...(b.fields.get(s.resource) ?? []), s.field]));
  }
  return batches.map((b) => b.faults);
}

/**
 * A deterministic sample of the catalogue: `perFamily` faults of every family,
 * on different resources where the family allows, each time on the resource
 * the sample has used least so far (so the sample spreads over the resources
 * and batches well), ties broken by catalogue order; only `eligible` faults.
 */
export function sampleFaults(all: readonly LocalFault[], perFamily: number | ((family: Family) => number), eligible: (f: LocalFault) => boolean = () => true): LocalFault[] {
  const faults = all.filter(eligible);
  const quota = typeof perFamily === 'number' ? () => perFamily : perFamily;
  const used = new Map<string, number>();
  const out: LocalFault[] = [];
  const families = [...new Set(faults.map((f) => f.family))];
  for (const family of families) {
    const pool = faults.filter((f) => f.family === family);
    const taken = new Set<string>();
    const n = quota(family);
    for (let i = 0; i < n && pool.length; i++) {
      const fresh = pool.filter((f) => !taken.has(f.resource));
      const candidates = fresh.length ? fresh : pool;
      // least-used resource first; among its faults, spread over the family's list
      const least = Math.min(...candidates.map((f) => used.get(f.resource) ?? 0));
      const onLeast = candidates.filter((f) => (used.get(f.resource) ?? 0) === least);
      const pick = onLeast[Math.floor((i * onLeast.length) / n) % onLeast.length];
      out.push(pick);
      pool.splice(pool.indexOf(pick), 1);
      taken.add(pick.resource);
      used.set(pick.resource, (used.get(pick.resource) ?? 0) + 1);
    }
  }
  return out;
}

/** Faults of every family `npm test` proves (test/meta/local-faults.test.ts); `npm run mutation` proves them all. */
export const NPM_TEST_PER_FAMILY = 2;

/**
 * Faults of `family` in the sample of `npm test`: NPM_TEST_PER_FAMILY, and one
 * of each value-class family. The sample's cost is its faults (a run holds one
 * per resource with its resource's checks): one of every family fits in 7 runs
 * a seed, where three of the others and none of eight value-class families took 8.
 */
export const npmTestPerFamily = (family: Family): number => (VALUE_CLASS_FAMILIES.has(family) ? 1 : NPM_TEST_PER_FAMILY);

/** The deterministic sample of the local catalogue `npm test` proves: what the reference data can show, npmTestPerFamily of each family. */
export function npmTestSample(): LocalFault[] {
  return sampleFaults(localFaults().filter((f) => observableOnReference(f)), npmTestPerFamily);
}

/** The rules whose items some of these faults expect to fail: the rules their proofs prove. */
export function rulesProvenBy(faults: readonly LocalFault[]): Set<string> {
  const rules = new Set<string>();
  const items = allItems();
  for (const f of faults) for (const g of f.expects) {
    const re = globRe(g);
    for (const i of items) if (re.test(i.id)) rules.add(i.rule);
  }
  return rules;
}

/**
 * The verdict of each fault of one run, and the failing items no fault of the
 * run explains. A failing item matching a fault's `expects` detects it; any
 * other failing item on a resource a fault of the run touches is that fault's
 * collateral (a dropped property also breaks the record's schema); a failing
 * item on a resource no fault touches is unexplained.
 */
export function attribute(faults: readonly LocalFault[], report: Pick<Report, 'items'> | undefined, exitCode: number | null): { verdicts: Map<string, { verdict: LocalVerdict; detectedBy: string[] }>; unexplained: string[] } {
  const items: ItemResult[] = report?.items ?? [];
  const failing = items.filter((i) => i.status === 'failed');
  const verdicts = new Map<string, { verdict: LocalVerdict; detectedBy: string[] }>();
  const touched = new Set(faults.map((f) => f.resource));
  for (const f of faults) {
    const mine = matcher(f);
    const detectedBy = failing.filter((i) => mine(i.id)).map((i) => i.id);
    const judged = items.some((i) => mine(i.id) && (i.status === 'passed' || i.status === 'failed'));
    // judged but not caught, where the reference server cannot show the fault (observableOnReference: a property the run
    // only ever sends as its default) is no escape: nothing the spec lets a client see differs
    const verdict: LocalVerdict = !report ? 'broken' : detectedBy.length && exitCode === 1 ? 'caught' : judged && observableOnReference(f) ? 'escaped' : 'unobservable';
    verdicts.set(f.name, { verdict, detectedBy });
  }
  // a fault's expected items are all of its own resource (test/unit/local-faults.test.ts): the resource decides
  return { verdicts, unexplained: failing.filter((i) => !touched.has(i.resource)).map((i) => i.id) };
}

export interface ProveLocalOptions {
  seeds: number[];
  concurrency: number;
  cap?: number;
  sharing?: Sharing;
  /**
   * Run only the checks of the faults' resources and those about all
   * resources (--only): a local fault touches its resource alone, so the
   * other resources' checks cannot see it; saves most of a whole run.
   */
  scoped?: boolean;
  depth?: 'quick' | 'standard' | 'deep';
  timeoutMs?: number;
  onRun?: (done: number, total: number, batch: string[], seed: number) => void;
}

/** The --only patterns of a scoped run: every check of the faults' resources, and the checks about all resources. */
export const onlyResources = (faults: readonly LocalFault[]): string => [...new Set(faults.map((f) => `${f.resource}.*`)), 'all.*'].join(',');

function args(seed: number, faults: readonly LocalFault[], o: Pick<ProveLocalOptions, 'scoped' | 'depth'>): string[] {
  const only = o.scoped ? ['--only', onlyResources(faults)] : [];
  return ['--depth', o.depth ?? 'quick', '--seed', String(seed), '--workers', '1', '--quiet', ...only, '--reference-faults', faults.map((f) => f.name).join(',')];
}

/** The command that replays one proof run. */
export function replayCommand(faults: readonly LocalFault[], seed: number, o: Pick<ProveLocalOptions, 'scoped' | 'depth'>): string {
  return `npm run conformance -- ${args(seed, faults, o).filter((a) => a !== '--quiet' && a !== '--workers' && a !== '1').map((a) => (/[*,]/.test(a) ? `'${a}'` : a)).join(' ')}`;
}

async function run(faults: readonly LocalFault[], seed: number, o: ProveLocalOptions): Promise<CliRun> {
  const r = await runStorecheck(args(seed, faults, o), { timeoutMs: o.timeoutMs ?? 900_000, inMemory: true });
  rmSync(r.reportDir, { recursive: true, force: true });
  return r;
}

const problemOf = (r: CliRun) => (r.timedOut ? 'timed out' : !r.report ? `no report (exit ${r.code}): ${r.stderr.trim().split('\n').slice(-2).join(' | ')}` : undefined);

/** Prove every fault at every seed, in batches; a batch with unexplained failures is proven again fault by fault. */
export async function proveLocal(faults: readonly LocalFault[], o: ProveLocalOptions): Promise<LocalProofRun> {
  const started = Date.now();
  const bySeed = new Map<string, LocalSeedProof>();
  const jobs = o.seeds.flatMap((seed) => planBatches(faults, o.cap, o.sharing).map((batch) => ({ seed, batch })));
  let runs = 0;
  let reruns = 0;
  let done = 0;
  await runPool(jobs, o.concurrency, async ({ seed, batch }) => {
    const names = batch.map((f) => f.name);
    const r = await run(batch, seed, o);
    runs++;
    const { verdicts, unexplained } = attribute(batch, r.report, r.code);
    if (batch.length > 1 && (unexplained.length || !r.report)) {
      reruns += batch.length;
      for (const f of batch) {
        const one = await run([f], seed, o);
        runs++;
        const v = attribute([f], one.report, one.code).verdicts.get(f.name)!;
        bySeed.set(`${f.name}@${seed}`, { seed, ...v, replay: replayCommand([f], seed, o), ...(problemOf(one) ? { problem: problemOf(one) } : {}) });
      }
    } else {
      for (const f of batch) {
        let v = verdicts.get(f.name)!;
        let alone = false;
        // a fault its batch did not catch is proven again alone: another fault of the batch may have
        // kept its items from being judged (e.g. every tagged value of a record dropped at once)
        if (batch.length > 1 && v.verdict !== 'caught') {
          const one = await run([f], seed, o);
          runs++;
          reruns++;
          v = attribute([f], one.report, one.code).verdicts.get(f.name)!;
          alone = true;
        }
        bySeed.set(`${f.name}@${seed}`, { seed, ...v, replay: replayCommand(alone ? [f] : batch, seed, o), ...(problemOf(r) ? { problem: problemOf(r) } : {}), ...(batch.length > 1 && !alone ? { batch: names } : {}) });
      }
    }
    o.onRun?.(++done, jobs.length, names, seed);
  });
  const proofs = faults.map((f): LocalProof => {
    const seeds = o.seeds.map((s) => bySeed.get(`${f.name}@${s}`)!);
    const all = (v: LocalVerdict) => seeds.every((x) => x.verdict === v);
    const verdict: LocalVerdict = all('caught') ? 'caught' : all('unobservable') ? 'unobservable' : seeds.some((x) => x.verdict === 'broken') ? 'broken' : 'escaped';
    return { name: f.name, family: f.family, resource: f.resource, expects: f.expects, seeds, verdict };
  });
  return { proofs, runs, reruns, ms: Date.now() - started };
}
