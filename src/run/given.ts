/**
 * The files a user gave the run (--expect, --baseline), read before anything
 * touches the target: a file that cannot be read or is not what it should be
 * is a usage error (exit 2), never a run that fails later.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../exit.js';
import { loadExpectations, type Expectation } from '../report/expectations.js';
import type { Report } from '../report/types.js';

export interface GivenFiles {
  /** --expect: known deviations, and the file they came from */
  expect?: { file: string; expectations: Expectation[] };
  /** --baseline: an earlier report.json, and its file */
  baseline?: { file: string; report: Report };
}

export function readGivenFiles(files: { expectFile?: string; baselineFile?: string }): GivenFiles {
  const out: GivenFiles = {};
  if (files.expectFile) {
    try {
      out.expect = { file: files.expectFile, expectations: loadExpectations(files.expectFile) };
    } catch (e) {
      throw new ConfigError(`--expect: ${(e as Error).message}`);
    }
  }
  if (files.baselineFile) out.baseline = { file: files.baselineFile, report: readBaseline(files.baselineFile) };
  return out;
}

function readBaseline(file: string): Report {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`--baseline ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    const r = JSON.parse(text);
    if (!Array.isArray(r.checks) || typeof r.observations !== 'object') throw new Error('it has no checks[] and observations{}');
    return r as Report;
  } catch (e) {
    throw new ConfigError(`--baseline ${file}: not a storecheck report.json (${(e as Error).message})`);
  }
}
