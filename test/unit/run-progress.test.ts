/**
 * Progress that tells time (issue 22): on a terminal, elapsed time, an estimate of the time left
 * and the check running now, redrawn as the clock moves; elsewhere a plain line about once a
 * minute (the first finished check, then every minute, then the last). The estimate says nothing
 * until a rate means something. Driven by a fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CheckCollector, type Progress } from '../../src/run/collector.js';
import { PLAIN_EVERY_MS, clockText, estimateLeftMs, estimateText, type Clock } from '../../src/run/progress.js';
import { Terminal } from '../../src/run/terminal.js';

/** A clock the test moves; its timers fire in order as it does. */
function fakeClock(): Clock & { advance(ms: number): void; timers(): number } {
  let t = 1_700_000_000_000;
  const timers: Array<{ ms: number; fn: () => void; next: number; on: boolean }> = [];
  return {
    now: () => t,
    every(ms, fn) {
      const timer = { ms, fn, next: t + ms, on: true };
      timers.push(timer);
      return () => (timer.on = false);
    },
    advance(ms) {
      const end = t + ms;
      for (;;) {
        const due = timers.filter((x) => x.on && x.next <= end).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        t = due.next;
        due.next += due.ms;
        due.fn();
      }
      t = end;
    },
    timers: () => timers.filter((x) => x.on).length,
  };
}

let out: string[] = [];
beforeEach(() => {
  out = [];
  vi.spyOn(process.stderr, 'write').mockImplementation(((s: string) => (out.push(String(s)), true)) as typeof process.stderr.write);
});
afterEach(() => vi.restoreAllMocks());

const progress = (done: number, total: number, extra: Partial<Progress> = {}): Progress => ({ done, total, failed: 0, errors: 0, ...extra });

describe('the estimate of the time left', () => {
  it('is the rate measured since the first finished check applied to the checks left', () => {
    expect(estimateLeftMs(101, 400, { checks: 100, ms: 20_000 })).toBe(59_800);
    expect(estimateLeftMs(432, 864, { checks: 400, ms: 8_000 })).toBe(8_640);
  });

  it('says nothing before enough checks have finished and enough time has passed, nor when all are done', () => {
    expect(estimateLeftMs(1, 864, { checks: 0, ms: 60_000 })).toBeUndefined();
    expect(estimateLeftMs(10, 100, { checks: 9, ms: 60_000 })).toBeUndefined(); // fewer than 10
    expect(estimateLeftMs(41, 864, { checks: 40, ms: 60_000 })).toBeUndefined(); // under 5 % of 864
    expect(estimateLeftMs(45, 864, { checks: 44, ms: 60_000 })).toBeDefined();
    expect(estimateLeftMs(500, 864, { checks: 499, ms: 2_999 })).toBeUndefined(); // under 3 s
    expect(estimateLeftMs(864, 864, { checks: 863, ms: 60_000 })).toBeUndefined();
  });

  it('does not take the workers\' start-up for slowness: the first check may take long, the rate counts after it', () => {
    const clock = fakeClock();
    const term = new Terminal(false, undefined, { tty: true, colour: false, clock, columns: () => 200 });
    term.plan({ total: 200, items: 200 });
    clock.advance(20_000); // 20 s loading the suite
    term.progress(progress(1, 200));
    for (let done = 2; done <= 100; done++) {
      clock.advance(100);
      term.progress(progress(done, 200));
    }
    // 99 checks in 9.9 s since the first: 100 left take ~10 s (not the ~40 s the start-up would suggest)
    expect(out.at(-1)).toBe('\rchecks 100/200 · 0 failed · 30s elapsed · ~10s left\x1b[K');
    term.endProgress();
  });

  it('is said no finer than it is', () => {
    expect(clockText(4_400)).toBe('4s');
    expect(clockText(65_000)).toBe('1m05s');
    expect(clockText(3_725_000)).toBe('1h02m');
    expect(estimateText(21_000)).toBe('~20s');
    expect(estimateText(1_000)).toBe('~5s');
    expect(estimateText(206_000)).toBe('~3m30s');
    expect(estimateText(14 * 60_000 + 35_000)).toBe('~15m00s');
  });
});

