/**
 * Render a report's HTML in headless Chromium: a screenshot to look at, and the
 * DOM after load to confirm the summary banner, the matrix and the check list
 * rendered; the layout at the window's width (the page never scrolls sideways;
 * each matrix fits, or scrolls inside its own box with its resource column
 * sticky — measured by scrolling the box); and the copy buttons (each copies
 * its reproducer's text, the clipboard stubbed).
 *
 *   npx tsx scripts/render-check.ts <report.json | report.html> [--out shot.png] [--height 2000] [--width 1280]
 *
 * A report.json is rendered with renderHtml first. The layout and copy probe is a
 * script added to a copy of the page (allowed by its hash in the page's own CSP,
 * which stays on). Chromium: /usr/bin/chromium (Debian package `chromium`), or
 * $CHROMIUM. Exit 0: rendered and everything holds; 1: something does not (or
 * Chromium failed); 2: usage error or no Chromium.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadReport } from '../src/report/baseline.js';
import { renderHtml } from '../src/report/html.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Element ids a rendered report must contain. */
export const REQUIRED_IDS = ['summary', 'matrix', 'legend', 'observations', 'failures', 'checks', 'checks-table'];

function usage(msg: string): never {
  process.stderr.write(`${msg}\nusage: npx tsx scripts/render-check.ts <report.json|report.html> [--out shot.png] [--height 2000] [--width 1280]\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): { input: string; out?: string; height: number; width: number } {
  let input: string | undefined;
  let out: string | undefined;
  let height = 2000;
  let width = 1280;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') out = argv[++i] ?? usage('--out needs a file');
    else if (a === '--height') height = Number(argv[++i]);
    else if (a === '--width') width = Number(argv[++i]);
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else if (!input) input = a;
    else usage(`unexpected argument ${a}`);
  }
  if (!input) usage('no report given');
  if (!Number.isInteger(height) || height < 200) usage('--height must be an integer >= 200');
  if (!Number.isInteger(width) || width < 320) usage('--width must be an integer >= 320');
  return { input, out, height, width };
}

function chromium(args: string[], profile: string): { ok: boolean; stdout: string; stderr: string } {
  const res = spawnSync(CHROMIUM, [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${profile}`, ...args,
  ], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  if (res.error) return { ok: false, stdout: '', stderr: String(res.error) };
  return { ok: res.status === 0, stdout: res.stdout ?? '', stderr: res.stderr ?? '' };
}

/** What the DOM must show; returns the problems found (empty: fine). */
export function checkDom(dom: string): string[] {
  const problems: string[] = [];
  for (const id of REQUIRED_IDS) if (!new RegExp(`\\bid="${id}"`).test(dom)) problems.push(`element #${id} missing`);
  if (!/id="summary"[^>]*data-verdict="(conformant|non-conformant|no-verdict)"/.test(dom) && !/data-verdict="(conformant|non-conformant|no-verdict)"[^>]*id="summary"/.test(dom)) {
    problems.push('summary banner has no verdict');
  }
  if (!/<table class="matrix"/.test(dom) && !/No checks ran/.test(dom)) problems.push('matrix table missing');
  const shown = /id="check-count"[^>]*>(\d+) of (\d+) checks shown</.exec(dom);
  if (!shown) problems.push('the check filter script did not run (no "N of M checks shown")');
  else if (shown[1] !== shown[2]) problems.push(`filter hides checks on load (${shown[1]} of ${shown[2]})`);
  return problems;
}

/**
 * Run in the page after its own script: measures the page and each matrix box, scrolls each box
 * that overflows to see whether its resource column stays put, clicks the first copy buttons with
 * the clipboard stubbed; writes what it found as JSON into <pre id="render-probe">.
 */
