/**
 * Folders storecheck writes into, made safely. Node's recursive mkdir loops
 * forever on some pseudo file systems (`mkdirSync('/proc/x', { recursive:
 * true })` never returns on Linux): a report folder there must be an error,
 * not a hung CI job. So folders are made one level at a time, and the pseudo
 * file systems are named when a user points --report-dir at one.
 */
import { accessSync, constants, existsSync, mkdirSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { PROJECT_ROOT } from './version.js';

/** Linux magic numbers (statfs f_type) of file systems that hold no files of ours. */
const PSEUDO: Record<number, string> = {
  0x9fa0: 'proc',
  0x62656572: 'sysfs',
  0x27e0eb: 'cgroup',
  0x63677270: 'cgroup2',
  0x64626720: 'debugfs',
  0x73636673: 'securityfs',
  0x1cd1: 'devpts',
  0xcafe4a11: 'bpf',
  0x74726163: 'tracefs',
  0x6e736673: 'nsfs',
  0x42494e4d: 'binfmt_misc',
  0xde5e81e4: 'efivarfs',
  0x50495045: 'pipefs',
};

/** The name of the pseudo file system `path` (an existing path) is on, or undefined. */
export function pseudoFileSystem(path: string): string | undefined {
  try {
    return PSEUDO[Number(statfsSync(path).type)];
  } catch {
    return undefined;
  }
}

/** mkdir -p, one level at a time (never Node's recursive mkdir: see above). */
export function makeDirs(path: string): void {
  const abs = resolve(path);
  const missing: string[] = [];
  for (let p = abs; ; p = dirname(p)) {
    try {
      mkdirSync(p);
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') break;
      if (code !== 'ENOENT' || dirname(p) === p) throw e;
      missing.push(p);
    }
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/**
 * The file that marks a folder storecheck made for its reports (a run, merge,
 * compare --out): such a folder may be written into again, and then only
 * storecheck's own files are replaced. A non-empty folder without it belongs
 * to someone else and is never written into.
 */
export const REPORT_DIR_MARKER = '.storecheck';

/** What a report folder is: not there yet, there and empty, made by storecheck, or another tool's. */
export type ReportDirState = 'missing' | 'empty' | 'ours' | 'foreign';

export function reportDirState(dir: string): ReportDirState {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
  if (entries.includes(REPORT_DIR_MARKER)) return 'ours';
  return entries.length ? 'foreign' : 'empty';
}

/** Make the report folder (one level at a time) and mark it as storecheck's. */
export function claimReportDir(dir: string): void {
  makeDirs(dir);
  const marker = join(dir, REPORT_DIR_MARKER);
  if (!existsSync(marker)) writeFileSync(marker, 'storecheck made this folder for its reports: it writes here again and replaces only its own files\n');
}

/** The files allure-js writes into allure-results/: <uuid>-result.json, -container.json, -globals.json, -attachment.<ext>. */
const ALLURE_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-(result\.json|container\.json|globals\.json|attachment(\.[A-Za-z0-9]+)?)$/;

/**
 * Clear the Allure results an earlier run left in a reused report folder (they
 * would be merged into this run's Allure report): only files named as
 * allure-js names its results; any other file (an environment.properties, a
 * categories.json, another tool's) stays. Returns how many were removed.
 */
export function clearAllureResults(dir: string): number {
  let removed = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of entries) {
    if (!ALLURE_FILE.test(name)) continue;
    rmSync(join(dir, name), { force: true });
    removed++;
  }
  return removed;
}

/**
 * Where vitest keeps its caches (vite's cacheDir, the file module cache), or undefined for vitest's
 * default (the project's node_modules: a clone). An installed package (under node_modules, or in a
 * folder this user cannot write: the container image) is never written to: its caches go to a
 * folder of this user's under the temp directory.
 */
export function cacheRoot(root: string = PROJECT_ROOT, uid: number | string = process.getuid?.() ?? 'user'): string | undefined {
  const installed = root.split(sep).includes('node_modules');
  if (!installed) {
    try {
      accessSync(join(root, 'node_modules'), constants.W_OK);
      return undefined;
    } catch {
      // not writable: as installed
    }
  }
  return join(tmpdir(), `storecheck-cache-${uid}`);
}

/** The folder storecheck keeps its own caches in (the precompiled validators: src/schema/precompiled.ts). */
export function storecheckCacheDir(root: string = PROJECT_ROOT): string {
  return join(cacheRoot(root) ?? join(root, 'node_modules', '.cache'), 'storecheck');
}
