/**
 * What `npm run mutation:engine` mutates: the reference server's behaviour —
 * the code that decides what a client sees — and nothing that only switches
 * faults on, measures, or runs the proofs.
 *
 * One table. A file is mutated whole (its fault machinery is switched off in
 * place by `// Stryker disable` comments, which say why), or only the named
 * functions and statements, found in the current source by name so the scope
 * follows the code as lines move. A name that is no longer there is an error
 * naming the entry (test/unit/mutation-engine-scope.test.ts keeps the table
 * resolvable), never a silently smaller scope.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface ScopeEntry {
  file: string;
  /** mutate the whole file (fault machinery disabled in place by comments) */
  whole?: true;
  /** top-level or nested function declarations mutated whole */
  functions?: string[];
  /** statements of a function mutated, each named by how its text starts */
  statements?: { in: string; startingWith: string[] };
  why: string;
}

export const SCOPE: readonly ScopeEntry[] = [
  {
    file: 'reference/engine.ts',
    whole: true,
    why: 'the API itself: routing, method and body checks, authentication, filters, pagination and the cap, ordering, counts, create/update/delete, versions, validation, rendering of the get and write forms, error answers; the honest variants\' branches too (judged against the variant stores that reach them). Disabled in place: the stale reads and id counters of concurrency faults, the request context only fault hooks read, snapshot() (a test API, never served)',
  },
  {
    file: 'reference/pipeline.ts',
    whole: true,
    why: 'the default composition of the pipeline (what the engine serves with no fault); the fault layers and the request context are disabled in place',
  },
  {
    file: 'reference/behaviour.ts',
    functions: ['resolveBehaviour'],
    why: 'how a variant\'s choices are laid over the defaults. The default values themselves are a list of honest choices (a changed default is another variant, proven by the variant proofs); the transport switches are faults',
  },
  {
    file: 'reference/server.ts',
    functions: ['readBody', 'send'],
    statements: {
      in: 'handle',
      startingWith: ['const raw = ', 'const out = engine.handle(', 'send(ctx, res, out.status'],
    },
    why: 'the HTTP side a client sees: the request body as read (and its size limit), the engine\'s answer written with its status, content type and length. Not the transport faults (503, 429, resets, truncation, HTML pages, huge and deep answers, lying answers, dropped writes, latency), the stale-read pauses of concurrency faults, the request statistics, nor the server\'s start-up',
  },
];

interface Lines { start: number; end: number }

function lineRange(sf: ts.SourceFile, node: ts.Node): Lines {
  return {
    start: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
    end: sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1,
  };
}

function functionsNamed(sf: ts.SourceFile, name: string): ts.FunctionDeclaration[] {
  const found: ts.FunctionDeclaration[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionDeclaration(n) && n.name?.text === name) found.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

function oneFunction(sf: ts.SourceFile, file: string, name: string): ts.FunctionDeclaration {
  const fns = functionsNamed(sf, name);
  if (fns.length !== 1) {
    throw new Error(`mutation scope: ${file} holds ${fns.length} functions named ${name} (scripts/mutation-engine-scope.ts expects exactly one; update the table)`);
  }
  return fns[0];
}

/** One entry → Stryker `mutate` patterns (`file` or `file:start-end`). */
export function resolveEntry(root: string, e: ScopeEntry): string[] {
  if (e.whole) return [e.file];
  const text = readFileSync(join(root, e.file), 'utf8');
  const sf = ts.createSourceFile(e.file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const ranges: Lines[] = [];
  for (const name of e.functions ?? []) ranges.push(lineRange(sf, oneFunction(sf, e.file, name)));
  if (e.statements) {
    const body = oneFunction(sf, e.file, e.statements.in).body;
    for (const prefix of e.statements.startingWith) {
      const hits = (body?.statements ?? []).filter((s) => s.getText(sf).startsWith(prefix));
      if (hits.length !== 1) {
        throw new Error(`mutation scope: ${e.file} function ${e.statements.in} holds ${hits.length} statements starting with "${prefix}" (scripts/mutation-engine-scope.ts expects exactly one; update the table)`);
      }
      ranges.push(lineRange(sf, hits[0]));
    }
  }
  if (!ranges.length) throw new Error(`mutation scope: the entry for ${e.file} names nothing to mutate`);
  return ranges.sort((a, b) => a.start - b.start).map((r) => `${e.file}:${r.start}-${r.end}`);
}

/** Every entry → Stryker `mutate` patterns. */
export function mutatePatterns(root: string, scope: readonly ScopeEntry[] = SCOPE): string[] {
  return scope.flatMap((e) => resolveEntry(root, e));
}