export const PROBE_SCRIPT = `(function(){
var out={viewport:document.documentElement.clientWidth,pageWidth:document.documentElement.scrollWidth,matrices:[],copies:[],copyButtons:0,wide:[]};
if(out.pageWidth>out.viewport){[].forEach.call(document.querySelectorAll('body *'),function(e){var r=e.getBoundingClientRect();
var inBox=false;for(var a=e.parentElement;a&&a!==document.body;a=a.parentElement)if(getComputedStyle(a).overflowX!=='visible')inBox=true;
if(!inBox&&r.right>out.viewport+1&&out.wide.length<5&&!(e.parentElement&&e.parentElement.getBoundingClientRect().right>out.viewport+1))
out.wide.push(e.tagName.toLowerCase()+(e.id?'#'+e.id:'')+(e.className&&typeof e.className==='string'?'.'+e.className.split(' ').join('.'):'')+' '+Math.round(r.right)+'px');});}
[].forEach.call(document.querySelectorAll('table.matrix'),function(t){
var sec=t.closest('section'),box=t.parentElement,cs=getComputedStyle(box),first=t.querySelector('tbody th');
var m={section:sec?sec.id:'',box:box.className,boxWidth:box.clientWidth,tableWidth:t.scrollWidth,overflowX:cs.overflowX,
firstColumn:first?getComputedStyle(first).position:'',right:Math.round(t.getBoundingClientRect().right)};
if(box.scrollWidth>box.clientWidth&&first){var before=first.getBoundingClientRect().left;box.scrollLeft=box.scrollWidth;
m.scrolledBy=box.scrollLeft;m.firstColumnMoved=Math.round(first.getBoundingClientRect().left-before);box.scrollLeft=0;}
out.matrices.push(m);});
var copied=[];Object.defineProperty(navigator,'clipboard',{configurable:true,value:{writeText:function(t){copied.push(t);return Promise.resolve();}}});
var buttons=document.querySelectorAll('button.copy-btn');out.copyButtons=buttons.length;
[].slice.call(buttons,0,4).forEach(function(b){var n=copied.length;b.click();
out.copies.push({visible:!b.hidden&&b.offsetWidth>0,copied:copied.length>n&&copied[copied.length-1]===b.parentElement.querySelector('pre').textContent});});
var pre=document.createElement('pre');pre.id='render-probe';pre.textContent=JSON.stringify(out);document.body.appendChild(pre);})();`;

export interface Probe {
  viewport: number;
  pageWidth: number;
  matrices: Array<{ section: string; box: string; boxWidth: number; tableWidth: number; overflowX: string; firstColumn: string; right: number; scrolledBy?: number; firstColumnMoved?: number }>;
  copyButtons: number;
  copies: Array<{ visible: boolean; copied: boolean }>;
  /** when the page is wider than the window: the outermost elements that reach past it */
  wide?: string[];
}

/** The page with the probe added after its own script, the probe allowed by hash in the page's CSP. */
export function withProbe(html: string): string {
  const hash = createHash('sha256').update(PROBE_SCRIPT, 'utf8').digest('base64');
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  const csp = meta?.[1].replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  if (!meta || !csp || !/script-src /.test(csp)) throw new Error('the page has no Content-Security-Policy with a script-src');
  const extended = csp.replace(/script-src ([^;]*)/, (_m, src: string) => `script-src ${src.replace("'none'", '').trim()} 'sha256-${hash}'`);
  const allowed = html.replace(meta[0], `<meta http-equiv="Content-Security-Policy" content="${extended.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`);
  return allowed.replace(/<\/body>\s*<\/html>\s*$/, `<script>${PROBE_SCRIPT}</script>\n</body>\n</html>\n`);
}

/** The probe's findings in a dumped DOM (text content: only &, <, > escaped), or undefined. */
export function readProbe(dom: string): Probe | undefined {
  const m = /<pre id="render-probe">([^<]*)<\/pre>/.exec(dom);
  if (!m) return undefined;
  return JSON.parse(m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&nbsp;/g, '\u00a0').replace(/&amp;/g, '&')) as Probe;
}

/**
 * What the layout and the copy buttons must show: the page no wider than the window; every matrix
 * fits its box, or its box scrolls sideways (overflow-x auto/scroll) and, scrolled to its end, the
 * resource column has not moved (sticky: within 2 px, the width of a border); every copy button tried is shown and copies its text.
 * Returns the problems found and one line per matrix saying how it showed.
 */
