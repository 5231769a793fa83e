/**
 * npm run mutation — how we know the suite works.
 *
 * Runs every proof of reference/prove.ts (the whole suite at quick depth with
 * a fixed seed against the embedded server: once per fault of
 * reference/faults.ts, once per benign variant of reference/variants.ts and
 * once against the default server), then the generated catalogue of local
 * faults (reference/faults-generated.ts) at three seeds (scripts/mutation-local.ts),
 * and writes reports/mutation.json and reports/mutation.md: per fault,
 * detected or not and by which checks; per variant, passed or not and the
 * observation mismatches; per local-fault family, caught / total, every
 * escape with its replay command; totals.
 *
 *   npm run mutation -- [--concurrency N] [--faults a,b|none] [--variants a,b|none]
 *                       [--local all|none|family,…] [--local-seeds N] [--out DIR] [--keep-reports]
 *   npm run mutation -- --merge DIR,DIR… [--base FILE] [--out DIR]   (one report of parts run apart: scripts/mutation-parts.ts)
 *
 * Exit 0 when every fault is caught (local faults: at every seed; those the
 * reference data cannot show are listed apart) and every honest server
 * passes, 1 otherwise.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { FAULTS } from '../reference/faults.js';
import { ROOT } from '../reference/cli-process.js';
import { defaultConcurrency, PROVE_SEED, proveAll, type FaultProof, type Proof, type VariantProof } from '../reference/prove.js';
import { RULES } from '../src/rules.js';
import { FAMILIES, localFaults } from '../reference/faults-generated.js';
import { localMarkdown, proveLocalCatalogue, type LocalSection } from './mutation-local.js';
import { isEmpty, mergeParts, notRun, type Part } from './mutation-parts.js';
import { withoutMachinePaths } from './machine-paths.js';
import { COMMON_OPTIONS, UsageError, commandHelp, helpOrVersion, parseOptions, withDefaults, type OptionSpec } from '../src/cli/options.js';

interface Args { timeoutS?: number; concurrency?: number; faults?: string[]; variants?: string[]; local: string[] | 'all' | 'none'; localSeeds: number; out: string; keep: boolean; merge?: string[]; base?: string }

/** The command's options: one table (src/cli/options.ts) drives parsing, the ranges and --help. */
const OPTIONS: OptionSpec[] = [
  { flag: 'concurrency', kind: 'int', arg: 'N', min: 1, max: 64, help: 'proofs run at once, each a whole storecheck run (default: the cores, at least 2; STORECHECK_PROVE_CONCURRENCY)' },
  // 'none': skip that part (e.g. to prove only some local families again)
  { flag: 'faults', kind: 'string', arg: 'a,b|none', help: 'the hand-written faults to prove (reference/faults.ts; default: every one)' },
  { flag: 'variants', kind: 'string', arg: 'a,b|none', help: 'the honest variants to prove alone (reference/variants.ts; default: every one; the default server always runs)' },
  { flag: 'local', kind: 'string', arg: 'all|none|family,…', default: 'all', help: 'the families of generated local faults to prove (reference/faults-generated.ts)' },
  { flag: 'local-seeds', kind: 'int', arg: 'N', min: 1, max: 10, default: 3, help: 'seeds each local fault is proven at (caught only when caught at every one)' },
  { flag: 'out', kind: 'string', arg: 'DIR', default: 'reports', help: 'where mutation.md and mutation.json go' },
  { flag: 'proof-timeout', kind: 'int', arg: 'S', min: 60, max: 86_400, help: 'seconds a proof may run before it is killed and counted as not caught (default 600; 900 for a local batch): raise it on a busy machine, where a whole-suite proof takes longer' },
  { flag: 'keep-reports', kind: 'flag', help: 'keep every proof\'s report folder' },
  { flag: 'merge', kind: 'string', arg: 'DIR,DIR…', help: 'prove nothing: join the mutation.json of parts run apart (e.g. --local none in one, local families in others) into one report in --out; what no part proved is listed as not run' },
  { flag: 'base', kind: 'string', arg: 'FILE', help: 'with --merge: a mutation.json already made (e.g. reports/mutation.json, whose parts\' folders are gone) whose proofs stay, except those a part proves again: the newer proof replaces the older' },
  ...COMMON_OPTIONS.filter((o) => o.flag === 'help'),
];

const HELP = commandHelp('npm run mutation -- [options]', 'Proves the suite against broken servers: every hand-written fault with the whole suite, every honest variant alone, then the generated local faults at several seeds; writes mutation.md and mutation.json. Exit 0 when every fault is caught and every honest server passes.', OPTIONS);

const names = (v: unknown): string[] | undefined => (typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter((x) => x && x !== 'none') : undefined);

