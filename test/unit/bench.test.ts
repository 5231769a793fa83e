/**
 * npm run bench's arithmetic and scenario selection (scripts/bench/): the
 * formulas of docs/speed.md on made-up measurements, and the targets met or not.
 */
import { describe, expect, it } from 'vitest';
import { criticalPathOf, figuresOf, medianRun, roundTripsInSequence, targetsOf, type Measured, type ServerStats } from '../../scripts/bench/figures.js';
import { criticalPathLines, scenarioTable, slowWritesLines } from '../../scripts/bench/print.js';
import { watchCoreWait } from '../../scripts/bench/core-wait.js';
import { spawn, spawnSync } from 'node:child_process';
import { SCENARIOS, selectScenarios, type Scenario } from '../../scripts/bench/scenarios.js';
import type { Report } from '../../src/report/types.js';

const hasTaskset = () => spawnSync('taskset', ['-c', '0', 'true']).status === 0;

const scenario = (name: string): Scenario => SCENARIOS.find((s) => s.name === name)!;

function report(phasesMs: Record<string, number>, extra: Record<string, unknown> = {}): Report {
  return {
    run: { requestCount: 4000, concurrency: 24, phasesMs, ...extra },
    checks: [{}, {}],
    coverage: { judged: 2000 },
    summary: { verdict: 'conformant' },
    cleanup: { created: 7600, deleted: 7600, leftBehind: [] },
  } as unknown as Report;
}

const server = (over: Partial<ServerStats> = {}): ServerStats => ({
  total: 4000, byOperation: {}, byStatus: { 200: 3990, 503: 10 }, peakInFlight: 24, slowWrites: 0, slowWriteMs: 0, cpuMs: 5000, servingCpuMs: 4000, maxRssKb: 1, ...over,
});

function measured(name: string, wallMs: number, phasesMs: Record<string, number>, over: Partial<Measured> = {}): Measured {
  const s = scenario(name);
  return { scenario: s, depth: s.depth ?? 'standard', wallMs, exitCode: 0, report: report(phasesMs), clientCpuMs: 9000, ...(s.target === 'external' ? { server: server() } : {}), othersCpuMs: 5000, ...over };
}

