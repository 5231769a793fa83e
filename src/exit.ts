/**
 * How a storecheck process ends: the exit codes users' CI scripts depend on,
 * and the error that means "your configuration" (exit 2) once the flags parsed.
 */
import type { Verdict } from './report/types.js';

/** Exit codes: the contract users' CI scripts depend on. */
export const EXIT = { conformant: 0, nonConformant: 1, usage: 2, noVerdict: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A configuration problem found after flag parsing (a bad file, a rejected key): exit 2. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The exit code of a run's verdict. */
export function exitCodeOf(verdict: Verdict): ExitCode {
  return verdict === 'conformant' ? EXIT.conformant : verdict === 'non-conformant' ? EXIT.nonConformant : EXIT.noVerdict;
}

/** The word stderr gives an exit code ("storecheck: no verdict: …"). */
export function exitWord(code: number): string {
  return code === EXIT.nonConformant ? 'non-conformant' : code === EXIT.usage ? 'configuration error' : code === EXIT.noVerdict ? 'no verdict' : 'done';
}
