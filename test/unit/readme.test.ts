/**
 * The README is the newcomer's way in: it must name every flag of the run and
 * every command the CLI has, so a renamed or added option cannot go
 * undocumented, and it must open with the two commands.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_OPTIONS } from '../../src/cli/options.js';
import { PROJECT_ROOT as ROOT } from '../../src/version.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README.md', () => {
  it('opens with the 60-second start: the two commands', () => {
    const start = README.indexOf('## 60-second start');
    expect(start).toBeGreaterThan(0);
    expect(README.slice(0, start).split('\n## ').length).toBe(1);
    expect(README.slice(start, start + 400)).toContain('npm ci && npm run conformance');
    expect(README.slice(start, start + 400)).toContain('npm test');
  });

  it('documents every run flag (with its environment variable) and every command', () => {
    const missing = RUN_OPTIONS.filter((o) => o.flag !== 'help' && o.flag !== 'version').filter((o) => !README.includes(`\`--${o.flag}`) || (o.env && !README.includes(o.env)));
    expect(missing.map((o) => o.flag)).toEqual([]);
    for (const command of ['sweep', 'compare', 'merge', 'list', 'openapi']) expect(README, command).toContain(`storecheck ${command}`);
  });

  it('has the sections a user reads, in this order', () => {
    const order = ['## 60-second start', '## Flags, by group', '## Exit codes', '## Reading the report', '## Against a real store'];
    const at = order.map((h) => README.indexOf(h));
    expect(at.every((x) => x > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});
