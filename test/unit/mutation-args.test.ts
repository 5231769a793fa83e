/**
 * `npm run mutation` takes its options through the option table of src/cli/options.ts (as the CLI
 * does): --help lists each; a value out of range and a misspelt flag are exit 2 with a message
 * (the table's), before any proof runs. Each case is a child process (~0.8 s): three are enough.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../reference/cli-process.js';

const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'mutation.ts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

describe('npm run mutation: arguments', () => {
  it('--help lists every option; bad values are exit 2 before any proof', () => {
    const help = run('--help');
    expect(help.status).toBe(0);
    for (const flag of ['--concurrency N', '--faults', '--variants', '--local all|none|family', '--local-seeds N', '--out DIR', '--keep-reports', '--merge DIR,DIR…', '--base FILE', '--proof-timeout S']) expect(help.stdout).toContain(flag);
    for (const [args, message] of [
      [['--local-seeds', '0'], /--local-seeds must be at least 1, got 0/],
      [['--concurency', '2'], /unknown option --concurency \(did you mean --concurrency\?\)/],
      [['--base', 'reports/mutation.json'], /--base is the report a merge builds on/],
    ] as const) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  }, 120_000);
});
