/**
 * The bench's arithmetic, pure: from what one scenario measured (wall time, the
 * run's report.json, the server's stats, CPU times) to its figures, and from
 * every scenario's figures to the targets of issue 24. Formulas (docs/speed.md):
 *   start-up             = wall − (preflight + probes + checks + cleanup phases): the part of
 *                          the wall in which the run sends no request (process launch, CLI and
 *                          suite loading before the preflight, reports written after cleanup)
 *   effective concurrency = requests × latency ÷ wall
 *   bound                 = requests × latency ÷ --concurrency + start-up
 */
import { SENDING_PHASES, sendingMs } from '../../src/report/slots.js';
import type { Report } from '../../src/report/types.js';
import type { Depth, Scenario } from './scenarios.js';

/** What `npm run reference -- --stats-file` writes on exit. */
export interface ServerStats {
  total: number;
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
  peakInFlight: number;
  slowWrites: number;
  slowWriteMs: number;
  /** CPU of the whole server process, and since it listened (what serving the run cost) */
  cpuMs: number;
  servingCpuMs: number;
  maxRssKb: number;
}

/** One scenario, as run. */
export interface Measured {
  scenario: Scenario;
  depth: Depth;
  wallMs: number;
  exitCode: number | null;
  report?: Report;
  /** storecheck's CPU (every thread; the embedded server's too) */
  clientCpuMs?: number;
  /** external target only */
  server?: ServerStats;
  /** CPU the rest of the machine used meanwhile (other processes), ms */
  othersCpuMs?: number;
  /** ms the threads of storecheck and of the server waited, ready to run, for a core (Linux: scripts/bench/core-wait.ts) */
  coreWaitMs?: { client?: number; server?: number };
  /** ms of the run in which some thread of the machine waited for a core (Linux CPU pressure, "some") */
  cpuPressureMs?: number;
}

/** The critical path the run records (report.run.criticalPath, src/run/critical-path.ts). */
export type CriticalPath = NonNullable<Report['run']['criticalPath']>;

export interface Figures {
  scenario: string;
  target: 'embedded' | 'external';
  depth: Depth;
  latencyMs: number;
  wallS: number;
  /** with --repeat: every run's wall, s (the figures are those of the median run) */
  wallsS?: number[];
  /** the requests the target answered (the server's count; embedded: the client's) */
  requests: number;
  /** report.run.requestCount: the requests the client counted */
  clientRequests?: number;
  checks: number;
  itemsJudged: number;
  /** items judged ÷ requests (the server's count): what each request bought */
  itemsPerRequest?: number;
  /** items judged ÷ wall, per second */
  itemsPerSecond?: number;
  /** report.cleanup.created: the records the run created (cleanup reads every one back) */
  recordsCreated?: number;
  verdict: string;
  exitCode: number | null;
  /** report.run.phasesMs, in s */
  phasesS?: Record<string, number>;
  /** wall − the request phases, s */
  startupS?: number;
  /** --concurrency of the run */
  concurrency: number;
  effectiveConcurrency?: number;
  /** report.run.slots: a slot's mean time held a request (the target's answer time as the client saw it), and the share of slots taken */
  slotMs?: number;
  slotsUsed?: number;
  boundS?: number;
  wallOverBound?: number;
  clientCpuS?: number;
  /** the server's CPU since it listened (external only) */
  serverCpuS?: number;
  /** cores the machine's other processes kept busy meanwhile (CPU-s ÷ wall) */
  othersCores?: number;
  /** s the threads of storecheck (client) and of the server spent ready to run but waiting for a core, summed over their threads */
  coreWaitS?: { client?: number; server?: number };
  /** the share of the wall in which some thread of the machine waited for a core (CPU pressure) */
  cpuPressure?: number;
  peakInFlight?: number;
  /** answered 429 or 503 */
  refused?: number;
  /**
   * the server's slow writes: their number and summed delays, sum ÷ wall (writes waited on side by side),
   * sum ÷ --concurrency (the wall if every slot held a write), and the run's longest chain of writes
   * (count, measured time, and count × the mean delay)
   */
  slowWrites?: { writes: number; sumS: number; sumOverWall: number; sumOverConcurrencyS: number; chain?: { writes: number; s: number; timesMeanS: number } };
  criticalPath?: CriticalPath;
  /** report.summary.reason, when the verdict is not conformant (why the run failed or gave none) */
  reason?: string;
  /** report.run.workers: check files run at once, and why (given or default) */
  workers?: NonNullable<Report['run']['workers']>;
}

export const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;

export function criticalPathOf(report: Report | undefined): CriticalPath | undefined {
  const c = report?.run.criticalPath;
  return c && typeof c === 'object' && typeof c.roundTrips === 'number' ? c : undefined;
}

