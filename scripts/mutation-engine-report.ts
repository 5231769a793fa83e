/**
 * The report of `npm run mutation:engine`: Stryker's JSON report (every
 * mutant: file, location, mutator, replacement, status) joined with the
 * outcomes the runner script recorded (runs.jsonl: exit code, failing checks
 * and items, the server configuration that judged it) and the triage of the
 * survivors (reports/mutation-engine/triage.json), written to
 * reports/mutation-engine/summary.md and summary.json.
 *
 * Score = detected ÷ (detected + survived + unreached − documented
 * equivalents), Stryker's own definition: detected is a kill (exit 1), no
 * verdict (exit 3, or 2: the key refused), a crash or a timeout; unreached is
 * Stryker's "no coverage"; left out are the mutants Stryker ignores (disabled
 * in place), could not run, or a sampled run did not sample. The strict
 * score counts exit-1 kills only. A sampled run's score is an estimate of the
 * whole catalogue's: it comes with a 95 % Wilson interval.
 *
 * A mutant is named stably, not by its line (lines move): file, enclosing
 * function, mutator, the original and the replacement text, and the text of
 * its first line (`MutantKey`). Triage entries match on that key.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { SCOPE } from './mutation-engine-scope.js';
import type { CoverageMap, MutantRecord, MutantRun, Outcome } from './mutation-engine-run.js';
import { earlierPicks, overlapOf, type ContentSample } from './mutation-engine-overlap.js';
import { withoutMachinePaths } from './machine-paths.js';

// ---------------------------------------------------------------- inputs

interface StrykerMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'CompileError' | 'RuntimeError' | 'Timeout' | 'Ignored' | 'Pending';
  statusReason?: string;
}

interface StrykerReport {
  files: Record<string, { source: string; mutants: StrykerMutant[] }>;
}

/** How a mutant is named across runs: never by its line number alone. */
export interface MutantKey {
  file: string;
  /** enclosing functions, outermost first (`Engine.get`, `startReferenceServer > send`) */
  scope: string;
  mutator: string;
  /** the source text replaced (abbreviated past 120 characters, with a hash of the whole) */
  original: string;
  replacement: string;
  /** the trimmed text of the line the mutant starts on */
  line: string;
}

export interface EquivalentEntry extends MutantKey {
  reason: string;
}

export interface GapEntry extends MutantKey {
  theme: string;
  /** which check would kill it: what the spec says, what the mutant does */
  kill: string;
}

export interface Triage {
  about?: string;
  equivalents: EquivalentEntry[];
  gaps: GapEntry[];
}

// ---------------------------------------------------------------- the joined view

/** What became of a mutant, Stryker's status and the runner's outcome joined. */
export type Status = 'killed' | 'no-verdict' | 'crashed' | 'timeout' | 'survived' | 'unreached' | 'ignored' | 'invalid' | 'harness-error' | 'not-sampled' | 'not-run';
const DETECTED: readonly Status[] = ['killed', 'no-verdict', 'crashed', 'timeout'];

export interface MutantView extends MutantKey {
  id: string;
  /** line and column (1-based) in the source the run mutated */
  at: { line: number; column: number };
  /** where in `line` (the trimmed line) the original text starts */
  lineOffset: number;
  status: Status;
  /** the mutated line(s) as a unified diff: `- ` the original, `+ ` with the replacement */
  diff: string[];
  /** the whole texts, for the npm test sample (omitted when long) */
  originalFull?: string;
  replacementFull?: string;
  /** the configuration whose run detected it */
  configuration?: string;
  /** the configurations that reach it, and those it was run against */
  reachedBy?: string[];
  tried?: string[];
  /** checks that failed (killed) or could not judge (no verdict), at most 5, and how many in all */
  by?: string[];
  byCount?: number;
  /** a kill by few checks, confirmed: by those checks alone (`only`: they are in `reproducedBy`) or by the whole suite again */
  confirmed?: 'only' | 'again';
  reproducedBy?: string[];
  /** a survivor detected once (these checks failed on this configuration) and not when run again */
  flaky?: { configuration: string; failedChecks: string[] };
  items?: string[];
  hits?: number | null;
  changedObservations?: MutantRun['changedObservations'];
  reason?: string;
  triage?: { kind: 'equivalent'; reason: string } | { kind: 'gap'; theme: string; kill: string };
  /** a survivor of the default server sent on to the stores choosing otherwise on what its code reads (key@calls away) */
  policy?: MutantRecord['policy'];
  /** an earlier sample had picked this mutant (by content): not fresh */
  pickedBefore?: true;
}

const ABBREV = 120;

function abbreviate(s: string): string {
  if (s.length <= ABBREV) return s;
  const hash = createHash('sha1').update(s).digest('hex').slice(0, 8);
  return `${s.slice(0, 100).replace(/\s+/g, ' ')}… #${hash}`;
}

