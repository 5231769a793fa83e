/**
 * The command StrykerJS runs for each mutant of `npm run mutation:engine`:
 * a sampled run (`--sample-every K`) tests only every K-th mutant by
 * Stryker's id, starting at the seed's remainder mod K (deterministic for a
 * given source: ids follow file and position); the others are recorded as
 * not sampled and end here at once, in plain JavaScript, without loading
 * tsx or the suite (a tenth of a second, against ~40 s for a tested mutant).
 * Everything else — the initial run, a sampled mutant, a whole run — goes to
 * scripts/mutation-engine-run.ts, whose exit code is passed on.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const id = process.env.__STRYKER_ACTIVE_MUTANT__;
const sample = process.env.STORECHECK_MUTATION_SAMPLE; // "every:offset"

/** Whether the mutant of this id is tested under the rule "every:offset" (no rule: every mutant). */
export function sampled(mutantId, rule) {
  if (!rule) return true;
  const [every, offset] = rule.split(':').map(Number);
  return Number(mutantId) % every === offset;
}

/** The gate itself, when this file is the command (a test imports `sampled` alone). */
function gate() {
  if (id !== undefined && !sampled(id, sample)) {
    const raw = process.env.STORECHECK_MUTATION_RAW;
    if (raw) appendFileSync(join(raw, 'runs.jsonl'), JSON.stringify({ id, at: new Date().toISOString(), outcome: 'not-sampled', reachedBy: [], runs: [] }) + '\n');
    process.exit(0);
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/mutation-engine-run.ts'], { stdio: 'inherit' });
  child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) gate();
