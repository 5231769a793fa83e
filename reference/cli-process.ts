/**
 * Runs the storecheck CLI as a child process, as a user would, and reads the
 * report.json it wrote: the one way the proofs (reference/prove.ts,
 * prove-local.ts), `npm run mutation` and the meta-tests (test/meta) run it.
 *
 * One process per run: `node bin/storecheck.mjs …`, the installed command
 * (no tsx wrapper process in between), so a timeout or a test's signal kills
 * the whole run — embedded server and vitest worker threads included — with
 * one signal. `bin` runs another storecheck (an installed package's) as its
 * user would; runShell runs a command line as a user types it (a printed
 * reproducer, a curl snippet, npm).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Report } from '../src/report/types.js';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface CliRun {
  /** exit code; null when killed (timeout, a test's signal) */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** the run's report folder ('' for commands that write none) */
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
  /**
   * a run's report folder, added as --report-dir when the arguments give none
   * (default: a fresh temporary one; null: none added, the CLI's own default)
   */
  reportDir?: string | null;
  /** the default report folder in memory (/dev/shm, where the machine has it): proofs write and delete thousands of files */
  inMemory?: boolean;
  /** an external target: --base-url its URL, its key in STORE_API_KEY (a reference server started by the caller) */
  against?: { url: string; apiKey: string };
  /** the storecheck to run (an installed package's `node_modules/.bin/storecheck`); default: this clone's */
  bin?: string;
  /** working folder (default: the project root) */
  cwd?: string;
  /** its own process group (pid = group id): `process.kill(-pid, sig)` reaches every process of the run */
  detached?: boolean;
  /** called with the child's pid once it started */
  onSpawn?: (pid: number) => void;
  /** sees stderr as it arrives (e.g. to act once the checks have started) */
  onStderr?: (chunk: string) => void;
  /** more modules to preload (`--import`) into the run, beside the CPU-usage probe */
  preload?: string[];
  /** run the storecheck of another copy of the project (default: this one) */
  root?: string;
}

/**
 * The caller's environment minus everything that would change what the CLI does (and
 * GITHUB_STEP_SUMMARY: a proof's runs add nothing to a CI job's page); plain text on stderr.
 */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(STORE_|STORECHECK_|GITHUB_STEP_SUMMARY$)/.test(k)) env[k] = v;
  // tests read stderr as text, even where CI sets FORCE_COLOR
  return { ...env, FORCE_COLOR: '0', ...extra };
}

/**
 * A fresh report directory — in memory when asked and the machine has
 * /dev/shm: a run's reporters write (and fsync) one file per check, which
 * costs a proof seconds on a disk and nothing on tmpfs.
 */
function scratchDir(inMemory: boolean): string {
  if (inMemory) {
    try {
      return mkdtempSync('/dev/shm/sc-prove-');
    } catch {
      // no /dev/shm: the temporary folder
    }
  }
  return mkdtempSync(join(tmpdir(), 'sc-cli-'));
}

/** Commands that write a run's report folder (the others take no --report-dir). */
const RUNS = (args: string[]) => args.length === 0 || args[0] === 'run' || args[0].startsWith('-');

/** `storecheck` with `args` (a run gets a --report-dir when its arguments give none). */
export function runStorecheck(args: string[], opts: CliRunOptions = {}): Promise<CliRun> {
  const target = opts.against ? ['--base-url', opts.against.url] : [];
  const given = args.indexOf('--report-dir');
  const root = opts.root ?? ROOT;
  const cwd = opts.cwd ?? root;
  const named = given >= 0 ? resolve(cwd, args[given + 1]) : opts.reportDir === null ? '' : opts.reportDir ?? scratchDir(opts.inMemory === true);
  const reportDir = RUNS(args) ? named : '';
  const argv = [...args, ...target, ...(given < 0 && reportDir ? ['--report-dir', reportDir] : [])];
  const env = { ...opts.env, ...(opts.against ? { STORE_API_KEY: opts.against.apiKey } : {}) };
  const usageFile = reportDir && !opts.bin ? join(reportDir, '.cpu-usage.json') : undefined;
  const [cmd, cmdArgs] = opts.bin
    ? [opts.bin, argv]
    : [process.execPath, [...[join(root, 'reference', 'cpu-usage.mjs'), ...(opts.preload ?? [])].flatMap((f) => ['--import', pathToFileURL(f).href]), join(root, 'bin', 'storecheck.mjs'), ...argv]];
  const child = spawn(cmd, cmdArgs, {
    cwd,
    env: cleanEnv({ ...env, ...(usageFile ? { STORECHECK_PROVE_RUSAGE: usageFile } : {}) }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.detached === true,
  });
  return collect(child, opts).then((ran) => ({ ...ran, reportDir, ...readOutputs(reportDir, usageFile) }));
}

/** A command line run by bash as a user types it (a printed reproducer, a curl snippet, npm), in the project folder. */
export function runShell(script: string, opts: Pick<CliRunOptions, 'env' | 'timeoutMs' | 'cwd'> = {}): Promise<CliRun> {
  const child = spawn('bash', ['-c', script], { cwd: opts.cwd ?? ROOT, env: cleanEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child, opts).then((ran) => ({ ...ran, reportDir: '' }));
}

/** The child's output, exit and wall time (killed after timeoutMs). */
function collect(child: ChildProcess, opts: CliRunOptions): Promise<Omit<CliRun, 'reportDir'>> {
  const started = Date.now();
  if (child.pid) opts.onSpawn?.(child.pid);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout!.on('data', (c) => (stdout += c));
    child.stderr!.on('data', (c) => {
      stderr += c;
      opts.onStderr?.(String(c));
    });
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
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}

/** report.json and the CPU figures, when the run wrote them. */
function readOutputs(reportDir: string, usageFile: string | undefined): Pick<CliRun, 'report' | 'cpuMs' | 'maxRssKb'> {
  const read = <T>(file: string | undefined): T | undefined => {
    try {
      return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
    } catch {
      return undefined;
    }
  };
  const report = read<Report>(reportDir ? join(reportDir, 'report.json') : undefined);
  const usage = read<{ userMs: number; systemMs: number; maxRssKb: number }>(usageFile);
  return { ...(report ? { report } : {}), ...(usage ? { cpuMs: usage.userMs + usage.systemMs, maxRssKb: usage.maxRssKb } : {}) };
}
