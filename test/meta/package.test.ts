/**
 * The published package (issue 17): `npm pack`, installed into an empty folder with production
 * dependencies only, is a working `storecheck` — its version, a quick run against the embedded
 * reference server (vitest finding its config and suites inside node_modules), reports written
 * under the working directory and nothing written into the installed package.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { runShell, runStorecheck, type CliRun } from '../../reference/cli-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  devDependencies: Record<string, string>;
};
/** checks from two check files, a few seconds at quick depth */
const ONLY = 'store.*,tax.conventions.*';

/** npm, as a user types it (the user's STORE_* settings never reach the installed CLI: reference/cli-process.ts). */
const npm = (args: string, cwd: string) => runShell(`npm ${args}`, { cwd, timeoutMs: 180_000 });
/** The installed storecheck, as its user runs it: reports under the working folder unless --report-dir says otherwise. */
const storecheck = (args: string[]) => runStorecheck(args, { bin, cwd: app, reportDir: null, timeoutMs: 180_000 });

/** every path under dir (relative), folders marked with a trailing slash */
function listTree(dir: string, base = dir, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    out.push(relative(base, p) + (e.isDirectory() ? '/' : ''));
    if (e.isDirectory()) listTree(p, base, out);
  }
  return out.sort();
}

let tmp: string;
let packed: string[];
let tarball: string;
let app: string;
let bin: string;
let installed: CliRun;
let treeBefore: string[];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'sc-package-'));
  const pack = await npm(`pack --json --pack-destination '${tmp}'`, ROOT);
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  packed = info.files.map((f) => f.path);
  tarball = join(tmp, info.filename);
  app = join(tmp, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'storecheck-install-test', version: '1.0.0', private: true }));
  installed = await npm(`install --omit=dev --prefer-offline --no-audit --no-fund '${tarball}'`, app);
  bin = join(app, 'node_modules', '.bin', 'storecheck');
  treeBefore = existsSync(join(app, 'node_modules')) ? listTree(join(app, 'node_modules')) : [];
}, 240_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('ships what the CLI needs at run time and none of the tests, scripts or reports', () => {
    for (const f of ['package.json', 'README.md', 'bin/storecheck.mjs', 'src/cli.ts', 'src/version.ts', 'src/run/vitest.ts', 'vitest.config.ts', 'reference/server.ts', 'reference/pool.ts', 'schemas/product.schema.json', 'generators/index.ts', 'suites/store.check.ts']) {
      expect(packed, f).toContain(f);
    }
    const unwanted = packed.filter((p) => /^(test|scripts|reports|docs|node_modules|\.ci)\//.test(p) || /^reference\/(prove|prove-local|cli-process)\.ts$/.test(p));
    expect(unwanted).toEqual([]);
  });
});

describe('installed from the tarball with --omit=dev', () => {
  it('installs without one devDependency', () => {
    expect(installed.code, installed.stderr).toBe(0);
    expect(existsSync(bin)).toBe(true);
    const dev = Object.keys(PKG.devDependencies).filter((d) => existsSync(join(app, 'node_modules', d)));
    expect(dev).toEqual([]);
  });

  it('storecheck --version prints the package version', async () => {
    const r = await storecheck(['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${PKG.version}\n`);
  });

  it('a quick run against the embedded server writes its reports under the working directory, not into node_modules', async () => {
    // a --report-dir relative to the working directory
    const given = await storecheck(['--depth', 'quick', '--only', ONLY, '--quiet', '--report-dir', 'out/quick']);
    expect(given.code, given.stderr).toBe(0);
    const file = join(app, 'out', 'quick', 'report.json');
    expect(existsSync(file), given.stderr).toBe(true);
    const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
    expect(report.tool).toMatchObject({ name: 'storecheck', version: PKG.version });
    expect(report.summary.verdict).toBe('conformant');
    expect(report.checks.length).toBeGreaterThan(0);
    expect(report.checks.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.status}`)).toEqual([]);
    expect(report.checks.some((c) => c.id.startsWith('store.')) && report.checks.some((c) => c.id.startsWith('tax.conventions.'))).toBe(true);
    for (const f of ['junit.xml', 'report.html', 'report.md', 'ledger.jsonl']) expect(existsSync(join(app, 'out', 'quick', f)), f).toBe(true);

    // the default: ./reports/<timestamp>, with ./reports/latest pointing at it
    const byDefault = await storecheck(['--depth', 'quick', '--only', 'store.*', '--quiet']);
    expect(byDefault.code, byDefault.stderr).toBe(0);
    const runs = readdirSync(join(app, 'reports')).filter((d) => d !== 'latest');
    expect(runs).toHaveLength(1);
    expect(existsSync(join(app, 'reports', runs[0], 'report.json'))).toBe(true);
    expect(lstatSync(join(app, 'reports', 'latest')).isSymbolicLink() && readlinkSync(join(app, 'reports', 'latest'))).toBe(runs[0]);

    // sweep finds the ledgers of ./reports by default
    const sweep = await storecheck(['sweep', '--dry-run']);
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.stdout).toMatch(/^0 record\(s\) outstanding in 1 ledger\(s\)/);

    // the installed package (and its node_modules) is read-only to the runs: caches go elsewhere
    expect(listTree(join(app, 'node_modules'))).toEqual(treeBefore);
  });
});
