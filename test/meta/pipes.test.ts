/**
 * Every command's output reaches a pipe whole (issue 22, defect 1): `storecheck list | wc -l`
 * counted 450 of 864 lines and exited 0. Writes to a pipe are asynchronous in Node: what the
 * pipe cannot take is queued in the process, and an exit before it drains loses it.
 *
 * Each command runs as the installed `storecheck` (bin/storecheck.mjs) with the stream under test
 * going into a real pipe (bash `|`) whose reader is slow: the pipe is already full (64 KiB, a
 * Linux pipe's capacity, written before storecheck starts) and the reader takes nothing until
 * storecheck has exited or has waited for it a while — so any output, however short, is lost
 * unless storecheck waits for it to drain. The bytes after the filler must equal the command's
 * output as it writes it in this process, and the exit code must be the command's.
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { ROOT, runShell } from '../../reference/cli-process.js';

/** A Linux pipe's capacity: the filler that leaves the reader's pipe full before storecheck writes. */
const FILLER = 65_536;
/** How long the reader leaves storecheck waiting before it reads (when storecheck has not exited). */
const READER_DELAY_S = 4;

interface Piped { code: number; piped: string; other: string }

/**
 * `storecheck ARGS` with `stream` into a full pipe read late; the other stream goes to a file.
 * `ready`: a file whose appearance means the command has written (nearly) everything (a run's
 * report.json): the reader's delay counts from then, not from the start.
 */
function throughPipe(args: string[], stream: 'stdout' | 'stderr', opts: { ready?: string } = {}): Promise<Piped> {
  const dir = mkdtempSync(join(tmpdir(), 'sc-pipe-'));
  const quote = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;
  const script = `
set -u
set -- ${args.map(quote).join(' ')}
dir=${quote(dir)}; ready=${quote(opts.ready ?? '')}
reader() {
  # nothing is read until storecheck has exited (its code is written) or has waited ${READER_DELAY_S} s for the reader
  i=0; if [ -n "$ready" ]; then while [ ! -e "$ready" ] && [ ! -e "$dir/code" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; fi
  i=0; while [ ! -e "$dir/code" ] && [ $i -lt ${READER_DELAY_S * 20} ]; do sleep 0.05; i=$((i+1)); done
  cat > "$dir/piped"
}
if [ ${stream} = stdout ]; then
  { head -c ${FILLER} /dev/zero; "$NODE" bin/storecheck.mjs "$@" 2>"$dir/other"; echo $? > "$dir/code"; } | reader
else
  { head -c ${FILLER} /dev/zero >&2; "$NODE" bin/storecheck.mjs "$@" >"$dir/other"; echo $? > "$dir/code"; } 2>&1 | reader
fi`;
  return runShell(script, { env: { NODE: process.execPath }, timeoutMs: 120_000 }).then((r) => {
    if (!existsSync(join(dir, 'code'))) throw new Error(`no exit code: ${r.stderr}`);
    const all = readFileSync(join(dir, 'piped'));
    // the filler first, whole: the pipe held it
    expect(all.subarray(0, FILLER).every((b) => b === 0)).toBe(true);
    return {
      code: Number(readFileSync(join(dir, 'code'), 'utf8').trim()),
      piped: all.subarray(FILLER).toString('utf8'),
      other: readFileSync(join(dir, 'other'), 'utf8'),
    };
  });
}

/** The command run in this process, its stdout captured whole: the expected output and exit code. */
async function inProcess(args: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const write = { stdout: process.stdout.write, stderr: process.stderr.write };
  (process.stdout as { write: unknown }).write = (s: string, cb?: () => void) => (out.push(String(s)), cb?.(), true);
  (process.stderr as { write: unknown }).write = (_s: string, cb?: () => void) => (cb?.(), true);
  try {
    return { code: await main(args), out: out.join('') };
  } finally {
    process.stdout.write = write.stdout;
    process.stderr.write = write.stderr;
  }
}

const FIXTURES = join(ROOT, 'test', 'fixtures', 'reports');

