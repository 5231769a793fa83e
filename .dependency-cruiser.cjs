/**
 * The house's import rules (dependency-cruiser 16), as tests: `npm test` runs them
 * (test/unit/import-rules.test.ts), and so can anyone:
 *
 *   npx depcruise --config .dependency-cruiser.cjs src suites generators reference
 *
 * The code stands on floors; an import points down or sideways (same floor), never up.
 * A module belongs to the lowest floor whose paths match it. docs/architecture.md draws
 * the floors and says why each module is where it is.
 */

/** Bottom to top. */
const FLOORS = [
  {
    name: 'model',
    comment: 'the schemas and their model, the rules table, the option table (every flag, variable and default), the report contract (types of schemas/report.schema.json), the package facts (root and version, exit codes, the printed command, folders)',
    paths: [
      '^src/schema/', '^src/rules[.]ts$', '^src/cli/options[.]ts$', '^src/report/types([.]generated)?[.]ts$',
      '^src/version[.]ts$', '^src/exit[.]ts$', '^src/invocation[.]ts$', '^src/files[.]ts$',
    ],
  },
  { name: 'derived', comment: 'derived from the model: value semantics, the item catalogue and check selection, the generators', paths: ['^src/values/', '^src/items/', '^generators/'] },
  { name: 'client', comment: 'the target: the client (calls, ledger, gate, redaction) and the run configuration', paths: ['^src/client/', '^src/config[.]ts$'] },
  { name: 'report', comment: 'the report: evidence, assembly helpers and views (pure functions of report.json)', paths: ['^src/report/'] },
  { name: 'observe', comment: 'the probes of what the spec leaves open', paths: ['^src/observe/'] },
  { name: 'check', comment: 'the check kit', paths: ['^src/check/'] },
  { name: 'run', comment: 'the run: vitest, the collector, cleanup, the terminal', paths: ['^src/run/'] },
  { name: 'cli', comment: 'the commands', paths: ['^src/cli[.]ts$', '^src/cli/', '^src/openapi/'] },
  { name: 'suites', comment: 'the checks (loaded by vitest, imported by nothing; they go through the kit: suites-only-through-the-kit)', paths: ['^suites/'] },
];

const alternatives = (paths) => paths.join('|');

/** One rule per floor: nothing on it imports a floor above it. */
const floorRules = FLOORS.slice(0, -1).map((floor, i) => ({
  name: `no-back-arrow-from-${floor.name}`,
  comment: `floor ${i} ${floor.name}, ${floor.comment}: imports its own floor${i ? ` and those below it (${FLOORS.slice(0, i).map((f) => f.name).join(', ')})` : ''}, never one above`,
  severity: 'error',
  from: { path: alternatives(floor.paths), ...(i ? { pathNot: alternatives(FLOORS.slice(0, i).flatMap((f) => f.paths)) } : {}) },
  to: { path: alternatives(FLOORS.slice(i + 1).flatMap((f) => f.paths)), pathNot: alternatives(FLOORS.slice(0, i + 1).flatMap((f) => f.paths)) },
}));

/** Entry points nothing imports: loaded by a glob, a setup file, a script or a test. */
const ENTRY_POINTS = ['^suites/[^/]+[.]check[.]ts$', '^src/check/setup[.]ts$', '^reference/cpu-usage[.]mjs$'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle makes two modules one: neither can be read, tested or moved alone.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...floorRules,
    {
      name: 'suites-only-through-the-kit',
      comment: 'A suite file imports src/check/index.ts (the kit), generators/index.ts, fast-check and suites/ only: never past the kit.',
      severity: 'error',
      from: { path: '^suites/' },
      to: { pathNot: '^(suites/|src/check/index[.]ts$|generators/index[.]ts$|node_modules/fast-check/)' },
    },
    {
      name: 'runtime-never-imports-suites-or-tests',
      comment: 'The suites are loaded by vitest from their folder; tests and scripts sit outside the package.',
      severity: 'error',
      from: { path: '^(src|generators|reference)/' },
      to: { path: '^(suites|test|scripts)/' },
    },
    {
      name: 'reference-stands-apart',
      comment: 'The reference server is judged by the suite: it may use the model (the option table included), the catalogue, the client helpers and the report contract, never the kit, the run, the commands or the suites.',
      severity: 'error',
      from: { path: '^reference/' },
      to: { path: '^(src/check/|src/run/|src/cli[.]ts$|src/cli/|src/openapi/|suites/)', pathNot: '^src/cli/options[.]ts$' },
    },
    {
      name: 'only-the-cli-starts-the-reference-server',
      comment: 'Of src/, the CLI alone imports reference/ (to start the embedded server when no --base-url is given).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli([.]ts$|/)' },
      to: { path: '^reference/' },
    },
    {
      name: 'no-orphans',
      comment: 'A module nothing imports and that imports nothing is dead, or an entry point to list in ENTRY_POINTS.',
      severity: 'error',
      from: { orphan: true, pathNot: ['[.]d[.]ts$', ...ENTRY_POINTS] },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing on disk.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    // type-only imports are imports too: a cycle of types is still a cycle
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
