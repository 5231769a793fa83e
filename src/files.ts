/**
 * Folders storecheck writes into, made safely. Node's recursive mkdir loops
 * forever on some pseudo file systems (`mkdirSync('/proc/x', { recursive:
 * true })` never returns on Linux): a report folder there must be an error,
 * not a hung CI job. So folders are made one level at a time, and the pseudo
 * file systems are named when a user points --report-dir at one.
 */
import { mkdirSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

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