/** Byte offsets of the start of each line (0-based line index). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

const offsetOf = (starts: number[], p: { line: number; column: number }) => starts[p.line - 1] + p.column - 1;

/** The lines a mutant touches, before and after (at most 6 of each, trimmed). */
function diffOf(source: string, starts: number[], from: number, to: number, replacement: string, first: number, last: number): string[] {
  const lineStart = starts[first - 1];
  const lineEnd = last < starts.length ? starts[last] - 1 : source.length;
  const before = source.slice(lineStart, lineEnd);
  const after = source.slice(lineStart, from) + replacement + source.slice(to, lineEnd);
  const cut = (text: string, sign: string) => {
    const ls = text.split('\n');
    const kept = ls.length > 6 ? [...ls.slice(0, 3), `… ${ls.length - 5} lines …`, ...ls.slice(-2)] : ls;
    return kept.map((l) => `${sign} ${l.trimEnd().slice(0, 200)}`);
  };
  return [...cut(before, '-'), ...cut(after, '+')];
}

/** The names of the functions enclosing each offset of a file. */
function scopeFinder(file: string, source: string): (offset: number) => string {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const nameOf = (n: ts.Node): string | undefined => {
    if ((ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n) || ts.isFunctionExpression(n)) && n.name) return n.name.text;
    if ((ts.isMethodDeclaration(n) || ts.isGetAccessorDeclaration(n) || ts.isPropertyDeclaration(n)) && n.name) return n.name.getText(sf);
    if (ts.isConstructorDeclaration(n)) return 'constructor';
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && n.parent) {
      const p = n.parent;
      if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p)) return p.name.getText(sf);
    }
    if (ts.isVariableDeclaration(n) && n.parent?.parent && ts.isVariableStatement(n.parent.parent) && n.parent.parent.parent === sf) return n.name.getText(sf);
    return undefined;
  };
  return (offset) => {
    const names: string[] = [];
    const visit = (n: ts.Node): void => {
      if (offset < n.getStart(sf) || offset >= n.getEnd()) return;
      const name = nameOf(n);
      if (name && names[names.length - 1] !== name) names.push(name);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    return names.join(' > ') || '(top level)';
  };
}

const sameKey = (a: MutantKey, b: MutantKey) =>
  a.file === b.file && a.scope === b.scope && a.mutator === b.mutator && a.original === b.original && a.replacement === b.replacement && a.line === b.line;

export function keyOf(m: MutantKey): MutantKey {
  return { file: m.file, scope: m.scope, mutator: m.mutator, original: m.original, replacement: m.replacement, line: m.line };
}

function statusOf(m: StrykerMutant, rec: MutantRecord | undefined): Status {
  switch (m.status) {
    case 'Ignored': return 'ignored';
    case 'Timeout': return 'timeout';
    case 'CompileError': case 'RuntimeError': return 'invalid';
    // listed again after the run ended early (scripts/mutation-engine-list.ts): no record, not run
    case 'Pending': return rec?.outcome === 'not-sampled' || m.statusReason === 'not sampled' ? 'not-sampled' : 'not-run';
    case 'Killed': {
      if (!rec) return 'crashed';
      const o: Outcome = rec.outcome;
      return o === 'killed' || o === 'no-verdict' || o === 'crashed' ? o : 'crashed';
    }
    default: {
      // the runner records every mutant it answers: one without a record was left for later (--sample-from)
      if (!rec) return 'not-run';
      if (rec.outcome === 'not-sampled') return 'not-sampled';
      if (rec.outcome === 'harness-error') return 'harness-error';
      return rec.outcome === 'unreached' ? 'unreached' : 'survived';
    }
  }
}

function readJsonl(file: string): Map<string, MutantRecord> {
  const out = new Map<string, MutantRecord>();
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as MutantRecord;
    out.set(r.id, r);
  }
  return out;
}

