/**
 * The command StrykerJS runs for each mutant of `npm run mutation:engine`:
 * a sampled run (`--sample-every K`) tests only the mutants picked by
 * content and seed (scripts/mutation-engine-sample.ts), whose ids
 * scripts/mutation-engine.ts wrote to the file STORECHECK_MUTATION_SAMPLE
 * names before StrykerJS started; the others are recorded as not sampled and
 * end here at once, in plain JavaScript, without loading tsx or the suite (a
 * tenth of a second, against ~40 s for a tested mutant).
 * A resumed run (`--resume`: an interrupted run of the same source, seed and
 * sample) answers a mutant already recorded in runs.jsonl from its record —
 * exit 1 when it was detected, 0 when not — so Stryker's statuses agree
 * with the records without running it again.
 * A sampled mutant below STORECHECK_MUTATION_SAMPLE_FROM (`--sample-from`)
 * is left for a later resume: it ends here, exit 0, with no record (the
 * report counts a mutant without a record as not run).
 * Everything else — the initial run, a sampled mutant, a whole run — goes to
 * scripts/mutation-engine-run.ts, whose exit code is passed on.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const id = process.env.__STRYKER_ACTIVE_MUTANT__;
/** The picked ids a sampled run wrote (JSON: { ids: string[] }), or undefined for a whole run. */
export function readSample(file) {
  if (!file) return undefined;
  return new Set(JSON.parse(readFileSync(file, 'utf8')).ids.map(String));
}

/** Whether the mutant of this id is tested: in the picked ids (no sample: every mutant). */
export function sampled(mutantId, ids) {
  return !ids || ids.has(String(mutantId));
}

/** Whether a sampled mutant is left for a later resume: its id is below `from` (`--sample-from`; 0 or none: never). */
export function deferred(mutantId, ids, from) {
  return !!from && sampled(mutantId, ids) && Number(mutantId) < from;
}

const DETECTED = new Set(['killed', 'no-verdict', 'crashed']);

/** The exit code an earlier record of this mutant gives (1 detected, 0 not), or undefined when there is none to trust. */
export function recordedExit(jsonl, mutantId) {
  let last;
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line);
      if (r.id === mutantId) last = r;
    } catch {
      // a line cut short by the interruption: not a record
    }
  }
  if (!last || last.outcome === 'harness-error' || last.outcome === 'not-sampled') return undefined;
  return DETECTED.has(last.outcome) ? 1 : 0;
}

/** The gate itself, when this file is the command (a test imports `sampled` alone). */
function gate() {
  const raw = process.env.STORECHECK_MUTATION_RAW;
  if (id !== undefined && process.env.STORECHECK_MUTATION_RESUME && raw && existsSync(join(raw, 'runs.jsonl'))) {
    const code = recordedExit(readFileSync(join(raw, 'runs.jsonl'), 'utf8'), id);
    if (code !== undefined) process.exit(code);
  }
  const sample = readSample(process.env.STORECHECK_MUTATION_SAMPLE);
  if (id !== undefined && deferred(id, sample, Number(process.env.STORECHECK_MUTATION_SAMPLE_FROM || 0))) process.exit(0);
  if (id !== undefined && !sampled(id, sample)) {
    if (raw) appendFileSync(join(raw, 'runs.jsonl'), JSON.stringify({ id, at: new Date().toISOString(), outcome: 'not-sampled', reachedBy: [], runs: [] }) + '\n');
    process.exit(0);
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/mutation-engine-run.ts'], { stdio: 'inherit' });
  child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) gate();
