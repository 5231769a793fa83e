/**
 * The worker side of a run: one config (injected from the main process), one
 * client with its keep-alive pool, one ledger writer — shared by every check
 * file this worker executes. The observations and the run-wide in-flight gate
 * come later than the config (the workers load while the main process probes):
 * the setup file awaits them with awaitRunState() before any check starts.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { inject } from 'vitest';
import type { ClientOptions, StoreClient } from '../client/api.js';
import { makeClient, redactorFor } from '../client/factory.js';
import { Ledger } from '../client/ledger.js';
import { SharedGate } from '../client/gate.js';
import { recordWorkerExchange } from './chains.js';
import { readObservation } from '../observe/registry.js';
import { askerNow, watchAnswers } from './invariants/watch.js';
import { SharedReads } from '../client/shared-reads.js';
import { longChainChecks } from '../items/shard.js';
import { observeFrom } from './observed.js';
import { storecheckCacheDir } from '../files.js';
import { usePrecompiledValidators } from '../schema/precompiled.js';
import { deepFreeze, DEPTHS, runChannelName, stopChannelName, type DepthProfile, type RunConfig, type RunState } from '../config.js';

export interface Runtime {
  config: RunConfig;
  depth: DepthProfile;
  client: StoreClient;
  ledger: Ledger;
  observations: Record<string, unknown>;
}

let current: Runtime | undefined;
let state: RunState | undefined;
let waiting: Promise<RunState> | undefined;

/**
 * Waits for the main process to send the RunState (it does once its probes are
 * done; a worker that asks later gets an answer at once). A stop message (signal,
 * deadline) ends the wait too: the run then goes on with no observations and a
 * cancelled client, so every check ends at once as a target error.
 */
export function awaitRunState(config: RunConfig): Promise<RunState> {
  if (state) return Promise.resolve(state);
  waiting ??= new Promise<RunState>((resolve) => {
    const channel = new BroadcastChannel(runChannelName(config.runTag));
    const stop = new BroadcastChannel(stopChannelName(config.runTag));
    const done = (s: RunState) => {
      channel.close();
      stop.close();
      state = s;
      resolve(s);
    };
    channel.onmessage = (m) => {
      const data = (m as { data?: unknown }).data as Partial<RunState> | undefined;
      if (data && typeof data === 'object' && data.gate instanceof SharedArrayBuffer && data.observations) done(data as RunState);
    };
    stop.onmessage = (m) => done({ observations: {}, gate: SharedGate.create(1).buffer, stopped: String((m as { data?: unknown }).data ?? 'stopped') });
    channel.postMessage('want');
  });
  return waiting;
}

export function runtime(): Runtime {
  if (current) return current;
  // the main process's frozen config, structured-cloned into this worker: frozen here too
  const config = deepFreeze(inject('storecheck'));
  if (!config) throw new Error('storecheck checks run through `npm run conformance` (src/cli.ts), which provides the target configuration');
  if (!state) throw new Error('storecheck: the run state (observations, in-flight gate) has not arrived from the main process');
  const ledger = new Ledger(config.ledgerFile, config.runTag);
  const longChains = longChainChecks();
  // reads the run cannot change are sent once and judged by every check asking them; the probes' too
  const sharedReads = new SharedReads(config.apiKey, askerNow);
  sharedReads.seed(state.sharedReads ?? []);
  // the validators the main process compiled and kept before the checks began (src/schema/precompiled.ts)
  usePrecompiledValidators(storecheckCacheDir());
  // the gate paces every thread together: --max-rps is the whole run's
  const client = makeClient(config, {
    redactor: redactorFor(config),
    // any worker may use every slot of --concurrency: the shared gate bounds them all together
    connections: config.concurrency,
    gate: new SharedGate(state.gate),
    ledger,
    sharedReads,
    ...visibilityOf(config, state.observations),
    // a step of a long chain takes the next freed slot before the other checks' requests
    urgent: () => longChains.has(askerNow()),
  });
  // every request of this worker: what follows a file's checks is on its chain (src/check/chains.ts)
  client.http.listeners.add(recordWorkerExchange);
  // the main process says stop (signal, deadline): abandon requests in flight, send no more
  const stop = new BroadcastChannel(stopChannelName(config.runTag));
  stop.onmessage = (m) => client.http.cancel(String((m as { data?: unknown }).data ?? 'stopped'));
  stop.unref();
  if (state.stopped) client.http.cancel(state.stopped);
  // every answer of every check is judged against the invariants (src/check/invariants)
  watchAnswers(client.http, state.observations, config.apiKey);
  current = { config, depth: DEPTHS[config.depth], client, ledger, observations: state.observations };
  return current;
}

/** A store whose reads lag its writes: the client waits for each write (ClientOptions.visibility). */
function visibilityOf(config: RunConfig, observations: Record<string, unknown>): Pick<ClientOptions, 'visibility'> {
  const lagMs = readObservation(observations, 'consistency.readAfterWriteMs');
  return lagMs > 0 ? { visibility: { lagMs, deadlineMs: config.visibilityTimeoutMs } } : {};
}

/** The runtime if this worker made one (setup hooks must not create it). */
export function currentRuntime(): Runtime | undefined {
  return current;
}

// the checks' observations are the runtime's: `observed(key)` (./observed.ts) reads them
observeFrom(() => runtime().observations);
export { observed, probed } from './observed.js';
