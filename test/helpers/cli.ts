/**
 * Runs the storecheck CLI as a user would (a child process), capturing exit
 * code, stdout, stderr and the report written.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../../src/report/types.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

export interface CliResult { code: number | null; stdout: string; stderr: string; reportDir: string; report?: Report; ms: number }

export interface RunCliOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  reportDir?: string;
  onSpawn?: (pid: number) => void;
  /**
   * 'bin' runs `node bin/storecheck.mjs` (the installed command: one process, tsx registered
   * in it) instead of the tsx CLI, which runs the program in a child process of its own —
   * what signal tests need, so the signal reaches the program and nothing relays it.
   */
  entry?: 'tsx' | 'bin';
  /** its own process group (pid = group id): `process.kill(-pid, sig)` reaches every process of the run */
  detached?: boolean;
  /** sees stderr as it arrives (e.g. to act once the checks have started) */
  onStderr?: (chunk: string) => void;
}

export function runCli(args: string[], opts: RunCliOptions = {}): Promise<CliResult> {
  const reportDir = opts.reportDir ?? mkdtempSync(join(tmpdir(), 'sc-cli-'));
  const withDir = args.includes('--report-dir') || args[0] === 'sweep' || args[0] === 'compare' || args[0] === 'merge' ? args : [...args, '--report-dir', reportDir];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const [cmd, entry] = opts.entry === 'bin' ? [process.execPath, join(ROOT, 'bin', 'storecheck.mjs')] : [TSX, join(ROOT, 'src', 'cli.ts')];
    const child = spawn(cmd, [entry, ...withDir], {
      cwd: ROOT,
      // plain text on stderr (tests read it) even where CI sets FORCE_COLOR
      env: { ...process.env, STORE_API_KEY: '', STORE_BASE_URL: '', FORCE_COLOR: '0', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: opts.detached === true,
    });
    if (child.pid) opts.onSpawn?.(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => {
      stderr += c;
      opts.onStderr?.(String(c));
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 240_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const file = join(reportDir, 'report.json');
      const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Report) : undefined;
      resolve({ code, stdout, stderr, reportDir, report, ms: Date.now() - started });
    });
  });
}
