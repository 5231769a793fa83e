/**
 * Which of the reference server's choices (reference/behaviour.ts, the keys of
 * `Behaviour`) a mutant's code touches: the keys its enclosing function reads
 * (`x.astral`, `{ order } = b`, `b['order']`), those read by the functions
 * it calls, one call away (`astralColumn(this.behaviour, v)` reads
 * `astral` in reference/readings.ts), and those read by the functions that
 * call it (whether and with what it runs: `update` reads updateSemantics
 * before it calls `defaultFor`). Found by the TypeScript compiler API
 * over the source, before StrykerJS starts (raw/touches.json).
 *
 * The runner (scripts/mutation-engine-run.ts) sends a survivor of the default
 * server to the variant stores that choose otherwise on one of these keys —
 * the stores where the mutated code takes another branch — nearest reads
 * first, at most EXTRA_STORES of them: the default server never takes the
 * branches an honest variant's choice opens.
 *
 * A name matched by text may be another object's property of the same name
 * (`record.order`): that costs a run on a store, never a verdict.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { DEFAULT_BEHAVIOUR } from '../reference/behaviour.js';
import { ROOT } from '../reference/cli-process.js';
import { instrumentScope } from './mutation-engine-list.js';
import type { ListedMutant } from './mutation-engine-sample.js';

/** how many calls away a read still counts (0: the enclosing function itself) */
export const MAX_DEPTH = 1;

/**
 * A key and how many calls away from the mutant's function it is read (0: in it); `line`: read on the
 * mutant's own line(s) too, beside the mutated text (`if (route?.x && … && b.usersCountPath === 'absent')`):
 * the choice most likely to decide what the mutated expression does.
 */
export interface Touch { key: string; depth: number; line?: true }

interface FnInfo { name: string; start: number; end: number; reads: Set<string>; calls: Set<string> }

/** The name a reader finds a function by: its own, or the variable, property or method holding it. */
function nameOf(n: ts.Node, sf: ts.SourceFile): string | undefined {
  if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isGetAccessorDeclaration(n)) && n.name) return n.name.getText(sf);
  if (ts.isConstructorDeclaration(n)) return 'constructor';
  if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && n.parent && (ts.isVariableDeclaration(n.parent) || ts.isPropertyAssignment(n.parent) || ts.isPropertyDeclaration(n.parent))) return n.parent.name.getText(sf);
  return undefined;
}

/** The keys a subtree reads and the names it calls. */
function readsOf(node: ts.Node, keys: ReadonlySet<string>): { reads: Set<string>; calls: Set<string> } {
  const reads = new Set<string>();
  const calls = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n) && keys.has(n.name.text)) reads.add(n.name.text);
    if (ts.isElementAccessExpression(n) && ts.isStringLiteral(n.argumentExpression) && keys.has(n.argumentExpression.text)) reads.add(n.argumentExpression.text);
    if (ts.isBindingElement(n) && ts.isObjectBindingPattern(n.parent)) {
      const prop = (n.propertyName ?? n.name) as ts.Node;
      if (ts.isIdentifier(prop) && keys.has(prop.text)) reads.add(prop.text);
    }
    if (ts.isCallExpression(n)) {
      const c = n.expression;
      if (ts.isIdentifier(c)) calls.add(c.text);
      else if (ts.isPropertyAccessExpression(c)) calls.add(c.name.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return { reads, calls };
}

/** Every named function of the files, with what it reads and calls (nested functions counted in their holders too). */
export function functionsOf(sources: Record<string, string>, keys: ReadonlySet<string>): Map<string, FnInfo[]> {
  const byFile = new Map<string, FnInfo[]>();
  for (const [file, text] of Object.entries(sources)) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    const fns: FnInfo[] = [];
    const visit = (n: ts.Node): void => {
      const name = ts.isFunctionLike(n) ? nameOf(n, sf) : undefined;
      if (name) fns.push({ name, start: n.getStart(sf), end: n.getEnd(), ...readsOf(n, keys) });
      ts.forEachChild(n, visit);
    };
    visit(sf);
    byFile.set(file, fns);
  }
  return byFile;
}

/**
 * The keys read from a function (by its reads and calls, up to MAX_DEPTH calls away), nearest depth each;
 * and those its direct callers read (depth 1): a caller's choice decides whether and with what the
 * mutated code runs (`update` reads updateSemantics before it calls `defaultFor` on a replace).
 */
