/**
 * The local-fault part of `npm run mutation`: the generated catalogue
 * (reference/faults-generated.ts) proven at several seeds
 * (reference/prove-local.ts), summarised per family, with every escape and
 * its replay command, and the faults the reference data cannot show.
 */
import { FAMILIES, observableOnReference, unobservableReason, type LocalFault } from '../reference/faults-generated.js';
import { proveLocal, type LocalProof, type LocalProofRun } from '../reference/prove-local.js';

export interface FamilyTotals {
  family: string;
  total: number;
  caught: number;
  escaped: number;
  unobservable: number;
  broken: number;
}

export interface LocalSection {
  seeds: number[];
  /** how faults shared runs (see reference/prove-local.ts) */
  sharing: 'field' | 'resource';
  runs: number;
  reruns: number;
  ms: number;
  totals: { total: number; caught: number; escaped: number; unobservable: number; broken: number; observable: number };
  families: FamilyTotals[];
  escapes: LocalProof[];
  unobservable: Array<Pick<LocalProof, 'name' | 'expects'> & { expectedOnReference: boolean; why?: string }>;
  broken: LocalProof[];
}

export async function proveLocalCatalogue(faults: readonly LocalFault[], o: { seeds: number[]; concurrency: number; timeoutMs?: number; onRun?: (done: number, total: number, batch: string[], seed: number) => void }): Promise<LocalSection> {
  const sharing = 'field' as const;
  const run: LocalProofRun = await proveLocal(faults, { seeds: o.seeds, concurrency: o.concurrency, sharing, scoped: true, timeoutMs: o.timeoutMs, onRun: o.onRun });
  const count = (ps: LocalProof[], v: LocalProof['verdict']) => ps.filter((p) => p.verdict === v).length;
  const families = FAMILIES.map((family): FamilyTotals => {
    const of = run.proofs.filter((p) => p.family === family);
    return { family, total: of.length, caught: count(of, 'caught'), escaped: count(of, 'escaped'), unobservable: count(of, 'unobservable'), broken: count(of, 'broken') };
  }).filter((f) => f.total > 0);
  const byName = new Map(faults.map((f) => [f.name, f]));
  const all = run.proofs;
  return {
    seeds: o.seeds,
    sharing,
    runs: run.runs,
    reruns: run.reruns,
    ms: run.ms,
    totals: {
      total: all.length,
      caught: count(all, 'caught'),
      escaped: count(all, 'escaped'),
      unobservable: count(all, 'unobservable'),
      broken: count(all, 'broken'),
      observable: all.filter((p) => p.verdict !== 'unobservable').length,
    },
    families,
    escapes: all.filter((p) => p.verdict === 'escaped'),
    unobservable: all.filter((p) => p.verdict === 'unobservable').map((p) => ({ name: p.name, expects: p.expects, expectedOnReference: !observableOnReference(byName.get(p.name)!), why: unobservableReason(byName.get(p.name)!) })),
    broken: all.filter((p) => p.verdict === 'broken'),
  };
}

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)} %`);

export function localMarkdown(s: LocalSection): string[] {
  const t = s.totals;
  const out: string[] = [];
  out.push('## Local faults (generated catalogue)', '');
  out.push(`Every fault of reference/faults-generated.ts touches one filter key, property, form, operation or resource. Each is proven at ${s.seeds.length} seeds (${s.seeds.join(', ')}); it counts as **caught only when caught at every seed** (a failing item it names, exit 1). Runs carry several faults that cannot interfere (sharing: ${s.sharing}) and hold the checks of the faults' resources and those about all resources; a fault whose batch did not catch it, or whose batch had a failure no fault of it explains, is proven again alone (${s.reruns} such proofs). ${s.runs} runs in ${(s.ms / 60000).toFixed(1)} min.`, '');
  out.push('| | |', '|---|---|');
  out.push(`| caught at every seed | **${t.caught} / ${t.observable}** observable faults (${pct(t.caught, t.observable)}) |`);
  out.push(`| escaped (not caught at some seed) | ${t.escaped} |`);
  out.push(`| unobservable on the reference data | ${t.unobservable} (of ${t.total}) |`);
  out.push(`| broken runs (no report) | ${t.broken} |`, '');
  out.push('| family | caught / observable | escaped | unobservable |', '|---|---|---|---|');
  for (const f of s.families) out.push(`| ${f.family} | ${f.caught} / ${f.total - f.unobservable} | ${f.escaped} | ${f.unobservable} |`);
  out.push('');
  if (s.escapes.length || s.broken.length) {
    out.push('### Escapes', '');
    for (const p of [...s.escapes, ...s.broken]) {
      out.push(`- \`${p.name}\` (expects ${p.expects.map((e) => `\`${e}\``).join(', ')})`);
      for (const x of p.seeds.filter((x) => x.verdict !== 'caught')) out.push(`  - seed ${x.seed}: ${x.verdict}${x.problem ? ` (${x.problem})` : ''} — replay: \`${x.replay}\``);
    }
    out.push('');
  }
  if (s.unobservable.length) {
    out.push('### Unobservable on the reference data', '');
    out.push('The default reference server cannot show these faults: none of the items a fault names could be judged there (e.g. the 1000 cap of a read-only resource holding 30 records), or the value it loses is the only one a run sends (a property sent as the default the fault stores). Against a target with such data the same checks judge them.', '');
    for (const u of s.unobservable) out.push(`- \`${u.name}\`${u.expectedOnReference ? ` (expected: ${u.why ?? 'the reference data holds no more than 1000 of these records'})` : ''}`);
    out.push('');
  }
  return out;
}
