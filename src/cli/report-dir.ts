/**
 * `--report-dir` (and merge's, compare's --out) judged before anything is
 * started or written: a usable folder, new, empty or storecheck's own.
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './options.js';
import { pseudoFileSystem, REPORT_DIR_MARKER, reportDirState } from '../files.js';

/**
 * `--report-dir` must be a writable directory, or a path whose nearest
 * existing ancestor is a writable directory (it is created when the run
 * starts), on a file system that holds files (not /proc, /sys…), and, when it
 * exists, empty or a folder storecheck made (its marker file): storecheck never
 * writes among another tool's files. Nothing is created here.
 */
export function checkReportDir(dir: string, flag = '--report-dir'): void {
  const where = `${flag} ${dir}`;
  if (!dir.trim()) throw new UsageError(`${flag} is empty: give the folder the reports go to (e.g. ${flag} reports/staging)`);
  let path = resolve(dir);
  let missing = false;
  for (;;) {
    let st;
    try {
      st = statSync(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        const up = dirname(path);
        if (up === path) throw new UsageError(`${where}: no part of the path exists`);
        path = up;
        missing = true;
        continue;
      }
      if (code === 'ENOTDIR') throw new UsageError(`${where}: a part of the path is a file, not a folder`);
      if (code === 'EACCES') throw new UsageError(`${where}: no permission to look into ${path}`);
      throw new UsageError(`${where}: cannot be used (${code ?? (e as Error).message})`);
    }
    if (!st.isDirectory()) throw new UsageError(missing ? `${where}: ${path} is a file, not a folder` : `${where} is a file, not a folder`);
    // /proc, /sys…: no reports can live there (and Node's recursive mkdir would never return on /proc)
    const pseudo = pseudoFileSystem(path);
    if (pseudo) throw new UsageError(`${where} is on the ${pseudo} file system, which holds no files: give a folder on a disk`);
    try {
      accessSync(path, constants.W_OK | constants.X_OK);
    } catch {
      throw new UsageError(missing ? `${where}: cannot create it inside ${path} (not writable)` : `${where} is not writable`);
    }
    if (!missing) checkOwnFolder(path, where);
    return;
  }
}

/** An existing folder must be empty or storecheck's own (marked): a few of the files found are named. */
function checkOwnFolder(path: string, where: string): void {
  if (reportDirState(path) !== 'foreign') return;
  const found = readdirSync(path);
  const named = found.slice(0, 3).join(', ') + (found.length > 3 ? ` and ${found.length - 3} more` : '');
  throw new UsageError(
    `${where}: the folder ${path} already holds files storecheck did not write (${named}) and no ${REPORT_DIR_MARKER} marker: ` +
      'give a new or empty folder (storecheck writes only into folders it made, and never among another tool\'s files)',
  );
}
