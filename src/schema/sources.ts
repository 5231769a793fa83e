/**
 * Where the schema documents come from: `schemas/*.schema.json`, read once.
 * The schema model (model.ts) is built from a list of documents that defaults
 * to these; a test that adds a resource builds a model from this list plus its
 * own schema (test/unit/sixteenth-resource.test.ts), the product never does.
 *
 * Light on purpose (no validator is made here): modules that only need the
 * resources' §1 order, such as the report views, read it from here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type JsonSchema = Record<string, any>;

export const SCHEMA_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

/** Every `*.schema.json` of a folder, parsed, in file-name order. */
export function readSchemaDocuments(dir: string = SCHEMA_DIR): JsonSchema[] {
  const at = dir.endsWith('/') ? dir : `${dir}/`;
  return readdirSync(at)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(at + f, 'utf8')) as JsonSchema);
}

let defaults: readonly JsonSchema[] | undefined;

/** The project's schema documents (schemas/), read on first use. */
export function defaultSchemaDocuments(): readonly JsonSchema[] {
  return (defaults ??= Object.freeze(readSchemaDocuments()));
}

/** One document of a list by its `$id`; throws when it is not there. */
export function documentById(docs: readonly JsonSchema[], id: string): JsonSchema {
  const doc = docs.find((d) => d.$id === id);
  if (!doc) throw new Error(`schema documents: no ${id} among ${docs.map((d) => d.$id).join(', ')}`);
  return doc;
}

/**
 * The resources of a list of documents in §1 order: by `x-resource.position`
 * (each resource schema's row in the spec's §1 table). Two resources at one
 * position, or one without a position, is a schema error.
 */
export function resourceOrderOf(docs: readonly JsonSchema[]): string[] {
  const metas = docs.map((d) => d['x-resource']).filter((m): m is { name: string; position: number } => !!m);
  const seen = new Map<number, string>();
  for (const m of metas) {
    if (!Number.isInteger(m.position) || m.position < 1) throw new Error(`schema of ${m.name}: x-resource.position must be a positive integer (its row in §1)`);
    const other = seen.get(m.position);
    if (other) throw new Error(`schemas of ${other} and ${m.name}: both at x-resource.position ${m.position}`);
    seen.set(m.position, m.name);
  }
  return [...metas].sort((a, b) => a.position - b.position).map((m) => m.name);
}

let order: readonly string[] | undefined;

/** The project's resources in §1 order (schemas/: x-resource.position). */
export function resourceOrder(): readonly string[] {
  return (order ??= Object.freeze(resourceOrderOf(defaultSchemaDocuments())));
}
