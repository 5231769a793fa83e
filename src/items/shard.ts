/**
 * `--shard i/n`: the run's checks split into n slices of similar estimated
 * cost, not by suite file (a file's checks may go to several shards). Each
 * check weighs its measured duration (src/items/check-weights.json, from a
 * standard run); a check the table does not know weighs the median of its
 * rule's measured checks, or of all of them. The checks are dealt heaviest
 * first, each to the lightest shard so far (ties: the check id, the lower
 * shard), so every shard of one run computes the same split, their union is
 * the whole selection and no check is in two.
 */
import { readFileSync } from 'node:fs';
import type { CheckDef } from './types.js';

interface WeightTable {
  ms: Record<string, number>;
  /** each check's round trips one after another (report.checks[].roundTrips), from the same run */
  roundTrips?: Record<string, number>;
}

let table: WeightTable | undefined;

function weights(): WeightTable {
  table ??= JSON.parse(readFileSync(new URL('./check-weights.json', import.meta.url), 'utf8')) as WeightTable;
  return table;
}

function median(xs: number[]): number | undefined {
  if (!xs.length) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The estimated cost of each check (ms), for these checks of the catalogue. */
export function checkWeights(checks: readonly Pick<CheckDef, 'id' | 'rule'>[], known: Record<string, number> = weights().ms): Map<string, number> {
  const byRule = measuredByRule(checks, known);
  const overall = median(Object.values(known)) ?? 1;
  return new Map(checks.map((c) => [c.id, known[c.id] ?? median(byRule.get(c.rule) ?? []) ?? overall]));
}

/** The measured figures of these checks, by rule: what a check the table does not know falls back on. */
function measuredByRule(checks: readonly Pick<CheckDef, 'id' | 'rule'>[], known: Record<string, number>): Map<string, number[]> {
  const byRule = new Map<string, number[]>();
  const ruleOf = new Map(checks.map((c) => [c.id, c.rule]));
  for (const [id, n] of Object.entries(known)) {
    const rule = ruleOf.get(id);
    if (rule) byRule.set(rule, [...(byRule.get(rule) ?? []), n]);
  }
  return byRule;
}

/**
 * The longest chain of round trips among these checks (report.checks[].roundTrips
 * of the run the weights came from; a check the table does not know counts
 * the longest of its rule's measured checks among these, or none).
 */
export function longestChain(checks: readonly Pick<CheckDef, 'id' | 'rule'>[], known: Record<string, number> = weights().roundTrips ?? {}): number {
  const byRule = measuredByRule(checks, known);
  return Math.max(0, ...checks.map((c) => known[c.id] ?? Math.max(0, ...(byRule.get(c.rule) ?? []))));
}

/**
 * The checks whose measured chain is long: at least half the round trips of
 * the longest (the same measure src/run/sequencer.ts orders files by). Their
 * requests go first to a freed slot of the gate (SharedGate.acquire).
 */
export function longChainChecks(known: Record<string, number> = weights().roundTrips ?? {}): Set<string> {
  const longest = Math.max(0, ...Object.values(known));
  return new Set(Object.entries(known).filter(([, n]) => longest > 0 && n * 2 >= longest).map(([id]) => id));
}

/** `i/n` → { index: i - 1, count: n } (the CLI has checked 1 ≤ i ≤ n). */
export function parseShard(spec: string): { index: number; count: number } {
  const [i, n] = spec.split('/').map(Number);
  return { index: i - 1, count: n };
}

/** The checks of each of `count` shards (ids), by estimated cost. */
export function splitByCost(weightOf: ReadonlyMap<string, number>, count: number): string[][] {
  const shards = Array.from({ length: count }, () => ({ ids: [] as string[], cost: 0 }));
  const heaviestFirst = [...weightOf].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const [id, w] of heaviestFirst) {
    let lightest = shards[0];
    for (const s of shards) if (s.cost < lightest.cost) lightest = s;
    lightest.ids.push(id);
    lightest.cost += w;
  }
  return shards.map((s) => s.ids);
}

/** The ids of the checks shard `spec` (`i/n`) runs, out of these selected checks. */
export function shardChecks(checks: readonly Pick<CheckDef, 'id' | 'rule'>[], spec: string): Set<string> {
  const { index, count } = parseShard(spec);
  return new Set(splitByCost(checkWeights(checks), count)[index]);
}
