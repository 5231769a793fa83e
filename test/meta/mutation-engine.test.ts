/**
 * The engine mutation proof, sampled for npm test (the whole run is `npm run
 * mutation:engine`, hours long: docs/proofs.md). A few mutants StrykerJS made
 * of the reference server and the suite killed, taken in a fixed order from
 * the committed results (reports/mutation-engine/summary.json `sample`: kills
 * by the default server, confirmed by their checks alone), are applied as
 * text to a copy of the project; storecheck runs there with only the checks
 * that killed each one in the run, and one of them must fail again. A check
 * weakened so that it no longer sees the mutant fails this test (tried: with
 * page.versions.order's judgeOrder calls switched off, the versions-order
 * mutant's case failed with exit 0; with error-status-class's mixed-class
 * test weakened, the key-length mutant's case failed with exit 0).
 * Without the mutant those checks pass: the golden run at the same seed
 * (test/meta/coverage.test.ts, test/fixtures/golden/quick-seed-2026.json)
 * says so, and the sample is drawn only from a run at that seed.
 *
 * A mutant is found by its line's text and the text it replaced, not by line
 * number; one the code has moved past is skipped for the next of the sample,
 * and too few left means the committed results are stale.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runStorecheck } from '../../reference/cli-process.js';
import type { EngineReport, MutantView } from '../../scripts/mutation-engine-report.js';

/**
 * mutants proven per npm test run (each a run of its few checks: 5–25 s on a loaded 2-core machine);
 * the committed sampled run holds one kill confirmed by its checks alone (the others were killed by
 * more than six checks, or by the honest variant stores), and the mutants of AFTER_TRIAGE below add four
 */
const HOW_MANY = 1;
/** the seed of the golden run (test/meta/coverage.test.ts) */
const GOLDEN_SEED = 2026;

const report = JSON.parse(readFileSync(join(ROOT, 'reports', 'mutation-engine', 'summary.json'), 'utf8')) as EngineReport;

/** Where the mutant's original text starts in today's source, if it is there exactly once. */
function locate(source: string, m: MutantView): number | undefined {
  if (m.originalFull === undefined) return undefined;
  const hits: number[] = [];
  let start = 0;
  for (const line of source.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.slice(0, 240) === m.line) {
      const at = start + (line.length - line.trimStart().length) + m.lineOffset;
      if (source.startsWith(m.originalFull, at)) hits.push(at);
    }
    start += line.length + 1;
  }
  return hits.length === 1 ? hits[0] : undefined;
}

const sources = new Map<string, string>();
const sourceOf = (file: string) => sources.get(file) ?? (sources.set(file, readFileSync(join(ROOT, file), 'utf8')), sources.get(file)!);
const chosen = report.sample.filter((m) => locate(sourceOf(m.file), m) !== undefined).slice(0, HOW_MANY);

/** A copy of what a storecheck run loads, node_modules linked. */
function projectCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sc-engine-mutant-'));
  for (const d of ['bin', 'src', 'suites', 'schemas', 'generators', 'reference']) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
  for (const f of ['package.json', 'tsconfig.json', 'vitest.config.ts']) cpSync(join(ROOT, f), join(dir, f));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

let copy: string | undefined;
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/** The mutant (`original` at `at` in `file` replaced) applied to the copy: storecheck with only `by` must fail one of them. */
async function killedAgain(file: string, at: number, original: string, replacement: string, by: string[]): Promise<void> {
  copy ??= projectCopy();
  const path = join(copy, file);
  const source = sourceOf(file);
  writeFileSync(path, source.slice(0, at) + replacement + source.slice(at + original.length));
  try {
    const run = await runStorecheck(['--depth', 'quick', '--seed', String(GOLDEN_SEED), '--only', by.join(','), '--quiet'], { root: copy, timeoutMs: 120_000 });
    const failed = (run.report?.checks ?? []).filter((c) => c.status === 'failed').map((c) => c.id);
    expect(run.code, `exit ${run.code}: ${run.report?.summary.reason ?? run.stderr.slice(-800)}`).toBe(1);
    expect(failed.filter((id) => by.includes(id)), `the checks that kill it (${by.join(', ')}) no longer fail`).not.toEqual([]);
    rmSync(run.reportDir, { recursive: true, force: true });
  } finally {
    writeFileSync(path, source);
  }
}

describe('engine mutants (StrykerJS) of the committed run, killed again by the checks that killed them', () => {
  it('the committed results are of the golden seed and still name mutants of the code', () => {
    expect(report.seed).toBe(GOLDEN_SEED);
    expect(chosen.length, `fewer than ${HOW_MANY} mutants of reports/mutation-engine/summary.json sample are still in the code: run npm run mutation:engine again`).toBe(HOW_MANY);
  });

  for (const m of chosen) {
    it(`${m.file} ${m.scope}: ${m.mutator} ${m.original} → ${m.replacement}`, async () => {
      await killedAgain(m.file, locate(sourceOf(m.file), m)!, m.originalFull!, m.replacementFull!, m.reproducedBy!);
    });
  }
});