function parseArgs(argv: string[]): Args {
  if (helpOrVersion(argv, OPTIONS) === 'help') {
    process.stdout.write(`${HELP}\n`);
    process.exit(0);
  }
  const { options, positional } = parseOptions(argv, OPTIONS, {});
  if (positional.length) throw new UsageError(`unexpected argument ${positional[0]} (see --help)`);
  const o = withDefaults(options, OPTIONS);
  const local = String(o.local);
  const a: Args = {
    concurrency: o.concurrency as number | undefined,
    timeoutS: o['proof-timeout'] as number | undefined,
    faults: names(o.faults),
    variants: names(o.variants),
    local: local === 'all' || local === 'none' ? local : local.split(',').map((x) => x.trim()).filter(Boolean),
    localSeeds: o['local-seeds'] as number,
    out: resolve(ROOT, String(o.out)),
    keep: o['keep-reports'] === true,
    ...(typeof o.merge === 'string' ? { merge: o.merge.split(',').map((d) => d.trim()).filter(Boolean).map((d) => resolve(ROOT, d)) } : {}),
    ...(typeof o.base === 'string' ? { base: resolve(ROOT, o.base) } : {}),
  };
  if (a.base !== undefined && !a.merge) throw new UsageError('--base is the report a merge builds on: give the parts with --merge DIR,DIR…');
  if (Array.isArray(a.local)) {
    const unknown = a.local.filter((f) => !(FAMILIES as readonly string[]).includes(f));
    if (unknown.length) throw new UsageError(`--local: unknown famil${unknown.length > 1 ? 'ies' : 'y'} ${unknown.join(', ')} (known: ${FAMILIES.join(', ')})`);
  }
  return a;
}

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)} %`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const ids = (list: Array<{ id: string }>, max = 4) =>
  list.length ? list.slice(0, max).map((c) => `\`${c.id}\``).join(', ') + (list.length > max ? ` (+${list.length - max})` : '') : '—';

function progress(p: Proof, done: number, total: number): void {
  const ok = p.kind === 'fault' ? p.caught : p.passed;
  const what = p.kind === 'fault'
    ? `${p.caught ? 'caught' : p.detected ? 'detected, but exit ' + p.exitCode : 'NOT CAUGHT'} (${p.breaks}${p.detectedBy.length ? ` by ${p.detectedBy.length} check(s)` : ''}${p.collateral.length ? `, ${p.collateral.length} collateral` : ''})`
    : `${p.passed ? 'passed' : 'FAILED'}${p.falseAlarms.length ? `, ${p.falseAlarms.length} false alarm(s)` : ''}${p.mismatches.length ? `, observations differ: ${p.mismatches.map((m) => m.key).join(', ')}` : ''}`;
  process.stderr.write(`[${String(done).padStart(2)}/${total}] ${ok ? '✓' : '✗'} ${p.kind} ${p.name}: ${what}${p.problem ? ` — ${p.problem}` : ''} · ${secs(p.ms)}\n`);
}

function totals(faults: FaultProof[], variants: VariantProof[], ms: number, concurrency: number) {
  const caught = faults.filter((f) => f.caught).length;
  const alarmed = variants.filter((v) => v.falseAlarms.length > 0).length;
  const proofMs = [...faults, ...variants].map((p) => p.ms);
  return {
    faults: faults.length,
    faultsCaught: caught,
    faultsDetectedButWrongExit: faults.filter((f) => f.detected && !f.caught).length,
    detectionRate: faults.length ? caught / faults.length : 0,
    rulesBroken: new Set(faults.map((f) => f.breaks)).size,
    rules: Object.keys(RULES).length,
    honestServers: variants.length,
    honestServersPassed: variants.filter((v) => v.passed).length,
    honestServersWithFalseAlarms: alarmed,
    falseAlarmRate: variants.length ? alarmed / variants.length : 0,
    falseAlarmChecks: variants.reduce((n, v) => n + v.falseAlarms.length, 0),
    observationMismatches: variants.reduce((n, v) => n + v.mismatches.length, 0),
    runtimeMs: ms,
    meanProofMs: proofMs.length ? Math.round(proofMs.reduce((a, b) => a + b, 0) / proofMs.length) : 0,
    concurrency,
  };
}

