/**
 * `storecheck openapi [--out FILE] [--format json|yaml]`: writes an OpenAPI 3.1
 * document of the API, built from the same schemas as the checks (issue 17,
 * point 7; src/openapi/, docs/openapi.md). JSON by default, to stdout when no
 * --out is given; the format follows a .yaml/.yml --out unless --format says.
 */
import { writeFileSync } from 'node:fs';
import { buildOpenApi, type OpenApiDocument } from '../openapi/document.js';
import { TOOL_VERSION } from '../version.js';
import { commandHelp, COMMON_OPTIONS, parseOptions, UsageError, type OptionSpec } from './options.js';

export const OPTIONS: OptionSpec[] = [
  { flag: 'out', kind: 'string', arg: 'FILE', help: 'write the document to FILE (default: stdout)' },
  { flag: 'format', kind: 'string', arg: 'json|yaml', choices: ['json', 'yaml'], help: 'json (default) or yaml (also when --out ends in .yaml/.yml)' },
  ...COMMON_OPTIONS,
];

export const HELP = commandHelp(
  'storecheck openapi [--out FILE] [--format json|yaml]',
  'Writes an OpenAPI 3.1 document of the Online Store Administration API, built from the schemas the ' +
    'checks use (schemas/*.schema.json): every resource × operation as a POST path with its request ' +
    'envelope and its answer, the filter tables, the formatting quirks. Nothing is run and no target is ' +
    'contacted. See docs/openapi.md for what the document holds and what OpenAPI cannot express.',
  OPTIONS,
  'examples:\n  storecheck openapi --out storecheck-openapi.yaml\n  storecheck openapi | jq .paths',
);

/** The document as text in one format. */
export async function renderOpenApi(doc: OpenApiDocument, format: 'json' | 'yaml'): Promise<string> {
  if (format === 'json') return JSON.stringify(doc, null, 2) + '\n';
  const { stringify } = await import('yaml');
  // no anchors/aliases: some OpenAPI tools do not follow them; no folding of long descriptions
  return stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
}

export async function openapiCommand(args: string[]): Promise<number> {
  const { options, positional } = parseOptions(args, OPTIONS, {});
  // src/cli.ts answers -h/-V before a command runs; answered here too when called directly
  if (options.help || options.version) {
    process.stdout.write((options.help ? HELP : TOOL_VERSION) + '\n');
    return 0;
  }
  if (positional.length) throw new UsageError(`openapi takes no arguments, got "${positional[0]}" (see --help)`);
  const out = options.out as string | undefined;
  if (out === '') throw new UsageError('--out needs a file name');
  const format = (options.format as 'json' | 'yaml' | undefined) ?? (out && /\.ya?ml$/i.test(out) ? 'yaml' : 'json');
  const doc = buildOpenApi();
  const text = await renderOpenApi(doc, format);
  if (!out) {
    // drained before the process exits, and a reader that stops early (`| head`) is no error: src/cli/stdio.ts
    process.stdout.write(text);
    return 0;
  }
  try {
    writeFileSync(out, text);
  } catch (e) {
    throw new UsageError(`--out ${out}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  process.stderr.write(`wrote ${out}: OpenAPI ${doc.openapi}, ${format}, ${Object.keys(doc.paths).length} paths\n`);
  return 0;
}
