/**
 * Observed behaviour: probes of what the spec marks "not shown", run once in
 * the main process before the checks; each observation is a value, how it was
 * found, and the redacted exchanges that showed it. Checks read the values
 * through the kit's `ctx.observed(key)` / `observed(key)`: the value probed, or
 * the registry's one fallback for the key (registry.ts).
 *
 * The registry runs in three phases: 1 — reads only; 2 — probes that create
 * (collections) and delete what they created, beside phase 1, every resource
 * read or written by one side at a time (schedule.ts); 3 — refinements that
 * need phase 1 and 2 (page sizes on a resource grown big enough when none
 * was). A probe that throws or meets a target error yields
 * `{value: null, detail: 'could not tell: …'}` for its keys; in --read-only
 * runs write probes send nothing and say 'not probed: read-only'.
 */
import type { StoreClient } from '../client/api.js';
import { ReadOnlyViolation } from '../client/api.js';
import type { RunConfig } from '../config.js';
import type { Observation } from '../report/types.js';
import { authProbe } from './auth.js';
import { batchLimitProbe } from './batch-limit.js';
import { collationProbe } from './collation.js';
import { decimalScaleProbe, integerWidthProbe } from './columns.js';
import { consistencyProbe } from './consistency.js';
import { dateOnlyBoundProbe } from './date-only.js';
import { decimalDigitsProbe } from './decimal-digits.js';
import { combinationProbe, rangeProbe } from './filters.js';
import { firstPageProbe } from './first-page.js';
import { headerKeyProbe } from './header-key.js';
import { idsProbe } from './ids.js';
import { guidVersionProbe } from './guid-version.js';
import { timestampRangeProbe } from './timestamp-range.js';
import { notOfferedProbe } from './not-offered.js';
import { orderProbe } from './order.js';
import { overlongProbe } from './overlong.js';
import { bigSetProbe, pageSizeProbe } from './page-size.js';
import { pagesTitleProbe } from './pages.js';
import { afterThisTurn, ProbeSchedule } from './schedule.js';
import { Shared } from './shared.js';
import { storedTextProbe } from './stored-text.js';
import { trimmingProbe } from './trimming.js';
import { emptyStringProbe } from './empty-string.js';
import { numberSyntaxProbe } from './number-syntax.js';
import { listDuplicatesProbe } from './list-duplicates.js';
import { textBytesProbe } from './text-bytes.js';
import { ProbeError, evidence, type Probe, type ProbeContext } from './types.js';
import { unknownFilterProbe } from './unknown-filter.js';
import { unknownPredefinedProbe } from './unknown-predefined.js';
import { unknownIdProbe } from './unknown-id.js';
import { updateSemanticsProbe } from './update.js';
import { usersCountProbe } from './users-count.js';

export { ProbeError, type Probe, type ProbeContext } from './types.js';
export { shapeOf, shapeFamily, carriesData, WRONG_KEY } from './shared.js';
export { orderOf, follows, ORDERS, type OrderName } from './order.js';

/** Every probe, in report order. */
export const PROBES: readonly Probe[] = [
  firstPageProbe,
  pageSizeProbe,
  orderProbe,
  combinationProbe,
  rangeProbe,
  unknownFilterProbe,
  unknownPredefinedProbe,
  authProbe,
  headerKeyProbe,
  pagesTitleProbe,
  usersCountProbe,
  updateSemanticsProbe,
  consistencyProbe,
  overlongProbe,
  decimalDigitsProbe,
  batchLimitProbe,
  unknownIdProbe,
  notOfferedProbe,
  collationProbe,
  dateOnlyBoundProbe,
  idsProbe,
  guidVersionProbe,
  integerWidthProbe,
  decimalScaleProbe,
  storedTextProbe,
  trimmingProbe,
  emptyStringProbe,
  numberSyntaxProbe,
  listDuplicatesProbe,
  timestampRangeProbe,
  textBytesProbe,
  bigSetProbe,
];

/** Every key the probes answer (a key may be refined by a later phase). */
export const OBSERVATION_KEYS: readonly string[] = [...new Set(PROBES.flatMap((p) => p.keys))];

export async function probeObservations(client: StoreClient, config: RunConfig, probes: readonly Probe[] = PROBES): Promise<Record<string, Observation>> {
  const shared = new Shared(client, config);
  const results: Record<string, Observation> = {};
  // phases 1 and 2 side by side, each resource read or written by one side at a time (schedule.ts)
  const readers = probes.filter((p) => p.phase === 1);
  const writers = probes.filter((p) => p.phase === 2);
  // writes begin once the reading probes have chosen their resources (on the counts, which they all read first)
  const schedule = new ProbeSchedule(readers.length && writers.length ? shared.counts().then(afterThisTurn) : Promise.resolve());
  const sides = [...readers, ...writers];
  const outcomes = await Promise.all(sides.map((p) => runScheduled(p, { client, config, shared, results }, schedule)));
  for (const out of outcomes) Object.assign(results, out);
  // phase 3 refines what both found
  const ctx: ProbeContext = { client, config, shared, results };
  for (const out of await Promise.all(probes.filter((p) => p.phase === 3).map((p) => runOne(p, ctx)))) Object.assign(results, out);
  // report order: the registry's key order
  const ordered: Record<string, Observation> = {};
  for (const key of [...new Set(probes.flatMap((p) => p.keys))]) if (results[key]) ordered[key] = results[key];
  return ordered;
}

/** A probe of phase 1 or 2 with the client and shared reads of its side: what it touches, it holds until it ends. */
async function runScheduled(p: Probe, ctx: ProbeContext, schedule: ProbeSchedule): Promise<Record<string, Observation>> {
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  const side = p.phase === 1 ? 'read' : 'write';
  const client = schedule.client(ctx.client, side, end);
  try {
    return await runOne(p, { ...ctx, client, shared: schedule.shared(ctx.shared, client, side, end) });
  } finally {
    ended();
  }
}

async function runOne(p: Probe, ctx: ProbeContext): Promise<Record<string, Observation>> {
  const all = (o: Observation) => Object.fromEntries(p.keys.map((k) => [k, o]));
  if (p.writes && ctx.config.readOnly) return all({ value: null, detail: 'not probed: read-only (this probe creates, updates or deletes)' });
  try {
    const out = await p.run(ctx);
    // a key the probe forgot is a gap worth saying, not a silent hole (phase 3 may leave keys alone)
    if (p.phase !== 3) for (const k of p.keys) out[k] ??= { value: null, detail: `could not tell: the ${p.name} probe gave no answer for ${k}` };
    return out;
  } catch (e) {
    if (e instanceof ReadOnlyViolation) return all({ value: null, detail: `not probed: read-only (${e.message})` });
    const why = e instanceof ProbeError ? e.message : `the ${p.name} probe failed: ${(e as Error)?.message ?? String(e)}`;
    const ev = e instanceof ProbeError ? evidence(...e.exchanges) : [];
    if (p.phase === 3) return {};
    return all({ value: null, detail: `could not tell: ${why}`, evidence: ev });
  }
}
