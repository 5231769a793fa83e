/**
 * The committed proof reports carry no path of the machine that wrote them
 * (scripts/machine-paths.ts): the rewrite itself, and every committed report
 * file read as text. A report regenerated without the rewrite (a failed
 * proof's kept report folder, a ledger named in a run's reason) fails here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT as ROOT_DIR } from '../../reference/cli-process.js';
import { scratchRoots, withoutMachinePaths } from '../../scripts/machine-paths.js';

/** the project's folder, without a trailing slash */
const ROOT = ROOT_DIR.replace(/\/+$/, '');
const PROJECT = '/srv/ci/clone';
const SCRATCH = ['/dev/shm', '/tmp', '/var/tmp'];
const HOME = '/home/ci';
const rewrite = (text: string) => withoutMachinePaths(text, PROJECT, SCRATCH, HOME);

describe('withoutMachinePaths', () => {
  it('names a path in the project relative to it, and the project itself as .', () => {
    expect(rewrite('see /srv/ci/clone/suites/filters/range.check.ts:12')).toBe('see suites/filters/range.check.ts:12');
    expect(rewrite('"reportDir": "/srv/ci/clone"')).toBe('"reportDir": "."');
    // a sibling folder whose name begins like the project's is not the project
    expect(rewrite('/srv/ci/clone2/x')).toBe('/srv/ci/clone2/x');
  });

  it('names a file of a StrykerJS sandbox as the project file it copies, wherever the project was', () => {
    expect(rewrite('at /srv/ci/clone/.stryker-tmp/sandbox-AbC123/reference/engine.ts:40')).toBe('at reference/engine.ts:40');
    expect(rewrite('at /elsewhere/wt/other/.stryker-tmp/sandbox-Zz9/src/cli.ts')).toBe('at src/cli.ts');
  });

  it('names a scratch folder by <tmp> and what lies below it, the longest root first', () => {
    const reason = 'cleanup deleted 0 record(s), 1114 could not be verified (storecheck sweep --ledger /dev/shm/storecheck-mutation-0/run-toIeTb/report/ledger.jsonl)';
    expect(rewrite(reason)).toBe('cleanup deleted 0 record(s), 1114 could not be verified (storecheck sweep --ledger <tmp>/storecheck-mutation-0/run-toIeTb/report/ledger.jsonl)');
    expect(rewrite('"reportDir": "/dev/shm/sc-prove-HeC7Mt"')).toBe('"reportDir": "<tmp>/sc-prove-HeC7Mt"');
    expect(rewrite('kept in /tmp/sc-x and /var/tmp/y')).toBe('kept in <tmp>/sc-x and <tmp>/y');
    // a folder whose name only begins like a scratch root is not one; an API path is no machine path
    expect(rewrite('/tmpfiles/x and /api/v1/products/get')).toBe('/tmpfiles/x and /api/v1/products/get');
  });

  it('names the home folder ~', () => {
    expect(rewrite('config in /home/ci/.npmrc')).toBe('config in ~/.npmrc');
    expect(rewrite('/home/cid/x')).toBe('/home/cid/x');
  });

  it('is deterministic and idempotent', () => {
    const text = 'a /dev/shm/r/x b /srv/ci/clone/src c /home/ci/d';
    expect(rewrite(text)).toBe(rewrite(text));
    expect(rewrite(rewrite(text))).toBe(rewrite(text));
  });

  it('reads this machine\'s temp folder among the scratch roots', () => {
    expect(scratchRoots()).toContain(tmpdir());
  });
});

/** Every file of the committed proof reports (their raw/ folders are local, not committed). */
function committedReports(): string[] {
  const files = ['mutation.md', 'mutation.json'].map((f) => join(ROOT, 'reports', f)).filter((f) => existsSync(f));
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.name === 'raw' ? [] : e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  const engine = join(ROOT, 'reports', 'mutation-engine');
  return [...files, ...(existsSync(engine) ? walk(engine) : [])];
}

describe('the committed proof reports', () => {
  it('name no path of this machine', () => {
    const files = committedReports();
    expect(files.length).toBeGreaterThan(2);
    // the scratch roots, the clone's own folder, the folder it lives under (another clone of it there too), the home folder
    const top = `/${ROOT.split('/').filter(Boolean)[0]}/`;
    const machine = [...scratchRoots().map((s) => `${s}/`), `${ROOT}/`, top, `${homedir()}/`, '.stryker-tmp/sandbox-'];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const m of machine) expect(text.includes(m), `${f.slice(ROOT.length + 1)} names ${m}`).toBe(false);
    }
  });
});
