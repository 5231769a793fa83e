/**
 * What a run works with in its main process, made once from the frozen config:
 * the one redactor (made from the key: the client, the terminal and the report
 * writers use it), the terminal, the run-wide gate (shared with the workers),
 * the client (src/client/factory.ts) and what stops the run.
 */
import type { StoreClient } from '../client/api.js';
import { makeClient, redactorFor } from '../client/factory.js';
import { SharedReads } from '../client/shared-reads.js';
import { answerBudgetFor, SharedGate } from '../client/gate.js';
import { Ledger } from '../client/ledger.js';
import type { Redactor } from '../client/redact.js';
import type { RunConfig } from '../config.js';
import type { PhaseClock } from './clock.js';
import { RunStop } from './stop.js';
import { Terminal } from './terminal.js';

export interface RunSession {
  readonly config: RunConfig;
  readonly clock: PhaseClock;
  readonly redactor: Redactor;
  readonly term: Terminal;
  /** --concurrency and --max-rps for this process and every worker together, and the budget of answer bytes */
  readonly gate: SharedGate;
  readonly client: StoreClient;
  /** the reads the main process shares (src/client/shared-reads.ts): handed to the workers with the run state */
  readonly reads: SharedReads;
  readonly stop: RunStop;
}

export function openSession(config: RunConfig, clock: PhaseClock, quiet: boolean): RunSession {
  const redactor = redactorFor(config);
  const term = new Terminal(quiet, redactor);
  // one bound on requests in flight for this process and every worker together, and one budget of
  // answer bytes buffered at once (at least two of the largest answers read)
  const gate = SharedGate.create(config.concurrency, answerBudgetFor(config.maxAnswerBytes));
  const reads = new SharedReads(config.apiKey, () => 'the preflight and probes');
  const client = makeClient(config, {
    redactor,
    connections: Math.min(config.concurrency, 8),
    gate,
    ledger: new Ledger(config.ledgerFile, config.runTag),
    retries: 3,
    sharedReads: reads,
  });
  const stop = new RunStop(config, (why) => {
    term.line(`\n${why}: stopping and cleaning up what this run created…`);
    client.http.cancel(why);
  });
  return { config, clock, redactor, term, gate, client, reads, stop };
}

export async function closeSession(s: RunSession): Promise<void> {
  s.stop.close();
  await s.client.close();
}
