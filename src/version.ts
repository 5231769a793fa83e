/** Where the project lives and which version it is: light to import (the CLI's --help needs no vitest). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
export const TOOL_VERSION: string = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).version;

/** Exit codes: the contract users' CI scripts depend on. */
export const EXIT = { conformant: 0, nonConformant: 1, usage: 2, noVerdict: 3 } as const;

/** A configuration problem found after flag parsing (a bad file, a rejected key): exit 2. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * How a user runs storecheck here: `npm run conformance --` in a clone, `npx
 * storecheck` where it is an installed package. Commands the tool prints
 * (reproducers, hints) start with it, so they run as written.
 */
export function invocationFor(root: string): string {
  return /[\\/]node_modules[\\/]/.test(root) ? 'npx storecheck' : 'npm run conformance --';
}

export const INVOCATION: string = invocationFor(PROJECT_ROOT);
