/**
 * Shared by the robustness meta-tests: a reference server started in the test
 * process (so its snapshot and stats are at hand; the CLI runs against it as an
 * external target with reference/cli-process.ts `against`), and the assertions
 * "the store is as it was" and "every bad outcome names its request".
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startReferenceServer, type ReferenceOptions, type ReferenceServer, type StoreSnapshot, type TransportFaults } from '../../reference/server.js';
import type { Report } from '../../src/report/types.js';

const API_KEY = 'robustness-key-0123456789abcdef';

export function target(transport: Partial<TransportFaults> = {}, extra: ReferenceOptions = {}): Promise<ReferenceServer> {
  return startReferenceServer({ apiKey: API_KEY, transport, ...extra });
}

/** Resource → ids, from a snapshot. */
export function idSets(s: StoreSnapshot): Record<string, Set<string>> {
  return Object.fromEntries(Object.entries(s.records).map(([r, recs]) => [r, new Set(recs.map((x) => String(x.id)))]));
}

/** Records of `after` whose id `before` does not have, by resource (only resources with some). */
export function added(before: StoreSnapshot, after: StoreSnapshot): Record<string, string[]> {
  const b = idSets(before);
  const out: Record<string, string[]> = {};
  for (const [r, recs] of Object.entries(after.records)) {
    const extra = recs.map((x) => String(x.id)).filter((id) => !b[r]?.has(id));
    if (extra.length) out[r] = extra;
  }
  return out;
}

/**
 * The store equals the snapshot taken before the run: no record the run
 * created remains (id sets per resource), none that existed is gone, and
 * every record that existed is unchanged (deep-equal), the store object too.
 */
export function expectRestored(before: StoreSnapshot, after: StoreSnapshot, context = '', report?: Pick<Report, 'cleanup' | 'run'>): void {
  const b = idSets(before);
  const a = idSets(after);
  const named = namedUnverified(before, after, report, context);
  for (const r of new Set([...Object.keys(b), ...Object.keys(a)])) {
    const left = [...(a[r] ?? [])].filter((id) => !b[r]?.has(id) && !named.has(id.toLowerCase()));
    const gone = [...(b[r] ?? [])].filter((id) => !a[r]?.has(id));
    expect(left, `${context}${r}: records the run created are still there`).toEqual([]);
    expect(gone, `${context}${r}: records that existed before the run are gone`).toEqual([]);
  }
  for (const [r, recs] of Object.entries(before.records)) {
    const now = new Map(after.records[r].map((x) => [String(x.id), x]));
    const changed = recs.filter((x) => JSON.stringify(now.get(String(x.id))) !== JSON.stringify(x)).map((x) => x.id);
    expect(changed, `${context}${r}: records that existed before the run were changed`).toEqual([]);
  }
  expect(after.store, `${context}the store object changed`).toEqual(before.store);
}

/**
 * Ids of `after`'s records the report's cleanup names as not verified: by id,
 * or (an unanswered create) by a run-tagged value the record carries. A record
 * the run could not prove its own (no usable read-back, a create whose answer
 * was cut and whose lookup failed too) is not deleted, and said so: honest.
 */
function namedUnverified(before: StoreSnapshot, after: StoreSnapshot, report: Pick<Report, 'cleanup' | 'run'> | undefined, context: string): Set<string> {
  const ids = new Set<string>();
  const cleanup = report?.cleanup;
  const existed = idSets(before);
  for (const u of cleanup?.unverified ?? []) {
    const held = existed[u.resource] ?? new Set<string>();
    for (const id of u.ids) {
      // naming a record the store held before the run would excuse touching it: never the run's to leave
      expect([...held].some((x) => x.toLowerCase() === id.toLowerCase()), `${context}${u.resource} ${id}: named not verified, but the store held it before the run`).toBe(false);
      ids.add(id.toLowerCase());
    }
    for (const value of u.values ?? []) {
      // a value names one record the run created: it carries the run's tag, and no two records left hold it
      // (the run tag alone, or a value many records share, would excuse anything)
      expect(value.startsWith(report!.run.runTag), `${context}${u.resource}: value ${JSON.stringify(value)} named not verified is not run-tagged`).toBe(true);
      const holding = (after.records[u.resource] ?? []).filter((x) => Object.values(x).some((v) => v === value));
      expect(holding.length, `${context}${u.resource}: value ${JSON.stringify(value)} named not verified is held by ${holding.length} records`).toBeLessThanOrEqual(1);
      for (const x of holding) ids.add(String(x.id).toLowerCase());
    }
  }
  // what the report counts as not verified is what it names
  if (cleanup) expect(ids.size, `${context}records named not verified on the store, against the report's count`).toBeLessThanOrEqual(cleanup.unverifiedCount ?? 0);
  return ids;
}

/** Every failed check and every target error names its request: evidence with method and URL of the target. */
export function expectEvidence(report: Report, baseUrl: string): void {
  for (const c of report.checks.filter((x) => x.status === 'failed' || x.status === 'error')) {
    expect(c.message, `${c.id}: no message`).toBeTruthy();
    expect(c.evidence?.length, `${c.id} (${c.status}: ${c.message}) names no request`).toBeGreaterThan(0);
    for (const ev of c.evidence!) {
      expect(ev.request.method).toBe('POST');
      expect(ev.request.url.startsWith(`${baseUrl}/api/`), `${c.id}: evidence URL ${ev.request.url}`).toBe(true);
    }
  }
}

/** One line per failed/errored check: what a failing assertion should print. */
export function describeBad(report: Report | undefined): string {
  if (!report) return '(no report.json)';
  return report.checks
    .filter((c) => c.status === 'failed' || c.status === 'error')
    .map((c) => `${c.status} ${c.id}: ${(c.message ?? '').slice(0, 240)} [${(c.evidence ?? []).map((e) => `${e.request.url.replace(/^https?:\/\/[^/]+/, '')} → ${e.response?.status ?? ''}${e.error ? ` ${e.error.slice(0, 60)}` : ''}`).join('; ')}]`)
    .join('\n');
}

/** Wait until the server has nothing in flight (requests of a killed client may still be sleeping in it). */
export async function settle(srv: ReferenceServer, maxMs = 10_000): Promise<void> {
  const until = Date.now() + maxMs;
  while (srv.stats.inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}

/** Ledger lines of a report dir. */
export function ledgerLines(dir: string): Array<{ op: string; resource: string; ids: string[] }> {
  const f = join(dir, 'ledger.jsonl');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A throwaway CA and a server certificate it signed for IP 127.0.0.1, made
 * with openssl at test time (nothing secret is checked in).
 */
export function makeCertificates(): { dir: string; caFile: string; cert: Buffer; key: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'storecheck-tls-'));
  const f = (n: string) => join(dir, n);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=storecheck test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout', f('ca.key'), '-out', f('ca.pem'));
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', f('key.pem'), '-out', f('server.csr'));
  writeFileSync(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  ssl('x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '1',
    '-extfile', f('ext.cnf'), '-out', f('cert.pem'));
  return { dir, caFile: f('ca.pem'), cert: readFileSync(f('cert.pem')), key: readFileSync(f('key.pem')) };
}