describe('every command through a pipe whose reader is slow', () => {
  const work = mkdtempSync(join(tmpdir(), 'sc-pipes-'));
  const ledger = join(work, 'ledger.jsonl');
  const expected = new Map<string, { code: number; out: string }>();
  /** every piped run, started at once (they spend most of their time waiting for the reader) */
  const piped = new Map<string, Promise<Piped>>();
  const start = (name: string, run: Promise<Piped>) => {
    run.catch(() => undefined); // awaited by its test
    piped.set(name, run);
  };
  const reportDir = join(work, 'run');
  beforeAll(async () => {
    // a ledger of 400 records left behind: sweep --dry-run lists them (no target needed)
    const ids = Array.from({ length: 400 }, (_, i) => `5d1c7a4e-0000-4000-8000-${String(i).padStart(12, '0')}`);
    writeFileSync(ledger, `${JSON.stringify({ op: 'created', resource: 'product', ids, runTag: 'scpipes01', at: '2026-01-01T00:00:00.000Z' })}\n`);
    mkdirSync(join(work, 'merged'));
    for (const [name, args] of cases) start(name, throughPipe(args, 'stdout'));
    start('usage', throughPipe(['--no-such-flag'], 'stderr'));
    start('run', throughPipe(['--only', 'store.*', '--depth', 'quick', '--report-dir', reportDir], 'stderr', { ready: join(reportDir, 'report.json') }));
    // one at a time: each replaces process.stdout.write while it runs
    for (const [name, args] of cases) expected.set(name, await inProcess(args));
  }, 60_000);

  // the large outputs of the issue, and every other command that writes to stdout
  const cases: Array<[string, string[]]> = [
    ['list', ['list']],
    ['list --items', ['list', '--items']],
    ['list --json', ['list', '--json']],
    ['openapi', ['openapi']],
    ['--help', ['--help']],
    ['--version', ['--version']],
    ['sweep --dry-run', ['sweep', '--dry-run', '--ledger', ledger]],
    ['compare', ['compare', join(FIXTURES, 'conformant.json'), join(FIXTURES, 'two-causes.json'), '--out', join(work, 'compare')]],
    ['merge', ['merge', join(FIXTURES, 'two-causes.json'), '--report-dir', join(work, 'merged')]],
  ];
  for (const [name, args] of cases) {
    it(`${name}: stdout whole, the exit code the command's`, async () => {
      const got = await piped.get(name)!;
      const want = expected.get(name)!;
      expect(want.out.length).toBeGreaterThan(0);
      expect(got.piped.length, `${got.piped.length} of ${want.out.length} characters of \`storecheck ${args.join(' ')}\` reached the pipe`).toBe(want.out.length);
      expect(got.piped).toBe(want.out);
      expect(got.code).toBe(want.code);
      if (name === 'list --json') expect(JSON.parse(got.piped)).toHaveLength(JSON.parse(want.out).length);
    }, 60_000);
  }

  it('a usage error: its line on stderr whole, exit 2', async () => {
    const r = await piped.get('usage')!;
    expect(r.piped).toMatch(/^storecheck: usage: .*--no-such-flag/);
    expect(r.code).toBe(2);
  }, 60_000);

  it('a conformance run: its summary on stderr whole, through to the last line', async () => {
    const r = await piped.get('run')!;
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8'));
    expect(r.piped).toMatch(/^storecheck \S+ → /);
    expect(r.piped).toContain(`verdict: ${report.summary.verdict.toUpperCase()}`);
    expect(r.piped).toMatch(/\nreports: .*report\.json.*\n$/);
    expect(r.code).toBe(report.summary.verdict === 'conformant' ? 0 : 1);
  }, 120_000);

  it('a reader that stops early (| head -1): the first line, exit 0, nothing on stderr but the count', async () => {
    const ran = await runShell(`"$NODE" bin/storecheck.mjs list --items 2>"$ERR" | head -1; echo "\${PIPESTATUS[*]}"; cat "$ERR"`, {
      env: { NODE: process.execPath, ERR: join(work, 'head.err') },
    });
    const [first, codes, ...rest] = ran.stdout.split('\n');
    const r = { out: first, codes, err: rest.join('\n') + ran.stderr };
    expect(r.out).toMatch(/^\S+#\S+ {2}/);
    expect(r.codes).toBe('0 0');
    expect(r.err.trim()).toMatch(/^\d+ check\(s\), \d+ item\(s\)$/);
  }, 60_000);
});
