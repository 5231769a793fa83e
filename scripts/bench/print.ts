/** The bench's stdout: one table of the scenarios, the slow writes, and the targets met or not. Pure. */
import { round, type Figures, type Target, type roundTripsInSequence } from './figures.js';

const PHASES = ['startup', 'preflight', 'probes', 'checks', 'cleanup'] as const;

function columns(head: string[], rows: Array<Array<string | number>>): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  // numbers right-aligned, words left
  const line = (cells: Array<string | number>) => cells.map((c, i) => (typeof c === 'number' || c === '—' ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join('  ').trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

const dash = (v: number | undefined) => (v === undefined ? '—' : v);

export function scenarioTable(results: Figures[]): string {
  const head = ['scenario', 'depth', 'wall s', 'requests', 'items/request', 'items/s', `phases s (${PHASES.join('/')})`, 'start-up s', 'eff. conc.', 'slot ms', 'slots used', 'bound s', 'wall÷bound', 'cpu client s', 'cpu server s', 'others (cores)', 'core wait s', 'cpu pressure', 'peak in flight', 'workers', 'critical path', 'verdict'];
  const rows = results.map((r) => [
    r.scenario, r.depth, r.wallsS ? `${r.wallS} (${Math.min(...r.wallsS)}–${Math.max(...r.wallsS)})` : r.wallS, r.requests,
    dash(r.itemsPerRequest), dash(r.itemsPerSecond),
    r.phasesS ? PHASES.map((k) => r.phasesS![k]).join(' / ') : '—',
    dash(r.startupS), dash(r.effectiveConcurrency), dash(r.slotMs), dash(r.slotsUsed), dash(r.boundS), dash(r.wallOverBound),
    r.clientCpuS === undefined ? '—' : `${r.clientCpuS}${r.target === 'embedded' ? '*' : ''}`,
    dash(r.serverCpuS), dash(r.othersCores),
    r.coreWaitS ? `${dash(r.coreWaitS.client)} / ${dash(r.coreWaitS.server)}` : '—', dash(r.cpuPressure), dash(r.peakInFlight), r.workers ? `${r.workers.count} ${r.workers.by}` : '—', r.criticalPath ? r.criticalPath.roundTrips : '—',
    r.verdict,
  ]);
  const notes = [
    'start-up = wall − (preflight + probes + checks + cleanup): no request in flight; bound = requests × latency ÷ concurrency + start-up;',
    'eff. conc. = requests × latency ÷ wall; requests = answered by the server; cpu server = since it listened; * the embedded server\'s CPU is in the client\'s;',
    'slot ms = a slot\'s mean time held a request, its start to its answer\'s last byte (the target\'s answer time as the client saw it); slots used = their time ÷ (concurrency × the sending phases) (report.run.slots);',
    'others = CPU the rest of the machine used meanwhile, in cores; critical path = round trips one after another (report.run.criticalPath);',
    'core wait = s the threads of storecheck / of the server were ready to run but waited for a core (summed over threads, Linux);',
    'cpu pressure = the share of the wall in which some thread of the machine waited for a core (Linux PSI "some");',
    'items/request = spec items judged ÷ requests; items/s = spec items judged ÷ wall;',
    'workers = check files run at once and why (report.run.workers: given or default).',
  ];
  return `${columns(head, rows)}\n${notes.join('\n')}`;
}

export function slowWritesLines(results: Figures[]): string {
  return results.filter((r) => r.slowWrites).map((r) => {
    const w = r.slowWrites!;
    const chain = w.chain
      ? `the longest chain of writes: ${w.chain.writes} writes, ${w.chain.s} s measured (${w.chain.writes} × the mean delay = ${w.chain.timesMeanS} s); wall ÷ chain ${round(r.wallS / w.chain.s)}`
      : 'the longest chain of writes: — (not recorded)';
    return `${r.scenario}: ${w.writes} writes, their delays sum to ${w.sumS} s (÷ ${r.concurrency} in flight = ${w.sumOverConcurrencyS} s) over a wall of ${r.wallS} s `
      + `(${w.sumOverWall} writes side by side on average); ${chain}`;
  }).join('\n');
}

/** Each scenario's critical path: round trips by phase, the longest checks. */
export function criticalPathLines(results: Figures[]): string {
  return results.filter((r) => r.criticalPath).map((r) => {
    const c = r.criticalPath!;
    const phases = Object.entries(c.byPhase).map(([k, v]) => `${k} ${v}`).join(', ');
    const longest = c.longestChecks.slice(0, 3).map((x) => `${x.id} ${x.roundTrips}`).join(', ');
    return `${r.scenario}: critical path ${c.roundTrips} round trips (${phases}; ${c.lanes} lanes), ${round(c.ms / 1000)} s of requests; longest checks: ${longest}`;
  }).join('\n');
}

export function roundTripLine(r: ReturnType<typeof roundTripsInSequence>): string {
  if (!r) return '';
  return `round trips one after another, estimated as Δ ÷ Δ latency (${r.from} → ${r.to}): wall ${r.wall}, `
    + Object.entries(r.phases).map(([k, v]) => `${k} ${v}`).join(', ');
}

export function targetLines(targets: Target[]): string {
  const mark = (t: Target) => (t.met === null ? '—' : t.met ? '✓' : '✗');
  return columns(['', 'target', 'goal', 'measured', ''], targets.map((t) => [mark(t), t.name, t.goal, t.value ?? '—', t.note ?? '']));
}
