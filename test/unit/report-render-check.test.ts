import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { REQUIRED_IDS, checkDom } from '../../scripts/render-check.js';
import { nonConformantReport } from '../fixtures/reports/build.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('scripts/render-check.ts', () => {
  it('checkDom accepts the page once the filter script has run, and names what is missing otherwise', () => {
    const html = renderHtml(nonConformantReport());
    const ran = html.replace(/(id="check-count">)\d+ checks</, '$120 of 20 checks shown<');
    expect(checkDom(ran)).toEqual([]);
    expect(checkDom(html)).toEqual(['the check filter script did not run (no "N of M checks shown")']);
    expect(checkDom(ran.replace('id="matrix"', 'id="x"'))).toContain('element #matrix missing');
    expect(REQUIRED_IDS).toContain('summary');
  });

  it.skipIf(!existsSync(CHROMIUM))('renders a fixture report in headless Chromium', () => {
    const png = join(mkdtempSync(join(tmpdir(), 'storecheck-shot-')), 'shot.png');
    const res = spawnSync('npx', ['tsx', 'scripts/render-check.ts', 'test/fixtures/reports/non-conformant.json', '--out', png, '--height', '900'], {
      cwd: ROOT, encoding: 'utf8', timeout: 90_000,
    });
    expect(res.stdout, res.stderr).toContain('render check ok');
    expect(res.status).toBe(0);
    expect(statSync(png).size).toBeGreaterThan(10_000);
  }, 120_000);
});
