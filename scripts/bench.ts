/**
 * npm run bench: the suite against the reference server, timed. Figures, not a
 * timed test: wall time, requests, requests per check, peak in flight at the
 * server, and effective concurrency (requests × latency ÷ wall), for
 *   standard depth with 0 ms and with 30 ms added latency per response, and quick depth;
 *   a flaky store (3 % of every operation answered 503 with Retry-After): requests
 *     against the clean quick run (target at most 1.3×), and a verdict;
 *   a rate-limited store (60 requests/s, 429 with Retry-After beyond): wall time
 *     against requests ÷ 60 (target at most 1.25×);
 *   standard depth without the model-based and concurrency checks (issue 16):
 *     the standard run's wall time against it (target at most 1.2×).
 * Items judged per second come from report.coverage.
 * All runs happen in one invocation so ratios compare like with like.
 * Writes reports/bench.json.
 *   npm run bench [-- --runs quick,standard,standard-30ms,quick-flaky-503,quick-limit-60rps,standard-no-sequences --concurrency N --workers N]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TransportFaults } from '../reference/behaviour.js';
import { startReferenceServer } from '../reference/server.js';
import type { Report } from '../src/report/types.js';
import { PROJECT_ROOT } from '../src/version.js';
import { RULES } from '../src/rules.js';

/** Every rule but those of sequences and concurrency, as --only (what the standard run costs without them). */
const WITHOUT_SEQUENCES = Object.keys(RULES).filter((r) => !/^(model|concurrency)\./.test(r)).flatMap((r) => [`*.${r}`, `*.${r}.*`]).join(',');

interface Scenario { name: string; depth: 'quick' | 'standard' | 'deep'; latencyMs: number; target?: string; transport?: Partial<TransportFaults>; args?: string[] }
interface Figures {
  scenario: string; depth: string; latencyMs: number; wallS: number; requests: number; checks: number;
  requestsPerCheck: number; peakInFlight: number; effectiveConcurrency: number; verdict: string; exitCode: number | null; target?: string;
  itemsJudged: number; itemsPerS: number;
  /** the scenario's own figure against its target (flaky: requests ÷ clean quick requests; limited: wall ÷ (requests ÷ limit)) */
  ratio?: number;
  /** requests the server answered 429/503 */
  refused?: number;
  /** the run's own phase timings (report.run.phasesMs), s */
  phasesS?: Record<string, number>;
}

const ALL: Scenario[] = [
  { name: 'quick', depth: 'quick', latencyMs: 0, target: 'under 10 s' },
  { name: 'standard', depth: 'standard', latencyMs: 0, target: 'under 30 s' },
  { name: 'standard-30ms', depth: 'standard', latencyMs: 30, target: 'under 60 s, effective concurrency ≥ 8' },
  { name: 'quick-flaky-503', depth: 'quick', latencyMs: 0, target: 'a verdict; requests ≤ 1.3 × quick', transport: { rate503: 0.03, retryAfterSeconds: 0, allOperations: true } },
  // the run's own --concurrency stays; the target's limit is what slows it
  { name: 'quick-limit-60rps', depth: 'quick', latencyMs: 0, target: 'wall ≤ 1.25 × requests ÷ 60', transport: { limitRps: 60 } },
  { name: 'standard-no-sequences', depth: 'standard', latencyMs: 0, target: 'standard ≤ 1.2 × this', args: ['--only', WITHOUT_SEQUENCES] },
];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

