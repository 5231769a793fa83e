/**
 * `npm run mutation` in parts: what a run left out, and one report made of
 * runs made apart (`--merge DIR,DIR…`).
 *
 * The whole run takes long on a busy machine, so it is often run in parts —
 * the hand-written faults and variants in one (`--local none`), the local
 * families in others (`--faults none --variants none --local a,b`) — to have a
 * result early, side by side. Each part writes its own mutation.json; merging
 * proves nothing again: it joins what the parts proved, keeps each part's time,
 * and names whatever no part proved (a fault, an honest server, a local family),
 * so a report made of a run cut short says so.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FAULTS } from '../reference/faults.js';
import { DEFAULT_SERVER, type FaultProof, type VariantProof } from '../reference/prove.js';
import { VARIANTS } from '../reference/variants.js';
import { localFaults } from '../reference/faults-generated.js';
import type { LocalSection } from './mutation-local.js';

/** What a mutation.json holds that a merge reads. */
export interface PartReport {
  generatedAt: string;
  totals: { runtimeMs: number; concurrency: number };
  faults: FaultProof[];
  variants: VariantProof[];
  local?: LocalSection;
}

/** One part of a merged report: when it was made and what it proved. */
export interface Part {
  /** the part's folder name (not its path: the report is committed) */
  from: string;
  generatedAt: string;
  runtimeMs: number;
  faults: number;
  variants: number;
  localFamilies: string[];
}

/** What no proof of the report covered: hand-written faults, honest servers, local families (with their size). */
export interface NotRun {
  faults: string[];
  variants: string[];
  localFamilies: Array<{ family: string; faults: number }>;
}

export function notRun(faults: readonly FaultProof[], variants: readonly VariantProof[], local: LocalSection | undefined): NotRun {
  const proven = new Set([...faults, ...variants].map((p) => `${p.kind}:${p.name}`));
  const families = new Set(local?.families.map((f) => f.family) ?? []);
  const sizes = new Map<string, number>();
  for (const f of localFaults()) if (!families.has(f.family)) sizes.set(f.family, (sizes.get(f.family) ?? 0) + 1);
  return {
    faults: FAULTS.map((f) => f.name).filter((n) => !proven.has(`fault:${n}`)),
    variants: [DEFAULT_SERVER, ...VARIANTS.map((v) => v.name)].filter((n) => !proven.has(`variant:${n}`)),
    localFamilies: [...sizes].map(([family, n]) => ({ family, faults: n })),
  };
}

export const isEmpty = (n: NotRun): boolean => !n.faults.length && !n.variants.length && !n.localFamilies.length;

/** The local sections of several parts as one: their families must not overlap, their seeds must agree. */
function mergeLocal(sections: Array<{ from: string; local: LocalSection }>): LocalSection | undefined {
  if (!sections.length) return undefined;
  const [first] = sections;
  const seen = new Map<string, string>();
  for (const { from, local } of sections) {
    if (local.seeds.join() !== first.local.seeds.join()) throw new Error(`--merge: ${from} proved its local faults at seeds ${local.seeds.join(', ')}, ${first.from} at ${first.local.seeds.join(', ')}: a fault counts as caught only at the same seeds`);
    for (const f of local.families) {
      const other = seen.get(f.family);
      if (other) throw new Error(`--merge: family ${f.family} is in both ${other} and ${from}: merge parts that proved different families`);
      seen.set(f.family, from);
    }
  }
  const all = sections.map((s) => s.local);
  const sum = (pick: (l: LocalSection) => number) => all.reduce((n, l) => n + pick(l), 0);
  const totals = Object.fromEntries(Object.keys(first.local.totals).map((k) => [k, sum((l) => l.totals[k as keyof LocalSection['totals']])])) as LocalSection['totals'];
  const order = (f: { family: string }) => localFaults().findIndex((x) => x.family === f.family);
  return {
    seeds: first.local.seeds,
    sharing: first.local.sharing,
    runs: sum((l) => l.runs),
    reruns: sum((l) => l.reruns),
    ms: sum((l) => l.ms),
    totals,
    families: all.flatMap((l) => l.families).sort((a, b) => order(a) - order(b)),
    escapes: all.flatMap((l) => l.escapes),
    unobservable: all.flatMap((l) => l.unobservable),
    broken: all.flatMap((l) => l.broken),
  };
}

/**
 * The proofs of several mutation.json files as one report's: a fault or
 * variant proven in two parts is refused (which one would count?), so are
 * local parts at different seeds.
 */
export function mergeParts(dirs: readonly string[]): { faults: FaultProof[]; variants: VariantProof[]; local?: LocalSection; parts: Part[]; ms: number; concurrency: number } {
  const reports = dirs.map((dir) => {
    const file = join(dir, 'mutation.json');
    try {
      return { from: dir, r: JSON.parse(readFileSync(file, 'utf8')) as PartReport };
    } catch (e) {
      throw new Error(`--merge: cannot read ${file}: ${(e as Error).message}`);
    }
  });
  const owner = new Map<string, string>();
  for (const { from, r } of reports) for (const p of [...r.faults, ...r.variants]) {
    const key = `${p.kind} ${p.name}`;
    if (owner.has(key)) throw new Error(`--merge: ${key} is in both ${owner.get(key)} and ${from}`);
    owner.set(key, from);
  }
  const parts = reports.map(({ from, r }): Part => ({ from: basename(from), generatedAt: r.generatedAt, runtimeMs: r.totals.runtimeMs, faults: r.faults.length, variants: r.variants.length, localFamilies: r.local?.families.map((f) => f.family) ?? [] }));
  return {
    faults: reports.flatMap(({ r }) => r.faults),
    variants: reports.flatMap(({ r }) => r.variants),
    local: mergeLocal(reports.flatMap(({ from, r }) => (r.local ? [{ from, local: r.local }] : []))),
    parts,
    ms: parts.reduce((n, p) => n + p.runtimeMs, 0),
    concurrency: Math.max(...reports.map(({ r }) => r.totals.concurrency)),
  };
}
