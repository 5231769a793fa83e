/**
 * The package and the container image ship the same files, and those are all the CLI needs at run
 * time (issue 17): the package.json "files" list, the Dockerfile's COPY lines and .dockerignore
 * agree; every module the CLI can load (from bin/, vitest.config.ts and the suites, through every
 * relative import) is in "files"; every package it imports is a dependency, not a devDependency.
 * test/meta/package.test.ts proves the same by installing the packed tarball and running it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cacheRoot } from '../../src/run/vitest.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  files: string[];
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  private?: boolean;
};
/** npm's own metadata: package.json is always packed, the lock is what `npm ci` installs from */
const NPM_METADATA = ['package.json', 'package-lock.json'];

const strip = (p: string) => p.replace(/^\.\//, '').replace(/\/+$/, '');
const included = PKG.files.filter((f) => !f.startsWith('!')).map(strip);
const excluded = PKG.files.filter((f) => f.startsWith('!')).map((f) => strip(f.slice(1)));

/** Is a repository path (file or folder) shipped by "files"? */
function shipped(path: string): boolean {
  const p = strip(path);
  if (excluded.some((x) => p === x || p.startsWith(x + '/'))) return false;
  return included.some((f) => p === f || p.startsWith(f + '/'));
}

interface Instruction { op: string; args: string }

/** Dockerfile instructions, continuation lines joined, comments dropped. */
export function dockerInstructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const m = /^(\S+)\s+(.*)$/.exec(l);
      return { op: (m?.[1] ?? l).toUpperCase(), args: m?.[2] ?? '' };
    });
}

/** The sources of a COPY/ADD from the build context (COPY --from=<stage> copies from a stage, not the repo). */
export function copySources(ins: Instruction): string[] | undefined {
  let words: string[];
  if (ins.args.trim().startsWith('[')) words = JSON.parse(ins.args) as string[];
  else words = ins.args.split(/\s+/);
  if (words.some((w) => w.startsWith('--from='))) return undefined;
  const paths = words.filter((w) => !w.startsWith('--'));
  return paths.slice(0, -1);
}

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const instructions = dockerInstructions(dockerfile);
const copied = instructions.filter((i) => i.op === 'COPY' || i.op === 'ADD').flatMap((i) => copySources(i) ?? []);
const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'))
  .map(strip);

describe('package.json', () => {
  it('is publishable, with a files list and the storecheck bin inside it', () => {
    expect(PKG.private).not.toBe(true);
    expect(PKG.files.length).toBeGreaterThan(0);
    expect(Object.keys(PKG.bin)).toContain('storecheck');
    for (const b of Object.values(PKG.bin)) {
      expect(existsSync(join(ROOT, b)), b).toBe(true);
      expect(shipped(b), b).toBe(true);
    }
    // each entry names something that exists: a typo would ship nothing without a word
    for (const f of [...included, ...excluded]) expect(existsSync(join(ROOT, f)), f).toBe(true);
  });

  it('ships no tests, scripts or reports', () => {
    for (const p of ['test', 'scripts', 'reports', 'docs', 'node_modules', 'test/meta/package.test.ts', 'scripts/mutation.ts']) expect(shipped(p), p).toBe(false);
  });
});