describe('bench figures', () => {
  it('start-up, effective concurrency, bound and the ratio to it', () => {
    // 12 s wall, request phases 0.5 + 1 + 8 + 1.5 = 11 s: start-up 1 s; 4000 × 30 ms ÷ 24 = 5 s: bound 6 s
    const f = figuresOf(measured('external-30ms', 12_000, { startup: 700, preflight: 500, probes: 1000, checks: 8000, cleanup: 1500 }));
    expect(f).toMatchObject({ wallS: 12, requests: 4000, clientRequests: 4000, startupS: 1, effectiveConcurrency: 10, boundS: 6, wallOverBound: 2, concurrency: 24 });
    expect(f).toMatchObject({ clientCpuS: 9, serverCpuS: 4, othersCores: 0.4, peakInFlight: 24, refused: 10, checks: 2, itemsJudged: 2000, recordsCreated: 7600 });
    expect(f.phasesS).toEqual({ startup: 0.7, preflight: 0.5, probes: 1, checks: 8, cleanup: 1.5 });
    // 2000 items judged for 4000 requests in 12 s
    expect(f).toMatchObject({ itemsPerRequest: 0.5, itemsPerSecond: 166.7 });
  });

  it('time waiting for a core: summed over threads per process, and the machine\'s share of the wall', () => {
    const f = figuresOf(measured('external-30ms', 12_000, { startup: 700, preflight: 500, probes: 1000, checks: 8000, cleanup: 1500 }, { coreWaitMs: { client: 10_449, server: 2_951 }, cpuPressureMs: 9_000 }));
    expect(f).toMatchObject({ coreWaitS: { client: 10.4, server: 3 }, cpuPressure: 0.75 });
    expect(scenarioTable([f])).toMatch(/core wait s.*cpu pressure[\s\S]*10\.4 \/ 3\s+0\.75/);
    // embedded: no server process; not measured (off Linux): a dash
    const e = figuresOf(measured('embedded', 9_000, { startup: 700, preflight: 100, probes: 700, checks: 7000, cleanup: 100 }, { coreWaitMs: { client: 4_000 } }));
    expect(e.coreWaitS).toEqual({ client: 4 });
    expect(scenarioTable([e])).toMatch(/4 \/ —/);
    expect(figuresOf(measured('embedded', 9_000, { startup: 700 })).coreWaitS).toBeUndefined();
  });

  // three threads spinning on one core (taskset): two of them wait at every moment
  it.runIf(process.platform === 'linux' && hasTaskset())('watchCoreWait sees threads that share one core wait for it', async () => {
    const code = `const { Worker } = require('node:worker_threads');
      const spin = 'const end = Date.now() + 400; while (Date.now() < end);';
      for (let i = 0; i < 2; i++) new Worker(spin, { eval: true });
      setTimeout(() => { const end = Date.now() + 400; while (Date.now() < end); }, 50);`;
    // taskset execs node: the pid watched is node's
    const child = spawn('taskset', ['-c', '0', process.execPath, '-e', code], { stdio: 'ignore' });
    const watch = watchCoreWait(child.pid!, 20);
    await new Promise((resolve) => child.on('exit', resolve));
    // the threads' last samples stand once they are gone
    expect(watch.stop()).toBeGreaterThan(200);
  });

  it('requests are the ones the server answered when it counts them, else the client\'s', () => {
    const phases = { startup: 0, preflight: 0, probes: 0, checks: 0, cleanup: 0 };
    expect(figuresOf(measured('external-0ms', 1000, phases, { server: server({ total: 4100 }) })).requests).toBe(4100);
    expect(figuresOf(measured('embedded', 1000, phases)).requests).toBe(4000);
  });

  it('no latency: no effective concurrency and no bound; slow writes: their sum against the wall', () => {
    const phases = { startup: 500, preflight: 100, probes: 100, checks: 30_000, cleanup: 9_000 };
    const f = figuresOf(measured('slow-writes', 40_000, phases, { server: server({ slowWrites: 1000, slowWriteMs: 650_000 }) }));
    expect(f.effectiveConcurrency).toBeUndefined();
    expect(f.boundS).toBeUndefined();
    expect(f.slowWrites).toEqual({ writes: 1000, sumS: 650, sumOverWall: 16.3, sumOverConcurrencyS: 27.1 });
  });

  it('--repeat keeps the run of median wall time, every wall beside it', () => {
    const phases = { startup: 0, preflight: 0, probes: 0, checks: 0, cleanup: 0 };
    const runs = [14_000, 10_000, 12_000, 30_000].map((ms) => figuresOf(measured('external-0ms', ms, phases)));
    expect(medianRun(runs)).toMatchObject({ wallS: 12, wallsS: [14, 10, 12, 30] });
    expect(medianRun(runs.slice(0, 1)).wallsS).toBeUndefined();
  });

  it('round trips one after another, estimated from the growth between 30 and 100 ms', () => {
    // cleanup 5.1 s → 16.3 s: 11.2 s more for 70 ms more per answer = 160 round trips
    const at30 = figuresOf(measured('external-30ms', 20_000, { startup: 700, preflight: 100, probes: 1000, checks: 12_000, cleanup: 5100 }));
    const at100 = figuresOf(measured('external-100ms', 45_000, { startup: 700, preflight: 170, probes: 2400, checks: 24_000, cleanup: 16_300 }));
    expect(roundTripsInSequence([at30, at100])).toEqual({ from: 'external-30ms', to: 'external-100ms', wall: 357, phases: { preflight: 1, probes: 20, checks: 171, cleanup: 160 } });
    expect(roundTripsInSequence([at30])).toBeUndefined();
  });

  it('reads report.run.criticalPath when the run recorded it', () => {
    expect(criticalPathOf(report({}))).toBeUndefined();
    expect(criticalPathOf(report({}, { criticalPath: path(120, 9_000) }))).toEqual(path(120, 9_000));
  });
});

/** a critical path of `roundTrips`, whose longest chain of writes took `writeMs` (36 writes) */
function path(roundTrips: number, writeMs: number) {
  return { roundTrips, ms: roundTrips * 40, byPhase: { preflight: 1, probes: 10, checks: roundTrips - 11, cleanup: 0 }, lanes: 3, longestChecks: [{ id: 'a', roundTrips: 12, ms: 480 }], writes: { count: 36, ms: writeMs } };
}

