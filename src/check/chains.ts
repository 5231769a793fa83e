/**
 * The chains of a worker's check files, for the run's critical path
 * (src/run/critical-path.ts). A worker runs one file at a time; the checks of
 * a file run side by side. So a file's chain is the longest build of a fixture
 * no check built (the checks wait for it; a fixture a check builds is that
 * check's), then its longest check, then what runs after its last check: its
 * fixtures' deletes and the read-back of what it created
 * (src/check/file-cleanup.ts).
 * Each file's chains go to <report dir>/chains.jsonl when it ends
 * (src/check/setup.ts): the main process adds up each worker's files.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChainRecorder, type Chain } from '../client/chain.js';

/** What a worker says of one check file. */
export interface FileChains {
  /** the run's tag: a line an earlier run left in a reused report dir (killed before reading it) is not this run's */
  runTag?: string;
  /** `<pid>:<threadId>`: the files of one worker ran one after another */
  worker: string;
  checks: Array<{ id: string } & Chain>;
  /** fixtures built for no check (through the worker's client): the checks waited for them */
  fixtures?: Chain[];
  /** the requests sent after the file's last check ended: fixtures deleted, the file's records read back */
  end: Chain;
}

/** every request of this worker (its client's Http listener), for what follows a file's checks */
const worker = new ChainRecorder();
let checks: FileChains['checks'] = [];
let fixtures: Chain[] = [];
let lastCheckEnd = -Infinity;

/** The listener the worker's client gets (src/check/runtime.ts). */
export const recordWorkerExchange = worker.add;

/** A check file begins: nothing of the previous file counts. */
export function fileBegins(): void {
  worker.clear();
  checks = [];
  fixtures = [];
  lastCheckEnd = -Infinity;
}

/** A fixture no check built is ready (or failed) after this chain. */
export function fixtureBuilt(chain: Chain): void {
  fixtures.push(chain);
}

/** A check ended with this chain (its own requests: the fixtures it built, its scope's deletes). */
export function checkEnded(id: string, chain: Chain): void {
  checks.push({ id, ...chain });
  lastCheckEnd = performance.now();
}

/** The file's chains: its checks, and what was sent after the last of them. */
export function fileChains(workerId: string, runTag?: string): FileChains {
  return { ...(runTag ? { runTag } : {}), worker: workerId, checks, ...(fixtures.length ? { fixtures } : {}), end: worker.chain(lastCheckEnd) };
}

/** Appends the file's chains to <report dir>/chains.jsonl (read, then removed, by the main process). */
export function writeFileChains(reportDir: string, workerId: string, runTag: string): void {
  if (!checks.length && worker.chain().roundTrips === 0) return;
  appendFileSync(join(reportDir, CHAINS_FILE), JSON.stringify(fileChains(workerId, runTag)) + '\n');
}

export const CHAINS_FILE = 'chains.jsonl';
