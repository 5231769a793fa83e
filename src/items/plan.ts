/**
 * What a run will judge, known before its first check: the checks of the
 * item catalogue that the run's suite files register and `--only` keeps —
 * so the progress line starts at its final total, and a shard (`--shard`,
 * which splits the checks by estimated cost: src/items/shard.ts) knows its checks.
 *
 * Which checks a suite file registers, the file says itself, in one
 * declaration this module reads from its text (the file is never imported
 * here: importing it would register its checks):
 *
 *   export const REGISTERS: SuiteDeclaration = { rules: ['filters.id', 'filters.range'], resources: 'writable' };
 *
 * A unit test loads every suite file and fails when a file registers other
 * checks than it declares (test/unit/run-plan.test.ts); in a run, the
 * collector compares each file vitest collects with its declaration, so a
 * stale one cannot make the total wrong unnoticed.
 *
 * `--read-only`: write checks are counted. They still end, as skipped ("needs
 * create/update/delete"), and appear in the report: done reaches the total.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { RULES, type RuleId } from '../rules.js';
import { resource } from '../schema/model.js';
import { catalogue, isInvariantRule } from './index.js';
import { onlySelects, selectedItems } from './select.js';
import { shardChecks } from './shard.js';
import type { CheckDef } from './types.js';

/** What a suite file registers: the catalogue checks of these rules (on these resources). */
export interface SuiteDeclaration {
  /** rules of src/rules.ts: the file registers every catalogue check of each */
  rules: readonly RuleId[];
  /** only the checks of writable or of read-only resources (default: of every resource) */
  resources?: 'writable' | 'read-only';
}

const RESOURCE_CLASSES = ['writable', 'read-only'] as const;

/** The declaration as it must be written: one `export const REGISTERS: SuiteDeclaration = { … };` */
const DECLARATION = /^export const REGISTERS: SuiteDeclaration = \{([^}]*)\};$/m;

/**
 * A suite file's declaration, read from its source text. Strict: the object
 * may hold `rules` (an array of quoted rule ids) and `resources` (a quoted
 * class), nothing else, so what the plan reads is what the file declares.
 */
export function parseSuiteDeclaration(source: string, file: string): SuiteDeclaration {
  const fail = (problem: string): never => {
    throw new Error(`${file}: ${problem}; a suite file declares the checks it registers as \`export const REGISTERS: SuiteDeclaration = { rules: ['<rule id>', …], resources?: 'writable' | 'read-only' };\` (src/items/plan.ts)`);
  };
  const found = [...source.matchAll(new RegExp(DECLARATION.source, 'gm'))];
  if (found.length !== 1) fail(found.length ? 'REGISTERS is declared more than once' : 'no REGISTERS declaration');
  let body = found[0][1].replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '');
  const rulesText = /\brules:\s*\[([^\]]*)\]/.exec(body);
  if (!rulesText) fail('REGISTERS has no rules array');
  const rules = [...rulesText![1].matchAll(/'([^']*)'/g)].map((m) => m[1]);
  if (rulesText![1].replace(/'[^']*'/g, '').replace(/[\s,]/g, '') !== '') fail('REGISTERS.rules must list quoted rule ids only');
  if (!rules.length) fail('REGISTERS.rules is empty');
  for (const r of rules) if (!(r in RULES)) fail(`REGISTERS names ${JSON.stringify(r)}, which is no rule of src/rules.ts`);
  body = body.replace(rulesText![0], '');
  const classText = /\bresources:\s*'([^']*)'/.exec(body);
  const resources = classText?.[1];
  if (resources !== undefined && !(RESOURCE_CLASSES as readonly string[]).includes(resources)) fail(`REGISTERS.resources ${JSON.stringify(resources)} is none of ${RESOURCE_CLASSES.join(', ')}`);
  if (classText) body = body.replace(classText[0], '');
  if (body.replace(/[\s,]/g, '') !== '') fail(`REGISTERS holds something besides rules and resources: ${body.trim()}`);
  return { rules: rules as RuleId[], ...(resources ? { resources: resources as SuiteDeclaration['resources'] } : {}) };
}

/** The checks a declaration covers, as a predicate over catalogue checks. */
export function declares(d: SuiteDeclaration): (c: CheckDef) => boolean {
  const rules = new Set<string>(d.rules);
  const ofClass = (c: CheckDef) => d.resources === undefined || c.resource === '*' || resource(c.resource).writable === (d.resources === 'writable');
  return (c) => rules.has(c.rule) && ofClass(c);
}

const declarations = new Map<string, SuiteDeclaration>();

/** The declaration of the suite file at this path (read once per path). */
export function suiteDeclaration(file: string): SuiteDeclaration {
  let d = declarations.get(file);
  if (!d) {
    d = parseSuiteDeclaration(readFileSync(file, 'utf8'), `suites/${basename(file)}`);
    declarations.set(file, d);
  }
  return d;
}

/** The catalogue checks the suite file at this path registers, in catalogue order. */
export function checksOfFile(file: string): CheckDef[] {
  return catalogue().filter(declares(suiteDeclaration(file)));
}

export interface RunPlan {
  /** checks that will finish (passed, failed, error, skipped) if the run is not stopped */
  total: number;
  /** items they judge */
  items: number;
  /** per suite file of the run (path as given): the selected check ids it registers */
  byFile: Map<string, string[]>;
}

/** The plan of a run over these suite files, under --only (and, for a shard, only the checks in `keep`). */
export function planRun(files: string[], only?: string, keep?: ReadonlySet<string>): RunPlan {
  const selects = onlySelects(only);
  const byFile = new Map<string, string[]>();
  let total = 0;
  let items = 0;
  for (const f of files) {
    const chosen = checksOfFile(f).filter((c) => selects(c.id) && (!keep || keep.has(c.id)));
    byFile.set(f, chosen.map((c) => c.id));
    total += chosen.length;
    for (const c of chosen) items += selectedItems(only, c).length;
  }
  return { total, items, byFile };
}

/**
 * The plan of one shard (`i/n`): the run's selection over every suite file,
 * split by estimated cost; the files that hold none of its checks are not
 * loaded. `pattern` matches the test names of exactly its checks.
 */
export function planShard(files: string[], only: string | undefined, shard: string): { plan: RunPlan; files: string[]; pattern: RegExp } {
  const whole = planRun(files, only);
  const selected = new Set([...whole.byFile.values()].flat());
  const keep = shardChecks(catalogue().filter((c) => selected.has(c.id)), shard);
  const plan = planRun(files, only, keep);
  const escaped = [...keep].sort().map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return { plan, files: files.filter((f) => plan.byFile.get(f)?.length), pattern: new RegExp(`^(?:${escaped.join('|')}) — `) };
}

/**
 * The checks no suite file registers: the kit judges them on the answers of
 * every other check (the invariants, src/items/invariants.ts), in every run
 * and every shard, and they finish with the run's results.
 */
export function planKitChecks(only?: string): { total: number; items: number } {
  const selects = onlySelects(only);
  const chosen = catalogue().filter((c) => isInvariantRule(c.rule) && selects(c.id));
  return { total: chosen.length, items: chosen.reduce((n, c) => n + selectedItems(only, c).length, 0) };
}
