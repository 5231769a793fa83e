/**
 * The house's import rules (.dependency-cruiser.cjs, docs/architecture.md "Floors and import
 * rules"): dependency-cruiser over src suites generators reference finds no violation — no cycle,
 * no back-arrow between floors, suites through the kit only, the reference server apart, no
 * orphan. And the rules can fail: a tiny tree that breaks each of them once
 * (test/fixtures/import-rules) gets exactly those violations.
 */
import { join } from 'node:path';
import { cruise, type ICruiseOptions, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT as ROOT } from '../../src/version.js';

const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const TSCONFIG = join(ROOT, 'tsconfig.json');
/** What the review hook cruises. */
const CRUISED = ['src', 'suites', 'generators', 'reference'];

let options: ICruiseOptions;
let tsConfig: ReturnType<typeof extractTSConfig>;
/** The project, cruised once. */
let project: ICruiseResult;

beforeAll(async () => {
  options = await extractDepcruiseOptions(CONFIG);
  tsConfig = extractTSConfig(TSCONFIG);
  project = await cruiseWithRules(ROOT, CRUISED);
}, 60_000);

/** Cruise these folders of `baseDir` with the project's rules; the result as dependency-cruiser gives it. */
async function cruiseWithRules(baseDir: string, folders: string[]): Promise<ICruiseResult> {
  const { output } = await cruise(folders, { ...options, baseDir, tsConfig: { fileName: TSCONFIG } }, {}, { tsConfig });
  return output as ICruiseResult;
}

/** A violation as one line: rule, from → to (cycles with their path). */
function line(v: IViolation): string {
  const path = v.cycle?.length ? ` (cycle: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')})` : '';
  return `${v.rule.name}: ${v.from}${v.to !== v.from ? ` → ${v.to}` : ''}${path}`;
}

describe('the import rules', () => {
  it('hold over src, suites, generators and reference', () => {
    expect(project.summary.totalCruised, 'the cruise saw the project').toBeGreaterThan(150);
    expect(project.summary.violations.map(line)).toEqual([]);
  });

  it('fire on a tree that breaks each rule once', async () => {
    const result = await cruiseWithRules(join(ROOT, 'test/fixtures/import-rules'), ['src', 'suites', 'reference']);
    expect(result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort()).toEqual([
      'no-back-arrow-from-model: src/schema/model.ts → src/check/index.ts',
      'no-back-arrow-from-report: src/report/markdown.ts → src/run/run.ts',
      'no-back-arrow-from-run: src/run/run.ts → suites/x.check.ts',
      'no-circular: src/items/a.ts → src/items/b.ts',
      'no-orphans: src/values/lonely.ts → src/values/lonely.ts',
      'only-the-cli-starts-the-reference-server: src/observe/probe.ts → reference/server.ts',
      'reference-stands-apart: reference/server.ts → src/run/run.ts',
      'runtime-never-imports-suites-or-tests: src/run/run.ts → suites/x.check.ts',
      'suites-only-through-the-kit: suites/x.check.ts → src/schema/model.ts',
    ]);
  }, 60_000);

  it('put every module of src, suites and generators on a floor', async () => {
    const { forbidden } = (await import(CONFIG)).default as { forbidden: Array<{ name: string; from: { path?: string } }> };
    const floors = forbidden.filter((r) => r.name.startsWith('no-back-arrow-from-')).map((r) => new RegExp(r.from.path!));
    const local = project.modules.map((m) => m.source).filter((s) => /^(src|suites|generators)\//.test(s));
    // the top floor (the suites) has no floor rule: what it may import, suites-only-through-the-kit says
    const top = /^suites\//;
    expect(local.filter((s) => !top.test(s) && !floors.some((re) => re.test(s)))).toEqual([]);
  });
});
