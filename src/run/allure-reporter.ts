/**
 * allure-vitest's reporter, writing allure-results/ without an fsync per file.
 * Its default writer flushes every result, container and attachment to disk
 * synchronously, on the main thread — the thread that also serves the workers'
 * module requests and the run's own requests: hundreds of fsyncs per run for
 * files that Allure reads only after the run has ended. The files are the same;
 * each is still written whole before the next, under its own unique name.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AllureVitestReporter from 'allure-vitest/reporter';
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import type { Writer } from 'allure-js-commons/sdk/reporter';
import { makeDirs } from '../files.js';
import type { CheckResult } from '../report/types.js';

type Config = ConstructorParameters<typeof AllureVitestReporter>[0] & {
  resultsDir: string;
  /** every secret replaced (the run's redactor): results and attachments are written through it */
  redact?: (text: string) => string;
};

class UnsyncedWriter implements Writer {
  private readonly plain: FileSystemWriter;
  constructor(private readonly dir: string, private readonly redact: (text: string) => string = (t) => t) {
    makeDirs(dir);
    this.plain = new FileSystemWriter({ resultsDir: dir });
  }
  writeResult(result: Parameters<Writer['writeResult']>[0]): void {
    writeFileSync(join(this.dir, `${result.uuid}-result.json`), this.json(result));
  }
  writeGroup(group: Parameters<Writer['writeGroup']>[0]): void {
    writeFileSync(join(this.dir, `${group.uuid}-container.json`), this.json(group));
  }
  writeAttachment(name: string, content: Buffer): void {
    // attachments are text (evidence JSON, reproducers): redacted as text
    writeFileSync(join(this.dir, name), this.redact(content.toString('utf8')));
  }
  writeAttachmentFromPath(name: string, from: string): void {
    writeFileSync(join(this.dir, name), this.redact(readFileSync(from, 'utf8')));
  }
  /** JSON text with every secret replaced inside its strings (re-serialised, so it stays valid JSON) */
  private json(value: unknown): string {
    return JSON.stringify(value, (_k, v) => (typeof v === 'string' ? this.redact(v) : v));
  }
  // once per run: the library's own writer
  writeEnvironmentInfo(info: Parameters<Writer['writeEnvironmentInfo']>[0]): void {
    this.plain.writeEnvironmentInfo(info);
  }
  writeCategoriesDefinitions(categories: Parameters<Writer['writeCategoriesDefinitions']>[0]): void {
    this.plain.writeCategoriesDefinitions(categories);
  }
  writeGlobals(name: string, info: Parameters<Writer['writeGlobals']>[1]): void {
    this.plain.writeGlobals(name, info);
  }
}

/** The part of vitest's TestModule the reporter reads: its file task. */
type Module = Parameters<AllureVitestReporter['onTestRunEnd']>[0][number];

export class AllureReporter extends AllureVitestReporter {
  /** the modules written as they ended: onTestRunEnd writes only the others */
  private readonly written = new Set<Module>();

  constructor(private readonly settings: Config) {
    super(settings);
  }

  /**
   * A suite file's results are written when the file ends, while the other
   * files' checks still run: the library writes every result at the end of
   * the run, on the main thread, after the last check (half a second of every
   * run's wall went there).
   */
  onTestModuleEnd(module: Module): void {
    this.written.add(module);
    super.onTestRunEnd([module]);
  }

  onTestRunEnd(modules: Parameters<AllureVitestReporter['onTestRunEnd']>[0]): void {
    super.onTestRunEnd(modules.filter((m) => !this.written.has(m)));
  }

  onInit(vitest: Parameters<AllureVitestReporter['onInit']>[0]): void {
    super.onInit(vitest);
    // the runtime is private in the typings; its writer is a plain field (allure-js-commons 3)
    const runtime = (this as unknown as { allureReporterRuntime?: { writer?: Writer } }).allureReporterRuntime;
    if (runtime && runtime.writer) runtime.writer = new UnsyncedWriter(this.settings.resultsDir, this.settings.redact);
  }
}

const ALLURE_STATUS: Record<CheckResult['status'], string> = {
  passed: 'passed', 'unexpected-pass': 'passed', failed: 'failed', 'expected-fail': 'failed', error: 'broken', skipped: 'skipped',
};

/**
 * Allure results of the checks no vitest test ran (the invariants the kit
 * judges on every answer, src/run/invariants.ts): one result each, as the
 * reporter writes a check's — labelled by resource, rule group and rule, a
 * failure with its evidence and reproducer attached — every text redacted.
 */
export function writeKitResults(checks: readonly CheckResult[], dir: string, redact: (text: string) => string = (t) => t): void {
  if (!checks.length) return;
  makeDirs(dir);
  const now = Date.now();
  const write = (name: string, text: string) => writeFileSync(join(dir, name), redact(text));
  for (const c of checks) {
    const uuid = randomUUID();
    const attachments: Array<{ name: string; source: string; type: string }> = [];
    if (c.evidence?.length) attachments.push({ name: 'evidence.json', source: `${randomUUID()}-attachment.json`, type: 'application/json' });
    if (c.reproducer?.curl) attachments.push({ name: 'reproducer.sh', source: `${randomUUID()}-attachment.sh`, type: 'text/plain' });
    for (const a of attachments) write(a.source, a.name === 'evidence.json' ? JSON.stringify(c.evidence, null, 1) : `${c.reproducer!.command ?? ''}\n\n${c.reproducer!.curl}\n`);
    const result = {
      uuid, historyId: c.id, testCaseId: c.id, name: `${c.id} ${c.title}`, fullName: c.id,
      status: ALLURE_STATUS[c.status], statusDetails: { message: c.message ?? c.reason ?? '' }, stage: 'finished', start: now, stop: now,
      labels: [{ name: 'epic', value: c.resource }, { name: 'feature', value: c.group }, { name: 'story', value: c.rule }, { name: 'suite', value: 'invariants (every answer)' }],
      steps: [], attachments, parameters: [], links: [],
    };
    writeFileSync(join(dir, `${uuid}-result.json`), JSON.stringify(result, (_k, v) => (typeof v === 'string' ? redact(v) : v)));
  }
}
