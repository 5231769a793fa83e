/**
 * `storecheck.config.json`: run options a CI repository pins (depth,
 * expectations, baseline, limits), read from the working directory or
 * `--config FILE`. Precedence: flags > environment > file > defaults.
 *
 * Its keys are the flag names without `--` ("min-coverage", "report-dir"):
 * one name per option everywhere — the help, the README, the flag a user
 * copies from a CI log — and no second spelling to keep in step. The schema
 * (schemas/config.schema.json) is generated from RUN_OPTIONS (configSchema();
 * a unit test fails when the committed file differs), and the file is
 * validated against it with ajv. The API key is never read from a file.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createAjv } from '../schema/ajv.js';
import { PROJECT_ROOT } from '../version.js';
import type { StorecheckConfig } from './config-file.types.generated.js';
import { distance, optionHelp, RUN_OPTIONS, UsageError, type OptionSpec, type ParsedOptions } from './options.js';

export const CONFIG_FILE_NAME = 'storecheck.config.json';
export const CONFIG_SCHEMA_FILE = join(PROJECT_ROOT, 'schemas', 'config.schema.json');

/** The run options a config file may hold (not the key, not per-invocation ones like --replay). */
export function fileOptions(specs: OptionSpec[] = RUN_OPTIONS): OptionSpec[] {
  return specs.filter((s) => !s.noFile);
}

/** A path option (FILE, DIR) in a config file is relative to the file's folder. */
function isPath(s: OptionSpec): boolean {
  return s.arg === 'FILE' || s.arg === 'DIR';
}

/** The JSON Schema of a config file, from the option table (what schemas/config.schema.json must hold). */
export function configSchema(specs: OptionSpec[] = RUN_OPTIONS): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    $schema: { type: 'string', description: 'the schema of this file (for editors)' },
  };
  for (const s of fileOptions(specs)) {
    const description = `${optionHelp(s)}${isPath(s) ? ' (relative to this file)' : ''}. Flag --${s.flag}${s.env ? `, env ${s.env}` : ''}.`;
    if (s.kind === 'flag') properties[s.flag] = { type: 'boolean', description };
    else if (s.kind === 'int') properties[s.flag] = { type: 'integer', ...(s.min !== undefined ? { minimum: s.min } : {}), ...(s.max !== undefined ? { maximum: s.max } : {}), description };
    else if (s.kind === 'list') properties[s.flag] = { type: 'array', items: { type: 'string' }, description };
    else properties[s.flag] = { type: 'string', ...(s.choices ? { enum: s.choices } : { minLength: 1 }), description };
  }
  const key = specs.find((s) => s.flag === 'api-key');
  if (key) properties['api-key'] = { not: {}, description: `never: the API key belongs in the environment (${key.env})` };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'config.schema.json',
    title: 'StorecheckConfig',
    description:
      'storecheck.config.json: run options of `storecheck run`, keyed by their flag names without --. ' +
      'Flags win over environment variables, environment variables over this file. Generated from the ' +
      'option table (src/cli/options.ts RUN_OPTIONS) by `npx tsx scripts/config-schema.ts`.',
    type: 'object',
    properties,
    additionalProperties: false,
  };
}

let validator: ((v: unknown) => boolean) & { errors?: AjvError[] | null } | undefined;

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, any>;
}

function validate(value: unknown): AjvError[] {
  if (!validator) {
    const schema = JSON.parse(readFileSync(CONFIG_SCHEMA_FILE, 'utf8'));
    validator = createAjv([schema]).getSchema('config.schema.json');
  }
  return validator!(value) ? [] : (validator!.errors ?? []);
}

/**
 * Read and validate a config file: the options it sets, as the parser gives
 * them (paths resolved against the file's folder). Every problem is a
 * UsageError naming the file and the JSON pointer (or line and column) of it.
 */
