/**
 * How a probe gives up: a ProbeError (its message becomes the observation's
 * detail, its exchanges the evidence), and `need`, the value of a call the
 * probe cannot go on without. Apart from types.ts so that the reads every
 * probe shares (shared.ts) can use them while types.ts names Shared.
 */
import type { CallResult } from '../client/api.js';
import type { Exchange } from '../client/http.js';

/** A probe could not decide: the message becomes the detail, the exchanges the evidence. */
export class ProbeError extends Error {
  constructor(message: string, readonly exchanges: Exchange[] = []) {
    super(message);
    this.name = 'ProbeError';
  }
}

/** The value of a call that must work for the probe to go on; otherwise a ProbeError naming it. */
export function need<T>(result: CallResult<T>, what: string): T {
  if (result.ok) return result.value as T;
  throw new ProbeError(`${what}: ${result.problem ?? 'failed'}`, [result.exchange]);
}
