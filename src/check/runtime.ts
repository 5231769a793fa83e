/**
 * The worker side of a run: one config (injected from the main process), one
 * client with its keep-alive pool, one ledger writer — shared by every check
 * file this worker executes.
 */
import { BroadcastChannel } from 'node:worker_threads';
import { inject } from 'vitest';
import { StoreClient } from '../client/api.js';
import { Ledger } from '../client/ledger.js';
import { DEPTHS, perWorkerConnections, stopChannelName, type DepthProfile, type RunConfig } from '../config.js';

export interface Runtime {
  config: RunConfig;
  depth: DepthProfile;
  client: StoreClient;
  ledger: Ledger;
  observations: Record<string, unknown>;
}

let current: Runtime | undefined;

export function runtime(): Runtime {
  if (current) return current;
  const config = inject('storecheck');
  if (!config) throw new Error('storecheck checks run through `npm run conformance` (src/cli.ts), which provides the target configuration');
  const ledger = new Ledger(config.ledgerFile, config.runTag);
  const client = new StoreClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    connections: perWorkerConnections(config),
    maxRps: config.maxRps > 0 ? config.maxRps / Math.max(1, config.workers) : 0,
    insecure: config.insecure,
    readOnly: config.readOnly,
    ledger,
  });
  // the main process says stop (signal, deadline): abandon requests in flight, send no more
  const stop = new BroadcastChannel(stopChannelName(config.runTag));
  stop.onmessage = (m) => client.http.cancel(String((m as { data?: unknown }).data ?? 'stopped'));
  stop.unref();
  current = { config, depth: DEPTHS[config.depth], client, ledger, observations: config.observations ?? {} };
  return current;
}

/** The runtime if this worker made one (setup hooks must not create it). */
export function currentRuntime(): Runtime | undefined {
  return current;
}

/** An observation probed before the run, or the fallback when the probe found nothing. */
export function observed<T>(key: string, fallback: T): T {
  const v = runtime().observations[key];
  return v === undefined || v === null ? fallback : (v as T);
}
