/**
 * The progress line of a run (issue 22: progress that tells time, as k6 and newman show it).
 *
 * On a terminal: one line rewritten in place — checks done of the total, failures, time since the
 * run started, an estimate of the time left, and the check running now — redrawn every second
 * even when no check finishes, never wider than the terminal.
 * Elsewhere (a CI log): a plain line when the first check has finished, then about once a
 * minute, and one when the last has: done/total, elapsed and the time left.
 *
 * The estimate is honest: the checks' own rate so far (checks finished since the first one ÷ the
 * time since it) applied to what is left, and nothing at all until enough checks and time have
 * passed for a rate to mean something. Time comes from a Clock, so tests drive it.
 */
import type { Progress } from './collector.js';
import type { Paint } from './colour.js';

/** Time, and a repeating timer that never keeps the process alive. */
export interface Clock {
  now(): number;
  /** call `fn` every `ms` until the returned function is called */
  every(ms: number, fn: () => void): () => void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  every: (ms, fn) => {
    const t = setInterval(fn, ms);
    t.unref();
    return () => clearInterval(t);
  },
};

/** No estimate before this many checks have finished since the first (or this share of the total, if larger)… */
const MIN_DONE = 10;
const MIN_SHARE = 0.05;
/** …nor before they have taken this long. */
const MIN_ELAPSED_MS = 3_000;
/** A plain (not a terminal) line at most this often, between the first and the last. */
export const PLAIN_EVERY_MS = 60_000;
/** A terminal's line is redrawn every this many seconds without events (the clock moves); a plain line's due time checked this often. */
const TTY_TICK_S = 1;
const PLAIN_TICK_S = 5;

/**
 * The time the checks left need, in ms, at the rate measured: `measured.checks` finished in
 * `measured.ms` — counted from the first finished check, so the workers' start-up (loading the
 * suite) does not pass for slowness. Undefined while too few have finished, or too little time has
 * passed, for a rate to be more than a guess, and when nothing is left.
 */
export function estimateLeftMs(done: number, total: number, measured: { checks: number; ms: number }): number | undefined {
  if (done >= total || measured.checks <= 0) return undefined;
  if (measured.checks < Math.max(MIN_DONE, Math.ceil(total * MIN_SHARE)) || measured.ms < MIN_ELAPSED_MS) return undefined;
  return ((total - done) * measured.ms) / measured.checks;
}

/** 65 000 → "1m05s", 4 000 → "4s", 3 725 000 → "1h02m". */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** An estimate said no finer than it is: to the nearest 5 s under a minute, 10 s under ten minutes, then minutes. */
export function estimateText(ms: number): string {
  const s = ms / 1000;
  const step = s < 60 ? 5 : s < 600 ? 10 : 60;
  return `~${clockText(Math.max(step, Math.round(s / step) * step) * 1000)}`;
}

/** Visible width of text holding ANSI colour codes. */
const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

export interface ProgressLineOptions {
  tty: boolean;
  paint: Paint;
  /** writes to the terminal (stderr), redaction applied by the caller */
  write(text: string): void;
  clock?: Clock;
  /** the terminal's width, when known */
  columns?: () => number | undefined;
}

export class ProgressLine {
  private readonly clock: Clock;
  private readonly runStart: number;
  private checksStart?: number;
  /** when the first check finished, and how many had then: the rate counts from there */
  private firstDone?: { at: number; done: number };
  private latest?: Progress;
  private stopTicker?: () => void;
  private lastPlain?: number;
  private firstPlain = false;
  private finalPlain = false;
  /** a terminal line is on screen, the cursor at its end */
  drawn = false;

  constructor(private readonly o: ProgressLineOptions) {
    this.clock = o.clock ?? SYSTEM_CLOCK;
    this.runStart = this.clock.now();
  }

  /** The checks begin now (their total is known): the estimate's rate counts from here. */
  start(): void {
    this.checksStart ??= this.clock.now();
  }

  update(p: Progress): void {
    this.start();
    if (!this.firstDone && p.done > 0) this.firstDone = { at: this.clock.now(), done: p.done };
    this.latest = p;
    this.ensureTicker();
    if (this.o.tty) this.draw();
    else this.plain(false);
  }

  /** A line of other output follows: leave the progress line where it is and start a new one. */
  breakLine(): void {
    if (this.drawn) this.o.write('\n');
    this.drawn = false;
  }

  /** The checks are over: no more redraws. */
  end(): void {
    this.stopTicker?.();
    this.stopTicker = undefined;
    this.breakLine();
  }

  private ensureTicker(): void {
    if (this.stopTicker) return;
    this.stopTicker = this.clock.every((this.o.tty ? TTY_TICK_S : PLAIN_TICK_S) * 1000, () => {
      if (this.o.tty) this.draw();
      else this.plain(true);
    });
  }

  /** The parts of the line: counts, time since the start, time left (when it can be told). */
  private parts(p: Progress, now: number): string[] {
    const c = this.o.paint;
    const parts = [`checks ${p.done}/${p.total}`, p.failed ? c.red(`${p.failed} failed`) : `${p.failed} failed`];
    if (p.errors) parts.push(c.yellow(`${p.errors} target error${p.errors === 1 ? '' : 's'}`));
    parts.push(`${clockText(now - this.runStart)} elapsed`);
    const f = this.firstDone;
    const left = f ? estimateLeftMs(p.done, p.total, { checks: p.done - f.done, ms: now - f.at }) : undefined;
    if (left !== undefined) parts.push(`${estimateText(left)} left`);
    return parts;
  }

  private draw(): void {
    const p = this.latest;
    if (!p) return;
    const now = this.clock.now();
    let text = this.parts(p, now).join(' · ');
    if (p.current && p.done < p.total) {
      const others = (p.running ?? 1) - 1;
      text += this.o.paint.dim(` · now ${p.current}${others > 0 ? ` (+${others})` : ''}`);
    }
    const width = (this.o.columns?.() ?? 0) - 1;
    if (width > 20 && visible(text).length > width) text = fit(text, width);
    this.o.write(`\r${text}\x1b[K`);
    this.drawn = true;
  }

  /** A plain line: the first finished check, then once a minute (also when nothing finishes), and the last. */
  private plain(fromTicker: boolean): void {
    const p = this.latest;
    const now = this.clock.now();
    if (!p || this.finalPlain) return;
    const due = (this.lastPlain ?? this.checksStart ?? now) + PLAIN_EVERY_MS <= now;
    const first = !this.firstPlain && p.done >= 1 && !fromTicker;
    const last = !this.finalPlain && p.done >= p.total && !fromTicker;
    if (!first && !last && !due) return;
    if (last) this.finalPlain = true;
    if (p.done >= 1) this.firstPlain = true;
    this.lastPlain = now;
    const percent = p.total ? ` (${Math.floor((100 * p.done) / p.total)} %)` : '';
    const [counts, ...rest] = this.parts(p, now);
    this.o.write(`${[counts + percent, ...rest].join(' · ')}\n`);
  }
}

/** Cut coloured text to `width` visible characters, an ellipsis at the end, colours closed. */
function fit(text: string, width: number): string {
  const reset = text.includes('\x1b[') ? '\x1b[0m' : '';
  let out = '';
  let n = 0;
  for (const m of text.matchAll(/\x1b\[[0-9;]*m|[\s\S]/gu)) {
    if (m[0].startsWith('\x1b')) {
      out += m[0];
      continue;
    }
    if (n === width - 1) return `${out}…${reset}`;
    out += m[0];
    n++;
  }
  return out;
}
