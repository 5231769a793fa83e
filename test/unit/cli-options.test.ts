import { describe, expect, it } from 'vitest';
import { defaultWorkers, HELP_WIDTH, helpOrVersion, helpText, optionDefault, OPTION_GROUPS, parseOptions, RUN_OPTIONS, UsageError, wrap, type OptionSpec } from '../../src/cli/options.js';
import { parseReplay, resolveConfig } from '../../src/cli.js';
import { onlyPattern } from '../../src/items/select.js';
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
  it('every int option of the table has a range, and a value outside it is a usage error before anything runs (issue 22, defect 8)', async () => {
    const ints = RUN_OPTIONS.filter((o) => o.kind === 'int');
    expect(ints.map((o) => o.flag)).toEqual(expect.arrayContaining(['min-coverage', 'timeout-ms', 'concurrency', 'max-rps', 'workers', 'deadline-s', 'seed']));
    for (const o of ints) {
      expect([o.flag, typeof o.min, typeof o.max]).toEqual([o.flag, 'number', 'number']);
      expect(() => parseOptions([`--${o.flag}`, String(o.min! - 1)], RUN_OPTIONS, {})).toThrow(new RegExp(`--${o.flag} must be at least`));
      expect(() => parseOptions([`--${o.flag}`, String(o.max! + 1)], RUN_OPTIONS, {})).toThrow(new RegExp(`--${o.flag} must be at most ${o.max}, got`));
      expect(() => parseOptions([`--${o.flag}`, String(o.max)], RUN_OPTIONS, {})).not.toThrow();
      const env = o.env;
      if (env) expect(() => parseOptions([], RUN_OPTIONS, { [env]: String(o.max! + 1) })).toThrow(/must be at most/);
    }
    expect(() => parseOptions(['--min-coverage', '150'], RUN_OPTIONS, {})).toThrow('--min-coverage must be at most 100, got 150');
    const { main } = await import('../../src/cli.js');
    const err: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    (process.stderr as { write: unknown }).write = (s: string) => (err.push(String(s)), true);
    try {
      expect(await main(['--min-coverage', '150'])).toBe(2);
    } finally {
      (process.stderr as { write: unknown }).write = write;
    }
    expect(err.join('')).toMatch(/usage: --min-coverage must be at most 100/);
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
    expect(optionDefault('concurrency')).toBe(24);
    expect([1, 2, 3, 8].map(defaultWorkers)).toEqual([2, 3, 4, 4]);
    expect((await resolveConfig({})).concurrency).toBe(24);
    expect((await resolveConfig({ concurrency: 2 })).workers).toBe(2);
    expect((await resolveConfig({ concurrency: 1 })).workers).toBe(1);
    expect((await resolveConfig({ workers: 7 })).workers).toBe(7);
  });
  it('--shrink-s: the seconds one failing property may shrink, 0 for none', async () => {
    expect((await resolveConfig({ 'shrink-s': 0 })).shrinkMs).toBe(0);
    expect((await resolveConfig({ 'shrink-s': 15 })).shrinkMs).toBe(15_000);
  });
  it('says whether --workers was given (report.run.workers.by)', async () => {
    expect((await resolveConfig({})).workersGiven).toBeUndefined();
    expect((await resolveConfig({ workers: 2 })).workersGiven).toBe(true);
  });
  it('every default comes from the option table: resolved config, sweep and help agree with it', async () => {
    const cfg = await resolveConfig({});
    expect(cfg).toMatchObject({
      timeoutMs: optionDefault('timeout-ms'),
      visibilityTimeoutMs: optionDefault('visibility-timeout-ms'),
      maxAnswerBytes: (optionDefault('max-answer-mb') as number) * 1024 * 1024,
      depth: optionDefault('depth'),
      concurrency: optionDefault('concurrency'),
      maxRps: optionDefault('max-rps'),
      deadlineMs: (optionDefault('deadline-s') as number) * 1000,
      shrinkMs: (optionDefault('shrink-s') as number) * 1000,
    });
    const { OPTIONS: SWEEP } = await import('../../src/cli/sweep.js');
    for (const flag of ['base-url', 'api-key', 'timeout-ms', 'insecure']) {
      const { help, group, ...shared } = SWEEP.find((o) => o.flag === flag)!;
      expect(RUN_OPTIONS.find((o) => o.flag === flag), flag).toMatchObject(shared);
    }
    expect(helpText(RUN_OPTIONS)).toMatch(/per-request timeout \(default 15000\)/);
    expect(helpText(RUN_OPTIONS)).toMatch(/requests per second at most \(default 0 = unlimited\)/);
  });
  it('the resolved config is frozen, all the way down; the embedded server\'s URL is part of it', async () => {
    const started: unknown[] = [];
    const cfg = await resolveConfig({ 'reference-faults': 'a', replay: '5:0:1', seed: 3 }, async (o) => (started.push(o), 'http://127.0.0.1:1'));
    expect(cfg.baseUrl).toBe('http://127.0.0.1:1');
    expect(started).toEqual([expect.objectContaining({ apiKey: cfg.apiKey, referenceFaults: ['a'] })]);
    expect(Object.isFrozen(cfg) && Object.isFrozen(cfg.replay) && Object.isFrozen(cfg.referenceFaults)).toBe(true);
    // @ts-expect-error RunConfig is readonly: a later assignment is a type error…
    expect(() => { cfg.baseUrl = 'http://elsewhere'; }).toThrow(TypeError); // …and a TypeError at run time
    const external = await resolveConfig({ 'base-url': 'https://a.example', 'api-key': 'k' }, async () => 'http://never');
    expect(external.baseUrl).toBe('https://a.example');
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

describe('help of every command (issue 17)', () => {
  const commands = ['run', 'sweep', 'compare', 'merge', 'list', 'openapi'];

  async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    (process.stdout as { write: unknown }).write = (s: string) => (out.push(String(s)), true);
    try {
      return { code: await fn(), out: out.join('') };
    } finally {
      (process.stdout as { write: unknown }).write = write;
    }
  }

  it('the help calls the tool storecheck throughout, and says once how to call it through npm (issue 22, item 10)', async () => {
    const { USAGE } = await import('../../src/cli.js');
    const npm = USAGE.split('\n').filter((l) => l.includes('npm run conformance'));
    expect(npm).toHaveLength(1);
    expect(npm[0]).toMatch(/storecheck is `npm run conformance --`/);
    expect(USAGE).toMatch(/^ {2}storecheck \[run\] \[options\] /m);
  });

  it('every line of every command\'s help fits in 100 columns', async () => {
    const { loadCommand } = await import('../../src/cli.js');
    for (const name of commands) {
      const mod = (await loadCommand(name))!;
      const long = mod.HELP.split('\n').filter((l) => [...l].length > HELP_WIDTH);
      expect(long, `${name}: ${long[0]}`).toEqual([]);
      expect(mod.HELP.split('\n').length, name).toBeGreaterThan(2);
    }
  });

  it('-h, --help, -V and --version work for every command, before it judges its arguments', async () => {
    const { main, loadCommand } = await import('../../src/cli.js');
    const { TOOL_VERSION } = await import('../../src/version.js');
    for (const name of commands) {
      const { HELP } = (await loadCommand(name))!;
      for (const h of ['-h', '--help']) expect(await capture(() => main([name, h, '--no-such-flag']))).toEqual({ code: 0, out: HELP + '\n' });
      for (const v of ['-V', '--version']) expect(await capture(() => main([name, v]))).toEqual({ code: 0, out: TOOL_VERSION + '\n' });
    }
    expect((await capture(() => main(['help', 'sweep']))).out).toMatch(/^usage: storecheck sweep/);
    expect(await capture(() => main(['--depth', 'quick', '-h']))).toMatchObject({ code: 0, out: expect.stringMatching(/^storecheck .*\n\nusage:/) });
  });

  it('the value of an option is never taken for -h or -V', () => {
    expect(helpOrVersion(['--only', '-h'], RUN_OPTIONS)).toBeUndefined();
    expect(helpOrVersion(['--only=x', '-h'], RUN_OPTIONS)).toBe('help');
    expect(helpOrVersion(['--read-only', '-V', '--help'], RUN_OPTIONS)).toBe('version');
    expect(() => parseOptions(['-q'], RUN_OPTIONS, {})).toThrow(/unknown option -q/);
  });

  it('run options are listed under their group headings, each with its env var', () => {
    const help = helpText(RUN_OPTIONS);
    const headings = Object.values(OPTION_GROUPS).map((g) => help.indexOf(`\n${g}:\n`) + 1 || help.indexOf(`${g}:\n`));
    expect(headings.every((at) => at >= 0)).toBe(true);
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    for (const s of RUN_OPTIONS) {
      expect(help).toContain(`--${s.flag}`);
      if (s.env) expect(help).toContain(`[env ${s.env}]`);
      expect(s.group, s.flag).toBeDefined();
    }
    expect(wrap('aaa bbb ccc', 7, 2, 0)).toBe('aaa bbb\n  ccc');
  });

  it('every command exports its complete option table (flags a CI template may use)', async () => {
    const { loadCommand } = await import('../../src/cli.js');
    const flags = async (m: string) => ((await loadCommand(m))!.OPTIONS as OptionSpec[]).map((s) => s.flag);
    expect(await flags('sweep')).toEqual(expect.arrayContaining(['ledger', 'base-url', 'api-key', 'timeout-ms', 'insecure', 'dry-run', 'help', 'version']));
    expect(await flags('compare')).toEqual(expect.arrayContaining(['out', 'label-a', 'label-b', 'fail-on']));
    expect(await flags('merge')).toEqual(expect.arrayContaining(['report-dir']));
    expect(await flags('list')).toEqual(expect.arrayContaining(['only', 'items', 'json']));
    expect(RUN_OPTIONS.map((s) => s.flag)).toEqual(expect.arrayContaining(['keep-data', 'replay', 'config']));
    // --ledger repeats
    const { OPTIONS } = await import('../../src/cli/sweep.js');
    expect(parseOptions(['--ledger', 'a', '--ledger=b'], OPTIONS, {}).options.ledger).toEqual(['a', 'b']);
  });
});

describe('--replay, --keep-data and the embedded server in RunConfig', () => {
  it('--replay SEED:PATH as a reproducer gives it; anything else is a usage error', async () => {
    expect(parseReplay('-360694288:0')).toEqual({ seed: -360694288, path: '0' });
    expect(parseReplay('12:3:0:1')).toEqual({ seed: 12, path: '3:0:1' });
    // a model-based case: the commands' replay path (fast-check's encoding) after '@'
    expect(parseReplay('783236265:3:2:1@Bj:C')).toEqual({ seed: 783236265, path: '3:2:1@Bj:C' });
    for (const bad of ['', '12', '12:', 'x:0', '12:a', '12:0:', '99999999999:0', '1.5:0', '12:0@', '12:0@a b:c', '12:0@Bj']) expect(() => parseReplay(bad), bad).toThrow(/--replay must be SEED:PATH/);
    await expect(resolveConfig({ replay: '5:0' })).rejects.toThrow(/--replay needs the run's --seed/);
    expect((await resolveConfig({ replay: '5:0:1', seed: 3 })).replay).toEqual({ seed: 5, path: '0:1' });
  });

  it('--keep-data needs an external target; the embedded server\'s faults and variant are recorded', async () => {
    await expect(resolveConfig({ 'keep-data': true })).rejects.toThrow(/--keep-data needs --base-url/);
    expect((await resolveConfig({ 'keep-data': true, 'base-url': 'https://a.example', 'api-key': 'k' })).keepData).toBe(true);
    expect(await resolveConfig({ 'reference-faults': 'a, b', 'reference-variant': 'v' })).toMatchObject({ referenceFaults: ['a', 'b'], referenceVariant: 'v' });
  });
});

describe('storecheck list', () => {
  async function list(args: string[]): Promise<string> {
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    (process.stdout as { write: unknown }).write = (s: string) => (out.push(String(s)), true);
    (process.stderr as { write: unknown }).write = () => true;
    try {
      const { listCommand } = await import('../../src/cli/list.js');
      expect(await listCommand(args)).toBe(0);
    } finally {
      (process.stdout as { write: unknown }).write = write;
      (process.stderr as { write: unknown }).write = err;
    }
    return out.join('');
  }

  it('prints id, rule, section and level of the checks --only selects (the GLOB argument alike)', async () => {
    const text = await list(['--only', 'product.filters.range.price_*']);
    expect(text.trim().split('\n')).toEqual([
      expect.stringMatching(/^product\.filters\.range\.price_min +filters\.range +§4 Filter naming +must +2 items$/),
      expect.stringMatching(/^product\.filters\.range\.price_max +filters\.range +§4 Filter naming +must +2 items$/),
    ]);
    expect(await list(['product.filters.range.price_*'])).toBe(text);
  });

  it('--json: the same selection as a run; --items the spec items', async () => {
    const rows = JSON.parse(await list(['--only', 'store.*', '--json'])) as { id: string; rule: string; section: string; level: string }[];
    const { selectChecks } = await import('../../src/items/select.js');
    expect(rows.map((r) => r.id)).toEqual(selectChecks('store.*').map((c) => c.id));
    expect(rows[0]).toMatchObject({ rule: expect.any(String), section: expect.stringMatching(/^§/), level: expect.stringMatching(/^(must|quirk|observe)$/) });
    const items = JSON.parse(await list(['--items', '--json', '--only', 'product.filters.range.price_min#equal'])) as { id: string }[];
    expect(items.map((i) => i.id)).toEqual(['product.filters.range.price_min#equal']);
  });

  it('a pattern that selects nothing is a usage error naming the closest ids', async () => {
    const { listCommand } = await import('../../src/cli/list.js');
    await expect(listCommand(['--only', 'prodcut.filters.id'])).rejects.toThrow(/--only 'prodcut\.filters\.id' matches no check.*product\.filters\.id/);
  });
});
