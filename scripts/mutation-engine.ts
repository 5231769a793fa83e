/**
 * npm run mutation:engine — an independent proof of detection power.
 *
 * The fault catalogue of reference/faults*.ts was written by the hands that
 * wrote the checks. Here StrykerJS writes the faults: it mutates the reference
 * server's behaviour code (scripts/mutation-engine-scope.ts: the API logic, not
 * the fault switches, not the proof harness, not the seed data) and, for each
 * mutant, its command test runner runs scripts/mutation-engine-run.ts: the
 * conformance suite at quick depth against the embedded server with that
 * mutant active. Then scripts/mutation-engine-report.ts writes the score and
 * every survivor, triaged (reports/mutation-engine/triage.json), to
 * reports/mutation-engine/report.{md,json}.
 *
 *   nice -n 19 npm run mutation:engine -- [--concurrency N] [--seed N] [--sample-every K] [--mutate PATTERN,…]
 *                                        [--out DIR] [--incremental] [--dry-run-only] [--report-only]
 *
 * Hours on two cores: one whole quick run per mutant. --report-only rebuilds
 * the report from the raw results of the last run (after editing the triage).
 * --sample-every K tests one mutant in K, picked by a hash of its content and
 * the seed (scripts/mutation-engine-sample.ts: file, mutator, original and
 * replacement text, the lines around it; never its id or line), so a seed's
 * sample stays put when unrelated code moves and two seeds' samples overlap
 * only by chance; the rest are reported as not sampled.
 * --resume continues an interrupted run (the same source, --seed and
 * --sample-every): its coverage.json is reused and mutants already in
 * runs.jsonl are answered from it.
 * --sample-from ID runs the sampled mutants from that id on first: those
 * below are left for a later --resume without it (no record: reported as
 * not run), so that a run a time budget will cut short judges the part of
 * the code an earlier run did not reach.
 * --mutate replaces the scope (Stryker patterns, `file:start-end` ranges) for
 * a partial rerun; write it elsewhere with --out. --incremental reuses the
 * results of mutants whose code did not change — only sound when the suite
 * did not change either (Stryker cannot see the checks behind a command).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { ROOT } from '../reference/cli-process.js';
import { mutatePatterns } from './mutation-engine-scope.js';
import { writeEngineReport } from './mutation-engine-report.js';
import { instrumentScope } from './mutation-engine-list.js';
import { contentKeys, keyHash, sampleIds } from './mutation-engine-sample.js';
import { TOUCHES_FILE, writeTouches } from './mutation-engine-touches.js';
import { keepSourceHash, resumeRefusal } from './mutation-engine-resume.js';

interface Args {
  concurrency: number;
  seed: number;
  mutate?: string[];
  out: string;
  incremental: boolean;
  dryRunOnly: boolean;
  reportOnly: boolean;
  resume: boolean;
  /** test one mutant in K, picked by content and seed */
  sampleEvery?: number;
  /** sampled mutants below this id are left for a later --resume */
  sampleFrom?: number;
}

const USAGE = 'npm run mutation:engine -- [--concurrency N] [--seed N] [--sample-every K] [--sample-from ID] [--mutate PATTERN,…] [--out DIR] [--resume] [--incremental] [--dry-run-only] [--report-only]';

