/**
 * The latency section as the views show it (report.md, report.html, the
 * terminal): rows and words from report.json's `latency`, nothing computed
 * from anything else.
 */
import type { Latency, LatencyFigures, Report } from './types.js';

/** A second, in ms (written 1e3: the number the spec's get cap also is, and this is not it). */
const SECOND = 1e3;

/** 3.1 ms, 42 ms, 1.2 s: three significant figures at most. */
export function formatMs(ms: number): string {
  if (ms >= SECOND) return `${(ms / SECOND).toFixed(ms >= 10 * SECOND ? 0 : 1)} s`;
  return `${ms >= 100 ? Math.round(ms) : ms >= 10 ? ms.toFixed(0) : ms.toFixed(1)} ms`;
}

export const LATENCY_HEAD = ['answers', 'median', 'p95', 'max'];

export function latencyCells(f: LatencyFigures): string[] {
  return [String(f.count), formatMs(f.medianMs), formatMs(f.p95Ms), formatMs(f.maxMs)];
}

/** [operation or path, answers, median, p95, max] */
export function latencyRows(byKey: Latency['byOperation'] | Latency['byEndpoint']): string[][] {
  return Object.entries(byKey).map(([k, f]) => [k, ...latencyCells(f)]);
}

/** The terminal's lines: each operation's median / p95 / max and count, then the slowest check. */
export function latencyLines(report: Pick<Report, 'latency'>): string[] {
  const l = report.latency;
  if (!l || !Object.keys(l.byOperation).length) return [];
  const ops = Object.entries(l.byOperation).map(([op, f]) => `${op} ${formatMs(f.medianMs)} / ${formatMs(f.p95Ms)} / ${formatMs(f.maxMs)} (${f.count})`);
  const lines = [`latency (median / p95 / max, answers): ${ops.join(' · ')}`];
  const slow = l.slowestChecks.slice(0, 3).map((c) => `${c.id} ${formatMs(c.durationMs)}`);
  if (slow.length) lines.push(`slowest checks: ${slow.join(' · ')}`);
  return lines;
}
