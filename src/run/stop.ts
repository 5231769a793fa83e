/**
 * What stops a run before its end: SIGINT, SIGTERM, or the deadline
 * (--deadline-s). A stop abandons the requests in flight — here (through
 * `onStop`) and, through the stop channel, in the workers — no new phase
 * starts, and cleanup and the report still happen. The deadline covers cleanup
 * too: checks are stopped early enough to leave it a share of the time.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { stopChannelName, type RunConfig } from '../config.js';

export class RunStop {
  /** why the run was stopped; undefined while it runs on */
  reason?: string;
  private readonly channel: BroadcastChannel;
  private readonly deadline: NodeJS.Timeout;
  private readonly sigint = () => this.stop('interrupted by SIGINT');
  private readonly sigterm = () => this.stop('interrupted by SIGTERM');

  constructor(config: Pick<RunConfig, 'runTag' | 'deadlineMs'>, private readonly onStop: (why: string) => void) {
    this.channel = new BroadcastChannel(stopChannelName(config.runTag));
    process.on('SIGINT', this.sigint);
    process.on('SIGTERM', this.sigterm);
    const deadlineS = Math.round(config.deadlineMs / 1000);
    const reserveMs = Math.min(60_000, Math.max(2_000, config.deadlineMs * 0.2));
    const why = `stopped by the deadline (--deadline-s ${deadlineS}; the last ${Math.round(reserveMs / 1000)} s are kept for cleanup)`;
    this.deadline = setTimeout(() => this.stop(why), config.deadlineMs - reserveMs);
    this.deadline.unref();
  }

  /** Stop the run (the first reason wins). */
  stop(why: string): void {
    if (this.reason) return;
    this.reason = why;
    this.onStop(why);
    this.channel.postMessage(why);
  }

  /** No more stops: the timer, the channel and the signal handlers go. */
  close(): void {
    clearTimeout(this.deadline);
    this.channel.close();
    process.off('SIGINT', this.sigint);
    process.off('SIGTERM', this.sigterm);
  }
}