export function joinResults(stryker: StrykerReport, records: Map<string, MutantRecord>, triage: Triage): { mutants: MutantView[]; staleTriage: Array<MutantKey & { kind: string }> } {
  const mutants: MutantView[] = [];
  for (const [file, f] of Object.entries(stryker.files)) {
    const starts = lineStarts(f.source);
    const scopeAt = scopeFinder(file, f.source);
    const lines = f.source.split('\n');
    for (const m of f.mutants) {
      const from = offsetOf(starts, m.location.start);
      const to = offsetOf(starts, m.location.end);
      const original = f.source.slice(from, to);
      const replacement = m.replacement ?? '';
      const rec = records.get(m.id);
      const status = statusOf(m, rec);
      // the last run that judged (not one that only confirmed a kill), and its confirmation
      const mainIndex = rec ? rec.runs.map((x) => !x.confirms).lastIndexOf(true) : -1;
      const last = rec && mainIndex >= 0 ? rec.runs[mainIndex] : undefined;
      const byOnly = rec?.runs.slice(mainIndex + 1).find((x) => x.confirms === 'only');
      const detected = DETECTED.includes(status);
      const view: MutantView = {
        id: m.id,
        file,
        scope: scopeAt(from),
        mutator: m.mutatorName,
        original: abbreviate(original),
        replacement: abbreviate(replacement),
        line: lines[m.location.start.line - 1].trim().slice(0, 240),
        at: { line: m.location.start.line, column: m.location.start.column },
        lineOffset: m.location.start.column - 1 - (lines[m.location.start.line - 1].length - lines[m.location.start.line - 1].trimStart().length),
        status,
        diff: diffOf(f.source, starts, from, to, replacement, m.location.start.line, m.location.end.line),
        ...(original.length <= 2000 && replacement.length <= 2000 ? { originalFull: original, replacementFull: replacement } : {}),
      };
      if (rec) {
        if (detected && last) view.configuration = last.configuration;
        else {
          view.reachedBy = rec.reachedBy;
          view.tried = [...new Set(rec.runs.map((x) => x.configuration))];
        }
        if (rec.policy) view.policy = rec.policy;
        if (rec.confirmed) view.confirmed = rec.confirmed;
        if (rec.confirmed === 'only' && byOnly) view.reproducedBy = byOnly.failedChecks.filter((x) => last?.failedChecks.includes(x));
        if (rec.flaky) view.flaky = rec.flaky;
        if (last) {
          const list = status === 'killed' ? last.failedChecks : last.errorChecks;
          const count = status === 'killed' ? last.failedCheckCount : last.errorCheckCount;
          if (detected) {
            view.by = list.slice(0, 5);
            view.byCount = count;
            if (status === 'killed') view.items = last.failedItems.slice(0, 5);
            if (status !== 'killed') view.reason = (last.reason ?? last.stderrTail ?? '').slice(0, 300);
          } else {
            view.hits = last.hits;
            if (last.changedObservations.length) view.changedObservations = last.changedObservations;
          }
        }
        if (rec.problem) view.reason = rec.problem;
      } else if (status === 'ignored' || status === 'timeout') {
        if (m.statusReason) view.reason = m.statusReason.slice(0, 300);
      }
      mutants.push(view);
    }
  }
  mutants.sort((a, b) => a.file.localeCompare(b.file) || a.at.line - b.at.line || a.at.column - b.at.column || Number(a.id) - Number(b.id));
  const used = new Set<object>();
  for (const m of mutants) {
    if (m.status !== 'survived' && m.status !== 'unreached') continue;
    const eq = triage.equivalents.find((e) => sameKey(e, m));
    const gap = eq ? undefined : triage.gaps.find((g) => sameKey(g, m));
    if (eq) {
      used.add(eq);
      m.triage = { kind: 'equivalent', reason: eq.reason };
    } else if (gap) {
      used.add(gap);
      m.triage = { kind: 'gap', theme: gap.theme, kill: gap.kill };
    }
  }
  // an entry no survivor used but naming a mutant of today's code (not sampled this time, or detected now) is kept, not stale
  const stale = (e: MutantKey) => !used.has(e) && !mutants.some((m) => sameKey(e, m));
  const staleTriage = [
    ...triage.equivalents.filter(stale).map((e) => ({ ...keyOf(e), kind: 'equivalent' })),
    ...triage.gaps.filter(stale).map((g) => ({ ...keyOf(g), kind: 'gap' })),
  ];
  return { mutants, staleTriage };
}

// ---------------------------------------------------------------- totals

export interface Totals {
  mutants: number;
  /** left out of a sampled run (--sample-every) */
  notSampled: number;
  /** not run: the run ended before them (its report listed again from the records) */
  notRun: number;
  ignored: number;
  invalid: number;
  /** mutants run: all but not sampled, ignored and invalid */
  valid: number;
  killed: number;
  noVerdict: number;
  crashed: number;
  timeout: number;
  detected: number;
  survived: number;
  unreached: number;
  harnessErrors: number;
  /** survivors detected once and not when run again (a kill not confirmed) */
  flaky: number;
  /** kills by few checks confirmed by a second run */
  confirmed: number;
  equivalents: number;
  gaps: number;
  untriaged: number;
  /** detected ÷ (valid − equivalents) */
  score: number | null;
  /** the score's 95 % Wilson interval: the spread of a sample's estimate of the whole catalogue's score */
  interval: [number, number] | null;
  /** exit-1 kills ÷ (valid − equivalents) */
  strictScore: number | null;
}

