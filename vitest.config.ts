import { defineConfig } from 'vitest/config';
import { defaultConcurrency } from './reference/pool.js';

/**
 * Three projects:
 * - unit:        the suite's own unit tests (test/unit), no network beyond loopback
 * - meta:        the suite run against the embedded reference server, with faults and variants (test/meta)
 * - conformance: the checks themselves (suites/); launched by src/cli.ts with a target, never by `npm test`
 */
export default defineConfig({
  test: {
    projects: [
      // GITHUB_STEP_SUMMARY blank: the suite's own runs append no report summary to a CI job's page
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 30_000, env: { GITHUB_STEP_SUMMARY: '' } } },
      {
        extends: true,
        test: {
          name: 'meta',
          include: ['test/meta/**/*.test.ts'],
          env: { GITHUB_STEP_SUMMARY: '' },
          testTimeout: 300_000,
          hookTimeout: 120_000,
          // the proofs (test/meta/faults, variants) are child processes, one per core at a time
          // (STORECHECK_PROVE_CONCURRENCY overrides; see reference/pool.ts)
          maxConcurrency: defaultConcurrency(),
          // two meta files at once, after the unit tests (a group of their own): the long proof file
          // runs beside the others, whose runs spend much of their time waiting (latency, deadlines,
          // rate limits), so the waiting overlaps the proofs' CPU
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['suites/**/*.check.ts'],
          // checks wait on the network, not the CPU: threads are cheaper than forks here
          pool: 'threads',
          // one module graph per worker: schemas compile once, one keep-alive pool per worker
          isolate: false,
          // checks of a file run concurrently (each has its own client view and scope); requests in
          // flight stay bounded by the run-wide gate of --concurrency (src/client/gate.ts)
          sequence: { concurrent: true },
          maxConcurrency: 16,
          setupFiles: ['allure-vitest/setup', './src/check/setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
