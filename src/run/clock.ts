/**
 * Wall time per phase of a run, for report.run.phasesMs — start-up (process
 * start → the run's first line), preflight, probes, checks, cleanup — and the
 * run's start, for report.run.startedAt and durationMs.
 */
export type PhaseName = 'startup' | 'preflight' | 'probes' | 'checks' | 'cleanup';

export class PhaseClock {
  /** when the run started (epoch ms) */
  readonly started = Date.now();
  readonly phasesMs: Record<PhaseName, number> = { startup: Math.round(performance.now()), preflight: 0, probes: 0, checks: 0, cleanup: 0 };
  private lap = performance.now();

  /** The next phase starts now (what came between the last phase and this one counts for none). */
  restart(): void {
    this.lap = performance.now();
  }

  /** `name` ends now: its time is what passed since the last phase ended (or restart()). */
  end(name: PhaseName): void {
    const now = performance.now();
    this.phasesMs[name] = Math.round(now - this.lap);
    this.lap = now;
  }

  /** ms since the run started */
  elapsed(): number {
    return Date.now() - this.started;
  }
}