export function checkLayout(p: Probe): { problems: string[]; notes: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  if (p.pageWidth > p.viewport) problems.push(`the page scrolls sideways: ${p.pageWidth} px wide in a ${p.viewport} px window (${(p.wide ?? []).join(', ') || 'no element found'})`);
  for (const m of p.matrices) {
    const name = `#${m.section || '?'} table`;
    if (m.tableWidth <= m.boxWidth) {
      notes.push(`${name}: fits (${m.tableWidth} of ${m.boxWidth} px)`);
      continue;
    }
    const scrolls = (m.overflowX === 'auto' || m.overflowX === 'scroll') && (m.scrolledBy ?? 0) > 0;
    if (!scrolls) problems.push(`${name} is ${m.tableWidth} px wide in ${m.boxWidth} px and its box does not scroll (overflow-x: ${m.overflowX})`);
    else if (m.firstColumn !== 'sticky' || Math.abs(m.firstColumnMoved ?? Infinity) > 2) problems.push(`${name} scrolls in its box, but its resource column is ${m.firstColumn} and moved ${m.firstColumnMoved} px`);
    else notes.push(`${name}: scrolls in its box (${m.tableWidth} px in ${m.boxWidth}), the resource column sticky`);
  }
  p.copies.forEach((c, i) => {
    if (!c.visible) problems.push(`copy button ${i + 1} is not shown`);
    else if (!c.copied) problems.push(`copy button ${i + 1} did not copy its reproducer's text`);
  });
  if (p.copies.length) notes.push(`copy buttons: ${p.copies.filter((c) => c.visible && c.copied).length} of ${p.copies.length} tried copy their text (${p.copyButtons} in the page)`);
  return { problems, notes };
}

function main(): number {
  const { input, out, height, width } = parseArgs(process.argv.slice(2));
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(`Chromium not found at ${CHROMIUM}.\nInstall it (Debian/Ubuntu): apt-get install -y chromium\nor point $CHROMIUM at a Chromium/Chrome binary.\n`);
    return 2;
  }
  if (!existsSync(input) || !statSync(input).isFile()) usage(`no such file: ${input}`);

  const work = mkdtempSync(join(tmpdir(), 'storecheck-render-'));
  try {
    let htmlFile = resolve(input);
    if (!input.endsWith('.html')) {
      htmlFile = join(work, 'report.html');
      writeFileSync(htmlFile, renderHtml(loadReport(input)));
    }
    const url = pathToFileURL(htmlFile).href;
    const png = resolve(out ?? join(tmpdir(), `${basename(input).replace(/\.[^.]+$/, '')}-render.png`));

    const shot = chromium([`--screenshot=${png}`, `--window-size=${width},${height}`, url], join(work, 'profile-shot'));
    if (!shot.ok || !existsSync(png)) {
      process.stderr.write(`chromium screenshot failed:\n${shot.stderr.slice(-2000)}\n`);
      return 1;
    }
    // the DOM after load, of a copy of the page with the layout and copy probe added
    const probed = join(work, 'probed.html');
    writeFileSync(probed, withProbe(readFileSync(htmlFile, 'utf8')));
    const dump = chromium(['--dump-dom', `--window-size=${width},2000`, pathToFileURL(probed).href], join(work, 'profile-dom'));
    if (!dump.ok || !dump.stdout.includes('</html>')) {
      process.stderr.write(`chromium --dump-dom failed:\n${dump.stderr.slice(-2000)}\n`);
      return 1;
    }
    const problems = checkDom(dump.stdout);
    const cspViolations = (dump.stderr.match(/Content Security Policy[^\n]*/g) ?? []);
    for (const v of cspViolations) problems.push(`CSP violation: ${v.slice(0, 300)}`);
    const probe = readProbe(dump.stdout);
    const layout = probe ? checkLayout(probe) : { problems: ['the layout probe did not run'], notes: [] };
    problems.push(...layout.problems);
    process.stdout.write(`screenshot: ${png}\n${layout.notes.map((n) => `${n}\n`).join('')}`);
    if (problems.length) {
      process.stdout.write(`render check FAILED:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
      return 1;
    }
    const verdict = /data-verdict="([a-z-]+)"/.exec(dump.stdout)?.[1];
    process.stdout.write(`render check ok at ${width} px: ${REQUIRED_IDS.map((i) => `#${i}`).join(' ')} rendered; verdict ${verdict}; ${readFileSync(htmlFile).length} bytes of HTML\n`);
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
