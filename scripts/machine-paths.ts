/**
 * The committed proof reports (reports/mutation.{md,json},
 * reports/mutation-engine/**) are read on other machines: a path of the
 * machine that wrote them (its scratch folders, the clone's own folder, a
 * StrykerJS sandbox) says nothing there and tells how that machine is laid
 * out. A run still names such paths to whoever ran it (on the console, in
 * its raw records: where a kept report or a ledger is); what it commits
 * names them relative to the project, or by the scratch folder's name only.
 *
 *   <project>/suites/x.ts                        → suites/x.ts
 *   <project>/.stryker-tmp/sandbox-AbC/suites/x  → suites/x (a sandbox is a copy of the project)
 *   <temp folder>/storecheck-mutation-0/run-x/…  → <tmp>/storecheck-mutation-0/run-x/…
 *   <home>/…                                     → ~/…
 */
import { homedir, tmpdir } from 'node:os';

/** Where scratch folders live: the OS's temp folder and the usual RAM and temp mounts. */
export function scratchRoots(): string[] {
  return [...new Set([tmpdir(), '/dev/shm', '/tmp', '/var/tmp'])];
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What ends a path in running text: the text's end, a space, a quote, a bracket, a separator. */
const ENDS = `$|[\\s"'\`),;\\]>|]`;
/** A folder's name is whole: a path goes on below it, or ends. */
const WHOLE = `(?=/|${ENDS})`;

/** Any project's StrykerJS sandbox, wherever the project was: everything up to and with `.stryker-tmp/sandbox-…/`. */
const SANDBOX = /(?:\/[^\s"'`/]+)*\/\.stryker-tmp\/sandbox-[^\s"'`/]+\//g;

/**
 * `text` with the paths of this machine rewritten as the header says:
 * deterministic (the same text and roots give the same result) and
 * idempotent (a rewritten text is left as it is).
 */
export function withoutMachinePaths(text: string, project: string, scratch: readonly string[] = scratchRoots(), home: string = homedir()): string {
  let out = text.replace(SANDBOX, '');
  const root = project.replace(/\/+$/, '');
  out = out.replace(new RegExp(`${escape(root)}/`, 'g'), '').replace(new RegExp(`${escape(root)}(?=${ENDS})`, 'g'), '.');
  // the longest first: /dev/shm/x is not rewritten as a home or temp path of a shorter root
  for (const s of [...scratch].map((x) => x.replace(/\/+$/, '')).filter(Boolean).sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(`${escape(s)}${WHOLE}`, 'g'), '<tmp>');
  }
  if (home && home !== '/') out = out.replace(new RegExp(`${escape(home.replace(/\/+$/, ''))}${WHOLE}`, 'g'), '~');
  return out;
}
