/**
 * How long a process's threads were ready to run but waited for a core, and
 * how much of the wall the machine had some thread waiting so: on 2 cores
 * shared by storecheck's four isolates, V8's helper threads and the server,
 * this is where a slot's time beyond the latency goes (docs/speed.md,
 * "Waiting for a core"). Linux only (the scheduler's per-thread schedstat and
 * the kernel's CPU pressure, PSI); undefined elsewhere.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** A thread's time waiting on a run queue so far, ns (the second field of /proc/<pid>/task/<tid>/schedstat). */
function waits(pid: number): Map<string, number> | undefined {
  try {
    const out = new Map<string, number>();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const wait = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]);
        if (Number.isFinite(wait)) out.set(tid, wait);
      } catch {
        // the thread ended between the listing and the read: its last sample stands
      }
    }
    return out;
  } catch {
    return undefined;
  }
}

export interface CoreWaitWatch {
  /** ms the process's threads waited for a core since the watch began (summed over threads); undefined off Linux */
  stop(): number | undefined;
}

/**
 * Samples `pid`'s threads every `everyMs` until stop(). A thread that ends
 * keeps its last sample (what it waited in its last `everyMs` is missed);
 * the threads there at the start count from then, later ones from zero.
 */
export function watchCoreWait(pid: number, everyMs = 100): CoreWaitWatch {
  const start = waits(pid);
  if (!start) return { stop: () => undefined };
  const last = new Map(start);
  const sample = () => {
    for (const [tid, wait] of waits(pid) ?? []) last.set(tid, wait);
  };
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      let ns = 0;
      for (const [tid, wait] of last) ns += wait - (start.get(tid) ?? 0);
      return Math.round(ns / 1e6);
    },
  };
}

/** µs in which at least one runnable thread of the machine waited for a core, since boot (/proc/pressure/cpu "some"). */
export function cpuPressureUs(): number | undefined {
  try {
    const some = readFileSync('/proc/pressure/cpu', 'utf8').split('\n').find((l) => l.startsWith('some '));
    const total = Number(/total=(\d+)/.exec(some ?? '')?.[1]);
    return Number.isFinite(total) ? total : undefined;
  } catch {
    return undefined;
  }
}