async function runOne(s: Scenario, extra: string[]): Promise<Figures> {
  const apiKey = `bench-${Math.random().toString(36).slice(2)}`;
  const server = await startReferenceServer({ apiKey, transport: { latencyMs: s.latencyMs, ...s.transport } });
  const dir = mkdtempSync(join(tmpdir(), `sc-bench-${s.name}-`));
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [
      join(PROJECT_ROOT, 'bin', 'storecheck.mjs'), '--base-url', server.url, '--depth', s.depth, '--seed', '12345', '--report-dir', dir, '--quiet', ...(s.args ?? []), ...extra,
    ], { cwd: PROJECT_ROOT, env: { ...process.env, STORE_API_KEY: apiKey }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (c) => {
      if (c !== 0) process.stderr.write(err.split('\n').slice(-6).join('\n') + '\n');
      resolve(c);
    });
  });
  const wall = (performance.now() - started) / 1000;
  const peak = server.stats.peakInFlight;
  const requests = server.stats.total;
  const refused = (server.stats.byStatus['429'] ?? 0) + (server.stats.byStatus['503'] ?? 0);
  await server.close();
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  const checks = report.checks.length;
  return {
    scenario: s.name, depth: s.depth, latencyMs: s.latencyMs, target: s.target,
    wallS: round(wall), requests, checks,
    requestsPerCheck: round(requests / Math.max(1, checks)),
    peakInFlight: peak,
    effectiveConcurrency: s.latencyMs ? round((requests * s.latencyMs) / 1000 / wall) : 0,
    verdict: report.summary.verdict, exitCode: code,
    itemsJudged: report.coverage?.judged ?? 0,
    itemsPerS: round((report.coverage?.judged ?? 0) / wall),
    refused,
    ...(report.run.phasesMs ? { phasesS: Object.fromEntries(Object.entries(report.run.phasesMs).map(([k, v]) => [k, round(v / 1000)])) } : {}),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

async function main(): Promise<void> {
  const wanted = (arg('runs') ?? ALL.map((s) => s.name).join(',')).split(',');
  const extra: string[] = [];
  for (const f of ['concurrency', 'workers']) if (arg(f)) extra.push(`--${f}`, arg(f)!);
  const results: Figures[] = [];
  for (const s of ALL.filter((x) => wanted.includes(x.name))) {
    process.stderr.write(`bench: ${s.name}…\n`);
    results.push(await runOne(s, extra));
  }
  const clean = results.find((r) => r.scenario === 'quick');
  for (const r of results) {
    if (r.scenario === 'quick-flaky-503' && clean) r.ratio = round(r.requests / clean.requests);
    const limit = ALL.find((x) => x.name === r.scenario)?.transport?.limitRps;
    if (limit) r.ratio = round(r.wallS / (r.requests / limit));
  }
  // what the model-based and concurrency checks add to a standard run: its wall time over the run without them
  const standard = results.find((r) => r.scenario === 'standard');
  const without = results.find((r) => r.scenario === 'standard-no-sequences');
  if (standard && without) without.ratio = round(standard.wallS / without.wallS);
  const machine = { cpus: availableParallelism(), model: cpus()[0]?.model, loadavg: loadavg().map(round), node: process.version };
  const out = { at: new Date().toISOString(), machine, options: extra, results };
  mkdirSync(join(PROJECT_ROOT, 'reports'), { recursive: true });
  writeFileSync(join(PROJECT_ROOT, 'reports', 'bench.json'), JSON.stringify(out, null, 2) + '\n');
  const head = ['scenario', 'wall s', 'requests', 'checks', 'items judged', 'items/s', 'req/check', 'peak in flight', 'eff. concurrency', '429/503', 'ratio', 'verdict', 'target', 'phases s (startup/preflight/probes/checks/cleanup)'];
  const phases = (r: Figures) => (r.phasesS ? ['startup', 'preflight', 'probes', 'checks', 'cleanup'].map((k) => r.phasesS![k]).join(' / ') : '');
  const rows = results.map((r) => [r.scenario, r.wallS, r.requests, r.checks, r.itemsJudged, r.itemsPerS, r.requestsPerCheck, r.peakInFlight, r.latencyMs ? r.effectiveConcurrency : '—', r.refused || '—', r.ratio ?? '—', r.verdict, r.target ?? '', phases(r)]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: unknown[]) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  process.stdout.write(`machine: ${machine.cpus} cpus, load ${machine.loadavg.join(' ')}, node ${machine.node}\n${line(head)}\n${rows.map(line).join('\n')}\nwritten: reports/bench.json\n`);
}

main().catch((e) => {
  process.stderr.write(`bench: ${(e as Error).message}\n`);
  process.exit(1);
});
