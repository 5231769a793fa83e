/**
 * The tables of reference/README.md that list the registries — every benign variant
 * (reference/variants.ts), every hand-written fault (reference/faults.ts) and the families of
 * generated local faults (reference/faults-generated.ts) — rendered from the registries
 * themselves, between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` markers.
 *
 *   npx tsx scripts/reference-readme.ts           rewrite the tables
 *   npx tsx scripts/reference-readme.ts --check   exit 1 when the README's tables are stale
 *
 * test/unit/reference-readme.test.ts runs the check, so a variant or fault added without its row
 * fails the tests.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FAULTS } from '../reference/faults.js';
import { FAMILIES, localFaults } from '../reference/faults-generated.js';
import { VARIANTS } from '../reference/variants.js';

export const README = fileURLToPath(new URL('../reference/README.md', import.meta.url));

/** Table-cell text: pipes escaped, underscores too (`_min/_max` is no emphasis), on one line. */
const cell = (s: string) => s.replace(/([|_])/g, '\\$1').replace(/\n/g, ' ');
const code = (s: string) => `\`${s}\``;

/** `{ order: 'createdon desc' }` → `order: 'createdon desc'` (a variant's Behaviour switches). */
function switches(behaviour: object): string {
  return Object.entries(behaviour).map(([k, v]) => code(`${k}: ${JSON.stringify(v).replace(/"/g, "'")}`)).join(', ');
}

function variantsTable(): string {
  return [
    `${VARIANTS.length} variants, each a \`Partial<Behaviour>\`:`,
    '',
    '| variant | what it chooses | switches |',
    '|---|---|---|',
    ...VARIANTS.map((v) => `| ${code(v.name)} | ${cell(v.description)}${v.notJudged ? `; the verdict names as not judged: ${cell(v.notJudged)}` : ''} | ${switches(v.behaviour)} |`),
  ].join('\n');
}

function faultsTable(): string {
  return [
    `${FAULTS.length} hand-written faults:`,
    '',
    '| fault | breaks | section | what it does |',
    '|---|---|---|---|',
    ...FAULTS.map((f) => `| ${code(f.name)} | ${code(f.breaks)} | ${f.section} | ${cell(f.description)}${f.stale ? ` (stale ${f.stale.part} of ${f.stale.resource}, ${f.stale.pauseMs} ms)` : ''} |`),
  ].join('\n');
}

function familiesTable(): string {
  const all = localFaults();
  return [
    `${all.length} generated faults in ${FAMILIES.length} families:`,
    '',
    '| family | faults | breaks | e.g. |',
    '|---|---|---|---|',
    ...FAMILIES.map((family) => {
      const of = all.filter((f) => f.family === family);
      const rules = [...new Set(of.map((f) => f.breaks))].map(code).join(', ');
      return `| ${code(family)} | ${of.length} | ${rules} | ${of[0] ? `${code(of[0].name)}: ${cell(of[0].description)}` : ''} |`;
    }),
  ].join('\n');
}

export const TABLES: Record<string, () => string> = { variants: variantsTable, faults: faultsTable, 'local-faults': familiesTable };

/** The README with every generated block rendered from the registries now; throws when a marker is missing. */
export function renderReadme(text: string): string {
  let out = text;
  for (const [name, render] of Object.entries(TABLES)) {
    const open = `<!-- generated:${name} -->`;
    const close = `<!-- /generated:${name} -->`;
    const a = out.indexOf(open);
    const b = out.indexOf(close);
    if (a === -1 || b < a) throw new Error(`reference/README.md: no ${open} … ${close} block`);
    out = `${out.slice(0, a + open.length)}\n${render()}\n${out.slice(b)}`;
  }
  return out;
}

function main(argv: string[]): number {
  const text = readFileSync(README, 'utf8');
  const fresh = renderReadme(text);
  if (argv.includes('--check')) {
    if (fresh === text) return 0;
    console.error('reference/README.md: the variant and fault tables are stale (run `npx tsx scripts/reference-readme.ts`)');
    return 1;
  }
  writeFileSync(README, fresh);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(main(process.argv.slice(2)));
