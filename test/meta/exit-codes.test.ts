/**
 * The CLI contract users' CI depends on: exit codes 0/1/2/3, each with a
 * one-line reason on stderr, and never a bare stack trace.
 */
import { createServer } from 'node:net';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../reference/server.js';
import { runStorecheck } from '../../reference/cli-process.js';
import { claimReportDir } from '../../src/files.js';

let ref: ReferenceServer;
beforeAll(async () => {
  ref = await startReferenceServer({ apiKey: 'exit-codes-key-0001' });
});
afterAll(async () => ref?.close());

const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe('exit codes', () => {
  it('0: conformant (embedded reference server, store checks)', async () => {
    const r = await runStorecheck(['--only', 'store.*', '--depth', 'quick']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.report?.summary.verdict).toBe('conformant');
    // the target's answer times: the store get answered the preflight, the probes and the checks (main process and workers)
    const get = r.report!.latency!.byOperation.get;
    expect(get.count).toBeGreaterThan(1);
    expect(get.count).toBeLessThanOrEqual(r.report!.run.requestCount);
    expect(get.medianMs).toBeLessThanOrEqual(get.p95Ms);
    expect(get.p95Ms).toBeLessThanOrEqual(get.maxMs);
    expect(r.report!.latency!.byEndpoint['/api/v1/store/get'].count).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/^latency \(median \/ p95 \/ max, answers\): get /m);
  });

  it('1: non-conformant, with the failing check named on stderr', async () => {
    const r = await runStorecheck(['--only', 'store.*', '--depth', 'quick', '--reference-faults', 'store-without-apikey']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/non-conformant/);
    expect(r.stderr).toMatch(/store\.store\.apikey-field/);
  });

  it('2: unknown flag, missing key for an external target, unreadable --expect, rejected key', async () => {
    const unknown = await runStorecheck(['--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option --bogus/);
    noStack(unknown.stderr);
    const noKey = await runStorecheck(['--base-url', ref.url]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/STORE_API_KEY/);
    const dir = mkdtempSync(join(tmpdir(), 'sc-exp-'));
    writeFileSync(join(dir, 'bad.json'), '{ not json');
    const badExpect = await runStorecheck(['--base-url', ref.url, '--expect', join(dir, 'bad.json')], { env: { STORE_API_KEY: ref.apiKey } });
    expect(badExpect.code).toBe(2);
    expect(badExpect.stderr).toMatch(/bad\.json/);
    noStack(badExpect.stderr);
    const wrongKey = await runStorecheck(['--base-url', ref.url, '--only', 'store.*'], { env: { STORE_API_KEY: 'not-the-key' } });
    expect(wrongKey.code).toBe(2);
    expect(wrongKey.stderr).toMatch(/rejected the API key/);
    expect(wrongKey.stderr).not.toContain('not-the-key');
  });

  it('2: --only matching no check names the closest ids; an unusable --report-dir; neither leaves a folder', async () => {
    const base = mkdtempSync(join(tmpdir(), 'sc-usage-'));
    const typo = await runStorecheck(['--only', 'product.filter.rnge.price', '--report-dir', join(base, 'a')]);
    expect(typo.code, typo.stderr).toBe(2);
    expect(typo.stderr).toMatch(/matches no check.*closest ids: product\.filters\.range\.price/);
    noStack(typo.stderr);
    writeFileSync(join(base, 'file'), 'x');
    const underFile = await runStorecheck(['--only', 'store.*', '--report-dir', join(base, 'file', 'sub')]);
    expect(underFile.code, underFile.stderr).toBe(2);
    expect(underFile.stderr).toMatch(/--report-dir .*a part of the path is a file/);
    noStack(underFile.stderr);
    expect(readdirSync(base)).toEqual(['file']);
  });

  it('2: a --report-dir holding another tool\'s files is refused untouched; a folder storecheck made is reused, only its own files replaced', async () => {
    const foreign = mkdtempSync(join(tmpdir(), 'sc-foreign-'));
    mkdirSync(join(foreign, 'allure-results'));
    writeFileSync(join(foreign, 'allure-results', 'other-tool.json'), 'theirs');
    writeFileSync(join(foreign, 'report.md'), 'theirs');
    const refused = await runStorecheck(['--only', 'store.*', '--depth', 'quick', '--report-dir', foreign]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`the folder ${foreign} already holds files storecheck did not write`);
    expect(readFileSync(join(foreign, 'report.md'), 'utf8')).toBe('theirs');
    expect(readdirSync(join(foreign, 'allure-results'))).toEqual(['other-tool.json']);
    // a folder an earlier run made: its allure results go, another tool's file among them stays
    const ours = mkdtempSync(join(tmpdir(), 'sc-ours-'));
    claimReportDir(ours);
    mkdirSync(join(ours, 'allure-results'));
    const earlier = '0eed3f36-c48f-41f2-91d6-2c654e8d9eab-result.json';
    for (const f of [earlier, 'environment.properties']) writeFileSync(join(ours, 'allure-results', f), 'earlier');
    const reused = await runStorecheck(['--only', 'store.*', '--depth', 'quick', '--report-dir', ours]);
    expect(reused.code, reused.stderr).toBe(0);
    const allure = readdirSync(join(ours, 'allure-results'));
    expect(allure).not.toContain(earlier);
    expect(allure).toContain('environment.properties');
    expect(allure.filter((f) => f.endsWith('-result.json')).length).toBeGreaterThan(0);
  });

  it('3: a web page, a redirect or a 404 instead of the API: no verdict at the preflight, with a hint, in few requests', async () => {
    let requests = 0;
    const answers: Record<string, (res: ServerResponse) => void> = {
      html: (res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html><body>Welcome</body></html>'); },
      redirect: (res) => { res.writeHead(302, { location: 'https://elsewhere.example/api' }); res.end(); },
      missing: (res) => { res.writeHead(404, { 'content-type': 'application/json' }); res.end('{"error":"no such path"}'); },
      notImplemented: (res) => { res.writeHead(501, { 'content-type': 'text/html' }); res.end('<html><body>Not Implemented</body></html>'); },
    };
    let mode = 'html';
    const srv = createHttpServer((_req, res) => { requests++; answers[mode](res); });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
    try {
      for (const [m, hint] of [
        ['html', /answered an HTML page: is --base-url the API root\?/],
        ['redirect', /redirect \(HTTP 302 to https:\/\/elsewhere\.example\/api\); storecheck never follows one/],
        ['missing', /answered 404: is --base-url the API root/],
        ['notImplemented', /HTTP 501 on store get .*501 Not Implemented: is --base-url the API root/],
      ] as const) {
        mode = m;
        requests = 0;
        const r = await runStorecheck(['--base-url', url], { env: { STORE_API_KEY: 'k-wrong-target' } });
        expect(r.code, `${m}: ${r.stderr}`).toBe(3);
        expect(r.stderr).toMatch(hint);
        // a preflight stop says where its reports went
        expect(r.stderr, m).toContain(`reports: ${join(r.reportDir, 'report.json')}`);
        expect(requests, m).toBeLessThan(20);
        expect(r.report?.summary.verdict, m).toBe('no-verdict');
        expect(readFileSync(join(r.reportDir, 'junit.xml'), 'utf8'), m).toMatch(/errors="1"/);
        noStack(r.stderr);
      }
    } finally {
      srv.close();
    }
  });

  it('3: an unreachable target gives no verdict', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    // its timeout from a config file, which the terminal names
    const config = join(mkdtempSync(join(tmpdir(), 'sc-config-')), 'ci.storecheck.json');
    writeFileSync(config, JSON.stringify({ 'timeout-ms': 1000 }));
    const r = await runStorecheck(['--base-url', `http://127.0.0.1:${port}`, '--config', config], { env: { STORE_API_KEY: 'k-unreachable' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/cannot reach/);
    expect(r.stderr).toContain(`options from ${config} (flags and environment variables win over it)`);
    noStack(r.stderr);
    // the CI artefacts agree: report.json says no verdict and why, junit.xml holds one errored testcase
    expect(r.report?.summary.verdict).toBe('no-verdict');
    expect(r.report?.summary.reason).toMatch(/stopped at the preflight: cannot reach/);
    const junit = readFileSync(join(r.reportDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites name="storecheck" tests="1" failures="0" errors="1"/);
    expect(junit).toMatch(/<error message="stopped at the preflight: cannot reach/);
  });
});
