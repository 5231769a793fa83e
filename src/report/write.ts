/**
 * Writes every view of a run next to each other:
 *   report.json (pretty), report.md, report.html, junit.xml, summary.md
 * Each file is written to a temporary name in the same directory and renamed
 * into place, so a reader never sees half a file. Synchronous. summary.md is
 * also appended to $GITHUB_STEP_SUMMARY when that is set (GitHub Actions shows
 * it on the job's page).
 */
import { appendFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderHtml } from './html.js';
import { renderJUnit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { renderSummary } from './pr-summary.js';
import type { Report } from './types.js';
import { REDACTED, redactForms, redactValue, secretForms } from '../client/redact.js';
import { makeDirs } from '../files.js';

export type WrittenReports = {
  json: string;
  markdown: string;
  html: string;
  junit: string;
  summary: string;
};

export const REPORT_FILES = { json: 'report.json', markdown: 'report.md', html: 'report.html', junit: 'junit.xml', summary: 'summary.md' } as const;

/** What a secret is replaced with in every written file. */
export const SECRET_PLACEHOLDER = REDACTED;

/** Write `content` to `file` atomically-ish: temp file in the same directory, then rename. */
export function writeFileAtomic(file: string, content: string): void {
  const tmp = `${file}.tmp-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    writeFileSync(tmp, content, 'utf8');
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** A deep copy of a JSON value with every form of every secret (in strings and keys) replaced. */
export function redactReport<T>(value: T, secrets: readonly string[]): T {
  return redactValue(value, formsOf(secrets));
}

const formsOf = (secrets: readonly string[]) => [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= 4).flatMap(secretForms))].sort((a, b) => b.length - a.length);

/**
 * Render and write report.json, report.md, report.html, junit.xml and summary.md
 * into `dir` (created if needed). `secrets` (the API key, the store's apikey) are
 * replaced by $STORE_API_KEY everywhere, as a last line of defence. summary.md is
 * appended to the file `stepSummary` names (default: $GITHUB_STEP_SUMMARY) when
 * there is one.
 */
export function writeReports(dir: string, report: Report, secrets: readonly string[] = [], stepSummary = process.env.GITHUB_STEP_SUMMARY): WrittenReports {
  const out = resolve(dir);
  makeDirs(out);
  const forms = formsOf(secrets);
  const safe = redactValue(report, forms);
  // render everything first: a rendering bug must not leave a mix of old and new files
  const contents: WrittenReports = {
    json: `${JSON.stringify(safe, null, 2)}\n`,
    markdown: renderMarkdown(safe),
    html: renderHtml(safe),
    junit: renderJUnit(safe),
    summary: renderSummary(safe),
  };
  // a last pass over the rendered text: no form of a secret survives a renderer's own escaping
  for (const key of Object.keys(contents) as Array<keyof WrittenReports>) contents[key] = redactForms(contents[key], forms);
  const paths = {} as WrittenReports;
  for (const key of Object.keys(REPORT_FILES) as Array<keyof WrittenReports>) {
    const file = join(out, REPORT_FILES[key]);
    writeFileAtomic(file, contents[key]);
    paths[key] = file;
  }
  if (stepSummary) appendStepSummary(stepSummary, contents.summary);
  return paths;
}

/** Append to GitHub's job summary file; a file that cannot be written costs the job summary, not the reports. */
function appendStepSummary(file: string, summary: string): void {
  try {
    appendFileSync(file, summary.endsWith('\n\n') ? summary : `${summary}\n`, 'utf8');
  } catch (e) {
    process.stderr.write(`storecheck: could not append the summary to $GITHUB_STEP_SUMMARY (${file}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
  }
}
