/**
 * A reproducer reproduces (issue 17): against a target with one fault, a run
 * with --keep-data fails a check; the `reproducer.command` of report.json, run
 * as written (the key in STORE_API_KEY), fails the same check and item again;
 * its curl snippet, run with bash, gets the answer the failure describes (the
 * record kept by --keep-data still shows the value the update did not change);
 * and the sweep command the run printed removes the kept records.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../reference/server.js';
import type { Report } from '../../src/report/types.js';
import { ROOT, runShell, runStorecheck } from '../../reference/cli-process.js';

const KEY = 'reproducer-meta-key-7f3a';
const CHECK = 'collection.lifecycle.update.changes';

/** A printed command, as written, in the project folder, with the key (and only what the test adds) in the environment. */
const bash = (script: string, env: Record<string, string> = {}) => runShell(script, { env: { STORE_API_KEY: KEY, ...env } });

/** The JSON body of `curl -i` output (after the headers). */
function bodyOf(curlOutput: string): unknown {
  const at = curlOutput.search(/\r?\n\r?\n/);
  return JSON.parse(curlOutput.slice(at).trim());
}

/** Records on the server that carry the run's tag (every text value a run generates starts with it). */
function ownRecords(ref: { snapshot(): { records: Record<string, Record<string, unknown>[]> } }, tag: string): number {
  return Object.values(ref.snapshot().records).flat().filter((x) => Object.values(x).some((v) => typeof v === 'string' && v.startsWith(tag))).length;
}

describe('reproducers', () => {
  it('the command fails the same check again, the curl shows what the failure says, sweep removes the kept records', async () => {
    const ref = await startReferenceServer({ apiKey: KEY, faults: ['update-drops-field'] });
    try {
      const run = await runStorecheck(['--base-url', ref.url, '--depth', 'quick', '--only', CHECK, '--keep-data', '--seed', '7'], { env: { STORE_API_KEY: KEY } });
      expect(run.code, run.stderr).toBe(1);
      const failed = run.report!.checks.find((c) => c.id === CHECK && c.status === 'failed')!;
      expect(failed, run.stderr).toBeDefined();
      const repro = failed.reproducer!;
      // the run's seed, depth and target, the replayed case; never the key
      expect(repro.command).toContain('--seed 7');
      expect(repro.command).toContain('--depth quick');
      expect(repro.command).toContain(`--base-url '${ref.url}'`);
      expect(repro.command).toContain(`--replay ${repro.seed}:${repro.path}`);
      expect(repro.command).not.toContain(KEY);
      const failedItems = run.report!.items!.filter((i) => i.status === 'failed').map((i) => i.id);
      expect(failedItems.length).toBeGreaterThan(0);

      // the command, as written
      const again = await bash(repro.command!, { STORE_REPORT_DIR: mkdtempSync(join(tmpdir(), 'sc-repro-')) });
      expect(again.code, again.stderr).toBe(1);
      const dir = /reports: (\S+)\/report\.json/.exec(again.stderr)?.[1];
      const rerun = JSON.parse(readFileSync(join(dir!, 'report.json'), 'utf8')) as Report;
      expect(rerun.checks.map((c) => [c.id, c.status])).toEqual([[CHECK, 'failed']]);
      expect(rerun.items!.filter((i) => i.status === 'failed').map((i) => i.id)).toEqual(failedItems);

      // the curl snippet: the kept record still shows the value the update did not change
      const curl = await bash(repro.curl!);
      expect(curl.code, curl.stderr).toBe(0);
      expect(curl.stdout).toMatch(/^HTTP\/1\.1 200/);
      const records = bodyOf(curl.stdout) as Record<string, unknown>[];
      const [field, shown] = Object.entries(failed.actual as Record<string, unknown>)[0];
      expect(records.map((r) => r[field])).toContain(shown);
      expect(shown).not.toEqual((failed.expected as Record<string, unknown>)[field]);

      // kept: said in the report and on the terminal, with the command that removes them
      // kept: what a read-back showed still there — the records the checks deleted themselves are not counted
      const kept = run.report!.cleanup!;
      expect(kept.kept).toBeGreaterThan(0);
      expect(kept.kept).toBe(ownRecords(ref, run.report!.run.runTag));
      expect(kept.deleted + kept.kept!).toBe(kept.created);
      expect(kept.sweep).toBe(`storecheck sweep --ledger ${join(run.reportDir, 'ledger.jsonl')} --base-url ${ref.url}`);
      expect(run.stderr).toContain(`${kept.kept} record(s) the run created are still on the target (--keep-data)`);
      const sweep = await bash(kept.sweep!.replace(/^storecheck /, `node ${join(ROOT, 'bin', 'storecheck.mjs')} `));
      expect(sweep.code, sweep.stderr).toBe(0);
      expect(sweep.stdout).toMatch(new RegExp(`^removed \\(read back gone\\): ${kept.kept} `, 'm'));
      expect(sweep.stdout).toMatch(new RegExp(`sweep done: ${kept.created} of ${kept.created} record\\(s\\) read back gone, none left`));
      expect(ownRecords(ref, run.report!.run.runTag)).toBe(0);
      const gone = await bash(repro.curl!);
      expect(bodyOf(gone.stdout)).toEqual([]);
    } finally {
      await ref.close();
    }
  });
});