describe('what the CLI loads at run time', () => {
  /** every module reachable by relative imports from the entry points, and the packages they import */
  function walk(): { modules: Set<string>; packages: Map<string, string> } {
    const roots = ['bin/storecheck.mjs', 'vitest.config.ts', 'src/check/setup.ts', ...listFiles('suites').filter((f) => f.endsWith('.check.ts'))];
    const modules = new Set<string>();
    const packages = new Map<string, string>();
    const queue = [...roots];
    while (queue.length) {
      const file = queue.pop()!;
      if (modules.has(file)) continue;
      modules.add(file);
      const source = readFileSync(join(ROOT, file), 'utf8');
      // value imports only (type-only imports are erased), static and dynamic, and require()
      const specifiers = [
        ...[...source.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]),
        ...[...source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]),
        ...[...source.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
      ];
      for (const spec of specifiers) {
        if (spec.startsWith('.')) {
          const target = resolveModule(join(dirname(file), spec));
          expect(target, `${file} imports ${spec}: no such module`).toBeDefined();
          queue.push(target!);
        } else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
          const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
          packages.set(name, file);
        }
      }
    }
    return { modules, packages };
  }

  function resolveModule(path: string): string | undefined {
    const p = relative(ROOT, resolve(ROOT, path));
    for (const c of [p, p.replace(/\.js$/, '.ts'), p.replace(/\.mjs$/, '.mts'), `${p}.ts`, join(p, 'index.ts')]) {
      if (existsSync(join(ROOT, c)) && statSync(join(ROOT, c)).isFile()) return c;
    }
    return undefined;
  }

  function listFiles(dir: string): string[] {
    return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => relative(ROOT, join(e.parentPath, e.name)));
  }

  const { modules, packages } = walk();

  it('every module is in the package files', () => {
    expect(modules.size).toBeGreaterThan(50);
    expect([...modules].filter((m) => !shipped(m))).toEqual([]);
  });

  it('every package imported is a dependency (none needs a devDependency)', () => {
    expect(packages.has('vitest') && packages.has('tsx')).toBe(true);
    const notDeps = [...packages].filter(([name]) => !(name in PKG.dependencies)).map(([name, file]) => `${name} (imported by ${file})`);
    expect(notDeps).toEqual([]);
    // vitest.config.ts's setup files are loaded by name
    expect('allure-vitest' in PKG.dependencies).toBe(true);
  });

  it('the folders read by path at run time are shipped (schemas, suites)', () => {
    for (const d of ['schemas', 'suites', 'src', 'reference', 'generators']) expect(shipped(d), d).toBe(true);
  });
});

describe('Dockerfile', () => {
  it('copies only things that exist and the package ships (or npm metadata)', () => {
    expect(copied.length).toBeGreaterThan(0);
    for (const src of copied) {
      expect(existsSync(join(ROOT, src)), `COPY ${src}: not in the repository`).toBe(true);
      expect(NPM_METADATA.includes(strip(src)) || shipped(src), `COPY ${src}: not in package.json "files"`).toBe(true);
    }
  });

  it('copies everything the package ships, so image and package run the same files', () => {
    const copiedPaths = copied.map(strip);
    expect(included.filter((f) => !copiedPaths.includes(f))).toEqual([]);
  });

  it('leaves out what the package leaves out (.dockerignore) and never sends node_modules, tests or reports', () => {
    expect(excluded.filter((x) => !dockerignore.includes(x))).toEqual([]);
    for (const x of ['node_modules', '.git', 'reports', 'test']) expect(dockerignore, x).toContain(x);
    // nothing the image copies is ignored
    expect(copied.map(strip).filter((c) => dockerignore.includes(c))).toEqual([]);
  });

  it('node:20-slim, production dependencies from the lock, a non-root user, storecheck as the entrypoint', () => {
    const from = instructions.filter((i) => i.op === 'FROM');
    expect(from.at(-1)?.args).toMatch(/^node:20-slim\b/);
    expect(instructions.some((i) => i.op === 'RUN' && /\bnpm ci\b.*--omit=dev/.test(i.args))).toBe(true);
    const user = instructions.filter((i) => i.op === 'USER').at(-1)?.args.trim();
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(instructions.filter((i) => i.op === 'ENTRYPOINT').at(-1)?.args).toBe('["storecheck"]');
    // the storecheck on the PATH is the package's bin
    expect(dockerfile).toContain(`ln -s /app/${PKG.bin.storecheck} /usr/local/bin/storecheck`);
  });
});

describe("vitest's caches", () => {
  it('stay in a clone, and leave an installed or read-only package alone', () => {
    expect(cacheRoot(ROOT)).toBeUndefined();
    expect(cacheRoot(join('/srv/app/node_modules/storecheck'), 7)).toBe(join(tmpdir(), 'storecheck-cache-7'));
    // a folder whose node_modules cannot be written (here: does not exist), as /app in the image
    expect(cacheRoot(join(ROOT, 'no-such-folder'), 7)).toBe(join(tmpdir(), 'storecheck-cache-7'));
  });
});