export function figuresOf(m: Measured): Figures {
  const { scenario: s, report } = m;
  const wallS = m.wallMs / 1000;
  const clientRequests = report?.run.requestCount;
  const requests = m.server?.total ?? clientRequests ?? 0;
  const phases = report?.run.phasesMs;
  const startupS = phases ? wallS - sendingMs(phases) / 1000 : undefined;
  const concurrency = report?.run.concurrency ?? 24;
  const latencyS = s.latencyMs / 1000;
  const boundS = latencyS && startupS !== undefined ? (requests * latencyS) / concurrency + startupS : undefined;
  const status = m.server?.byStatus ?? {};
  return {
    scenario: s.name, target: s.target, depth: m.depth, latencyMs: s.latencyMs,
    wallS: round(wallS), requests, ...(clientRequests !== undefined ? { clientRequests } : {}),
    checks: report?.checks.length ?? 0, itemsJudged: report?.coverage?.judged ?? 0,
    ...(report?.coverage && requests > 0 ? { itemsPerRequest: round(report.coverage.judged / requests) } : {}),
    ...(report?.coverage && wallS > 0 ? { itemsPerSecond: round(report.coverage.judged / wallS, 1) } : {}),
    ...(report?.cleanup ? { recordsCreated: report.cleanup.created } : {}),
    verdict: report?.summary.verdict ?? 'no report', exitCode: m.exitCode,
    ...(phases ? { phasesS: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, round(v / 1000)])) } : {}),
    ...(startupS !== undefined ? { startupS: round(startupS) } : {}),
    concurrency,
    ...(latencyS ? { effectiveConcurrency: round((requests * latencyS) / wallS, 1) } : {}),
    ...(report?.run.slots?.meanHeldMs !== undefined ? { slotMs: report.run.slots.meanHeldMs } : {}),
    ...(report?.run.slots?.used !== undefined ? { slotsUsed: report.run.slots.used } : {}),
    ...(boundS !== undefined ? { boundS: round(boundS), wallOverBound: round(wallS / boundS) } : {}),
    ...(m.clientCpuMs !== undefined ? { clientCpuS: round(m.clientCpuMs / 1000, 1) } : {}),
    ...(m.server ? { serverCpuS: round(m.server.servingCpuMs / 1000, 1), peakInFlight: m.server.peakInFlight, refused: (status['429'] ?? 0) + (status['503'] ?? 0) } : {}),
    ...(m.othersCpuMs !== undefined ? { othersCores: round(Math.max(0, m.othersCpuMs) / m.wallMs, 1) } : {}),
    ...(m.coreWaitMs ? { coreWaitS: Object.fromEntries(Object.entries(m.coreWaitMs).filter(([, v]) => v !== undefined).map(([k, v]) => [k, round(v! / 1000, 1)])) } : {}),
    ...(m.cpuPressureMs !== undefined && m.wallMs > 0 ? { cpuPressure: round(Math.min(1, m.cpuPressureMs / m.wallMs)) } : {}),
    ...(m.server?.slowWrites ? { slowWrites: slowWritesOf(m.server, m.wallMs, concurrency, criticalPathOf(report)) } : {}),
    ...(criticalPathOf(report) ? { criticalPath: criticalPathOf(report) } : {}),
    ...(report?.run.workers ? { workers: report.run.workers } : {}),
    ...(report && report.summary.verdict !== 'conformant' ? { reason: report.summary.reason } : {}),
  };
}

/** The slow writes beside the run's longest chain of writes: what bounds the wall, the chain or the sum. */
function slowWritesOf(server: ServerStats, wallMs: number, concurrency: number, path: CriticalPath | undefined): NonNullable<Figures['slowWrites']> {
  const mean = server.slowWriteMs / server.slowWrites;
  const chain = path?.writes;
  return {
    writes: server.slowWrites, sumS: round(server.slowWriteMs / 1000, 1), sumOverWall: round(server.slowWriteMs / wallMs, 1),
    sumOverConcurrencyS: round(server.slowWriteMs / concurrency / 1000, 1),
    ...(chain ? { chain: { writes: chain.count, s: round(chain.ms / 1000, 1), timesMeanS: round((chain.count * mean) / 1000, 1) } } : {}),
  };
}

/** With --repeat: the run of median wall time (the lower middle of an even count), every run's wall beside it. */
export function medianRun(runs: Figures[]): Figures {
  if (runs.length === 1) return runs[0];
  const sorted = [...runs].sort((a, b) => a.wallS - b.wallS);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)], wallsS: runs.map((r) => r.wallS) };
}

