/**
 * `npm run reference`: starts, prints the URL (never a key it was given),
 * serves, stops on SIGTERM; rejects bad flags with exit 2.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
    ] as const;
    const results = await Promise.all(cases.map(([args]) => run([...args])));
    cases.forEach(([args, reason], i) => {
      expect(results[i].status, args.join(' ')).toBe(2);
      expect(results[i].stderr).toMatch(reason);
    });
  });

  it('serves on a free port with the given key, which it never prints', async () => {
    const key = 'cli-test-key-9f8e7d';
    const code = await serve(['--port', '0', '--api-key', key, '--fault', 'get-boolean-1-0', '--variant', 'page-size-25'], async (url, out) => {
      const r = await fetch(`${url}/api/v1/files/get`, { method: 'POST', body: JSON.stringify({ authentication: { apiKey: key } }) });
      expect(r.status).toBe(200);
      expect(await r.json()).toHaveLength(25);
      expect(out()).not.toContain(key);
      expect(out()).toContain('get-boolean-1-0');
    });
    expect(code).toBe(0);
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
