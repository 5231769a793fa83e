/**
 * storecheck.config.json (src/cli/config-file.ts): its schema is the run
 * option table's (the committed schemas/config.schema.json must equal the one
 * generated from RUN_OPTIONS), flags > env > file > defaults, paths relative
 * to the file, the key never from a file, and every bad file a usage error
 * naming the file and the JSON pointer (or line and column) of the problem.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE_NAME, CONFIG_SCHEMA_FILE, configSchema, fileOptions, loadConfigFile, withConfigFile } from '../../src/cli/config-file.js';
import { parseOptions, RUN_OPTIONS, UsageError } from '../../src/cli/options.js';
import { resolveConfig } from '../../src/cli.js';

function dirWith(config: unknown, name = CONFIG_FILE_NAME): string {
  const dir = mkdtempSync(join(tmpdir(), 'sc-config-'));
  writeFileSync(join(dir, name), typeof config === 'string' ? config : JSON.stringify(config));
  return dir;
}

describe('schemas/config.schema.json', () => {
  it('is the schema generated from the run option table (regenerate: npx tsx scripts/config-schema.ts)', () => {
    expect(JSON.parse(readFileSync(CONFIG_SCHEMA_FILE, 'utf8'))).toEqual(configSchema());
  });

  it('has one property per run option a file may set, typed as the flag parses it', () => {
    const props = configSchema().properties as Record<string, { type?: string; enum?: string[]; minimum?: number }>;
    for (const s of fileOptions()) {
      const p = props[s.flag];
      expect(p, s.flag).toBeDefined();
      expect(p.type).toBe({ flag: 'boolean', int: 'integer', string: 'string', list: 'array' }[s.kind]);
      if (s.choices) expect(p.enum).toEqual(s.choices);
      if (s.min !== undefined) expect(p.minimum).toBe(s.min);
    }
    // not in a file: the key (named, so the error is clear), per-invocation switches, help
    for (const flag of ['replay', 'config', 'help', 'version']) expect(props[flag], flag).toBeUndefined();
    expect(props['api-key']).toMatchObject({ not: {} });
    expect(fileOptions().map((s) => s.flag)).toEqual(expect.arrayContaining(['depth', 'expect', 'baseline', 'min-coverage', 'max-rps', 'concurrency', 'deadline-s']));
  });
});

describe('a config file', () => {
  it('fills what flags and env leave out: flags > env > file > defaults; paths are relative to the file', async () => {
    const dir = dirWith({ $schema: '../schemas/config.schema.json', depth: 'quick', 'min-coverage': 90, concurrency: 4, 'read-only': true, expect: 'expect.json', 'report-dir': 'out' });
    const fromFile = withConfigFile(parseOptions([], RUN_OPTIONS, {}).options, dir);
    expect(fromFile).toMatchObject({ depth: 'quick', 'min-coverage': 90, concurrency: 4, 'read-only': true, expect: join(dir, 'expect.json'), 'report-dir': join(dir, 'out') });
    const envWins = withConfigFile(parseOptions([], RUN_OPTIONS, { STORE_DEPTH: 'deep' }).options, dir);
    expect(envWins.depth).toBe('deep');
    const flagWins = withConfigFile(parseOptions(['--depth', 'standard'], RUN_OPTIONS, { STORE_DEPTH: 'deep' }).options, dir);
    expect(flagWins.depth).toBe('standard');
    const config = await resolveConfig(fromFile);
    expect(config).toMatchObject({ depth: 'quick', minCoverage: 90, concurrency: 4, readOnly: true, reportDir: join(dir, 'out') });
  });

  it('--config FILE (or STORE_CONFIG) names another file; none at all is fine', () => {
    const dir = dirWith({ seed: 42 }, 'ci.json');
    expect(withConfigFile(parseOptions(['--config', 'ci.json'], RUN_OPTIONS, {}).options, dir).seed).toBe(42);
    expect(withConfigFile(parseOptions([], RUN_OPTIONS, { STORE_CONFIG: join(dir, 'ci.json') }).options, '/').seed).toBe(42);
    const empty = mkdtempSync(join(tmpdir(), 'sc-config-'));
    expect(withConfigFile({}, empty)).toEqual({});
    expect(() => withConfigFile({ config: 'missing.json' }, empty)).toThrow(/config file .*missing\.json: cannot read it \(no such file\)/);
  });

  it('never holds the API key', () => {
    expect(() => loadConfigFile(join(dirWith({ depth: 'quick', 'api-key': 'secret' }), CONFIG_FILE_NAME))).toThrow(/\/api-key: the API key is never read from a file.*STORE_API_KEY/);
  });

  it('a bad file is a usage error with the file and the JSON pointer (or line and column) of the problem', () => {
    const bad = (content: unknown) => {
      const file = join(dirWith(content), CONFIG_FILE_NAME);
      try {
        loadConfigFile(file);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        const message = (e as Error).message;
        expect(message.startsWith(`config file ${file}: `)).toBe(true);
        expect(message).not.toMatch(/\n/);
        return message.slice(`config file ${file}: `.length);
      }
      throw new Error('accepted');
    };
    expect(bad({ depth: 'huge' })).toBe('/depth: must be one of quick, standard, deep (got "huge")');
    expect(bad({ 'min-coverage': -1 })).toBe('/min-coverage: must be at least 0 (got -1)');
    expect(bad({ concurrency: '4' })).toBe('/concurrency: must be an integer (got "4")');
    expect(bad({ quiet: 'yes' })).toBe('/quiet: must be true or false (got "yes")');
    expect(bad({ minCoverage: 90 })).toBe('/minCoverage: not a run option (did you mean "min-coverage"?)');
    expect(bad({ 'report-dir': 'x', dept: 'quick', replay: '1:0' })).toMatch(/^\/dept: not a run option \(did you mean "depth"\?\) \(and 1 more problem\(s\)\)$/);
    expect(bad([1])).toBe('(the top level): must be an object');
    expect(bad('{\n  "depth": "quick",\n}\n')).toMatch(/^not JSON \(.* at line 3, column 1\)$/);
    const folder = mkdtempSync(join(tmpdir(), 'sc-config-'));
    mkdirSync(join(folder, 'dir.json'));
    expect(() => loadConfigFile(join(folder, 'dir.json'))).toThrow(/cannot read it \(a folder, not a file\)/);
  });
});
