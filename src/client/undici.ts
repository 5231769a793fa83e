/**
 * The two pieces of undici the client uses — Agent (the keep-alive pool) and
 * Dispatcher#request — loaded without undici's index. The index also loads
 * fetch, WebSocket, cookies, caches, mocks and, through them, Node's own
 * bundled copy of undici: about 150 ms of start-up CPU in every thread, and a
 * run starts one client per vitest worker. The version is pinned
 * (package-lock.json); test/unit/client.test.ts exercises these imports.
 */
import { createRequire } from 'node:module';
import type { Agent as AgentClass, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

/** undici's Agent class (lib/dispatcher/agent.js is what the index re-exports). */
export const Agent: typeof AgentClass = require('undici/lib/dispatcher/agent.js');

/** Dispatcher#request (lib/api/api-request.js, which the index assigns to Dispatcher.prototype). */
const dispatcherRequest: (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData> =
  require('undici/lib/api/api-request.js');

/** `dispatcher.request(opts)`, as the index would offer it. */
export function requestOn(dispatcher: Dispatcher, opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return dispatcherRequest.call(dispatcher, opts);
}
