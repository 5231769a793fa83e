/**
 * One ajv instance (JSON Schema 2020-12, strict mode) holding every schema.
 * The API needs more than JSON Schema says, so the x-* keywords are declared
 * here: most are annotations read by the model; x-decimal and x-integer validate.
 */
import { createRequire } from 'node:module';
import type { JsonSchema } from './sources.js';

const require = createRequire(import.meta.url);

/**
 * ajv's library, loaded on the first compile. A thread that reads the validators compiled once
 * (src/schema/precompiled.ts: every worker of a run, and the main process from the second run on)
 * never compiles, so it never loads ajv and ajv-formats: ~25 ms of a fresh thread's CPU each.
 */
interface AjvLibrary { Ajv2020: any; addFormats: any; _: any; Name: any }
let library: AjvLibrary | undefined;
function ajvLibrary(): AjvLibrary {
  if (library) return library;
  const ajvModule = require('ajv/dist/2020.js');
  const formatsModule = require('ajv-formats');
  library = { Ajv2020: ajvModule.default ?? ajvModule, addFormats: formatsModule.default ?? formatsModule, _: ajvModule._, Name: ajvModule.Name };
  return library;
}

export interface ValidationResult { ok: boolean; errors: string[] }
export type Validator = (value: unknown) => ValidationResult;

/** Annotation keywords: carry meaning for the model, generators and checks; no validation. */
export const ANNOTATION_KEYWORDS = [
  'x-resource', // { name, position, title, prefix, operations, audit, single?, documentedCountPath?, versionsOrder? }
  'x-kind', // guid | string | predefined | integer | decimal | boolean | datetime | date
  'x-separator', // decimal separator of a response form: '.', ',' or 'either'
  'x-form', // boolean form: get ('true'/'false') or write ('1'/'0')
  'x-filter', // array | range | boolean (§4 Filter naming)
  'x-field', // the record field a filter key applies to, when not derivable from the key
  'x-known-values', // Predefined values that appear in the spec's enumeration table
  'x-quirk', // { const, note }: a documented formatting quirk of this field
  'x-unique', // payload property that must be unique per record; carries the run tag
  'x-references', // payload property holding ids of another resource
  'x-record-field', // the record field a payload property shows up as
  'x-optional-note', // why a payload property is not in the mandatory list, or why it is sent as it is
  'x-safe-value', // the only value a run may send: another would change records the run did not create
  'x-spec', // the spec section a definition comes from
  'x-date-pairs', // on a Payload: [start, end] DateTime properties that read as a period; generated values keep start ≤ end
];

/** "8 digits with 2 decimals": at most `digits` digits before the separator, at most `scale` after. */
export function decimalWithin(value: string, limit: { digits: number; scale: number }): boolean {
  const m = /^-?([0-9]+)(?:[.,]([0-9]+))?$/.exec(value);
  if (!m) return false;
  // a lone 0 before the point is no digit: 0.99 is within 2 digits in all, 2 of them decimals
  const intPart = m[1].replace(/^0+/, '');
  return intPart.length <= limit.digits && (m[2] ?? '').length <= limit.scale;
}

/** "at most 11 digits" (§8 Integer). */
export function integerWithin(value: string, limit: { digits: number }): boolean {
  const m = /^-?([0-9]+)$/.exec(value);
  return !!m && m[1].replace(/^0+(?=[0-9])/, '').length <= limit.digits;
}

/** The name standalone validator code requires the keywords' functions by (src/schema/precompiled.ts resolves it). */
export const KEYWORDS_MODULE = 'storecheck:schema-keywords';
const KEYWORD_FUNCS = { decimalWithin, integerWithin };
export type KeywordFuncs = typeof KEYWORD_FUNCS;
export const keywordFuncs: KeywordFuncs = KEYWORD_FUNCS;

/** One of the keywords' functions in a validator's scope: called in place, required by name in standalone code. */
function keywordFunc(cxt: any, name: keyof KeywordFuncs): unknown {
  const { _, Name } = ajvLibrary();
  return cxt.gen.scopeValue('func', { ref: KEYWORD_FUNCS[name], code: _`require(${KEYWORDS_MODULE}).${new Name(name)}` });
}

/** `source`: keep each validator's code, for standaloneCode (src/schema/precompiled.ts). */
export function createAjv(docs: JsonSchema[], opts: { source?: boolean } = {}): any {
  const { Ajv2020, addFormats, _ } = ajvLibrary();
  const ajv = new Ajv2020({ strict: true, allErrors: true, strictRequired: false, allowUnionTypes: true, ...(opts.source ? { code: { source: true } } : {}) });
  addFormats(ajv);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword, schemaType: ['string', 'object', 'array', 'boolean'] });
  // code keywords calling the two functions above: the validators compile to standalone code that
  // names them (KEYWORDS_MODULE, resolved by src/schema/precompiled.ts), so one compile serves every
  // thread and run (a keyword with a `validate` function has no code standalone code can carry)
  ajv.addKeyword({
    keyword: 'x-decimal',
    schemaType: 'object',
    error: { message: (cxt: any) => `must have at most ${cxt.schema.digits} digits and ${cxt.schema.scale} decimals` },
    // no `type:` so strictTypes accepts it beside a $ref; non-strings are left to `type`
    code: (cxt: any) => cxt.fail(_`typeof ${cxt.data} == "string" && !${keywordFunc(cxt, 'decimalWithin')}(${cxt.data}, ${cxt.schemaCode})`),
  });
  ajv.addKeyword({
    keyword: 'x-integer',
    schemaType: 'object',
    error: { message: (cxt: any) => `must have at most ${cxt.schema.digits} digits` },
    code: (cxt: any) => cxt.fail(_`typeof ${cxt.data} == "string" && !${keywordFunc(cxt, 'integerWithin')}(${cxt.data}, ${cxt.schemaCode})`),
  });
  // adding checks each document against the meta-schema; compiling waits for first use, so a
  // process pays only for the validators it needs. compileAll() compiles every definition: the unit
  // tests call it, so a broken schema still fails there.
  for (const doc of docs) ajv.addSchema(doc);
  return ajv;
}

/** Compile every definition of every document now; returns how many. */
export function compileAll(ajv: any, docs: Iterable<JsonSchema>): number {
  let n = 0;
  for (const doc of docs) {
    for (const def of Object.keys(doc.$defs ?? {})) {
      if (!ajv.getSchema(`${doc.$id}#/$defs/${def}`)) throw new Error(`${doc.$id}#/$defs/${def} did not compile`);
      n++;
    }
  }
  return n;
}
