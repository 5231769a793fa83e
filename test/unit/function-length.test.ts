/**
 * No function in src/ is longer than 80 lines (issue 23: a long function does
 * several jobs; a newcomer reads a function whole). Every function-like node
 * with a body — declarations, methods, constructors, accessors, arrow
 * functions and function expressions — is measured with the TypeScript
 * compiler API, from its first line to its last (its doc comment not
 * counted, nested functions counted in the one holding them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/version.js';

const MAX_LINES = 80;

/**
 * Functions allowed to be longer, each with why. Only a table-like function
 * (one long literal, no logic to split) belongs here. An entry whose function
 * is no longer over the limit (or gone) fails the test: remove it.
 */
const ALLOWED: Record<string, string> = {};

interface Measured {
  where: string;
  key: string;
  lines: number;
}

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** A function's name as a reader finds it: its own, or the variable, property or class member holding it. */
function nameOf(fn: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  const own = fn.name?.getText(sf);
  const parent = fn.parent;
  const holder =
    ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) ? parent.name.getText(sf) : undefined;
  const name = own ?? holder ?? (ts.isConstructorDeclaration(fn) ? 'constructor' : anonymousIn(fn, sf));
  const cls = ts.isClassLike(parent) ? parent.name?.getText(sf) : undefined;
  return cls ? `${cls}.${name}` : name;
}

/** An unnamed function, named by the function it is written in ("postOn › <anonymous>"). */
function anonymousIn(fn: ts.Node, sf: ts.SourceFile): string {
  for (let p = fn.parent; p; p = p.parent) if (ts.isFunctionLike(p) && 'body' in p) return `${nameOf(p as ts.FunctionLikeDeclaration, sf)} › <anonymous>`;
  return '<anonymous>';
}

/** Every function of every file under src/, with its length in lines. */
function measure(): Measured[] {
  const out: Measured[] = [];
  for (const file of sources(join(PROJECT_ROOT, 'src'))) {
    const rel = relative(PROJECT_ROOT, file).split('\\').join('/');
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const fn = node as ts.FunctionLikeDeclaration;
        const first = sf.getLineAndCharacterOfPosition(fn.getStart(sf)).line;
        const last = sf.getLineAndCharacterOfPosition(fn.getEnd()).line;
        const name = nameOf(fn, sf);
        out.push({ where: `${rel}:${first + 1} ${name}`, key: `${rel} ${name}`, lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

describe('function length', () => {
  const all = measure();

  it('measures the functions of src/ (the walk finds them)', () => {
    // a walk that found nothing would pass vacuously
    expect(all.length).toBeGreaterThan(500);
    expect(all.find((f) => f.key === 'src/cli.ts resolveConfig')).toBeDefined();
    expect(all.find((f) => f.key === 'src/run/stop.ts RunStop.stop')).toBeDefined();
  });

  it(`no function in src/ is over ${MAX_LINES} lines`, () => {
    const long = all.filter((f) => f.lines > MAX_LINES && !(f.key in ALLOWED)).map((f) => `${f.where}: ${f.lines} lines`);
    expect(long, `split these into named steps (or, for a table-like function only, add a reasoned entry to ALLOWED)`).toEqual([]);
  });

  it('every allowed exception is still needed', () => {
    const stale = Object.keys(ALLOWED).filter((key) => !all.some((f) => f.key === key && f.lines > MAX_LINES));
    expect(stale, 'no longer over the limit (or gone): remove from ALLOWED').toEqual([]);
  });
});
