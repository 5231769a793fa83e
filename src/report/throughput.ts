/**
 * What a run judged for what it cost: spec items judged per request sent and
 * per second of the run's wall (report.json run.throughput). Requests are the
 * cost a target pays (rate limits, a shared staging store); seconds the cost
 * a CI gate pays. Both come from figures the report already holds, so a
 * merged report recomputes them from its merged figures.
 */
import type { Report } from './types.js';

export type Throughput = NonNullable<Report['run']['throughput']>;

/** Items judged ÷ requests (2 decimals) and ÷ seconds (1 decimal); none when nothing was sent or no time passed. */
export function throughputOf(itemsJudged: number, requestCount: number, durationMs: number): Throughput {
  return {
    itemsJudged,
    ...(requestCount > 0 ? { perRequest: Math.round((100 * itemsJudged) / requestCount) / 100 } : {}),
    ...(durationMs > 0 ? { perSecond: Math.round((10_000 * itemsJudged) / durationMs) / 10 } : {}),
  };
}

/** "0.45 items judged per request · 98.2 per second", or '' when the report has no figures. */
export function throughputText(t: Throughput | undefined): string {
  if (!t || t.perRequest === undefined) return '';
  return `${t.perRequest.toFixed(2)} items judged per request${t.perSecond === undefined ? '' : ` · ${t.perSecond} per second`}`;
}

/** A report's request count with what it bought: "5201 (0.45 items judged per request · 98.2 per second)". */
export function requestsText(run: Pick<Report['run'], 'requestCount' | 'throughput'>): string {
  const t = throughputText(run.throughput);
  return t ? `${run.requestCount} (${t})` : String(run.requestCount);
}