function parseArgs(argv: string[]): Args {
  const a: Args = { concurrency: 1, seed: 2026, out: join(ROOT, 'reports', 'mutation-engine'), incremental: false, dryRunOnly: false, reportOnly: false, resume: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const int = () => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer`);
      return n;
    };
    if (flag === '--concurrency') a.concurrency = int();
    else if (flag === '--seed') a.seed = int();
    else if (flag === '--sample-every') a.sampleEvery = int();
    else if (flag === '--sample-from') a.sampleFrom = int();
    else if (flag === '--mutate') a.mutate = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (flag === '--out') a.out = resolve(value());
    else if (flag === '--incremental') a.incremental = true;
    else if (flag === '--dry-run-only') a.dryRunOnly = true;
    else if (flag === '--report-only') a.reportOnly = true;
    else if (flag === '--resume') a.resume = true;
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else throw new Error(`unknown option ${flag} (${USAGE})`);
  }
  return a;
}

/** Stryker's options (its schema: node_modules/@stryker-mutator/core/schema/stryker-schema.json). */
export function strykerOptions(a: Args, raw: string): Record<string, unknown> {
  const rel = (p: string) => relative(ROOT, p) || '.';
  return {
    testRunner: 'command',
    commandRunner: { command: 'node scripts/mutation-engine-gate.mjs' },
    mutate: a.mutate ?? mutatePatterns(ROOT),
    // the text of errors (codes, messages, details): §7 shows none, any is conformant
    appendPlugins: ['./scripts/mutation-engine-ignore.mjs'],
    ignorers: ['error-text'],
    // the command runner reports no coverage: the runner script reads Stryker's counters itself
    coverageAnalysis: 'off',
    concurrency: a.concurrency,
    // the initial run is every server configuration (~10 runs); a mutant run is one to a few:
    // 1.5 × the initial run + 1 min leaves a busy machine room and still ends a hung mutant
    timeoutFactor: 1.5,
    // a resumed run reuses the coverage of the run it continues, so Stryker's initial run takes no time:
    // a mutant's runs are then bounded by the runner's own deadlines (at most 10 min + 1 min), not by Stryker
    timeoutMS: a.resume ? 12 * 60_000 : 60_000,
    dryRunTimeoutMinutes: 60,
    reporters: ['json', 'html', 'progress'],
    jsonReporter: { fileName: rel(join(raw, 'stryker.json')) },
    htmlReporter: { fileName: rel(join(raw, 'stryker.html')) },
    incremental: a.incremental,
    incrementalFile: rel(join(raw, 'stryker-incremental.json')),
    dryRunOnly: a.dryRunOnly,
    tempDirName: '.stryker-tmp',
    // the sandboxes need what a storecheck run loads, not the project's tests, docs or old reports
    ignorePatterns: ['/reports', '/test', '/docs', '/.ci', '/.vitest-cache', '/Dockerfile', '*.tgz'],
    cleanTempDir: true,
    warnings: { slow: false },
    allowConsoleColors: false,
  };
}

/** the ids a sampled run picked, with every listed mutant's content hash (raw/sample.json) */
export const SAMPLE_FILE = 'sample.json';

/** Lists the scope's mutants as Stryker will, picks one in `every` by content and seed, writes raw/sample.json. */
async function writeSample(raw: string, mutate: string[], seed: number, every: number): Promise<{ every: number; by: 'content'; picked: number; of: number }> {
  const { sources, mutants } = await instrumentScope(ROOT, mutate);
  const ids = sampleIds(mutants, sources, seed, every);
  const keys = contentKeys(mutants, sources);
  const hashes = Object.fromEntries(mutants.map((m) => [m.id, keyHash(keys.get(m.id)!)]));
  writeFileSync(join(raw, SAMPLE_FILE), JSON.stringify({ seed, every, by: 'content', ids, hashes }) + '\n');
  return { every, by: 'content', picked: ids.length, of: mutants.filter((m) => m.status !== 'Ignored').length };
}

function runStryker(config: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'), 'run', config], { cwd: ROOT, env, stdio: 'inherit' });
    child.on('error', fail);
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<number> {
  const a = parseArgs(process.argv.slice(2));
  const raw = join(a.out, 'raw');
  if (!a.reportOnly) {
    mkdirSync(raw, { recursive: true });
    const refusal = a.resume ? resumeRefusal(ROOT, raw) : undefined;
    if (refusal) {
      process.stderr.write(`mutation:engine: ${refusal}\n`);
      return 2;
    }
    // a fresh run: the outcomes of an earlier one must not mix in (a resumed one keeps them: the same source, seed and sample)
    for (const f of a.resume ? ['stryker.json'] : ['runs.jsonl', 'coverage.json', 'stryker.json']) rmSync(join(raw, f), { force: true });
    if (!a.resume) keepSourceHash(ROOT, raw);
    const scratch = join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), `storecheck-mutation-${userInfo().uid}`);
    rmSync(scratch, { recursive: true, force: true });
    const config = join(raw, 'stryker.config.json');
    const options = strykerOptions(a, raw);
    writeFileSync(config, JSON.stringify(options, null, 2) + '\n');
    const touching = await writeTouches(raw, options.mutate as string[]);
    process.stderr.write(`mutation:engine: ${touching} mutants' code reads a choice of the server (raw/${TOUCHES_FILE}): a survivor of the default server goes to the stores choosing otherwise\n`);
    const sample = a.sampleEvery && a.sampleEvery > 1 ? await writeSample(raw, options.mutate as string[], a.seed, a.sampleEvery) : undefined;
    process.stderr.write(`mutation:engine: mutating ${(options.mutate as string[]).join(' ')} · seed ${a.seed} · ${a.concurrency} at a time${sample ? ` · ${sample.picked} of ${sample.of} mutants picked by content (1 in ${sample.every})` : ''}\n`);
    const started = Date.now();
    const timing = (ms?: number) => writeFileSync(join(raw, 'timing.json'), JSON.stringify({ startedAt: new Date(started).toISOString(), ...(ms === undefined ? {} : { ms }), concurrency: a.concurrency, seed: a.seed, partial: !!a.mutate, ...(sample ? { sample } : {}), ...(a.sampleFrom ? { sampleFrom: a.sampleFrom } : {}), ...(a.resume ? { resumed: true } : {}) }) + '\n');
    // written now too: a run stopped to keep a time budget is still reported with its seed and sample
    timing();
    const code = await runStryker(config, {
      ...process.env,
      STORECHECK_MUTATION_RAW: raw,
      STORECHECK_MUTATION_SEED: String(a.seed),
      STORECHECK_MUTATION_SCRATCH: scratch,
      ...(sample ? { STORECHECK_MUTATION_SAMPLE: join(raw, SAMPLE_FILE) } : {}),
      ...(a.resume ? { STORECHECK_MUTATION_RESUME: '1' } : {}),
      ...(a.sampleFrom ? { STORECHECK_MUTATION_SAMPLE_FROM: String(a.sampleFrom) } : {}),
    });
    rmSync(scratch, { recursive: true, force: true });
    timing(Date.now() - started);
    if (code !== 0) {
      process.stderr.write(`mutation:engine: stryker exited ${code}\n`);
      return 2;
    }
    if (a.dryRunOnly) return 0;
  }
  const summary = await writeEngineReport({ out: a.out });
  process.stderr.write(`${summary}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`mutation:engine: ${(e as Error).message}\n`);
    process.exit(2);
  },
);
