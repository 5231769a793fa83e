/**
 * Render a report's HTML in headless Chromium: a screenshot to look at, and the
 * DOM after load to confirm the summary banner, the matrix and the check list
 * rendered.
 *
 *   npx tsx scripts/render-check.ts <report.json | report.html> [--out shot.png] [--height 2000]
 *
 * A report.json is rendered with renderHtml first. Chromium: /usr/bin/chromium
 * (Debian package `chromium`), or $CHROMIUM. Exit 0: rendered and the expected
 * elements are there; 1: they are not (or Chromium failed); 2: usage error or no Chromium.
 */
import { spawnSync } from 'node:child_process';
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
  process.stderr.write(`${msg}\nusage: npx tsx scripts/render-check.ts <report.json|report.html> [--out shot.png] [--height 2000]\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): { input: string; out?: string; height: number } {
  let input: string | undefined;
  let out: string | undefined;
  let height = 2000;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') out = argv[++i] ?? usage('--out needs a file');
    else if (a === '--height') height = Number(argv[++i]);
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else if (!input) input = a;
    else usage(`unexpected argument ${a}`);
  }
  if (!input) usage('no report given');
  if (!Number.isInteger(height) || height < 200) usage('--height must be an integer >= 200');
  return { input, out, height };
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

function main(): number {
  const { input, out, height } = parseArgs(process.argv.slice(2));
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

    const shot = chromium([`--screenshot=${png}`, `--window-size=1280,${height}`, url], join(work, 'profile-shot'));
    if (!shot.ok || !existsSync(png)) {
      process.stderr.write(`chromium screenshot failed:\n${shot.stderr.slice(-2000)}\n`);
      return 1;
    }
    const dump = chromium(['--dump-dom', '--window-size=1280,2000', url], join(work, 'profile-dom'));
    if (!dump.ok || !dump.stdout.includes('</html>')) {
      process.stderr.write(`chromium --dump-dom failed:\n${dump.stderr.slice(-2000)}\n`);
      return 1;
    }
    const problems = checkDom(dump.stdout);
    const cspViolations = (dump.stderr.match(/Content Security Policy[^\n]*/g) ?? []);
    for (const v of cspViolations) problems.push(`CSP violation: ${v.slice(0, 300)}`);
    process.stdout.write(`screenshot: ${png}\n`);
    if (problems.length) {
      process.stdout.write(`render check FAILED:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
      return 1;
    }
    const verdict = /data-verdict="([a-z-]+)"/.exec(dump.stdout)?.[1];
    process.stdout.write(`render check ok: ${REQUIRED_IDS.map((i) => `#${i}`).join(' ')} rendered; verdict ${verdict}; ${readFileSync(htmlFile).length} bytes of HTML\n`);
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
