/**
 * Running one scenario: the target (the reference server as its own process,
 * through the same CLI a user starts, or the embedded one), storecheck as a
 * user runs it (`node bin/storecheck.mjs`, reference/cli-process.ts), and what
 * the rest of the machine did meanwhile (/proc/stat), so a figure taken on a
 * shared machine says how shared it was.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runStorecheck } from '../../reference/cli-process.js';
import { cpuPressureUs, watchCoreWait, type CoreWaitWatch } from './core-wait.js';
import type { Measured, ServerStats } from './figures.js';
import type { Depth, Scenario } from './scenarios.js';

/** The seed of every bench run: the same generated values in every scenario. */
export const BENCH_SEED = '12345';

interface External { url: string; pid?: number; stop(): Promise<ServerStats | undefined> }

/** `npm run reference` (reference/main.ts) on a free port, with the scenario's switches; stop() ends it and reads its --stats-file. */
async function startExternal(s: Scenario, apiKey: string, dir: string): Promise<External> {
  const statsFile = join(dir, 'server-stats.json');
  const transport = Object.entries(s.transport ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
  const args = [
    '--import', 'tsx', join(ROOT, 'reference', 'main.ts'), '--port', '0', '--api-key', apiKey, '--latency-ms', String(s.latencyMs), '--stats-file', statsFile,
    ...(s.slowWritesMs ? ['--slow-writes', s.slowWritesMs.join('-')] : []),
    ...(transport ? ['--transport', transport] : []),
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the reference server printed no URL in 60 s: ${out}`)), 60_000);
    child.stdout.on('data', () => {
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the reference server exited (${code}) before listening: ${out}`));
    });
  });
  return {
    url,
    ...(child.pid ? { pid: child.pid } : {}),
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0 || !existsSync(statsFile)) {
        process.stderr.write(`bench: the reference server ended with ${code} and no stats: ${out.slice(-500)}\n`);
        return undefined;
      }
      return JSON.parse(readFileSync(statsFile, 'utf8')) as ServerStats;
    },
  };
}

let clockTicks: number | undefined;

/** CPU-ms the whole machine has spent busy since boot (/proc/stat); undefined off Linux. */
function machineBusyMs(): number | undefined {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    return ((user + nice + system + irq + softirq + steal) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

/** Run one scenario at `depth` with the extra storecheck flags (--concurrency, --workers). */
export async function measure(s: Scenario, depth: Depth, extra: string[]): Promise<Measured> {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), `sc-bench-${s.name}-`));
  const apiKey = `bench-${Math.random().toString(36).slice(2)}`;
  try {
    const external = s.target === 'external' ? await startExternal(s, apiKey, dir) : undefined;
    const busyBefore = machineBusyMs();
    const pressureBefore = cpuPressureUs();
    const ownBefore = process.cpuUsage();
    const serverWait = external?.pid ? watchCoreWait(external.pid) : undefined;
    let clientWait: CoreWaitWatch | undefined;
    const run = await runStorecheck(['--depth', depth, '--seed', BENCH_SEED, '--quiet', ...(s.args ?? []), ...extra], {
      ...(external ? { against: { url: external.url, apiKey } } : {}), reportDir: join(dir, 'report'), timeoutMs: 30 * 60_000,
      onSpawn: (pid) => (clientWait = watchCoreWait(pid)),
    });
    const busyAfter = machineBusyMs();
    const pressureAfter = cpuPressureUs();
    const own = process.cpuUsage(ownBefore);
    const coreWait = { client: clientWait?.stop(), server: serverWait?.stop() };
    const server = await external?.stop();
    if (run.code !== 0 && run.code !== 1) process.stderr.write(`bench: ${s.name}: storecheck exited ${run.code}:\n${run.stderr.split('\n').slice(-6).join('\n')}\n`);
    // the machine's busy time minus this bench, storecheck and the server (its start-up was before busyBefore)
    const othersCpuMs = busyBefore !== undefined && busyAfter !== undefined && run.cpuMs !== undefined
      ? busyAfter - busyBefore - run.cpuMs - (server?.servingCpuMs ?? 0) - (own.user + own.system) / 1000
      : undefined;
    return {
      scenario: s, depth, wallMs: run.ms, exitCode: run.code, report: run.report,
      ...(run.cpuMs !== undefined ? { clientCpuMs: run.cpuMs } : {}),
      ...(server ? { server } : {}),
      ...(othersCpuMs !== undefined ? { othersCpuMs } : {}),
      ...(coreWait.client !== undefined ? { coreWaitMs: coreWait } : {}),
      ...(pressureBefore !== undefined && pressureAfter !== undefined ? { cpuPressureMs: (pressureAfter - pressureBefore) / 1000 } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
