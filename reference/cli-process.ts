/**
 * Runs the storecheck CLI as a child process, as a user would, and reads the
 * report.json it wrote. Shared by the proofs (reference/prove.ts), the
 * meta-tests (test/meta) and `npm run mutation` (scripts/mutation.ts).
 *
 * One process per run: `node bin/storecheck.mjs …`, the installed command
 * (no tsx wrapper process in between), so a timeout kills the whole run —
 * embedded server and vitest worker threads included — with one signal.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Report } from '../src/report/types.js';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface CliRun {
  /** exit code; null when killed (timeout) */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  reportDir: string;
  /** report.json, when the run wrote one */
  report?: Report;
  /** wall time of the child, ms */
  ms: number;
  timedOut: boolean;
  /** CPU time of the child, every thread included (user + system), when it exited normally */
  cpuMs?: number;
  /** peak resident memory of the child, kB */
  maxRssKb?: number;
}

export interface CliRunOptions {
  /** extra environment (the caller's STORE_* / STORECHECK_* variables are dropped first) */
  env?: Record<string, string>;
  /** SIGKILL after this long (default 10 min) */
  timeoutMs?: number;
  /** default: a fresh temporary directory */
  reportDir?: string;
}

/** The caller's environment minus everything that would change what the CLI does. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(STORE_|STORECHECK_)/.test(k)) env[k] = v;
  return { ...env, ...extra };
}

/**
 * A fresh report directory, in memory when the machine has /dev/shm: a run's
 * reporters write (and fsync) one file per check, which costs a proof seconds
 * on a disk and nothing on tmpfs.
 */
function scratchDir(): string {
  try {
    return mkdtempSync('/dev/shm/sc-prove-');
  } catch {
    return mkdtempSync(join(tmpdir(), 'sc-prove-'));
  }
}

/** `storecheck run` with `args` (a --report-dir is added when missing). */
export function runStorecheck(args: string[], opts: CliRunOptions = {}): Promise<CliRun> {
  const given = args.indexOf('--report-dir');
  const reportDir = given >= 0 ? args[given + 1] : opts.reportDir ?? scratchDir();
  const argv = given >= 0 ? args : [...args, '--report-dir', reportDir];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const usageFile = join(reportDir, '.cpu-usage.json');
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(ROOT, 'reference', 'cpu-usage.mjs')).href, join(ROOT, 'bin', 'storecheck.mjs'), ...argv], {
      cwd: ROOT,
      env: { ...cleanEnv(opts.env), STORECHECK_PROVE_RUSAGE: usageFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 600_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const file = join(reportDir, 'report.json');
      let report: Report | undefined;
      try {
        report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Report) : undefined;
      } catch {
        report = undefined;
      }
      let usage: { userMs: number; systemMs: number; maxRssKb: number } | undefined;
      try {
        usage = existsSync(usageFile) ? JSON.parse(readFileSync(usageFile, 'utf8')) : undefined;
      } catch {
        usage = undefined;
      }
      resolve({
        code, signal, stdout, stderr, reportDir, report, ms: Date.now() - started, timedOut,
        ...(usage ? { cpuMs: usage.userMs + usage.systemMs, maxRssKb: usage.maxRssKb } : {}),
      });
    });
  });
}