/**
 * Round trips waited one after another, estimated from two latencies (until the run records its
 * critical path): how much wall and each phase grow per ms of added latency, (b − a) ÷ (latency b −
 * latency a). A phase bound by its chains grows by its chain length; one bound by the CPU or by
 * --concurrency grows by less (so this underestimates a run that is CPU-bound at the lower latency).
 */
export function roundTripsInSequence(results: Figures[]): { from: string; to: string; wall: number; phases: Record<string, number> } | undefined {
  const a = results.find((r) => r.scenario === 'external-30ms');
  const b = results.find((r) => r.scenario === 'external-100ms');
  if (!a || !b || a.depth !== b.depth || !a.phasesS || !b.phasesS) return undefined;
  const per = (x: number, y: number) => Math.round((y - x) / ((b.latencyMs - a.latencyMs) / 1000));
  return {
    from: a.scenario, to: b.scenario, wall: per(a.wallS, b.wallS),
    phases: Object.fromEntries(SENDING_PHASES.map((k) => [k, per(a.phasesS![k], b.phasesS![k])])),
  };
}

export interface Target {
  /** what is compared, e.g. "external-0ms wall ÷ embedded wall" */
  name: string;
  goal: string;
  /** the figure measured; null: not measured */
  value: number | null;
  /** null: not measured in this run (a scenario missing), or not applicable */
  met: boolean | null;
  note?: string;
}

/**
 * The targets of issue 24 (and the earlier ones still kept), from the
 * scenarios that ran; a target whose scenarios did not run is listed as not
 * measured. A target set for standard depth, measured at another, says so.
 */
export function targetsOf(results: Figures[]): Target[] {
  const by = (name: string) => results.find((r) => r.scenario === name);
  const out: Target[] = [];
  const add = (name: string, goal: string, value: number | undefined, met: (v: number) => boolean, note?: string) =>
    out.push({ name, goal, value: value ?? null, met: value === undefined ? null : met(value), ...(note ? { note } : {}) });
  const standard = (r: Figures | undefined) => (r && r.depth !== 'standard' ? `at ${r.depth} depth: indicative (the target is for standard)` : undefined);

  const e0 = by('external-0ms');
  const emb = by('embedded');
  const sameDepth = e0 && emb && e0.depth === emb.depth;
  add('external-0ms wall ÷ embedded wall', '≤ 1.3', sameDepth ? round(e0.wallS / emb.wallS) : undefined, (v) => v <= 1.3);
  const e30 = by('external-30ms');
  add('external-30ms wall ÷ bound', '≤ 1.5', e30?.wallOverBound, (v) => v <= 1.5);
  add('external-30ms effective concurrency', '≥ 16', e30?.effectiveConcurrency, (v) => v >= 16);
  add('external-30ms cleanup phase (s)', '≤ 1.5', e30?.phasesS?.cleanup, (v) => v <= 1.5, standard(e30));
  const e100 = by('external-100ms');
  add('external-100ms wall ÷ bound', '≤ 1.5', e100?.wallOverBound, (v) => v <= 1.5);
  add('external-0ms requests', '≤ 5000', e0?.requests, (v) => v <= 5000, standard(e0));

  const slow = by('slow-writes');
  const chain = slow?.criticalPath?.writes.ms;
  out.push(slow && chain
    ? { name: 'slow-writes wall ÷ longest chain of writes', goal: '≤ 1.5', value: round(slow.wallS / (chain / 1000)), met: slow.wallS / (chain / 1000) <= 1.5 }
    : { name: 'slow-writes wall ÷ longest chain of writes', goal: '≤ 1.5', value: null, met: null, note: slow ? 'the run recorded no chain of writes (report.run.criticalPath)' : undefined });

  const quick = by('quick') ?? (e0?.depth === 'quick' ? e0 : undefined);
  add('quick wall (s)', '< 10', quick?.wallS, (v) => v < 10);
  const flaky = by('flaky-503');
  const clean = flaky && results.find((r) => r.target === 'external' && r.latencyMs === 0 && r.depth === flaky.depth && (r.scenario === 'quick' || r.scenario === 'external-0ms'));
  add('flaky-503 requests ÷ the clean run\'s', '≤ 1.3, a verdict', flaky && clean ? round(flaky.requests / clean.requests) : undefined, (v) => v <= 1.3 && flaky!.verdict !== 'no-verdict');
  const limited = by('limit-60rps');
  add('limit-60rps wall ÷ (requests ÷ 60)', '≤ 1.25', limited ? round(limited.wallS / (limited.requests / 60)) : undefined, (v) => v <= 1.25);
  const without = by('no-sequences');
  add('external-0ms wall ÷ no-sequences wall', '≤ 1.2', e0 && without && e0.depth === without.depth ? round(e0.wallS / without.wallS) : undefined, (v) => v <= 1.2);
  return out;
}
