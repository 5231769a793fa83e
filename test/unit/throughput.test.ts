/**
 * What a run judged for what it cost (src/report/throughput.ts): items judged
 * per request and per second, as report.json run.throughput holds them and
 * the terminal, report.md and report.html show them.
 */
import { describe, expect, it } from 'vitest';
import { requestsText, throughputOf, throughputText } from '../../src/report/throughput.js';

describe('items judged per request and per second', () => {
  it('divides the items judged by the requests (2 decimals) and by the wall in seconds (1 decimal)', () => {
    expect(throughputOf(2352, 5201, 24_000)).toEqual({ itemsJudged: 2352, perRequest: 0.45, perSecond: 98 });
    expect(throughputOf(2000, 1000, 3_000)).toEqual({ itemsJudged: 2000, perRequest: 2, perSecond: 666.7 });
  });

  it('has no ratio where nothing was sent or no time passed', () => {
    expect(throughputOf(0, 0, 0)).toEqual({ itemsJudged: 0 });
    expect(throughputText(throughputOf(0, 0, 10))).toBe('');
  });

  it('reads as a phrase beside the request count, and the bare count without figures', () => {
    const t = throughputOf(2352, 5201, 24_000);
    expect(throughputText(t)).toBe('0.45 items judged per request · 98 per second');
    expect(requestsText({ requestCount: 5201, throughput: t })).toBe('5201 (0.45 items judged per request · 98 per second)');
    expect(requestsText({ requestCount: 12 })).toBe('12');
  });
});