/** The 95 % Wilson score interval of k successes in n trials. */
export function wilson(k: number, n: number): [number, number] {
  const z = 1.96;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export function totalsOf(ms: MutantView[]): Totals {
  const n = (s: Status) => ms.filter((m) => m.status === s).length;
  const left = ms.filter((m) => m.status === 'survived' || m.status === 'unreached');
  const valid = ms.length - n('ignored') - n('invalid') - n('not-sampled') - n('not-run');
  const equivalents = left.filter((m) => m.triage?.kind === 'equivalent').length;
  const detected = ms.filter((m) => DETECTED.includes(m.status)).length;
  const denominator = valid - equivalents;
  return {
    mutants: ms.length,
    notSampled: n('not-sampled'),
    notRun: n('not-run'),
    ignored: n('ignored'),
    invalid: n('invalid'),
    valid,
    killed: n('killed'),
    noVerdict: n('no-verdict'),
    crashed: n('crashed'),
    timeout: n('timeout'),
    detected,
    survived: n('survived'),
    unreached: n('unreached'),
    harnessErrors: n('harness-error'),
    flaky: ms.filter((m) => m.flaky).length,
    confirmed: ms.filter((m) => m.confirmed).length,
    equivalents,
    gaps: left.filter((m) => m.triage?.kind === 'gap').length,
    untriaged: left.filter((m) => !m.triage).length,
    score: denominator > 0 ? detected / denominator : null,
    interval: denominator > 0 ? wilson(detected, denominator) : null,
    strictScore: denominator > 0 ? n('killed') / denominator : null,
  };
}

/**
 * A deterministic sample of killed mutants for `npm test` (test/meta/mutation-engine.test.ts):
 * killed at exit 1 by the default server, by a few checks that killed it again alone (`--only`,
 * as the test runs them), short texts; ordered by a hash of their key (stable across runs, spread
 * over files and mutators), one per mutator first.
 */
export function sampleOf(ms: MutantView[], size = 16): MutantView[] {
  const hash = (m: MutantView) => createHash('sha1').update(JSON.stringify(keyOf(m))).digest('hex');
  const pool = ms
    .filter((m) => m.status === 'killed' && m.configuration === 'default' && m.confirmed === 'only' && (m.reproducedBy ?? []).length > 0 && m.originalFull !== undefined && m.originalFull.length <= 200)
    .sort((a, b) => hash(a).localeCompare(hash(b)));
  const out: MutantView[] = [];
  const mutators = new Set<string>();
  for (const m of pool) if (!mutators.has(m.mutator) && out.length < size) (mutators.add(m.mutator), out.push(m));
  for (const m of pool) if (!out.includes(m) && out.length < size) out.push(m);
  return out;
}

/** Why Stryker did not run mutants: its reasons, shortened to the comment or plugin that says why. */
function ignoredReasons(ms: MutantView[]): Array<{ reason: string; count: number }> {
  const counts = new Map<string, number>();
  for (const m of ms.filter((x) => x.status === 'ignored')) {
    // "Disabled by user comment: fault machinery (…)", "error text (…): …", "Ignored because of excluded mutation …"
    const why = (m.reason ?? 'ignored').replace(/^Disabled by user comment:\s*/i, 'disabled in place: ').replace(/\s*\(.*$/, '');
    counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([reason, count]) => ({ reason, count }));
}

// ---------------------------------------------------------------- rendering

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)} %`);
const code = (s: string) => '`' + s.replace(/`/g, 'ˋ').replace(/\|/g, '\\|').replace(/\s+/g, ' ') + '`';
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
// a mutant an earlier sample had picked (by content) is marked: it is not among the fresh ones
const where = (m: MutantView) => `${m.file}:${m.at.line}${m.pickedBefore ? ' (picked before)' : ''}`;
/** the configurations a survivor was run against (and how many more reach it) */
const reached = (m: MutantView) => {
  const tried = m.tried ?? [];
  const more = (m.reachedBy ?? []).length - tried.length;
  const p = m.policy;
  const sent = !p ? '' : !p.touches.length ? ' — its code reads no choice of the server'
    : ` — sent on for the choices its code reads (${p.touches.slice(0, 6).join(', ')}${p.touches.length > 6 ? ', …' : ''})${p.stores.length ? '' : ': no store reaching it chooses otherwise on them'}`;
  return `${tried.join(', ')}${more > 0 ? ` (${more} more reach it, not run)` : ''}${sent}`;
};

function breakdown(ms: MutantView[], by: (m: MutantView) => string): Array<{ name: string } & Totals> {
  const groups = new Map<string, MutantView[]>();
  for (const m of ms) groups.set(by(m), [...(groups.get(by(m)) ?? []), m]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, list]) => ({ name, ...totalsOf(list) }));
}

function tableOf(rows: Array<{ name: string } & Totals>, head: string): string[] {
  const out = [`| ${head} | mutants | not sampled | not run | ignored | killed | no verdict | timeout | crashed | survived | unreached | equivalent | gap | untriaged | score |`, '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|'];
  for (const r of rows) out.push(`| ${r.name} | ${r.mutants} | ${r.notSampled} | ${r.notRun} | ${r.ignored} | ${r.killed} | ${r.noVerdict} | ${r.timeout} | ${r.crashed} | ${r.survived} | ${r.unreached} | ${r.equivalents} | ${r.gaps} | ${r.untriaged} | ${pct(r.score)} |`);
  return out;
}

interface RunInfo { startedAt?: string; ms?: number; concurrency?: number; seed?: number; partial?: boolean; sample?: { every: number; offset?: number; by?: 'content'; picked?: number; of?: number }; sampleFrom?: number; resumed?: boolean; listedAgain?: boolean }

/** A survivor's diff, as a fenced block under a list item. */
const diffBlock = (m: MutantView) => ['  ```diff', ...m.diff.map((l) => `  ${l}`), '  ```'];

export function renderMarkdown(r: EngineReport, all: MutantView[]): string {
  const t = r.totals;
  const o: string[] = [];
  o.push('# Engine mutation report: StrykerJS mutants of the reference server against the quick suite', '');
  o.push(`Generated ${r.generatedAt} by \`npm run mutation:engine\` (scripts/mutation-engine.ts) · StrykerJS ${r.stryker} · seed ${r.seed} · depth quick · ${r.machine}` +
    (r.run.ms ? ` · ${(r.run.ms / 3_600_000).toFixed(1)} h at ${r.run.concurrency} mutant(s) at a time` : '') + (r.run.partial ? ' · **partial run (--mutate)**' : '') + '.', '');
  if (r.run.sample) {
    o.push(r.run.sample.by === 'content'
      ? `**A sample**: one mutant in ${r.run.sample.every} (${r.run.sample.picked ?? '?'} of ${r.run.sample.of ?? '?'} not ignored), picked by a hash of its content and the seed (\`--sample-every ${r.run.sample.every} --seed ${r.seed}\`; scripts/mutation-engine-sample.ts: file, mutator, original and replacement text, the lines around it, never the id or line): the sample stays the same when unrelated code moves, and two seeds' samples overlap only by chance. The score below estimates the whole catalogue's, within its interval; the whole catalogue runs with \`npm run mutation:engine\`.`
      : `**A sample**: every ${r.run.sample.every}th mutant by StrykerJS's id, from id ${r.run.sample.offset} (\`--sample-every ${r.run.sample.every} --seed ${r.seed}\`: ids follow file and position, so the sample spreads over files and mutators; the same source gives the same sample). The score below estimates the whole catalogue's, within its interval; the whole catalogue runs with \`npm run mutation:engine\`.`, '');
  }
  o.push('Each mutant is one small change StrykerJS made to the reference server\'s behaviour code (not its fault switches, not the proof harness). The suite runs at quick depth against the embedded server with the mutant active: against the default server when it reaches the mutant, else against the honest variant stores that do. It is **detected** when the run says non-conformant (exit 1, *killed*) or cannot judge the server (exit 3, *no verdict*), crashes, or hangs (*timeout*). A **survivor** is triaged in `reports/mutation-engine/triage.json`: *equivalent* (the mutated server is as conformant as the original — it changes nothing the spec lets a client rely on) with the reason, or a *gap* with the check that would kill it.', '');
  if (r.run.sampleFrom) o.push(`**The sample from id ${r.run.sampleFrom} on was run first** (\`--sample-from ${r.run.sampleFrom}\`): an earlier run had judged the code before it; the sampled mutants below it were left for a later \`--resume\` and count here as not run unless one ran them.`, '');
  if (r.run.listedAgain) o.push(`**The run ended before StrykerJS wrote its report** (${t.notRun} mutant(s) of the sample not run): the mutants were listed again by StrykerJS's instrumenter over the same scope, their outcomes taken from the runner's records.`, '');
  o.push('| | |', '|---|---|');
  o.push(`| **score** (detected ÷ (detected + survived + unreached − equivalents)) | **${pct(t.score)}** (${t.detected} / ${t.valid - t.equivalents})${r.run.sample && t.interval ? `; 95 % interval ${pct(t.interval[0])} – ${pct(t.interval[1])}` : ''} |`);
  const cs = r.contentSample;
  if (cs) {
    const f = cs.fresh;
    o.push(`| picked before (by content) | ${cs.sharedWithAny} of ${cs.picked.length}${cs.earlier.length ? ` (${cs.earlier.map((e) => `${e.name}: ${e.shared}`).join('; ')})` : ': no earlier sample found'} |`);
    o.push(`| **score on the fresh mutants** (no earlier sample picked them) | **${pct(f.score)}** (${f.detected} / ${f.valid - f.equivalents})${f.interval ? `; 95 % interval ${pct(f.interval[0])} – ${pct(f.interval[1])}` : ''}; strict ${pct(f.strictScore)} |`);
  }
  const sentOn = all.filter((m) => m.policy?.stores.length);
  if (sentOn.length) {
    const caught = sentOn.filter((m) => DETECTED.includes(m.status));
    o.push(`| survivors of the default server sent on to the stores choosing otherwise on what their code reads | ${sentOn.length}: **${caught.length} detected there** (${caught.map((m) => `${m.scope} by ${m.configuration}`).join('; ') || 'none'}) |`);
  }
  o.push(`| strict score (exit-1 kills only) | ${pct(t.strictScore)} (${t.killed} / ${t.valid - t.equivalents}) |`);
  o.push(`| mutants run | ${t.valid} (${t.mutants} generated; ${t.notSampled ? `${t.notSampled} not sampled; ` : ''}${t.notRun ? `${t.notRun} not run (the run ended first); ` : ''}${t.ignored} not run: ${r.ignoredBy.map((x) => `${x.count} ${x.reason}`).join('; ') || 'none'}${t.invalid ? `; ${t.invalid} invalid` : ''}) |`);
  o.push(`| killed (exit 1: non-conformant) | ${t.killed} (${t.confirmed} killed by ${'≤'}6 checks, each confirmed by a second run) |`);
  o.push(`| no verdict (exit 3 / 2: nothing could be judged) | ${t.noVerdict} |`);
  o.push(`| timeout (the server hung) | ${t.timeout} |`);
  o.push(`| crashed | ${t.crashed} |`);
  o.push(`| survived (reached, not detected) | ${t.survived}${t.flaky ? ` (${t.flaky} of them detected once, not when run again)` : ''} |`);
  o.push(`| unreached (no server configuration reaches it) | ${t.unreached} |`);
  o.push(`| survivors triaged equivalent | ${t.equivalents} |`);
  o.push(`| survivors triaged as gaps (a check to write) | **${t.gaps}** |`);
  o.push(`| survivors not yet triaged | ${t.untriaged} |`);
  if (t.harnessErrors) o.push(`| harness errors (the runner failed; not counted as detected) | **${t.harnessErrors}** |`);
  o.push('');
  o.push('## Scope', '');
  for (const s of r.scope) o.push(`- \`${s.file}\` (${s.patterns.map((p) => `\`${p}\``).join(', ')}): ${s.why}`);
  o.push('');
  o.push('## Server configurations', '', 'Run once unmutated (each must be judged conformant); a mutant is run against those that reach its code, the default server first, until one detects it.', '', '| configuration | mutants reached | unmutated run |', '|---|---|---|');
  for (const c of r.configurations) {
    const flaky = c.flaky ? ` — **failed once unmutated** (exit ${c.flaky.exit}: ${cell(c.flaky.reason.slice(0, 200))}), conformant when run again` : '';
    o.push(`| ${c.name === 'default' ? 'default server' : code(c.name)} | ${c.reached} | ${(c.ms / 1000).toFixed(1)} s${flaky} |`);
  }
  for (const c of r.excludedConfigurations) o.push(`| ${code(c.name)} | — | **left out**: not conformant unmutated in 3 runs (exit ${c.exit}: ${cell(c.reason.slice(0, 200))}) |`);
  o.push('');
  o.push('## By file', '', ...tableOf(r.byFile, 'file'), '');
  o.push('## By mutator', '', ...tableOf(r.byMutator, 'mutator'), '');

  const left = all.filter((m) => m.status === 'survived' || m.status === 'unreached');
  const gaps = left.filter((m) => m.triage?.kind === 'gap');
  o.push('## Gaps: survivors a check should kill', '');
  if (!gaps.length) o.push('None.', '');
  const themes = new Map<string, MutantView[]>();
  for (const m of gaps) {
    const th = (m.triage as { theme: string }).theme;
    themes.set(th, [...(themes.get(th) ?? []), m]);
  }
  for (const [theme, list] of [...themes.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))) {
    o.push(`### ${theme} (${list.length})`, '');
    for (const m of list) {
      o.push(`- \`${where(m)}\` ${m.scope} · ${m.mutator} · ${code(m.original)} → ${code(m.replacement)}${m.status === 'unreached' ? ' · *unreached*' : ''}  `);
      o.push(`  ${cell((m.triage as { kill: string }).kill)}`, ...diffBlock(m));
    }
    o.push('');
  }
  const untriaged = left.filter((m) => !m.triage);
  if (untriaged.length) {
    o.push('## Survivors not yet triaged', '', '| where | scope | mutator | original → replacement | run against | hits | observations changed | detected once |', '|---|---|---|---|---|---|---|---|');
    for (const m of untriaged) {
      const obs = (m.changedObservations ?? []).map((c) => `${c.key}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`).join('; ');
      const once = m.flaky ? `${m.flaky.configuration}: ${m.flaky.failedChecks.join(', ')}` : '';
      o.push(`| ${where(m)} | ${cell(m.scope)} | ${m.mutator} | ${code(m.original)} → ${code(m.replacement)} | ${m.status === 'unreached' ? '*unreached*' : cell(reached(m))} | ${m.hits ?? ''} | ${cell(obs)} | ${cell(once)} |`);
    }
    o.push('');
  }
  const eqs = left.filter((m) => m.triage?.kind === 'equivalent');
  o.push('## Equivalent survivors', '');
  if (!eqs.length) o.push('None.', '');
  const reasons = new Map<string, MutantView[]>();
  for (const m of eqs) {
    const why = (m.triage as { reason: string }).reason;
    reasons.set(why, [...(reasons.get(why) ?? []), m]);
  }
  for (const [why, list] of reasons) {
    o.push(`- ${cell(why)}`);
    for (const m of list) o.push(`  - \`${where(m)}\` ${m.scope} · ${m.mutator} · ${code(m.original)} → ${code(m.replacement)}`, ...diffBlock(m).map((l) => `  ${l}`));
  }
  o.push('');
  const apart = all.filter((m) => m.status === 'no-verdict' || m.status === 'crashed' || m.status === 'timeout' || m.status === 'harness-error');
  if (apart.length) {
    o.push('## Detected without a verdict (no verdict, crashed, timeout)', '', 'Counted as detected: a CI gate fails on each. Listed so that a mutant only ever caught this way can be given a check that names what broke.', '', '| where | scope | mutator | original → replacement | status | configuration | why |', '|---|---|---|---|---|---|---|');
    for (const m of apart) o.push(`| ${where(m)} | ${cell(m.scope)} | ${m.mutator} | ${code(m.original)} → ${code(m.replacement)} | ${m.status} | ${m.configuration ?? ''} | ${cell((m.reason ?? '').slice(0, 160))} |`);
    o.push('');
  }
  if (r.staleTriage.length) {
    o.push('## Triage entries that matched no survivor', '', 'The code moved on or the mutant is now detected: drop or update them.', '');
    for (const s of r.staleTriage) o.push(`- ${s.kind}: \`${s.file}\` ${s.scope} · ${s.mutator} · ${code(s.original)} → ${code(s.replacement)}`);
    o.push('');
  }
  return o.join('\n');
}

