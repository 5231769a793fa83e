/**
 * Preloaded (`--import`) into the storecheck child of a proof
 * (cli-process.ts): on exit, writes the process's CPU time — every thread,
 * vitest workers and the embedded server included — to the file named by
 * STORECHECK_PROVE_RUSAGE, so proofs report CPU cost, not only wall time
 * (which depends on whatever else the machine is doing). Plain JavaScript:
 * it loads before tsx is registered.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.STORECHECK_PROVE_RUSAGE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    try {
      writeFileSync(file, JSON.stringify({ userMs: Math.round(u.userCPUTime / 1000), systemMs: Math.round(u.systemCPUTime / 1000), maxRssKb: u.maxRSS }));
    } catch {
      // measurement only
    }
  });
}
