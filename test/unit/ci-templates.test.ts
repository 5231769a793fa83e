/**
 * The CI templates (docs/ci/*.yml) run commands this CLI really has: every `storecheck …`,
 * `npx storecheck …` and `npm run conformance -- …` names an existing command with only flags its
 * exported option table knows (a renamed flag breaks this test), the key comes from a secret through
 * STORE_API_KEY and never as a flag, and what each job uploads or downloads is where the commands
 * write and read: shard report folders → artefacts → the merge command → the merged HTML report
 * and JUnit file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMANDS as NAMES, loadCommand } from '../../src/cli.js';
import { RUN_OPTIONS, type OptionSpec } from '../../src/cli/options.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** every command the CLI dispatches, with the option table its module exports (RUN_OPTIONS for run) */
const COMMANDS: Record<string, OptionSpec[]> = Object.fromEntries(
  await Promise.all(NAMES.map(async (name) => [name, (await loadCommand(name))!.OPTIONS] as const)),
);
/** every environment variable some command reads */
const KNOWN_ENV = new Set(Object.values(COMMANDS).flatMap((specs) => specs.map((s) => s.env).filter((e): e is string => !!e)));

/** One storecheck command line of a template, checked against the command's option table. */
interface Invocation {
  command: string;
  options: Map<string, string | true>;
  positional: string[];
  line: string;
  /** what the CLI would refuse: an unknown command or option, a missing or wrong value */
  errors: string[];
}

/** `${{ matrix.shard }}` → `${{matrix.shard}}`: a GitHub expression is one word. */
const compact = (s: string) => s.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, e: string) => `\${{${e.replace(/\s+/g, '')}}}`);
const norm = (p: string) => compact(String(p)).replace(/^\.\//, '').replace(/\/+$/, '');

/** Shell words of one simple command (quotes removed; variables left as written). */
function words(segment: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | undefined;
  let any = false;
  for (const ch of segment) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      any = true;
    } else if (/\s/.test(ch)) {
      if (cur || any) out.push(cur);
      cur = '';
      any = false;
    } else cur += ch;
  }
  if (cur || any) out.push(cur);
  return out;
}

/** The storecheck invocations of a script (a run: block or a script: list), parsed and validated. */
function invocations(script: string | string[]): Invocation[] {
  const text = compact(Array.isArray(script) ? script.join('\n') : script).replace(/\\\n/g, ' ');
  const found: Invocation[] = [];
  for (const line of text.split('\n')) {
    for (const segment of line.replace(/#.*$/, '').split(/&&|\|\||;|\|/)) {
      const w = words(segment.trim());
      let args: string[] | undefined;
      const at = w.findIndex((x) => x === 'storecheck' || /^storecheck@/.test(x) || x.endsWith('bin/storecheck.mjs'));
      if (at !== -1 && (at === 0 || ['npx', 'node', 'exec'].includes(w[at - 1]) || w[at - 1].startsWith('-'))) args = w.slice(at + 1);
      const npmRun = w.findIndex((x, i) => x === 'npm' && w[i + 1] === 'run' && w[i + 2] === 'conformance');
      if (npmRun !== -1) args = w[npmRun + 3] === '--' ? w.slice(npmRun + 4) : w.slice(npmRun + 3);
      if (args) found.push(check(args, segment.trim()));
    }
  }
  return found;
}

function check(args: string[], line: string): Invocation {
  const command = args[0] !== undefined && !args[0].startsWith('-') ? args[0] : 'run';
  const options = new Map<string, string | true>();
  const positional: string[] = [];
  const errors: string[] = [];
  const specs = COMMANDS[command];
  if (!specs) return { command, options, positional, line, errors: [`"${line}": unknown command ${command}`] };
  const rest = args[0] === command ? args.slice(1) : args;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith('-')) {
      positional.push(a);
      continue;
    }
    const long = a.startsWith('--');
    const name = long ? a.slice(2).split('=')[0] : a.slice(1);
    const spec = specs.find((s) => (long ? s.flag === name : s.short === name));
    if (!spec) {
      errors.push(`"${line}": ${command} has no option ${a.split('=')[0]}`);
      continue;
    }
    let value: string | true = true;
    if (spec.kind !== 'flag') {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : rest[++i];
      if (v === undefined) errors.push(`"${line}": ${a} needs a value`);
      else if (spec.choices && !v.includes('$') && !spec.choices.includes(v)) errors.push(`"${line}": ${a} must be one of ${spec.choices.join(', ')}, not ${v}`);
      value = v ?? '';
    }
    options.set(spec.flag, value);
  }
  if (command === 'run' && positional.length) errors.push(`"${line}": a run takes no arguments, got ${positional.join(' ')}`);
  return { command, options, positional, line, errors };
}

