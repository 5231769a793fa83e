/**
 * HTTPS with a certificate the system does not trust (a CA and a server
 * certificate made with openssl at test time), against a reference server
 * started here:
 * - without --insecure: no verdict (exit 3) with a line that says TLS, why, and
 *   what to do — and nothing was written;
 * - with --insecure: the run works (preflight, probes, checks in the workers,
 *   cleanup all over TLS);
 * - with NODE_EXTRA_CA_CERTS naming the CA and no --insecure: it works too.
 *
 * Subset: collection lifecycle — creates, updates and deletes over TLS in the
 * workers and the cleanup client, which is what must honour the TLS settings;
 * the probes use the main process's client. The rest of the suite adds checks,
 * not TLS paths.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../reference/server.js';
import { runStorecheck } from '../../reference/cli-process.js';
import { describeBad, expectRestored, hasOpenssl, makeCertificates, settle, target } from './robustness-helpers.js';

const ONLY = 'collection.lifecycle.*';

describe.skipIf(!hasOpenssl())('HTTPS with a self-made CA', () => {
  let certs: ReturnType<typeof makeCertificates>;
  let srv: ReferenceServer;
  beforeAll(async () => {
    certs = makeCertificates();
    srv = await target({}, { tls: { cert: certs.cert, key: certs.key } });
  });
  afterAll(async () => {
    await srv?.close();
    if (certs) rmSync(certs.dir, { recursive: true, force: true });
  });

  it('without --insecure: exit 3 with a clear TLS message, nothing sent past the handshake', async () => {
    const before = srv.snapshot();
    srv.stats.reset();
    const r = await runStorecheck(['--depth', 'quick', '--quiet', '--only', ONLY], { against: srv, timeoutMs: 240_000 });
    console.info(`[robustness] TLS untrusted: exit ${r.code} in ${(r.ms / 1000).toFixed(1)} s · ${r.stderr.trim().split('\n').pop()}`);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/storecheck: no verdict: cannot reach https:\/\/127\.0\.0\.1:\d+: TLS: the target's certificate is not trusted \(.+\); give its CA with NODE_EXTRA_CA_CERTS=<ca\.pem>, or accept it with --insecure \([A-Z_]+\)/);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(srv.stats.total, 'a request got past the TLS handshake').toBe(0);
    expectRestored(before, srv.snapshot());
  });

  it('with --insecure: the run works', async () => {
    const before = srv.snapshot();
    const r = await runStorecheck(['--depth', 'quick', '--quiet', '--only', ONLY, '--insecure'], { against: srv, timeoutMs: 240_000 });
    console.info(`[robustness] TLS --insecure: exit ${r.code} in ${(r.ms / 1000).toFixed(1)} s`);
    expect(r.code, `${r.stderr.slice(-2000)}\n${describeBad(r.report)}`).toBe(0);
    expect(r.report!.summary.passed).toBeGreaterThan(0);
    expect(r.report!.cleanup?.leftBehind).toEqual([]);
    await settle(srv);
    expectRestored(before, srv.snapshot());
  });

  it('with NODE_EXTRA_CA_CERTS naming the CA (no --insecure): the run works', async () => {
    const before = srv.snapshot();
    const r = await runStorecheck(['--depth', 'quick', '--quiet', '--only', ONLY], { against: srv, timeoutMs: 240_000, env: { NODE_EXTRA_CA_CERTS: certs.caFile } });
    console.info(`[robustness] TLS NODE_EXTRA_CA_CERTS: exit ${r.code} in ${(r.ms / 1000).toFixed(1)} s`);
    expect(r.code, `${r.stderr.slice(-2000)}\n${describeBad(r.report)}`).toBe(0);
    expect(r.report!.summary.passed).toBeGreaterThan(0);
    expect(r.report!.cleanup?.leftBehind).toEqual([]);
    await settle(srv);
    expectRestored(before, srv.snapshot());
  });
});