function closure(start: FnInfo, byName: Map<string, FnInfo[]>, callers: Map<string, FnInfo[]>): Touch[] {
  const depthOf = new Map<string, number>();
  let frontier = [start];
  const seen = new Set<FnInfo>([start]);
  for (let depth = 0; depth <= MAX_DEPTH && frontier.length; depth++) {
    const next: FnInfo[] = [];
    for (const f of frontier) {
      for (const k of f.reads) if (!depthOf.has(k)) depthOf.set(k, depth);
      for (const c of f.calls) for (const g of byName.get(c) ?? []) if (!seen.has(g)) (seen.add(g), next.push(g));
    }
    frontier = next;
  }
  for (const caller of callers.get(start.name) ?? []) for (const k of caller.reads) if (!depthOf.has(k)) depthOf.set(k, 1);
  return [...depthOf.entries()].map(([key, depth]) => ({ key, depth })).sort((a, b) => a.depth - b.depth || a.key.localeCompare(b.key));
}

/**
 * For each mutant: the choices its code touches. `sources` holds the mutated files and those
 * their functions call into (reference/readings.ts); `keys`: the names of Behaviour's fields.
 */
export function touchesOf(mutants: readonly ListedMutant[], sources: Record<string, string>, keys: ReadonlySet<string>): Record<string, Touch[]> {
  const byFile = functionsOf(sources, keys);
  const byName = new Map<string, FnInfo[]>();
  const callers = new Map<string, FnInfo[]>();
  for (const fns of byFile.values()) {
    for (const f of fns) {
      byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
      for (const c of f.calls) callers.set(c, [...(callers.get(c) ?? []), f]);
    }
  }
  const out: Record<string, Touch[]> = {};
  for (const m of mutants) {
    if (m.status === 'Ignored') continue;
    const lines = sources[m.fileName].split('\n', m.location.start.line + 1);
    const offset = lines.slice(0, m.location.start.line).reduce((n, l) => n + l.length + 1, 0) + m.location.start.column;
    // the innermost named function holding the mutant (a module constant: none, nothing touched)
    const holder = (byFile.get(m.fileName) ?? []).filter((f) => f.start <= offset && offset < f.end).sort((a, b) => a.end - a.start - (b.end - b.start))[0];
    const touches = holder ? closure(holder, byName, callers) : [];
    // matched by text, as a name read in a function is: the mutant's lines, start to end
    const own = sources[m.fileName].split('\n').slice(m.location.start.line, m.location.end.line + 1).join('\n');
    for (const t of touches) if (new RegExp(`\\b${t.key}\\b`).test(own)) t.line = true;
    if (touches.length) out[m.id] = touches;
  }
  return out;
}

/** The keys a store's variants set to another value than the default server's. */
export function choicesOf(parts: ReadonlyArray<Record<string, unknown>>, defaults: Record<string, unknown>): string[] {
  const keys = new Set<string>();
  for (const p of parts) for (const [k, v] of Object.entries(p)) if (v !== undefined && JSON.stringify(v) !== JSON.stringify(defaults[k])) keys.add(k);
  return [...keys].sort();
}

/** at most this many variant stores judge one survivor of the default server */
export const EXTRA_STORES = 2;

/**
 * The stores (among those reaching the mutant, in their order) a survivor of the default server goes to:
 * those choosing otherwise on a key its code touches, a key read on the mutant's own line first, then the
 * nearest read, then the most such keys; at most EXTRA_STORES. (Seed 2029: a condition made true on the line
 * reading usersCountPath went to two stores choosing other key statuses, read earlier in the function, and
 * not to the one store where it refuses every request.)
 */
export function storesFor<C extends { name: string; chooses: readonly string[] }>(touches: readonly Touch[], stores: readonly C[], max = EXTRA_STORES): Array<C & { keys: string[] }> {
  const depth = new Map(touches.map((t) => [t.key, t.line ? -1 : t.depth]));
  return stores
    .map((s, i) => ({ s, i, keys: s.chooses.filter((k) => depth.has(k)) }))
    .filter((x) => x.keys.length > 0)
    .map((x) => ({ ...x, nearest: Math.min(...x.keys.map((k) => depth.get(k)!)) }))
    .sort((a, b) => a.nearest - b.nearest || b.keys.length - a.keys.length || a.i - b.i)
    .slice(0, max)
    .map((x) => ({ ...x.s, keys: x.keys }));
}

/** the choices each mutant's code touches (scripts/mutation-engine-touches.ts), read by the runner */
export const TOUCHES_FILE = 'touches.json';
/** files the mutated functions call into that read the server's choices */
const CALLED_INTO = ['reference/readings.ts'];

/** Lists the scope's mutants and writes raw/touches.json: id → the Behaviour keys its code reads, and how near. */
export async function writeTouches(raw: string, mutate: string[]): Promise<number> {
  const { sources, mutants } = await instrumentScope(ROOT, mutate);
  for (const f of CALLED_INTO) sources[f] ??= readFileSync(join(ROOT, f), 'utf8');
  const touches = touchesOf(mutants, sources, new Set(Object.keys(DEFAULT_BEHAVIOUR)));
  writeFileSync(join(raw, TOUCHES_FILE), JSON.stringify(touches) + '\n');
  return Object.keys(touches).length;
}