/**
 * StrykerJS mutants a check added after the triage kills (docs/proofs.md, engine mutation): on the
 * code before that check they passed, or were detected only as no verdict (a CI gate fails, but no
 * rule is named). Each is the text StrykerJS writes for the mutant, found by its line's text.
 */
const AFTER_TRIAGE: Array<{ file: string; scope: string; mutator: string; line: string; original: string; replacement: string; by: string[] }> = [
  {
    // keys of another length than the key: timingSafeEqual throws, the wrong key is answered 500 while a
    // missing key gets 401 (before: no verdict, the near-miss items unable to judge their 500 answers)
    file: 'reference/engine.ts', scope: 'Engine > defaults > authenticate', mutator: 'ConditionalExpression',
    line: "return a.length === b.length && timingSafeEqual(a, b) ? 'ok' : 'invalid';", original: 'a.length === b.length', replacement: 'true',
    by: ['all.observe.consistent.error-status-class'],
  },
  {
    // a survivor of the sample: filters sent as null make the store throw (500) while its other client errors get 401
    file: 'reference/engine.ts', scope: 'Engine > predicate', mutator: 'ConditionalExpression',
    line: 'if (filters === undefined || filters === null) return () => true;', original: 'filters === null', replacement: 'false',
    by: ['all.observe.consistent.error-status-class'],
  },
  {
    // a survivor of the sample: the ids of categoryid and collectionid are never checked, a product naming no category is stored
    file: 'reference/engine.ts', scope: 'Engine > checkItems', mutator: 'ConditionalExpression',
    line: "if (!prop.references || prop.kind !== 'list' || !Array.isArray(v)) continue;", original: "!prop.references || prop.kind !== 'list' || !Array.isArray(v)", replacement: 'true',
    by: ['product.lifecycle.unknown-reference.categoryid', 'product.lifecycle.unknown-reference.collectionid'],
  },
  {
    // a survivor of the sample: a created product lists one empty image, review and variant (id the all-zero GUID)
    file: 'reference/engine.ts', scope: 'defaultFor', mutator: 'ArrayDeclaration',
    line: "case 'array': case 'list': return [];", original: '[]', replacement: '["Stryker was here"]',
    by: ['product.lifecycle.create.sub-record-ids'],
  },
];

/**
 * A kill of the fresh sample (reports/mutation-engine/seed-2027: every 20th mutant from id 7, independent of
 * the seed-2026 sample above), confirmed there by its checks alone and killed again by them at the golden
 * seed (tried: 2 of 2 fail, 6–12 s). Its `by` is the part of the run's killing checks that is deterministic
 * at this seed (the concurrency and model checks that also failed there depend on timing and sequences).
 * With versions.append looking its entries up by content instead of by version number, the case fails
 * (exit 0: tried).
 */
const FRESH_SAMPLE: typeof AFTER_TRIAGE = [
  {
    // version numbers read as 0 (the || 0 of a number made false): every update is numbered version 1 again
    file: 'reference/engine.ts', scope: 'Engine > defaults > nextVersion', mutator: 'ConditionalExpression',
    line: 'nextVersion: (versions) => String(versions.reduce((m, v) => Math.max(m, toNumber(v.version) || 0), 0) + 1),',
    original: 'toNumber(v.version) || 0', replacement: 'false',
    by: ['blog-post.versions.append', 'page.versions.append'],
  },
  {
    // left open by the sample, killed after it: an Integer array filter matches only values written as the record
    // shows them ('001200' no longer finds order 1200), though the store takes '007' as 7 (integers.leadingZeros)
    file: 'reference/engine.ts', scope: 'Engine > defaults > matchArray', mutator: 'LogicalOperator',
    line: 'return wanted.some((w) => toNumber(w) === n || w === value);', original: 'toNumber(w) === n || w === value', replacement: 'toNumber(w) === n && w === value',
    by: ['order.filters.array.number'],
  },
  {
    // the seed-2028 sample (picked by content): a number a create leaves out stored as '' instead of '0', which
    // no Integer or Decimal is (§2 Conventions); killed there by these checks alone, and again here (19 s under load)
    file: 'reference/engine.ts', scope: 'defaultFor', mutator: 'StringLiteral',
    line: "case 'integer': case 'decimal': return '0';", original: "'0'", replacement: '""',
    by: ['product.invariants.record-schema', 'product.conventions.write-record-schema.create'],
  },
];

describe('engine mutants killed by the checks added after the triage, and of the fresh sample', () => {
  for (const m of [...AFTER_TRIAGE, ...FRESH_SAMPLE]) {
    it(`${m.file} ${m.scope}: ${m.mutator} ${m.original} → ${m.replacement}`, async () => {
      const source = sourceOf(m.file);
      const lines = source.split('\n');
      const index = lines.findIndex((l) => l.trim() === m.line);
      expect(index, `${m.file} no longer holds the line ${m.line}`).toBeGreaterThanOrEqual(0);
      const at = lines.slice(0, index).reduce((n, l) => n + l.length + 1, 0) + lines[index].indexOf(m.original);
      await killedAgain(m.file, at, m.original, m.replacement, m.by);
    });
  }
});