export function loadConfigFile(file: string, specs: OptionSpec[] = RUN_OPTIONS): ParsedOptions {
  const where = `config file ${file}`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${where}: cannot read it (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : (code ?? (e as Error).message)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${where}: not JSON (${jsonErrorAt(text, (e as Error).message)})`);
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && 'api-key' in value) {
    throw new UsageError(`${where}: /api-key: the API key is never read from a file (a file ends up in a repository); set STORE_API_KEY in the environment`);
  }
  const errors = validate(value);
  if (errors.length) throw new UsageError(`${where}: ${describe(errors[0], value, specs)}${errors.length > 1 ? ` (and ${errors.length - 1} more problem(s))` : ''}`);
  // valid against schemas/config.schema.json: the type npm run typegen generates from it
  const config = value as StorecheckConfig;
  const out: ParsedOptions = {};
  const dir = dirname(resolve(file));
  for (const s of fileOptions(specs)) {
    const v = config[s.flag as keyof StorecheckConfig];
    if (v === undefined) continue;
    out[s.flag] = isPath(s) ? resolve(dir, v as string) : (v as string | number | boolean | string[]);
  }
  return out;
}

/** One schema error as a sentence: the JSON pointer, then what is wrong. */
function describe(e: AjvError, value: unknown, specs: OptionSpec[]): string {
  if (e.keyword === 'additionalProperties') {
    const name = String(e.params.additionalProperty);
    const plain = name.replace(/^--/, '').toLowerCase().replace(/_/g, '-');
    const near = fileOptions(specs).map((s) => s.flag).find((f) => f === plain || f.replace(/-/g, '') === plain.replace(/-/g, '') || distance(f, plain) <= 2);
    const hint = near ? ` (did you mean "${near}"?)` : ` (keys are run flag names without --; see storecheck --help)`;
    return `${pointer(e.instancePath, name)}: not a run option${hint}`;
  }
  const at = e.instancePath || '(the top level)';
  const got = e.instancePath ? ` (got ${JSON.stringify(valueAt(value, e.instancePath))})` : '';
  if (e.keyword === 'enum') return `${at}: must be one of ${(e.params.allowedValues as unknown[]).join(', ')}${got}`;
  if (e.keyword === 'type') return `${at}: must be ${e.params.type === 'integer' ? 'an integer' : e.params.type === 'boolean' ? 'true or false' : `a${/^[aeiou]/.test(String(e.params.type)) ? 'n' : ''} ${e.params.type}`}${got}`;
  if (e.keyword === 'minimum') return `${at}: must be at least ${e.params.limit}${got}`;
  if (e.keyword === 'maximum') return `${at}: must be at most ${e.params.limit}${got}`;
  return `${at}: ${e.message ?? e.keyword}${got}`;
}

function pointer(base: string, key: string): string {
  return `${base}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function valueAt(value: unknown, ptr: string): unknown {
  let v: any = value;
  for (const part of ptr.split('/').slice(1)) v = v?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return v;
}

/** JSON.parse's "at position N" as line and column. */
function jsonErrorAt(text: string, message: string): string {
  const m = /position ([0-9]+)/.exec(message);
  if (!m) return message;
  const before = text.slice(0, Number(m[1]));
  const line = before.split('\n').length;
  const column = Number(m[1]) - before.lastIndexOf('\n');
  return `${message.replace(/ in JSON at position [0-9]+.*$/, '')} at line ${line}, column ${column}`;
}

/**
 * The options of a run: flags and environment (`given`, already merged by
 * parseOptions) over the config file — `--config FILE` (or STORE_CONFIG), else
 * ./storecheck.config.json when it exists. A file given and missing is an error.
 */
export function withConfigFile(given: ParsedOptions, cwd = process.cwd(), specs: OptionSpec[] = RUN_OPTIONS): ParsedOptions {
  const explicit = given.config as string | undefined;
  const file = explicit !== undefined ? resolve(cwd, explicit) : join(cwd, CONFIG_FILE_NAME);
  let fromFile: ParsedOptions;
  try {
    fromFile = loadConfigFile(file, specs);
  } catch (e) {
    // the default file is optional; anything wrong with one that exists (or was named) is not
    if (explicit === undefined && /no such file/.test((e as Error).message)) return given;
    throw e;
  }
  const merged: ParsedOptions = { ...given };
  for (const [k, v] of Object.entries(fromFile)) if (merged[k] === undefined) merged[k] = v;
  merged.config = file;
  return merged;
}
