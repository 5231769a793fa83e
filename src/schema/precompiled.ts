/**
 * The validators compiled once, for every thread and every run. Compiling a
 * schema (ajv's code generation) cost each isolate of a run — the main process
 * and every worker — up to half a CPU-second: 8 % of a standard run's CPU, the
 * largest item of its profile. Compiled with `code.source`, ajv writes the
 * validators as standalone code (a CommonJS module); the run keeps that module
 * in its cache folder, named by a hash of what it was compiled from (the schema
 * documents, src/schema/ajv.ts, ajv's version), and every thread loads it
 * instead of compiling. A missing, stale or unreadable module is compiled
 * again: the validators are the same either way (test/unit/precompiled.test.ts).
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { compileAll, createAjv, KEYWORDS_MODULE, keywordFuncs } from './ajv.js';
import { schemaModel } from './model.js';
import type { JsonSchema } from './sources.js';

const require = createRequire(import.meta.url);

/** ajv's standalone code generator, loaded only by the thread that compiles (as ajv itself: src/schema/ajv.ts). */
function standaloneCode(ajv: any, refs: Record<string, string>): string {
  const mod = require('ajv/dist/standalone/index.js');
  return (mod.default ?? mod)(ajv, refs);
}

/** A compiled validator as ajv makes it: true or false, its errors on `.errors`. */
export type CompiledValidator = ((value: unknown) => boolean) & { errors?: unknown[] | null };

/** `<$id>#/$defs/<def>` of every definition of these documents (the keys validatorAt asks for). */
export function definitionKeys(docs: Iterable<JsonSchema>): string[] {
  const keys: string[] = [];
  for (const doc of docs) for (const def of Object.keys(doc.$defs ?? {})) keys.push(`${doc.$id}#/$defs/${def}`);
  return keys;
}

/** What the module is compiled from: a module made from anything else is another module. */
export function precompiledHash(docs: readonly JsonSchema[]): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(docs));
  h.update(readFileSync(new URL('./ajv.ts', import.meta.url)));
  h.update(JSON.stringify(require('ajv/package.json').version) + JSON.stringify(require('ajv-formats/package.json').version));
  return h.digest('hex').slice(0, 16);
}

/** Every definition of these documents, compiled, as the source of one CommonJS module exporting each by its key. */
export function precompiledSource(docs: readonly JsonSchema[]): string {
  const ajv = createAjv([...docs], { source: true });
  compileAll(ajv, docs);
  const keys = definitionKeys(docs);
  const refs = Object.fromEntries(keys.map((key, i) => [`v${i}`, key]));
  // the keys, beside the code: the module's exports are v0, v1, … in this order
  return `${standaloneCode(ajv, refs)}\nmodule.exports.__keys = ${JSON.stringify(keys)};\n`;
}

/** The validators of a module precompiledSource made, by key. Throws on a module that does not load. */
export function loadPrecompiled(source: string): Map<string, CompiledValidator> {
  const mod: { exports: Record<string, unknown> } = { exports: {} };
  const resolve = (name: string) => (name === KEYWORDS_MODULE ? keywordFuncs : require(name));
  // eslint-disable-next-line no-new-func -- the module is code ajv generated, from this project's own schemas
  new Function('module', 'exports', 'require', source)(mod, mod.exports, resolve);
  const keys = mod.exports.__keys;
  if (!Array.isArray(keys)) throw new Error('not a module of precompiled validators');
  const out = new Map<string, CompiledValidator>();
  keys.forEach((key: string, i: number) => {
    const fn = mod.exports[`v${i}`];
    if (typeof fn !== 'function') throw new Error(`precompiled validators: no function for ${key}`);
    out.set(key, fn as CompiledValidator);
  });
  return out;
}

/** Where the module for these documents is kept in `cacheDir`. */
export function precompiledFile(cacheDir: string, docs: readonly JsonSchema[]): string {
  return join(cacheDir, `validators-${precompiledHash(docs)}.cjs`);
}

/** The validators kept in `cacheDir` for these documents, or undefined (none yet, or one that does not load). */
export function readPrecompiled(cacheDir: string, docs: readonly JsonSchema[]): Map<string, CompiledValidator> | undefined {
  let source: string;
  try {
    const file = precompiledFile(cacheDir, docs);
    // code this process runs: only a file of this user's that no one else may write (the cache of an
    // installed package is under the shared temp folder)
    const st = statSync(file);
    if ((process.getuid && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) return undefined;
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return loadPrecompiled(source);
  } catch {
    return undefined;
  }
}

/**
 * Compile the validators of these documents and keep them in `cacheDir`
 * (written aside, then renamed: a thread reading it meanwhile sees the whole
 * module or none). Returns the file, or undefined when it could not be written
 * (a read-only folder: the run compiles as before).
 */
export function writePrecompiled(cacheDir: string, docs: readonly JsonSchema[], source?: string): string | undefined {
  const file = precompiledFile(cacheDir, docs);
  try {
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, source ?? precompiledSource(docs), { mode: 0o644 });
    chmodSync(tmp, 0o644);
    renameSync(tmp, file);
    return file;
  } catch {
    return undefined;
  }
}

/**
 * The project's model (schemaModel()) uses the validators kept in `cacheDir`;
 * `compileIfMissing` (the main process, before the workers need them) compiles
 * and keeps them first when there are none yet. Says what it did.
 */
export function usePrecompiledValidators(cacheDir: string, opts: { compileIfMissing?: boolean } = {}): 'read' | 'compiled' | 'none' {
  const model = schemaModel();
  const docs = [...model.byId.values()];
  let validators = readPrecompiled(cacheDir, docs);
  let how: 'read' | 'compiled' = 'read';
  if (!validators && opts.compileIfMissing && writePrecompiled(cacheDir, docs)) {
    validators = readPrecompiled(cacheDir, docs);
    how = 'compiled';
  }
  if (!validators) return 'none';
  model.usePrecompiled(validators);
  return how;
}
