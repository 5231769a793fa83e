/**
 * `npm run reference`: starts, prints the URL (never a key it was given),
 * serves, stops on SIGTERM; rejects bad flags with exit 2.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { payloadFor, res } from './reference-helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARGS = ['--import', 'tsx', 'reference/main.ts'];

function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...ARGS, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Start the CLI, wait for the URL line, hand it over, then SIGTERM the child. */
async function serve(args: string[], fn: (url: string, out: () => string) => Promise<void>): Promise<number | null> {
  const child = spawn(process.execPath, [...ARGS, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 25_000);
      const check = () => {
        const m = /listening on (\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      child.stdout.on('data', check);
      child.on('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    await fn(url, () => out);
  } finally {
    child.kill('SIGTERM');
  }
  return exited;
}

describe('reference CLI', () => {
  it('--help prints usage; bad flags exit 2 with a reason', async () => {
    const help = await run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--api-key');
    const cases = [
      [['--port', 'abc'], /--port needs an integer/],
      [['--bogus'], /unknown option --bogus/],
      [['--fault', 'nope'], /unknown fault "nope"/],
      [['--variant', 'nope'], /unknown variant "nope"/],
      [['--cert', 'x.pem'], /--cert and --key go together/],
      [['--api-key'], /--api-key needs a value/],
      [['--slow-writes', '900-400'], /--slow-writes needs MIN-MAX/],
      [['--transport', 'nope=1'], /"nope=1" is not NAME=VALUE with NAME one of .*latencyMs/],
      [['--transport', 'allOperations=yes'], /allOperations is true or false/],
    ] as const;
    const results = await Promise.all(cases.map(([args]) => run([...args])));
    cases.forEach(([args, reason], i) => {
      expect(results[i].status, args.join(' ')).toBe(2);
      expect(results[i].stderr).toMatch(reason);
    });
  });

  it('serves on a free port with the given key, which it never prints; --stats-file on exit', async () => {
    const key = 'cli-test-key-9f8e7d';
    const dir = mkdtempSync(join(tmpdir(), 'sc-reference-cli-'));
    const statsFile = join(dir, 'stats.json');
    try {
      const code = await serve(['--port', '0', '--api-key', key, '--fault', 'get-boolean-1-0', '--variant', 'page-size-25',
        '--slow-writes', '20-40', '--transport', 'limitRps=1000,allOperations=true', '--stats-file', statsFile], async (url, out) => {
        const r = await fetch(`${url}/api/v1/files/get`, { method: 'POST', body: JSON.stringify({ authentication: { apiKey: key } }) });
        expect(r.status).toBe(200);
        expect(await r.json()).toHaveLength(25);
        const created = await fetch(`${url}/api/v1/products/categories/create`, { method: 'POST', body: JSON.stringify({ authentication: { apiKey: key }, data: [payloadFor(res('category'), {})] }) });
        expect(created.status).toBe(200);
        expect(out()).not.toContain(key);
        expect(out()).toContain('get-boolean-1-0');
      });
      expect(code).toBe(0);
      const stats = JSON.parse(readFileSync(statsFile, 'utf8'));
      expect(stats).toMatchObject({ total: 2, byOperation: { get: 1, create: 1 }, byStatus: { 200: 2 }, slowWrites: 1 });
      expect(stats.slowWriteMs).toBeGreaterThanOrEqual(20);
      expect(stats.slowWriteMs).toBeLessThanOrEqual(40);
      expect(stats.cpuMs).toBeGreaterThan(0);
      expect(stats.servingCpuMs).toBeLessThanOrEqual(stats.cpuMs);
      expect(readFileSync(statsFile, 'utf8')).not.toContain(key);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints a generated key with a hint to pass --api-key', async () => {
    await serve(['--port', '0'], async (url, out) => {
      for (let i = 0; i < 40 && !/generated API key: \S+\n/.test(out()); i++) await new Promise((r) => setTimeout(r, 50));
      const m = /generated API key: (\S+)/.exec(out());
      expect(m).not.toBeNull();
      expect(out()).toContain('--api-key');
      const r = await fetch(`${url}/api/v1/store/get`, { method: 'POST', body: JSON.stringify({ authentication: { apiKey: m![1] } }) });
      expect((await r.json()).apikey).toBe(m![1]);
    });
  });
});