export interface EngineReport {
  generatedAt: string;
  stryker: string;
  seed: number | null;
  machine: string;
  run: RunInfo;
  scope: Array<{ file: string; patterns: string[]; why: string }>;
  configurations: Array<{ name: string; reached: number; ms: number; flaky?: { exit: number | null; reason: string } }>;
  /** variant stores left out: not judged conformant unmutated in three runs */
  excludedConfigurations: NonNullable<CoverageMap['excluded']>;
  totals: Totals;
  byFile: Array<{ name: string } & Totals>;
  byMutator: Array<{ name: string } & Totals>;
  /** mutants Stryker did not run, by why */
  ignoredBy: Array<{ reason: string; count: number }>;
  survivors: MutantView[];
  detectedApart: MutantView[];
  /** killed mutants the npm test sample draws from (test/meta/mutation-engine.test.ts) */
  sample: MutantView[];
  staleTriage: Array<MutantKey & { kind: string }>;
  /** a sample picked by content: its mutants' hashes, how many earlier samples had picked, the score on the fresh ones */
  contentSample?: ContentSample & { fresh: Totals };
}

export const TRIAGE_FILE = 'triage.json';

/** A content-picked sample's overlap with earlier samples under reports/mutation-engine, and the score of its fresh mutants. */
function contentSampleOf(out: string, seed: number | null, mutants: MutantView[]): EngineReport['contentSample'] {
  const file = join(out, 'raw', 'sample.json');
  if (!existsSync(file)) return undefined;
  const s = JSON.parse(readFileSync(file, 'utf8')) as { by?: string; every: number; ids: string[]; hashes: Record<string, string> };
  if (s.by !== 'content') return undefined;
  const base = fileURLToPath(new URL('../reports/mutation-engine', import.meta.url));
  const { sharedIds, ...o } = overlapOf(s.every, s.ids, s.hashes, earlierPicks(base, out, seed));
  for (const m of mutants) if (sharedIds.has(m.id)) m.pickedBefore = true;
  return { ...o, fresh: totalsOf(mutants.filter((m) => !sharedIds.has(m.id))) };
}