function markdown(r: ReturnType<typeof report>): string {
  const t = r.totals;
  const out: string[] = [];
  out.push('# Mutation report: does storecheck catch broken servers and pass honest ones?', '');
  out.push(`Generated ${r.generatedAt} by \`npm run mutation\` · seed ${r.seed} · depth quick · ${t.concurrency} proofs in parallel on ${r.machine}.`, '');
  out.push('Each proof is the whole suite run by the CLI against the embedded reference server: once per **fault** (a deliberately broken behaviour breaking one documented rule — it must say non-conformant, exit 1, with a failing check of that rule), once per **benign variant** (another honest choice where the spec says "not shown") and once against the default server (both must say conformant, exit 0, and record the observations the variant expects).', '');
  out.push('| | |', '|---|---|');
  out.push(`| faults caught (exit 1, the broken rule named) | **${t.faultsCaught} / ${t.faults}** (${pct(t.faultsCaught, t.faults)}) |`);
  out.push(`| rules of src/rules.ts broken by at least one fault | ${t.rulesBroken} / ${t.rules} |`);
  out.push(`| honest servers passed (default + variants) | **${t.honestServersPassed} / ${t.honestServers}** |`);
  out.push(`| false-alarm rate (honest servers with a failing check) | **${pct(t.honestServersWithFalseAlarms, t.honestServers)}** (${t.falseAlarmChecks} failing checks) |`);
  out.push(`| observation mismatches | ${t.observationMismatches} |`);
  out.push(`| runtime | ${secs(t.runtimeMs)} (mean proof ${secs(t.meanProofMs)}) |`, '');
  out.push(...partsMarkdown(r));

  out.push('## Faults', '', '| fault | breaks | caught | detected by | collateral (other failing checks) | time |', '|---|---|---|---|---|---|');
  for (const f of r.faults) {
    const status = f.caught ? '✓' : f.detected ? `✗ exit ${f.exitCode}` : '✗ **not caught**';
    out.push(`| \`${f.name}\` | ${f.breaks} | ${status} | ${ids(f.detectedBy)} | ${f.collateral.length ? `${f.collateral.length}: ${ids(f.collateral, 3)}` : '—'} | ${secs(f.ms)} |`);
  }
  out.push('');
  const missed = r.faults.filter((f) => !f.caught);
  if (missed.length) {
    out.push('### Not caught', '');
    for (const f of missed) {
      out.push(`- \`${f.name}\` (${f.breaks}, ${f.section}): ${md(f.description)}. Exit ${f.exitCode}, verdict ${f.verdict}.${f.problem ? ` ${md(f.problem)}.` : ''}`);
      for (const c of f.failing.slice(0, 5)) out.push(`  - failing \`${c.id}\` [${c.rule}]: ${md(c.message ?? '')}`);
      out.push(`  - replay: \`npm run conformance -- --depth quick --seed ${f.seed} --reference-faults ${f.name}\``);
    }
    out.push('');
  }

  out.push('## Honest servers', '', '| server | description | passed | false alarms | observation mismatches | time |', '|---|---|---|---|---|---|');
  for (const v of r.variants) {
    const mm = v.mismatches.length ? v.mismatches.map((m) => `${m.key}: expected ${JSON.stringify(m.expected)}, probed ${m.actual === undefined ? '(missing)' : JSON.stringify(m.actual)}`).join('; ') : '—';
    out.push(`| \`${v.name}\` | ${md(v.description)} | ${v.passed ? '✓' : '✗'} | ${ids(v.falseAlarms)} | ${md(mm)} | ${secs(v.ms)} |`);
  }
  out.push('');
  const alarmed = r.variants.filter((v) => v.falseAlarms.length || v.problem || v.errors.length);
  if (alarmed.length) {
    out.push('### False alarms and errors', '');
    for (const v of alarmed) {
      out.push(`- \`${v.name}\`: exit ${v.exitCode}, verdict ${v.verdict}.${v.problem ? ` ${md(v.problem)}.` : ''}`);
      for (const c of [...v.falseAlarms, ...v.errors].slice(0, 8)) out.push(`  - \`${c.id}\` [${c.rule}, ${c.status}]: ${md(c.message ?? '')}`);
    }
    out.push('');
  }
  if (r.local) out.push(...localMarkdown(r.local));
  return out.join('\n');
}

function report(faults: FaultProof[], variants: VariantProof[], ms: number, concurrency: number, local?: LocalSection, parts?: Part[]) {
  return {
    generatedAt: new Date().toISOString(),
    seed: PROVE_SEED,
    depth: 'quick' as const,
    machine: `${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'})`,
    totals: totals(faults, variants, ms, concurrency),
    notRun: notRun(faults, variants, local),
    ...(parts ? { parts } : {}),
    faults,
    variants,
    ...(local ? { local } : {}),
  };
}

/** One run of a merged report: what it proved, what it proved again in place of an older run, what a later run proved again. */
function partLine(p: Part, later: Part[]): string {
  const replaced = (family: string) => later.some((q) => q.replaces?.includes(`family ${family}`));
  const families = p.localFamilies.map((f) => (replaced(f) ? `${f} (proven again below)` : f));
  const what = [p.faults ? `${p.faults} hand-written faults` : '', p.variants ? `${p.variants} honest servers` : '', families.length ? `local families ${families.join(', ')}` : ''].filter(Boolean).join('; ');
  const again = p.replaces?.length ? ` · proves again, replacing the earlier proof: ${p.replaces.join(', ')}` : '';
  return `\`${p.from}\` ${p.generatedAt} · ${secs(p.runtimeMs)} · ${what || 'nothing'}${again}`;
}

