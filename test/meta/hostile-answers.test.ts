/**
 * Answers too large or too deep to take in (issue 14): a target answering
 * every product get with 200 MB of JSON, or with an endless stream, or with
 * JSON nested 100 000 levels deep. The run reads at most --max-answer-mb of
 * an answer (32 MB) and at most its answer budget (256 MB) of all answers
 * being read together, never parses what it cut or what nests too deep, and
 * so judges those answers as target errors: it ends with a report (no verdict,
 * exit 3, every selected check in it), cleans up, and its peak memory (RSS,
 * polled from /proc while it runs) stays under 1 GB.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startReferenceServer, type TransportFaults } from '../../reference/server.js';
import { runCli } from '../helpers/cli.js';

const KEY = 'hostile-answers-key-9012';
const ONLY = 'product.lifecycle.create.*,product.filters.array.name,product.filters.array.sku,product.pagination.*';
const GB = 1024 ** 3;

/** The resident set of a process, bytes (undefined once it has ended). */
function rss(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const CASES: Array<{ name: string; transport: Partial<TransportFaults> }> = [
  { name: '200 MB of JSON', transport: { hugeGetMb: 200, hugeGetResource: 'product' } },
  { name: 'an endless stream', transport: { hugeGetMb: Infinity, hugeGetResource: 'product' } },
  { name: 'JSON nested 100 000 levels deep', transport: { deepNesting: 100_000, hugeGetResource: 'product' } },
];

describe.skipIf(process.platform !== 'linux')('every product get answered with', () => {
  for (const c of CASES) {
    it(`${c.name}: a report with every selected check, cleanup, no verdict, peak RSS under 1 GB`, async () => {
      const ref = await startReferenceServer({ apiKey: KEY, transport: c.transport });
      let peak = 0;
      let timer: NodeJS.Timeout | undefined;
      try {
        const r = await runCli(['--base-url', ref.url, '--depth', 'quick', '--only', ONLY], {
          env: { STORE_API_KEY: KEY },
          entry: 'bin',
          onSpawn: (pid) => {
            timer = setInterval(() => (peak = Math.max(peak, rss(pid) ?? 0)), 25);
          },
        });
        const why = `exit ${r.code}, peak RSS ${Math.round(peak / 2 ** 20)} MB\n${r.stderr.slice(-2500)}`;
        console.info(`[hostile answers] ${c.name}: exit ${r.code} in ${(r.ms / 1000).toFixed(1)} s, peak RSS ${Math.round(peak / 2 ** 20)} MB, server ${JSON.stringify(ref.stats.byStatus)}`);
        expect(peak, why).toBeGreaterThan(0);
        expect(peak, why).toBeLessThan(GB);
        expect(r.code, why).toBe(3);
        expect(r.report, why).toBeDefined();
        const report = r.report!;
        // every selected check is in the report, the product gets as target errors (not failures: nothing was judged)
        expect(report.checks.length, why).toBeGreaterThan(10);
        expect(report.summary.errors, why).toBeGreaterThan(0);
        expect(report.checks.filter((x) => x.status === 'failed').map((x) => `${x.id}: ${x.message}`), why).toEqual([]);
        // cleanup ran and says what it could not read back; the store holds none of the run's records
        expect(report.cleanup, why).toBeDefined();
        const tag = report.run.runTag;
        const left = Object.values(ref.snapshot().records).flat().filter((x) => Object.values(x).some((v) => typeof v === 'string' && v.startsWith(tag)));
        expect(left.map((x) => x.id), why).toEqual([]);
      } finally {
        if (timer) clearInterval(timer);
        await ref.close();
      }
    }, 240_000);
  }
});