const globRe = (glob: string) => new RegExp(`^${glob.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);

/** STORE_* keys of every env:/variables: block, anywhere in a parsed template */
function storeEnvKeys(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => storeEnvKeys(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if ((k === 'env' || k === 'variables') && v && typeof v === 'object') for (const key of Object.keys(v)) if (/^STORE/.test(key)) out.add(key);
      storeEnvKeys(v, out);
    }
  }
  return out;
}

const read = (name: string) => readFileSync(join(ROOT, 'docs', 'ci', name), 'utf8');

describe('docs/ci/github-actions.yml', () => {
  const text = read('github-actions.yml');
  const wf = parse(text) as { env?: Record<string, string>; jobs: Record<string, any> };
  const jobs = Object.entries(wf.jobs);
  const stepsRun = (job: any) => (job.steps as any[]).filter((s) => s.run).flatMap((s) => invocations(s.run).map((inv) => ({ inv, step: s })));
  const all = jobs.flatMap(([, j]) => stepsRun(j).map((x) => x.inv));

  it('runs only commands and flags the CLI has, and the key never as a flag', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all.flatMap((i) => i.errors)).toEqual([]);
    for (const inv of all) expect(inv.options.has('api-key'), inv.line).toBe(false);
    expect([...storeEnvKeys(wf)].filter((k) => !KNOWN_ENV.has(k))).toEqual([]);
    // the key: from a secret, in the environment of the step that runs against the target
    expect(text.match(/secrets\.\w+/g)).toEqual(['secrets.STORE_API_KEY']);
    const shardStep = jobs.flatMap(([, j]) => stepsRun(j)).find((x) => x.inv.options.has('shard'));
    expect(compact(shardStep?.step.env?.STORE_API_KEY ?? '')).toBe('${{secrets.STORE_API_KEY}}');
  });

  const [shardName, shardJob] = jobs.find(([, j]) => stepsRun(j).some((x) => x.inv.options.has('shard')))!;
  const shardRun = stepsRun(shardJob).find((x) => x.inv.options.has('shard'))!.inv;
  const matrix = shardJob.strategy.matrix as Record<string, unknown[]>;
  const [mergeName, mergeJob] = jobs.find(([, j]) => stepsRun(j).some((x) => x.inv.command === 'merge'))!;
  const mergeRun = stepsRun(mergeJob).find((x) => x.inv.command === 'merge')!.inv;
  const uses = (job: any, action: string) => (job.steps as any[]).filter((s) => String(s.uses ?? '').startsWith(action));

  it('shards with a matrix: --shard <matrix value>/<total>, every shard exactly once', () => {
    const m = /^\$\{\{matrix\.([\w-]+)\}\}\/(?:\$\{\{strategy\.job-total\}\}|([0-9]+))$/.exec(String(shardRun.options.get('shard')));
    expect(m, `--shard ${shardRun.options.get('shard')}`).not.toBeNull();
    const values = matrix[m![1]].map(Number);
    expect(values).toEqual(values.map((_, i) => i + 1));
    if (m![2]) expect(Number(m![2])).toBe(values.length);
    expect(shardJob.strategy['fail-fast']).toBe(false);
  });

  it("each shard uploads its --report-dir; the merge job downloads them all and merges what it downloaded", () => {
    const key = Object.keys(matrix)[0];
    const at = (s: string, v: unknown) => s.replaceAll(`\${{matrix.${key}}}`, String(v));
    const reportDir = norm(String(shardRun.options.get('report-dir')));
    const upload = uses(shardJob, 'actions/upload-artifact').find((s) => norm(s.with.path) === reportDir);
    expect(upload, `no upload of ${reportDir}`).toBeDefined();
    expect(String(upload.if ?? '')).toMatch(/always\(\)|!cancelled\(\)/);
    expect([mergeJob.needs].flat()).toContain(shardName);
    expect(String(mergeJob.if ?? '')).toMatch(/always\(\)|!cancelled\(\)/);
    const download = uses(mergeJob, 'actions/download-artifact')[0];
    expect(download, 'the merge job downloads the shards').toBeDefined();
    for (const v of matrix[key]) {
      const name = at(compact(upload.with.name), v);
      expect(name).toMatch(globRe(download.with.pattern ?? name));
      // download-artifact puts each artefact of a pattern in <path>/<name>/
      const where = `${norm(download.with.path ?? '.')}/${name}`;
      expect(mergeRun.positional.some((g) => globRe(norm(g)).test(where)), `merge does not read ${where}`).toBe(true);
    }
  });

  it('the merged report folder is the artefact, its junit.xml the test report', () => {
    const merged = norm(String(mergeRun.options.get('report-dir')));
    expect(uses(mergeJob, 'actions/upload-artifact').some((s) => [merged, `${merged}/report.html`].includes(norm(s.with.path)))).toBe(true);
    const junit = (mergeJob.steps as any[]).find((s) => /junit/i.test(JSON.stringify(s.with ?? {})) && /test-reporter|junit/i.test(String(s.uses)));
    expect(junit, 'a JUnit reporter step').toBeDefined();
    expect(norm(junit.with.path)).toBe(`${merged}/junit.xml`);
    expect(mergeJob.permissions?.checks).toBe('write');
    expect(mergeName).toBeTruthy();
  });
});

describe('docs/ci/gitlab-ci.yml', () => {
  const text = read('gitlab-ci.yml');
  const ci = parse(text) as Record<string, any>;
  const jobs = Object.entries(ci).filter(([, j]) => j && typeof j === 'object' && 'script' in j);
  const scripts = (job: any) => [ci.default?.before_script, job.before_script, job.script].filter(Boolean).flat() as string[];
  const runs = (job: any) => invocations(scripts(job));
  const all = jobs.flatMap(([, j]) => runs(j));

  it('runs only commands and flags the CLI has, and the key never as a flag nor in the file', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all.flatMap((i) => i.errors)).toEqual([]);
    for (const inv of all) expect(inv.options.has('api-key'), inv.line).toBe(false);
    expect([...storeEnvKeys(ci)].filter((k) => !KNOWN_ENV.has(k))).toEqual([]);
    // a masked CI/CD variable: never a value in the file
    expect(storeEnvKeys(ci).has('STORE_API_KEY')).toBe(false);
  });

  const [shardName, shardJob] = jobs.find(([, j]) => runs(j).some((i) => i.options.has('shard')))!;
  const shardRun = runs(shardJob).find((i) => i.options.has('shard'))!;
  const mergeJob = jobs.find(([, j]) => runs(j).some((i) => i.command === 'merge'))![1];
  const mergeRun = runs(mergeJob).find((i) => i.command === 'merge')!;
  const node = (s: string, i: number) => s.replace(/\$\{CI_NODE_INDEX\}|\$CI_NODE_INDEX\b/g, String(i));

  it('parallel: N with --shard ${CI_NODE_INDEX}/${CI_NODE_TOTAL}', () => {
    expect(Number.isInteger(shardJob.parallel) && shardJob.parallel >= 2).toBe(true);
    expect(String(shardRun.options.get('shard'))).toMatch(/^\$\{?CI_NODE_INDEX\}?\/\$\{?CI_NODE_TOTAL\}?$/);
  });

  it('each shard keeps its --report-dir as an artefact (also when it failed); merge needs them all and reads them', () => {
    const reportDir = norm(String(shardRun.options.get('report-dir')));
    expect(reportDir).toMatch(/CI_NODE_INDEX/);
    expect((shardJob.artifacts.paths as string[]).map(norm)).toContain(reportDir);
    expect(shardJob.artifacts.when).toBe('always');
    expect((mergeJob.needs as any[]).map((n) => (typeof n === 'string' ? n : n.job))).toContain(shardName);
    expect(mergeJob.when).toBe('always');
    for (let i = 1; i <= shardJob.parallel; i++) {
      const where = node(reportDir, i);
      expect(mergeRun.positional.some((g) => globRe(norm(g)).test(where)), `merge does not read ${where}`).toBe(true);
    }
  });

  it('the merged report folder is the artefact, its junit.xml the JUnit report', () => {
    const merged = norm(String(mergeRun.options.get('report-dir')));
    expect((mergeJob.artifacts.paths as string[]).map(norm)).toContain(merged);
    expect(norm(mergeJob.artifacts.reports.junit)).toBe(`${merged}/junit.xml`);
    expect(mergeJob.artifacts.when).toBe('always');
  });
});

describe('the template checker', () => {
  it('knows every command by its exported option table', () => {
    expect(COMMANDS.run).toBe(RUN_OPTIONS);
    expect(Object.keys(COMMANDS)).toEqual(expect.arrayContaining(['run', 'merge', 'sweep']));
    for (const [name, specs] of Object.entries(COMMANDS)) expect(specs.length, name).toBeGreaterThan(0);
  });
  it('rejects an unknown flag, an unknown command and a flag of another command', () => {
    const errors = (script: string) => invocations(script).flatMap((i) => i.errors).join('\n');
    expect(errors('npx storecheck --shard 1/2 --reportdir reports/x')).toMatch(/run has no option --reportdir/);
    expect(errors('npx storecheck combine reports/a')).toMatch(/unknown command combine/);
    expect(errors('storecheck merge reports/a --shard 1/2')).toMatch(/merge has no option --shard/);
    expect(errors('npm run conformance -- --depth huge')).toMatch(/--depth must be one of/);
    expect(errors('npx storecheck --report-dir')).toMatch(/needs a value/);
    expect(errors('npx storecheck run --depth quick extra')).toMatch(/takes no arguments/);
    expect(errors('npx storecheck --shard 1/2 --report-dir reports/x && npx storecheck merge reports/* --report-dir out')).toBe('');
  });
  it('reads all three spellings, continuation lines, quotes and expressions', () => {
    const found = invocations('npm ci && npx storecheck --shard ${{ matrix.shard }}/3 \\\n  --report-dir "reports/shard-${{ matrix.shard }}"\nnpm run conformance -- --depth quick\nstorecheck merge reports/shard-* --report-dir=reports/merged');
    expect(found.map((f) => [f.command, Object.fromEntries(f.options), f.positional])).toEqual([
      ['run', { shard: '${{matrix.shard}}/3', 'report-dir': 'reports/shard-${{matrix.shard}}' }, []],
      ['run', { depth: 'quick' }, []],
      ['merge', { 'report-dir': 'reports/merged' }, ['reports/shard-*']],
    ]);
  });
});