/** Which runs a merged report is made of, and what no run proved. */
function partsMarkdown(r: ReturnType<typeof report>): string[] {
  const out: string[] = [];
  if (r.parts) {
    const again = r.parts.some((p) => p.replaces?.length);
    out.push(`Joined (\`--merge\`) from ${r.parts.length} run${r.parts.length === 1 ? '' : 's'} made apart; the runtime above is the sum of theirs (they may have run side by side${again ? '; what a later run proved again counts in both' : ''}):`, '');
    r.parts.forEach((p, i) => out.push(`- ${partLine(p, r.parts!.slice(i + 1))}`));
    out.push('');
  }
  const n = r.notRun;
  if (!isEmpty(n)) {
    out.push('**Not run** (no proof of this report covers them: the run was made in parts, or cut short):', '');
    if (n.faults.length) out.push(`- ${n.faults.length} hand-written faults: ${n.faults.map((f) => `\`${f}\``).join(', ')}`);
    if (n.variants.length) out.push(`- ${n.variants.length} honest servers: ${n.variants.map((v) => `\`${v}\``).join(', ')}`);
    if (n.localFamilies.length) out.push(`- ${n.localFamilies.reduce((k, f) => k + f.faults, 0)} local faults in ${n.localFamilies.length} families: ${n.localFamilies.map((f) => `${f.family} (${f.faults})`).join(', ')}`);
    out.push('');
  }
  return out;
}

/** Prove what the arguments ask: the hand-written faults and variants, then the local catalogue. */
async function prove(args: Args) {
  const concurrency = args.concurrency ?? defaultConcurrency();
  const faults = args.faults ?? FAULTS.map((f) => f.name);
  process.stderr.write(`mutation: ${faults.length} faults, ${args.variants?.length ?? 'every'} honest servers, ${concurrency} at a time…\n`);
  const timeoutMs = args.timeoutS === undefined ? undefined : args.timeoutS * 1000;
  const all = await proveAll({ faults, variants: args.variants, concurrency, keepReport: args.keep, onProof: progress, timeoutMs });
  let local: LocalSection | undefined;
  if (args.local !== 'none') {
    const chosen = args.local === 'all' ? localFaults() : localFaults().filter((f) => (args.local as string[]).includes(f.family));
    const seeds = Array.from({ length: args.localSeeds }, (_, i) => PROVE_SEED + 7919 * i);
    process.stderr.write(`mutation: ${chosen.length} local faults at ${seeds.length} seeds…\n`);
    local = await proveLocalCatalogue(chosen, {
      seeds,
      concurrency,
      timeoutMs,
      onRun: (done, total, batch, seed) => process.stderr.write(`[local ${done}/${total}] seed ${seed}: ${batch.length} fault(s)\n`),
    });
  }
  return report(all.faults, all.variants, all.ms + (local?.ms ?? 0), concurrency, local);
}

function merged(dirs: string[], base?: string) {
  const m = mergeParts(dirs, base);
  return report(m.faults, m.variants, m.ms, m.concurrency, m.local, m.parts);
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const r = args.merge ? merged(args.merge, args.base) : await prove(args);
  const local = r.local;
  mkdirSync(args.out, { recursive: true });
  // committed and read elsewhere: a kept report folder is named without this machine's path
  writeFileSync(join(args.out, 'mutation.json'), withoutMachinePaths(JSON.stringify(r, null, 2), ROOT) + '\n');
  writeFileSync(join(args.out, 'mutation.md'), withoutMachinePaths(markdown(r), ROOT) + '\n');
  const t = r.totals;
  const lt = local?.totals;
  process.stderr.write(
    `\nfaults caught ${t.faultsCaught}/${t.faults} (${pct(t.faultsCaught, t.faults)}) · honest servers passed ${t.honestServersPassed}/${t.honestServers} · false-alarm rate ${pct(t.honestServersWithFalseAlarms, t.honestServers)}` +
      (lt ? ` · local faults caught at every seed ${lt.caught}/${lt.observable} observable (${lt.escaped} escaped, ${lt.unobservable} unobservable)` : '') +
      ` · ${secs(t.runtimeMs)}\n` +
      `reports: ${join(args.out, 'mutation.md')}, ${join(args.out, 'mutation.json')}\n`,
  );
  const localOk = !lt || (lt.escaped === 0 && lt.broken === 0);
  return t.faultsCaught === t.faults && t.honestServersPassed === t.honestServers && localOk ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`mutation: ${(e as Error).message}\n`);
    process.exit(2);
  },
);
