/**
 * Proofs of the generated local faults (faults-generated.ts) at several seeds.
 *
 * A fault is caught at a seed when the run says non-conformant (exit 1) and a
 * failing item matches the fault's `expects`; it is caught when caught at
 * every seed. A fault none of whose expected items could be judged on the
 * reference data (e.g. the 1000 cap of a resource holding 30 records) is
 * unobservable there: reported apart, never counted as caught.
 *
 * A catalogue of ~900 faults × 3 seeds, one whole run each, would take hours;
 * so one run carries several faults that cannot interfere: faults on different
 * resources, or on different fields of one resource (filters, properties,
 * forms), never two on one field and never a resource-wide fault (pages,
 * counts, deletes, keys, versions) beside another fault of its resource. A
 * batch stands only when every failing item of its run belongs to one of its
 * faults; otherwise each of its faults is proven again alone.
 */
import { rmSync } from 'node:fs';
import type { ItemResult, Report } from '../src/report/types.js';
import { runStorecheck, type CliRun } from './cli-process.js';
import type { LocalFault } from './faults-generated.js';
import { runPool } from './pool.js';

export type LocalVerdict = 'caught' | 'escaped' | 'unobservable' | 'broken';

export interface LocalSeedProof {
  seed: number;
  verdict: LocalVerdict;
  /** failing items matching the fault */
  detectedBy: string[];
  /** how the run went when it did not end with a report */
  problem?: string;
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
  /** batches whose faults had to be proven again alone (unattributed failures) */
  reruns: number;
  ms: number;
}

const globRe = (g: string) => new RegExp(`^${g.split('*').map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
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

/** Group faults into runs that cannot interfere (greedy, in catalogue order), at most `cap` per run. */
export function planBatches(faults: readonly LocalFault[], cap = 24): LocalFault[][] {
  const batches: Array<{ faults: LocalFault[]; wide: Set<string>; fields: Map<string, Set<string>> }> = [];
  for (const f of faults) {
    const s = scopeOf(f);
    const fits = (b: (typeof batches)[number]) => {
      if (b.faults.length >= cap || b.wide.has(s.resource)) return false;
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

/** The verdict of each fault of one run, and the failing items no fault of the run explains. */
export function attribute(faults: readonly LocalFault[], report: Pick<Report, 'items'> | undefined, exitCode: number | null): { verdicts: Map<string, { verdict: LocalVerdict; detectedBy: string[] }>; unexplained: string[] } {
  const items: ItemResult[] = report?.items ?? [];
  const failing = items.filter((i) => i.status === 'failed');
  const verdicts = new Map<string, { verdict: LocalVerdict; detectedBy: string[] }>();
  const explained = new Set<string>();
  for (const f of faults) {
    const mine = matcher(f);
    const detectedBy = failing.filter((i) => mine(i.id)).map((i) => i.id);
    detectedBy.forEach((id) => explained.add(id));
    const judged = items.some((i) => mine(i.id) && (i.status === 'passed' || i.status === 'failed'));
    const verdict: LocalVerdict = !report ? 'broken' : detectedBy.length && exitCode === 1 ? 'caught' : judged ? 'escaped' : 'unobservable';
    verdicts.set(f.name, { verdict, detectedBy });
  }
  return { verdicts, unexplained: failing.map((i) => i.id).filter((id) => !explained.has(id)) };
}

export interface ProveLocalOptions {
  seeds: number[];
  concurrency: number;
  cap?: number;
  depth?: 'quick' | 'standard' | 'deep';
  timeoutMs?: number;
  onRun?: (done: number, total: number, batch: string[], seed: number) => void;
}

function args(seed: number, names: string[], depth: string): string[] {
  return ['--depth', depth, '--seed', String(seed), '--workers', '1', '--quiet', '--reference-faults', names.join(',')];
}

async function run(names: string[], seed: number, o: ProveLocalOptions): Promise<CliRun> {
  const r = await runStorecheck(args(seed, names, o.depth ?? 'quick'), { timeoutMs: o.timeoutMs ?? 900_000 });
  rmSync(r.reportDir, { recursive: true, force: true });
  return r;
}

const problemOf = (r: CliRun) => (r.timedOut ? 'timed out' : !r.report ? `no report (exit ${r.code}): ${r.stderr.trim().split('\n').slice(-2).join(' | ')}` : undefined);

/** Prove every fault at every seed, in batches; a batch with unexplained failures is proven again fault by fault. */
export async function proveLocal(faults: readonly LocalFault[], o: ProveLocalOptions): Promise<LocalProofRun> {
  const started = Date.now();
  const bySeed = new Map<string, LocalSeedProof>();
  const jobs = o.seeds.flatMap((seed) => planBatches(faults, o.cap).map((batch) => ({ seed, batch })));
  let runs = 0;
  let reruns = 0;
  let done = 0;
  await runPool(jobs, o.concurrency, async ({ seed, batch }) => {
    const names = batch.map((f) => f.name);
    const r = await run(names, seed, o);
    runs++;
    const { verdicts, unexplained } = attribute(batch, r.report, r.code);
    if (batch.length > 1 && (unexplained.length || !r.report)) {
      reruns++;
      for (const f of batch) {
        const one = await run([f.name], seed, o);
        runs++;
        const v = attribute([f], one.report, one.code).verdicts.get(f.name)!;
        bySeed.set(`${f.name}@${seed}`, { seed, ...v, ...(problemOf(one) ? { problem: problemOf(one) } : {}) });
      }
    } else {
      for (const f of batch) {
        const v = verdicts.get(f.name)!;
        bySeed.set(`${f.name}@${seed}`, { seed, ...v, ...(problemOf(r) ? { problem: problemOf(r) } : {}), ...(batch.length > 1 ? { batch: names } : {}) });
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