describe('on a terminal', () => {
  const terminal = (clock: Clock, columns = 200) => new Terminal(false, undefined, { tty: true, colour: false, clock, columns: () => columns });

  it('shows done/total, failures, elapsed, the time left once it can be told, and the check running now', () => {
    const clock = fakeClock();
    const term = terminal(clock);
    clock.advance(2_000); // startup, preflight, probes
    term.plan({ total: 400, items: 900 });
    clock.advance(1_000);
    term.progress(progress(1, 400, { running: 4, current: 'product.filters.range.price_min' }));
    expect(out.at(-1)).toBe('\rchecks 1/400 · 0 failed · 3s elapsed · now product.filters.range.price_min (+3)\x1b[K');
    clock.advance(19_000);
    term.progress(progress(100, 400, { failed: 2, errors: 1, running: 1, current: 'coupon.model.sequence' }));
    // 100 checks in the 20 s since the plan: 300 left take 60 s
    expect(out.at(-1)).toBe('\rchecks 100/400 · 2 failed · 1 target error · 22s elapsed · ~1m00s left · now coupon.model.sequence\x1b[K');
  });

  it('redraws every second without events: the elapsed time moves; no more redraws once the checks end', () => {
    const clock = fakeClock();
    const term = terminal(clock);
    term.plan({ total: 10, items: 10 });
    term.progress(progress(1, 10, { running: 1, current: 'a.b' }));
    const before = out.length;
    clock.advance(3_000);
    expect(out.slice(before)).toEqual([1, 2, 3].map((s) => `\rchecks 1/10 · 0 failed · ${s}s elapsed · now a.b\x1b[K`));
    term.endProgress();
    expect(out.at(-1)).toBe('\n');
    expect(clock.timers()).toBe(0);
    clock.advance(5_000);
    expect(out.at(-1)).toBe('\n');
  });

  it('never draws wider than the terminal (a wrapped line could not be rewritten in place)', () => {
    const clock = fakeClock();
    const term = terminal(clock, 60);
    term.progress(progress(5, 864, { running: 16, current: 'shipping-method.filters.count-agrees.createdon_max' }));
    const line = out.at(-1)!.replace(/^\r/, '').replace(/\x1b\[K$/, '');
    expect([...line].length).toBe(59);
    expect(line.endsWith('…')).toBe(true);
  });

  it('a line printed meanwhile ends the progress line first, and --quiet shows no progress', () => {
    const clock = fakeClock();
    const term = terminal(clock);
    term.progress(progress(1, 10));
    term.line('interrupted by SIGINT: stopping');
    expect(out.slice(-2)).toEqual(['\n', 'interrupted by SIGINT: stopping\n']);
    term.endProgress();
    out = [];
    const quiet = new Terminal(true, undefined, { tty: true, colour: false, clock });
    quiet.progress(progress(1, 10));
    clock.advance(5_000);
    expect(out).toEqual([]);
  });
});

describe('not a terminal (a CI log)', () => {
  it('a line at the first finished check, then about once a minute (also when nothing finishes), then at the last — not a flood, not nothing', () => {
    const clock = fakeClock();
    const term = new Terminal(false, undefined, { tty: false, colour: false, clock });
    term.plan({ total: 864, items: 2144 });
    out = [];
    // 864 checks over 4 minutes, one every ~278 ms, with a 90 s stall in the middle
    for (let done = 1; done <= 864; done++) {
      clock.advance(done === 432 ? 90_000 : 170);
      term.progress(progress(done, 864, { running: 8, current: `x.c${done}` }));
    }
    term.endProgress();
    const lines = out.join('').split('\n').filter(Boolean);
    expect(lines[0]).toBe('checks 1/864 (0 %) · 0 failed · 0s elapsed');
    expect(lines.at(-1)).toBe('checks 864/864 (100 %) · 0 failed · 3m57s elapsed');
    // 1 first + one a minute over 3 min 57 s + the last
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines.length).toBeLessThanOrEqual(6);
    for (const l of lines.slice(1, -1)) expect(l).toMatch(/^checks \d+\/864 \(\d+ %\) · 0 failed · \d+m\d\ds elapsed( · ~\S+ left)?$/);
    // the stall is covered by the minute line, with the estimate from the rate so far
    expect(lines.some((l) => /^checks 431\/864 .* · ~\S+ left$/.test(l))).toBe(true);
  });

  it('a run whose first check takes minutes still says it is alive once a minute', () => {
    const clock = fakeClock();
    const term = new Terminal(false, undefined, { tty: false, colour: false, clock });
    term.plan({ total: 5, items: 5 });
    term.progress(progress(0, 5, { running: 1, current: 'a.slow' }));
    clock.advance(PLAIN_EVERY_MS * 2 + 1_000);
    expect(out.filter((l) => l.startsWith('checks 0/5')).length).toBe(2);
    term.endProgress();
  });

  it('the estimate is honest against a steady run: each minute line says within 5 % of the time really left', () => {
    const clock = fakeClock();
    const term = new Terminal(false, undefined, { tty: false, colour: false, clock });
    term.plan({ total: 300, items: 300 });
    for (let done = 1; done <= 300; done++) {
      clock.advance(1_200);
      term.progress(progress(done, 300));
    }
    term.endProgress();
    const said = out.join('').split('\n').filter((l) => l.includes('left'));
    expect(said.length).toBeGreaterThanOrEqual(4);
    for (const l of said) {
      const [, done, m, s] = /^checks (\d+)\/300 .* · ~(?:(\d+)m)?(\d+)s left$/.exec(l)!;
      const estimate = Number(m ?? 0) * 60 + Number(s);
      const really = (300 - Number(done)) * 1.2;
      expect(Math.abs(estimate - really) / really, l).toBeLessThan(0.05);
    }
  });
});

describe('the collector names the check running now', () => {
  it('reports started checks as running, the latest as current, until they finish', () => {
    const seen: Progress[] = [];
    const c = new CheckCollector((p) => seen.push(p));
    const test = (id: string, name: string) => ({
      id, name: `${name} — title`, fullName: name, meta: () => ({}), result: () => ({ state: 'skipped', errors: [] }), diagnostic: () => ({ duration: 1 }),
    });
    c.onTestCaseReady(test('1', 'product.a') as never);
    c.onTestCaseReady(test('2', 'coupon.b') as never);
    expect(seen.at(-1)).toMatchObject({ running: 2, current: 'coupon.b' });
    c.onTestCaseResult(test('2', 'coupon.b') as never);
    c.onTestCaseReady(test('3', 'page.c') as never);
    expect(seen.at(-1)).toMatchObject({ running: 2, current: 'page.c' });
  });
});
