/**
 * Which mutants a sampled `npm run mutation:engine` run tests
 * (`--sample-every K --seed S`): a mutant is picked by a hash of its CONTENT
 * and the seed — never by StrykerJS's id or its line, which shift by one or
 * more whenever unrelated code moves or a mutant appears above it.
 *
 * The content is what the mutant is: its file, its mutator, the source text it
 * replaces and the replacement, and the trimmed lines around it
 * (CONTEXT_LINES before and after). A mutant keeps its key while code
 * elsewhere in the file moves, so a seed's sample stays the same; two seeds
 * hash the same key to unrelated numbers, so their samples overlap only by
 * chance (1 in K of each). Two mutants with the same key (the same statement
 * twice, with the same lines around it) are told apart by their order among
 * themselves.
 *
 * Before StrykerJS starts, scripts/mutation-engine.ts lists the mutants
 * (scripts/mutation-engine-list.ts) and writes the picked ids to
 * raw/sample.json, which scripts/mutation-engine-gate.mjs reads for each
 * mutant.
 */
import { createHash } from 'node:crypto';

/** lines of context on each side of a mutant in its content key */
export const CONTEXT_LINES = 2;

/** A mutant as StrykerJS's instrumenter lists it: 0-based lines, 0-based columns. */
export interface ListedMutant {
  id: string;
  fileName: string;
  mutatorName: string;
  replacement: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
  status?: string;
}

/** The text between two positions of a file split into lines. */
function textBetween(lines: readonly string[], a: { line: number; column: number }, b: { line: number; column: number }): string {
  if (a.line === b.line) return lines[a.line].slice(a.column, b.column);
  return [lines[a.line].slice(a.column), ...lines.slice(a.line + 1, b.line), lines[b.line].slice(0, b.column)].join('\n');
}

/** The content key of a mutant: file, mutator, original and replacement text, the trimmed lines around it. */
export function contentKey(m: ListedMutant, source: string | readonly string[]): string {
  const lines = typeof source === 'string' ? source.split('\n') : source;
  const original = textBetween(lines, m.location.start, m.location.end);
  const from = Math.max(0, m.location.start.line - CONTEXT_LINES);
  const to = Math.min(lines.length, m.location.end.line + 1 + CONTEXT_LINES);
  const context = lines.slice(from, to).map((l) => l.trim()).join('\n');
  return JSON.stringify([m.fileName, m.mutatorName, original, m.replacement, context]);
}

/** A short, stable name of a content key (what summary.json keeps of each judged mutant). */
export function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** Whether the content key is in seed's sample of one in `every`: the seed and key hashed, uniform over [0, 2^48). */
export function pickedByContent(key: string, seed: number, every: number): boolean {
  if (every <= 1) return true;
  const h = createHash('sha256').update(`${seed}\n${key}`).digest();
  return h.readUIntBE(0, 6) % every === 0;
}

/** Each mutant's content key, with its order among equal keys appended (`#2`, …) so no two share one. */
export function contentKeys(mutants: readonly ListedMutant[], sources: Record<string, string>): Map<string, string> {
  const seen = new Map<string, number>();
  const out = new Map<string, string>();
  const split = new Map<string, string[]>();
  for (const m of mutants) {
    if (!split.has(m.fileName)) split.set(m.fileName, sources[m.fileName].split('\n'));
    const base = contentKey(m, split.get(m.fileName)!);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.set(m.id, n === 1 ? base : `${base}#${n}`);
  }
  return out;
}

/** The ids of the mutants in seed's sample of one in `every` (ignored mutants are never picked: they are not run). */
export function sampleIds(mutants: readonly ListedMutant[], sources: Record<string, string>, seed: number, every: number): string[] {
  const keys = contentKeys(mutants, sources);
  return mutants.filter((m) => m.status !== 'Ignored' && pickedByContent(keys.get(m.id)!, seed, every)).map((m) => m.id);
}
