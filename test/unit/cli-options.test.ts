import { describe, expect, it } from 'vitest';
import { parseOptions, RUN_OPTIONS, UsageError } from '../../src/cli/options.js';
import { DEFAULT_CONCURRENCY, defaultWorkers, resolveConfig } from '../../src/cli.js';
import { onlyPattern } from '../../src/run/vitest.js';
import { mixSeed } from '../../src/check/check.js';
import { Ledger } from '../../src/client/ledger.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('option parsing', () => {
  it('reads --flag value, --flag=value and boolean flags; env fills the rest; flags win', () => {
    const { options } = parseOptions(['--base-url', 'https://a.example', '--depth=quick', '--read-only'], RUN_OPTIONS, { STORE_API_KEY: 'k', STORE_DEPTH: 'deep', STORE_SEED: '7' });
    expect(options).toMatchObject({ 'base-url': 'https://a.example', depth: 'quick', 'read-only': true, 'api-key': 'k', seed: 7 });
  });
  it('rejects unknown flags with a suggestion, bad integers, bad choices and missing values', () => {
    expect(() => parseOptions(['--base-ur', 'x'], RUN_OPTIONS, {})).toThrow(/unknown option --base-ur \(did you mean --base-url\?\)/);
    expect(() => parseOptions(['--seed', 'abc'], RUN_OPTIONS, {})).toThrow(/--seed must be an integer/);
    expect(() => parseOptions(['--depth', 'huge'], RUN_OPTIONS, {})).toThrow(/must be one of quick, standard, deep/);
    expect(() => parseOptions(['--report-dir'], RUN_OPTIONS, {})).toThrow(/needs a value/);
    expect(() => parseOptions([], RUN_OPTIONS, { STORE_READ_ONLY: 'maybe' })).toThrow(UsageError);
  });
  it('needs a key for an external target, a real URL and a sane shard', async () => {
    await expect(resolveConfig({ 'base-url': 'https://a.example' })).rejects.toThrow(/STORE_API_KEY/);
    await expect(resolveConfig({ 'base-url': 'not a url', 'api-key': 'k' })).rejects.toThrow(/not a URL/);
    await expect(resolveConfig({ shard: '3/2' })).rejects.toThrow(/--shard/);
    const cfg = await resolveConfig({});
    expect(cfg.embedded).toBe(true);
    expect(cfg.runTag).toMatch(/^sc[0-9a-f]{8}$/);
  });
  it('defaults: 24 requests in flight; a worker per core and one more, 2 to 4, never more than --concurrency', async () => {
    expect(DEFAULT_CONCURRENCY).toBe(24);
    expect([1, 2, 3, 8].map(defaultWorkers)).toEqual([2, 3, 4, 4]);
    expect((await resolveConfig({})).concurrency).toBe(24);
    expect((await resolveConfig({ concurrency: 2 })).workers).toBe(2);
    expect((await resolveConfig({ concurrency: 1 })).workers).toBe(1);
    expect((await resolveConfig({ workers: 7 })).workers).toBe(7);
  });
});

describe('--only patterns', () => {
  it('match check ids by glob, comma-separated', () => {
    const re = onlyPattern('product.*,*.filters.range.*');
    expect(re.test('product.filters.id — x')).toBe(true);
    expect(re.test('order.filters.range.totalprice_min — x')).toBe(true);
    expect(re.test('order.filters.array.status — x')).toBe(false);
    expect(onlyPattern('store.store.apikey-field').test('store.store.apikey-field — t')).toBe(true);
    expect(onlyPattern('store.store').test('store.store.apikey-field — t')).toBe(false);
  });
});

describe('seeds', () => {
  it('are stable per check id and differ between checks', () => {
    expect(mixSeed(42, 'a.b')).toBe(mixSeed(42, 'a.b'));
    expect(mixSeed(42, 'a.b')).not.toBe(mixSeed(42, 'a.c'));
    expect(mixSeed(42, 'a.b')).not.toBe(mixSeed(43, 'a.b'));
  });
});

describe('ledger', () => {
  it('appends created and deleted ids as JSON lines and rebuilds what is outstanding', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sc-ledger-'));
    const file = join(dir, 'ledger.jsonl');
    const l = new Ledger(file, 'sctest');
    l.recordCreated('product', ['A-1', 'A-2']);
    l.recordCreated('category', ['C-1']);
    l.recordDeleted('product', ['a-1']);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((x) => JSON.parse(x));
    expect(lines.map((x) => x.op)).toEqual(['created', 'created', 'deleted']);
    const back = Ledger.load([file]);
    expect(Object.fromEntries(back.outstanding())).toEqual({ product: ['a-2'], category: ['c-1'] });
    expect(() => Ledger.load([file + '.missing'])).not.toThrow();
  });
});

describe('-h, -V and their long forms', () => {
  it('print help or the version and exit 0', async () => {
    const { main } = await import('../../src/cli.js');
    const { TOOL_VERSION } = await import('../../src/version.js');
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    (process.stdout as { write: unknown }).write = (s: string) => (out.push(String(s)), true);
    try {
      for (const a of ['-V', '--version', 'version']) expect(await main([a])).toBe(0);
      for (const a of ['-h', '--help', 'help']) expect(await main([a])).toBe(0);
    } finally {
      (process.stdout as { write: unknown }).write = write;
    }
    expect(out.filter((l) => l.trim() === TOOL_VERSION)).toHaveLength(3);
    expect(out.filter((l) => l.includes('usage:'))).toHaveLength(3);
  });
});
