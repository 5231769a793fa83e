/**
 * How a user runs storecheck here: `npm run conformance --` in a clone, `npx
 * storecheck` where it is an installed package. Commands the tool prints
 * (reproducers, hints) start with it, so they run as written.
 */
import { PROJECT_ROOT } from './version.js';

export function invocationFor(root: string): string {
  return /[\\/]node_modules[\\/]/.test(root) ? 'npx storecheck' : 'npm run conformance --';
}

export const INVOCATION: string = invocationFor(PROJECT_ROOT);
