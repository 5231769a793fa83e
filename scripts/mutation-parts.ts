/**
 * `npm run mutation` in parts: what a run left out, and one report made of
 * runs made apart (`--merge DIR,DIR…`), optionally on top of a report already
 * made (`--base FILE`, e.g. the committed reports/mutation.json).
 *
 * The whole run takes long on a busy machine, so it is often run in parts —
 * the hand-written faults and variants in one (`--local none`), the local
 * families in others (`--faults none --variants none --local a,b`) — to have a
 * result early, side by side. Each part writes its own mutation.json; merging
 * proves nothing again: it joins what the parts proved, keeps each part's time,
 * and names whatever no part proved (a fault, an honest server, a local family),
 * so a report made of a run cut short says so.
 *
 * A base is a merged (or whole) report whose parts' folders may be gone: its
 * proofs stay, except those a part proves again — the newer proof of a fault,
 * an honest server or a local family replaces the base's (a part older than
 * what it would replace is refused). Its parts stay listed, their time too:
 * that time was spent, and a part proven again is named in the later part.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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
  /** what this part proved again in place of the base's proof (`--base`): `fault x`, `variant y`, `family z` */
  replaces?: string[];
}

/** A report taken as the base of a merge (`--base`): a part's report, with the parts it was itself joined from. */
export interface BaseReport extends PartReport {
  parts?: Part[];
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

/** The local sections of several parts as one: their seeds must agree (families never overlap: see mergeParts). */
function mergeLocal(sections: Array<{ from: string; local: LocalSection }>): LocalSection | undefined {
  if (!sections.length) return undefined;
  const [first] = sections;
  for (const { from, local } of sections) {
    if (local.seeds.join() !== first.local.seeds.join()) throw new Error(`--merge: ${from} proved its local faults at seeds ${local.seeds.join(', ')}, ${first.from} at ${first.local.seeds.join(', ')}: a fault counts as caught only at the same seeds`);
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
 * A local section without some families: their rows, escapes, unobservable and
 * broken faults gone, the totals those of the families left. Its runs and time
 * stay whole: they cannot be told apart per family, and they were spent.
 */
export function withoutFamilies(l: LocalSection, drop: ReadonlySet<string>): LocalSection {
  const kept = (name: string) => !drop.has(name.slice(0, name.indexOf(':')));
  const families = l.families.filter((f) => !drop.has(f.family));
  const sum = (k: 'total' | 'caught' | 'escaped' | 'unobservable' | 'broken') => families.reduce((n, f) => n + f[k], 0);
  return {
    ...l,
    families,
    totals: { total: sum('total'), caught: sum('caught'), escaped: sum('escaped'), unobservable: sum('unobservable'), broken: sum('broken'), observable: sum('total') - sum('unobservable') },
    escapes: l.escapes.filter((p) => kept(p.name)),
    unobservable: l.unobservable.filter((u) => kept(u.name)),
    broken: l.broken.filter((p) => kept(p.name)),
  };
}

function readReport<T>(file: string): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (e) {
    throw new Error(`--merge: cannot read ${file}: ${(e as Error).message}`);
  }
}

/** What a report proved, one key each: `fault x`, `variant y`, `family z`. */
const provenBy = (r: PartReport): string[] => [...r.faults, ...r.variants].map((p) => `${p.kind} ${p.name}`).concat(r.local?.families.map((f) => `family ${f.family}`) ?? []);

const partOf = (from: string, r: PartReport): Part => ({ from: basename(from), generatedAt: r.generatedAt, runtimeMs: r.totals.runtimeMs, faults: r.faults.length, variants: r.variants.length, localFamilies: r.local?.families.map((f) => f.family) ?? [] });

/**
 * When the base proved a key at the latest: the part whose families hold it;
 * for a fault or variant (a part names only how many), the latest part that
 * proved any.
 */
function provenAt(parts: readonly Part[], key: string): string {
  const [kind, name] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
  const holders = parts.filter((p) => (kind === 'family' ? p.localFamilies.includes(name) : kind === 'fault' ? p.faults > 0 : p.variants > 0));
  return holders.map((p) => p.generatedAt).sort().at(-1) ?? '';
}

/**
 * The base's proofs less those the parts prove again, and its parts (a whole
 * report is one part, named by its folder); each part that proves again what
 * the base held says so in `replaces`. A part older than the base's proof it
 * would replace is refused.
 */
function rebase(file: string, reports: ReadonlyArray<{ from: string; r: PartReport }>, parts: Part[]): { report: PartReport; parts: Part[] } {
  const b = readReport<BaseReport>(file);
  const before = b.parts ?? [partOf(dirname(file), b)];
  const held = new Set(provenBy(b));
  reports.forEach(({ from, r }, i) => {
    const replaces = provenBy(r).filter((k) => held.has(k));
    for (const k of replaces) {
      const at = provenAt(before, k);
      if (r.generatedAt < at) throw new Error(`--merge: ${from} proved ${k} at ${r.generatedAt}, before the base ${file} did (${at}): a part replaces only an older proof`);
    }
    if (replaces.length) parts[i] = { ...parts[i], replaces };
  });
  const drop = new Set(reports.flatMap(({ r }) => provenBy(r)));
  const families = new Set([...drop].filter((k) => k.startsWith('family ')).map((k) => k.slice('family '.length)));
  const report: PartReport = {
    ...b,
    faults: b.faults.filter((p) => !drop.has(`fault ${p.name}`)),
    variants: b.variants.filter((p) => !drop.has(`variant ${p.name}`)),
    ...(b.local ? { local: withoutFamilies(b.local, families) } : {}),
  };
  return { report, parts: before };
}

/**
 * The proofs of several mutation.json files as one report's, on top of a
 * base report's when one is given: a fault, variant or local family proven in
 * two parts is refused (which one would count?), so are local parts at
 * different seeds; one a part proves again replaces the base's.
 */
export function mergeParts(dirs: readonly string[], baseFile?: string): { faults: FaultProof[]; variants: VariantProof[]; local?: LocalSection; parts: Part[]; ms: number; concurrency: number } {
  const reports = dirs.map((dir) => ({ from: dir, r: readReport<PartReport>(join(dir, 'mutation.json')) }));
  const owner = new Map<string, string>();
  for (const { from, r } of reports) for (const key of provenBy(r)) {
    if (owner.has(key)) throw new Error(`--merge: ${key} is in both ${owner.get(key)} and ${from}${key.startsWith('family ') ? ': merge parts that proved different families' : ''}`);
    owner.set(key, from);
  }
  const parts = reports.map(({ from, r }) => partOf(from, r));
  const base = baseFile === undefined ? undefined : rebase(baseFile, reports, parts);
  const all = base ? [{ from: baseFile!, r: base.report }, ...reports] : reports;
  const listed = [...(base?.parts ?? []), ...parts];
  return {
    faults: all.flatMap(({ r }) => r.faults),
    variants: all.flatMap(({ r }) => r.variants),
    local: mergeLocal(all.flatMap(({ from, r }) => (r.local ? [{ from, local: r.local }] : []))),
    parts: listed,
    ms: listed.reduce((n, p) => n + p.runtimeMs, 0),
    concurrency: Math.max(...all.map(({ r }) => r.totals.concurrency)),
  };
}