/** The ids a sampled run picked (raw/sample.json, written before StrykerJS started), or undefined for a whole run. */
function pickedIds(raw: string): Set<string> | undefined {
  const file = join(raw, 'sample.json');
  return existsSync(file) ? new Set((JSON.parse(readFileSync(file, 'utf8')) as { ids: string[] }).ids) : undefined;
}

export function loadTriage(out: string): Triage {
  const file = join(out, TRIAGE_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Triage) : { equivalents: [], gaps: [] };
}

/**
 * Reads the raw results under `out`/raw, writes `out`/summary.{md,json}; returns a one-line summary.
 * Without StrykerJS's JSON report (the run ended before it wrote one), the mutants are listed again
 * by its instrumenter (scripts/mutation-engine-list.ts) and their outcomes taken from runs.jsonl.
 */
export async function writeEngineReport({ out }: { out: string }): Promise<string> {
  const raw = join(out, 'raw');
  const strykerFile = join(raw, 'stryker.json');
  const records = readJsonl(join(raw, 'runs.jsonl'));
  if (!existsSync(strykerFile) && !records.size) throw new Error(`no ${strykerFile} and no runs.jsonl: run npm run mutation:engine first`);
  const listedAgain = !existsSync(strykerFile);
  const timing = existsSync(join(raw, 'timing.json')) ? (JSON.parse(readFileSync(join(raw, 'timing.json'), 'utf8')) as RunInfo) : {};
  const stryker = listedAgain
    ? ((await (await import('./mutation-engine-list.js')).listMutants(fileURLToPath(new URL('..', import.meta.url)), raw, records, pickedIds(raw))) as StrykerReport)
    : (JSON.parse(readFileSync(strykerFile, 'utf8')) as StrykerReport);
  const coverage = existsSync(join(raw, 'coverage.json')) ? (JSON.parse(readFileSync(join(raw, 'coverage.json'), 'utf8')) as CoverageMap) : undefined;
  const run: RunInfo = { ...timing, ...(listedAgain ? { listedAgain } : {}) };
  const config = existsSync(join(raw, 'stryker.config.json')) ? (JSON.parse(readFileSync(join(raw, 'stryker.config.json'), 'utf8')) as { mutate: string[] }) : { mutate: [] };
  const triage = loadTriage(out);
  const { mutants, staleTriage } = joinResults(stryker, records, triage);
  const contentSample = contentSampleOf(out, coverage?.seed ?? run.seed ?? null, mutants);
  const strykerVersion = (JSON.parse(readFileSync(new URL('../node_modules/@stryker-mutator/core/package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const report: EngineReport = {
    generatedAt: new Date().toISOString(),
    stryker: strykerVersion,
    seed: coverage?.seed ?? run.seed ?? null,
    machine: `${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'})`,
    run,
    scope: SCOPE.map((s) => ({ file: s.file, patterns: config.mutate.filter((p) => p === s.file || p.startsWith(`${s.file}:`)), why: s.why })),
    configurations: (coverage?.configurations ?? []).map((c) => ({ name: c.name, reached: c.reached.length, ms: c.ms, ...(c.flaky ? { flaky: c.flaky } : {}) })),
    excludedConfigurations: coverage?.excluded ?? [],
    totals: totalsOf(mutants),
    byFile: breakdown(mutants, (m) => m.file),
    byMutator: breakdown(mutants, (m) => m.mutator),
    ignoredBy: ignoredReasons(mutants),
    survivors: mutants.filter((m) => m.status === 'survived' || m.status === 'unreached'),
    detectedApart: mutants.filter((m) => m.status === 'no-verdict' || m.status === 'crashed' || m.status === 'timeout' || m.status === 'harness-error'),
    sample: sampleOf(mutants),
    staleTriage,
    ...(contentSample ? { contentSample } : {}),
  };
  mkdirSync(out, { recursive: true });
  // committed and read elsewhere: no path of this machine (a ledger or kept report named in a reason)
  const project = fileURLToPath(new URL('..', import.meta.url));
  writeFileSync(join(out, 'summary.json'), withoutMachinePaths(JSON.stringify(report, null, 1), project) + '\n');
  writeFileSync(join(out, 'summary.md'), withoutMachinePaths(renderMarkdown(report, mutants), project) + '\n');
  // skeletons for the survivors nobody has triaged yet, to copy into triage.json
  const untriaged = report.survivors.filter((m) => !m.triage).map((m) => ({ ...keyOf(m), at: `${m.file}:${m.at.line}`, reachedBy: m.reachedBy, changedObservations: m.changedObservations }));
  mkdirSync(raw, { recursive: true });
  writeFileSync(join(raw, 'untriaged.json'), JSON.stringify(untriaged, null, 2) + '\n');
  const t = report.totals;
  return `mutation:engine: score ${pct(t.score)} (${t.detected} detected of ${t.valid - t.equivalents}: ${t.killed} killed, ${t.noVerdict} no verdict, ${t.timeout} timeout, ${t.crashed} crashed) · ${t.survived + t.unreached} survivors: ${t.equivalents} equivalent, ${t.gaps} gaps, ${t.untriaged} untriaged · ${join(out, 'summary.md')}`;
}

// `tsx scripts/mutation-engine-report.ts [DIR]`: rebuild the report from the raw results (as --report-only)
if (process.argv[1] && /mutation-engine-report\.ts$/.test(process.argv[1])) {
  const out = process.argv[2] ?? join(process.cwd(), 'reports', 'mutation-engine');
  writeEngineReport({ out }).then((line) => process.stderr.write(`${line}\n`), (e) => {
    process.stderr.write(`mutation:engine report: ${(e as Error).message}\n`);
    process.exit(2);
  });
}
