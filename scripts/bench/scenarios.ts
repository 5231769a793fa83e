/**
 * The bench's scenarios, one table. A scenario runs storecheck against either
 * the reference server started as its own process (`reference/main.ts`, the
 * `npm run reference` CLI: what a user's target is — another process, reached
 * over a socket, nothing shared) or the embedded server (no --base-url: what
 * `npm run conformance` runs out of the box), for comparison.
 */
import { RULES } from '../../src/rules.js';

export type Depth = 'quick' | 'standard' | 'deep';

export interface Scenario {
  name: string;
  /** one line: what it measures */
  about: string;
  target: 'embedded' | 'external';
  /** added to every answer by the server (--latency-ms) */
  latencyMs: number;
  /** a fixed depth; otherwise standard, or quick with --quick */
  depth?: Depth;
  /** writes take this many ms, min and max (--slow-writes) */
  slowWritesMs?: [number, number];
  /** other transport switches of the server (--transport NAME=VALUE,...) */
  transport?: Record<string, number | boolean>;
  /** extra storecheck flags */
  args?: string[];
}

/** Every rule but those of sequences and concurrency, as --only (what a run costs without them). */
const WITHOUT_SEQUENCES = Object.keys(RULES).filter((r) => !/^(model|concurrency)\./.test(r)).flatMap((r) => [`*.${r}`, `*.${r}.*`]).join(',');

export const SLOW_WRITES_MS: [number, number] = [400, 900];

export const SCENARIOS: readonly Scenario[] = [
  { name: 'embedded', about: 'the embedded server (no --base-url), the comparison for external-0ms', target: 'embedded', latencyMs: 0 },
  { name: 'external-0ms', about: 'the reference server in its own process, no added latency', target: 'external', latencyMs: 0 },
  { name: 'external-30ms', about: 'the same, every answer 30 ms late', target: 'external', latencyMs: 30 },
  { name: 'external-100ms', about: 'the same, every answer 100 ms late', target: 'external', latencyMs: 100 },
  { name: 'slow-writes', about: `every create, update and delete takes ${SLOW_WRITES_MS.join('–')} ms (seeded, uniform)`, target: 'external', latencyMs: 0, slowWritesMs: SLOW_WRITES_MS },
  { name: 'no-sequences', about: 'external-0ms without the model-based and concurrency checks', target: 'external', latencyMs: 0, args: ['--only', WITHOUT_SEQUENCES] },
  { name: 'quick', about: 'external, no added latency, quick depth (the clean run beside flaky-503)', target: 'external', latencyMs: 0, depth: 'quick' },
  { name: 'flaky-503', about: '3 % of every operation answered 503 (Retry-After: 0)', target: 'external', latencyMs: 0, depth: 'quick', transport: { rate503: 0.03, retryAfterSeconds: 0, allOperations: true } },
  // the run's own --concurrency stays; the target's limit is what slows it
  { name: 'limit-60rps', about: 'a limit of 60 requests/s (429 + Retry-After beyond)', target: 'external', latencyMs: 0, depth: 'quick', transport: { limitRps: 60 } },
];

export function depthOf(s: Scenario, quick: boolean): Depth {
  return s.depth ?? (quick ? 'quick' : 'standard');
}

/** Same target, latency, switches and flags: two scenarios that would measure the same run. */
function sameRun(a: Scenario, b: Scenario, quick: boolean): boolean {
  const key = (s: Scenario) => JSON.stringify([s.target, s.latencyMs, depthOf(s, quick), s.slowWritesMs ?? null, s.transport ?? null, s.args ?? null]);
  return key(a) === key(b);
}

/**
 * The scenarios `--scenario` names (comma-separated, `*` a wildcard; none: all),
 * without one that repeats an earlier one's run (with --quick, `quick` is `external-0ms`).
 */
export function selectScenarios(pattern: string | undefined, quick: boolean): Scenario[] {
  const patterns = (pattern ?? '*').split(',').map((p) => p.trim()).filter(Boolean);
  const matchers = patterns.map((p) => ({ p, re: new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`) }));
  const unknown = matchers.filter((m) => !SCENARIOS.some((s) => m.re.test(s.name)));
  if (unknown.length) throw new Error(`no scenario matches ${unknown.map((m) => `"${m.p}"`).join(', ')} (scenarios: ${SCENARIOS.map((s) => s.name).join(', ')})`);
  const picked = SCENARIOS.filter((s) => matchers.some((m) => m.re.test(s.name)));
  return picked.filter((s, i) => !picked.slice(0, i).some((t) => sameRun(s, t, quick)));
}
