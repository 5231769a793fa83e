import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { PROBE_SCRIPT, REQUIRED_IDS, checkDom, checkLayout, readProbe, withProbe, type Probe } from '../../scripts/render-check.js';
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

  it('checkLayout: the page no wider than the window; a matrix fits, or scrolls in its box with a sticky resource column; copy buttons copy', () => {
    const box = { section: 'matrix', box: 'matrix-box', boxWidth: 1200, tableWidth: 1100, overflowX: 'auto', firstColumn: 'sticky', right: 1140 };
    const probe = (p: Partial<Probe>): Probe => ({ viewport: 1265, pageWidth: 1265, matrices: [box], copyButtons: 2, copies: [{ visible: true, copied: true }], ...p });
    expect(checkLayout(probe({}))).toEqual({ problems: [], notes: ['#matrix table: fits (1100 of 1200 px)', 'copy buttons: 1 of 1 tried copy their text (2 in the page)'] });
    const scrolling = { ...box, boxWidth: 700, tableWidth: 1100, scrolledBy: 400, firstColumnMoved: 0 };
    expect(checkLayout(probe({ matrices: [scrolling] })).problems).toEqual([]);
    expect(checkLayout(probe({ matrices: [scrolling] })).notes[0]).toBe('#matrix table: scrolls in its box (1100 px in 700), the resource column sticky');
    expect(checkLayout(probe({ matrices: [{ ...scrolling, firstColumn: 'static', firstColumnMoved: -400 }] })).problems)
      .toEqual(['#matrix table scrolls in its box, but its resource column is static and moved -400 px']);
    expect(checkLayout(probe({ matrices: [{ ...scrolling, overflowX: 'visible', scrolledBy: 0 }] })).problems[0]).toMatch(/its box does not scroll/);
    expect(checkLayout(probe({ pageWidth: 1500, wide: ['table.matrix 1500px'] })).problems).toEqual(['the page scrolls sideways: 1500 px wide in a 1265 px window (table.matrix 1500px)']);
    expect(checkLayout(probe({ copies: [{ visible: false, copied: false }, { visible: true, copied: false }] })).problems)
      .toEqual(['copy button 1 is not shown', "copy button 2 did not copy its reproducer's text"]);
  });

  it('withProbe adds the probe after the page\'s script, allowed by its hash beside the page\'s own in the CSP', () => {
    const html = renderHtml(nonConformantReport());
    const probed = withProbe(html);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(probed)![1].replace(/&#39;/g, "'");
    const hashes = [...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]);
    expect(hashes).toHaveLength(2);
    expect(csp).toContain("default-src 'none'");
    expect(probed.endsWith(`<script>${PROBE_SCRIPT}</script>\n</body>\n</html>\n`)).toBe(true);
    expect(readProbe('<pre id="render-probe">{"viewport":1,"pageWidth":1,"matrices":[],"copyButtons":0,"copies":[],"wide":["a &amp; b &lt;c&gt;"]}</pre>')?.wide).toEqual(['a & b <c>']);
  });

  // the matrix at its widest (16 rows × 12 rule groups, cells of up to four statuses, long values)
  const render = (width: number) => {
    const png = join(mkdtempSync(join(tmpdir(), 'storecheck-shot-')), 'shot.png');
    const res = spawnSync('npx', ['tsx', 'scripts/render-check.ts', 'test/fixtures/reports/wide.json', '--out', png, '--height', '900', '--width', String(width)], {
      cwd: ROOT, encoding: 'utf8', timeout: 90_000,
    });
    return { ...res, png };
  };

  it.skipIf(!existsSync(CHROMIUM))('headless Chromium at 1 280 px: the whole matrix fits the page, copy buttons copy', () => {
    const res = render(1280);
    expect(res.stdout, res.stderr).toContain('render check ok at 1280 px');
    expect(res.stdout).toMatch(/#matrix table: fits \(\d+ of \d+ px\)/);
    expect(res.stdout).toMatch(/copy buttons: 4 of 4 tried copy their text/);
    expect(res.status).toBe(0);
    expect(statSync(res.png).size).toBeGreaterThan(10_000);
  }, 120_000);

  it.skipIf(!existsSync(CHROMIUM))('headless Chromium at 760 px: the matrix scrolls inside its box, its resource column sticky; the page does not', () => {
    const res = render(760);
    expect(res.stdout, res.stderr).toContain('render check ok at 760 px');
    expect(res.stdout).toMatch(/#matrix table: scrolls in its box \(\d+ px in \d+\), the resource column sticky/);
    expect(res.status).toBe(0);
  }, 120_000);
});