describe('bench targets', () => {
  const phases = (checks: number, cleanup: number) => ({ startup: 500, preflight: 200, probes: 300, checks, cleanup });
  const target = (all: ReturnType<typeof targetsOf>, name: string) => all.find((t) => t.name === name)!;

  it('each target met, missed, or not measured', () => {
    const results = [
      figuresOf(measured('embedded', 10_000, phases(8000, 500))),
      figuresOf(measured('external-0ms', 12_000, phases(10_000, 500))),
      // start-up 12 − 11 = 1 s, bound 4000 × 0.03 ÷ 24 + 1 = 6 s; wall 12 s
      figuresOf(measured('external-30ms', 12_000, phases(8500, 2000))),
    ];
    const t = targetsOf(results);
    expect(target(t, 'external-0ms wall ÷ embedded wall')).toMatchObject({ value: 1.2, met: true });
    expect(target(t, 'external-30ms wall ÷ bound')).toMatchObject({ value: 2, met: false });
    expect(target(t, 'external-30ms effective concurrency')).toMatchObject({ value: 10, met: false });
    expect(target(t, 'external-30ms cleanup phase (s)')).toMatchObject({ value: 2, met: false });
    expect(target(t, 'external-0ms requests')).toMatchObject({ value: 4000, met: true });
    expect(target(t, 'external-100ms wall ÷ bound')).toMatchObject({ value: null, met: null });
    expect(target(t, 'slow-writes wall ÷ longest chain of writes').met).toBeNull();
  });

  it('a standard-depth target measured at quick depth says so; ratios need both runs at one depth', () => {
    const quick = (name: string, wallMs: number) => figuresOf(measured(name, wallMs, phases(5000, 500), { depth: 'quick' }));
    const t = targetsOf([figuresOf(measured('embedded', 10_000, phases(8000, 500))), quick('external-0ms', 7000), quick('flaky-503', 7000)]);
    expect(target(t, 'external-0ms requests').note).toMatch(/quick depth: indicative/);
    expect(target(t, 'external-0ms wall ÷ embedded wall').met).toBeNull();
    expect(target(t, 'quick wall (s)')).toMatchObject({ value: 7, met: true });
    expect(target(t, "flaky-503 requests ÷ the clean run's")).toMatchObject({ value: 1, met: true });
  });

  it('the slow-writes target once the run records its longest chain of writes', () => {
    const m = measured('slow-writes', 30_000, phases(25_000, 2000), { report: report(phases(25_000, 2000), { criticalPath: path(200, 24_000) }), server: server({ slowWrites: 973, slowWriteMs: 637_700 }) });
    const f = figuresOf(m);
    expect(target(targetsOf([f]), 'slow-writes wall ÷ longest chain of writes')).toMatchObject({ value: 1.25, met: true });
    // the server's writes: 973 whose delays sum to 637.7 s (mean 655 ms); the chain: 36 writes, 24 s measured
    expect(f.slowWrites).toEqual({ writes: 973, sumS: 637.7, sumOverWall: 21.3, sumOverConcurrencyS: 26.6, chain: { writes: 36, s: 24, timesMeanS: 23.6 } });
    expect(slowWritesLines([f])).toBe('slow-writes: 973 writes, their delays sum to 637.7 s (÷ 24 in flight = 26.6 s) over a wall of 30 s (21.3 writes side by side on average); '
      + 'the longest chain of writes: 36 writes, 24 s measured (36 × the mean delay = 23.6 s); wall ÷ chain 1.25');
    expect(criticalPathLines([f])).toBe('slow-writes: critical path 200 round trips (preflight 1, probes 10, checks 189, cleanup 0; 3 lanes), 8 s of requests; longest checks: a 12');
  });
});

describe('bench scenarios', () => {
  it('--scenario takes names and globs; an unknown one is an error naming the scenarios', () => {
    expect(selectScenarios('external-*', false).map((s) => s.name)).toEqual(['external-0ms', 'external-30ms', 'external-100ms']);
    expect(selectScenarios('embedded,slow-writes', false).map((s) => s.name)).toEqual(['embedded', 'slow-writes']);
    expect(selectScenarios(undefined, false)).toHaveLength(SCENARIOS.length);
    expect(() => selectScenarios('embeded', false)).toThrow(/no scenario matches "embeded" \(scenarios: embedded, /);
  });

  it('--quick drops a scenario that would repeat another\'s run', () => {
    const names = selectScenarios(undefined, true).map((s) => s.name);
    expect(names).not.toContain('quick');
    expect(names).toContain('external-0ms');
    expect(selectScenarios('quick', true).map((s) => s.name)).toEqual(['quick']);
  });
});
