/**
 * npm run bench: the suite timed against the reference server started as its
 * own process (`npm run reference`, as a user's target is: another process,
 * reached over a socket), at 0, 30 and 100 ms added latency per answer, with
 * slow writes, a flaky and a rate-limited store — and against the embedded
 * server beside them for comparison. Figures, not a timed test: per scenario
 * wall, requests, the run's phases, effective concurrency, the bound and the
 * ratio to it, the CPU of client and server and of the rest of the machine,
 * how long their threads waited for a core;
 * then the targets of issue 24, met or not. Scenarios, formulas and figures:
 * docs/speed.md. Writes reports/bench/<timestamp>.json to compare versions.
 *
 *   npm run bench [-- --scenario NAME[,NAME…] (globs with *) --quick --repeat N --concurrency N --workers N --list]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/version.js';
import { figuresOf, medianRun, round, roundTripsInSequence, targetsOf, type Figures } from './bench/figures.js';
import { BENCH_SEED, measure } from './bench/measure.js';
import { criticalPathLines, roundTripLine, scenarioTable, slowWritesLines, targetLines } from './bench/print.js';
import { SCENARIOS, depthOf, selectScenarios } from './bench/scenarios.js';

const USAGE = `Usage: npm run bench [-- options]

Runs storecheck against the reference server in its own process (and the embedded one, for
comparison), timed, and prints the figures and the targets of docs/speed.md.

Options:
  --scenario NAMES  only these scenarios (comma-separated, * a wildcard; see --list)
  --quick           every scenario at quick depth (one scenario in well under a minute)
  --repeat N        run each scenario N times and keep the run of median wall time
                    (the others' walls are shown beside it); default 1
  --concurrency N   passed to storecheck (default: its own, 24)
  --workers N       passed to storecheck
  --list            list the scenarios, then exit
  --help            this text
`;

class UsageError extends Error {}

interface Args { scenario?: string; quick: boolean; repeat: number; list: boolean; help: boolean; extra: string[] }

function parseArgs(argv: string[]): Args {
  const a: Args = { quick: false, repeat: 1, list: false, help: false, extra: [] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].includes('=') ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)] : [argv[i], undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--scenario': case '--scenarios': a.scenario = value(); break;
      case '--quick': a.quick = true; break;
      case '--repeat': {
        const v = value();
        if (!/^[1-9][0-9]?$/.test(v)) throw new UsageError(`--repeat needs an integer from 1 to 99, got "${v}"`);
        a.repeat = Number(v);
        break;
      }
      case '--list': a.list = true; break;
      case '--help': case '-h': a.help = true; break;
      case '--concurrency': case '--workers': {
        const v = value();
        if (!/^[1-9][0-9]*$/.test(v)) throw new UsageError(`${flag} needs a positive integer, got "${v}"`);
        a.extra.push(flag, v);
        break;
      }
      default: throw new UsageError(`unknown option ${argv[i]} (see --help)`);
    }
  }
  return a;
}

function commit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${sha}+changes` : sha;
  } catch {
    return 'unknown';
  }
}

async function main(argv: string[]): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.list) {
    for (const s of SCENARIOS) process.stdout.write(`${s.name.padEnd(16)} ${s.target.padEnd(9)} ${depthOf(s, args.quick).padEnd(9)} ${s.about}\n`);
    return 0;
  }
  let chosen;
  try {
    chosen = selectScenarios(args.scenario, args.quick);
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message}\n`);
    return 2;
  }
  const loadBefore = loadavg().map((n) => round(n));
  const results: Figures[] = [];
  for (const s of chosen) {
    const depth = depthOf(s, args.quick);
    const runs: Figures[] = [];
    for (let i = 1; i <= args.repeat; i++) {
      process.stderr.write(`bench: ${s.name} (${s.target}, ${depth}${s.latencyMs ? `, ${s.latencyMs} ms per answer` : ''})${args.repeat > 1 ? ` ${i}/${args.repeat}` : ''}…\n`);
      const f = figuresOf(await measure(s, depth, args.extra));
      process.stderr.write(`bench: ${s.name}: ${f.wallS} s, ${f.requests} requests, ${f.verdict}${f.reason ? ` (${f.reason})` : ''}\n`);
      runs.push(f);
    }
    results.push(medianRun(runs));
  }
  const targets = targetsOf(results);
  const roundTrips = roundTripsInSequence(results);
  const machine = { cpus: availableParallelism(), model: cpus()[0]?.model, node: process.version, loadavgBefore: loadBefore, loadavgAfter: loadavg().map((n) => round(n)) };
  const at = new Date().toISOString();
  const out = {
    at, commit: commit(), machine, seed: BENCH_SEED, options: { quick: args.quick, repeat: args.repeat, scenario: args.scenario ?? null, storecheck: args.extra },
    formulas: {
      startupS: 'wall − (preflight + probes + checks + cleanup phases of report.run.phasesMs)',
      effectiveConcurrency: 'requests × latency ÷ wall',
      boundS: 'requests × latency ÷ concurrency + startupS',
      othersCores: '(machine busy CPU from /proc/stat − storecheck − server − bench) ÷ wall',
    },
    results, targets, ...(roundTrips ? { roundTripsInSequence: roundTrips } : {}),
  };
  const dir = join(PROJECT_ROOT, 'reports', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  const others = results.map((r) => r.othersCores).filter((n): n is number => n !== undefined);
  process.stdout.write([
    `machine: ${machine.cpus} cpus (${machine.model}), node ${machine.node}, load average ${loadBefore.join(' ')} → ${machine.loadavgAfter.join(' ')}`
      + (others.length ? `, other processes kept ${Math.min(...others)}–${Math.max(...others)} cores busy` : ''),
    `commit ${out.commit} · seed ${BENCH_SEED}${args.quick ? ' · --quick' : ''}${args.repeat > 1 ? ` · each scenario ${args.repeat} times, the median run shown` : ''}${args.extra.length ? ` · ${args.extra.join(' ')}` : ''}`,
    '',
    scenarioTable(results),
    '',
    criticalPathLines(results),
    slowWritesLines(results),
    roundTripLine(roundTrips),
    '',
    targetLines(targets),
    '',
    `written: ${join('reports', 'bench', file.slice(dir.length + 1))}`,
    '',
  ].filter((l, i, all) => l !== '' || all[i - 1] !== '').join('\n'));
  return 0;
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, (e) => {
  process.stderr.write(`bench: ${(e as Error).stack ?? e}\n`);
  process.exitCode = 1;
});
