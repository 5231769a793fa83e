/**
 * allure-vitest's reporter, writing allure-results/ without an fsync per file.
 * Its default writer flushes every result, container and attachment to disk
 * synchronously, on the main thread — the thread that also serves the workers'
 * module requests and the run's own requests: hundreds of fsyncs per run for
 * files that Allure reads only after the run has ended. The files are the same;
 * each is still written whole before the next, under its own unique name.
 */
import { mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import AllureVitestReporter from 'allure-vitest/reporter';
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import type { Writer } from 'allure-js-commons/sdk/reporter';

type Config = ConstructorParameters<typeof AllureVitestReporter>[0] & { resultsDir: string };

class UnsyncedWriter implements Writer {
  private readonly plain: FileSystemWriter;
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.plain = new FileSystemWriter({ resultsDir: dir });
  }
  writeResult(result: Parameters<Writer['writeResult']>[0]): void {
    writeFileSync(join(this.dir, `${result.uuid}-result.json`), JSON.stringify(result));
  }
  writeGroup(group: Parameters<Writer['writeGroup']>[0]): void {
    writeFileSync(join(this.dir, `${group.uuid}-container.json`), JSON.stringify(group));
  }
  writeAttachment(name: string, content: Buffer): void {
    writeFileSync(join(this.dir, name), content);
  }
  writeAttachmentFromPath(name: string, from: string): void {
    copyFileSync(from, join(this.dir, name));
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

export class AllureReporter extends AllureVitestReporter {
  constructor(private readonly settings: Config) {
    super(settings);
  }

  onInit(vitest: Parameters<AllureVitestReporter['onInit']>[0]): void {
    super.onInit(vitest);
    // the runtime is private in the typings; its writer is a plain field (allure-js-commons 3)
    const runtime = (this as unknown as { allureReporterRuntime?: { writer?: Writer } }).allureReporterRuntime;
    if (runtime && runtime.writer) runtime.writer = new UnsyncedWriter(this.settings.resultsDir);
  }
}
