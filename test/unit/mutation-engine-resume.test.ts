/**
 * `npm run mutation:engine -- --resume` continues a run only on the code it
 * began on (scripts/mutation-engine-resume.ts): the coverage map and the
 * records name mutants by StrykerJS's ids, which follow the code. Tried on a
 * small tree of its own: the same tree resumes; a changed, added or renamed
 * code file refuses, saying why; a run without a kept hash refuses.
 */
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepSourceHash, resumeRefusal, SOURCE_HASH_FILE, sourceHash } from '../../scripts/mutation-engine-resume.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A project with a reference/ folder (a nested one too) and a raw/ folder of a run begun on it. */
function project(): { root: string; raw: string } {
  const root = mkdtempSync(join(tmpdir(), 'sc-resume-'));
  made.push(root);
  mkdirSync(join(root, 'reference', 'data'), { recursive: true });
  writeFileSync(join(root, 'reference', 'engine.ts'), 'export const limit = 1000;\n');
  writeFileSync(join(root, 'reference', 'pipeline.ts'), 'export const next = () => 0;\n');
  writeFileSync(join(root, 'reference', 'data', 'seed.json'), '{"n":1}\n');
  writeFileSync(join(root, 'reference', 'README.md'), 'notes\n');
  const raw = join(root, 'reports', 'mutation-engine', 'seed-1', 'raw');
  mkdirSync(raw, { recursive: true });
  return { root, raw };
}

describe('mutation:engine --resume', () => {
  it('resumes on the tree the run began on', () => {
    const { root, raw } = project();
    keepSourceHash(root, raw);
    expect(resumeRefusal(root, raw)).toBeUndefined();
  });

  it('refuses when a code file under reference/ changed, naming both hashes', () => {
    const { root, raw } = project();
    keepSourceHash(root, raw);
    const was = sourceHash(root);
    writeFileSync(join(root, 'reference', 'engine.ts'), 'export const limit = 1001;\n');
    const now = sourceHash(root);
    expect(now).not.toBe(was);
    const why = resumeRefusal(root, raw);
    expect(why).toContain('reference/ changed since this run began');
    expect(why).toContain(`source hash ${was}, now ${now}`);
  });

  it('refuses when a nested code file changed, or a code file was added or renamed', () => {
    const nested = project();
    keepSourceHash(nested.root, nested.raw);
    writeFileSync(join(nested.root, 'reference', 'data', 'seed.json'), '{"n":2}\n');
    expect(resumeRefusal(nested.root, nested.raw)).toMatch(/changed since this run began/);

    const added = project();
    keepSourceHash(added.root, added.raw);
    writeFileSync(join(added.root, 'reference', 'extra.mjs'), 'export {};\n');
    expect(resumeRefusal(added.root, added.raw)).toMatch(/changed since this run began/);

    const renamed = project();
    keepSourceHash(renamed.root, renamed.raw);
    renameSync(join(renamed.root, 'reference', 'pipeline.ts'), join(renamed.root, 'reference', 'pipeline2.ts'));
    expect(resumeRefusal(renamed.root, renamed.raw)).toMatch(/changed since this run began/);
  });

  it('reads code files only: a note under reference/ changing does not refuse', () => {
    const { root, raw } = project();
    keepSourceHash(root, raw);
    writeFileSync(join(root, 'reference', 'README.md'), 'other notes\n');
    expect(resumeRefusal(root, raw)).toBeUndefined();
  });

  it('hashes names relative to the project: the same tree in another folder has the same hash', () => {
    const { root } = project();
    const elsewhere = mkdtempSync(join(tmpdir(), 'sc-resume-copy-'));
    made.push(elsewhere);
    cpSync(join(root, 'reference'), join(elsewhere, 'reference'), { recursive: true });
    expect(sourceHash(elsewhere)).toBe(sourceHash(root));
  });

  it('refuses a run that kept no hash (begun before it was kept), saying where it looked', () => {
    const { root, raw } = project();
    expect(resumeRefusal(root, raw)).toBe(`--resume: reports/mutation-engine/seed-1/raw holds no ${SOURCE_HASH_FILE} (a run begun before it was kept): start a fresh run`);
  });

  it('keeps the hash the way the refusal reads it: one line in raw/source-hash', () => {
    const { root, raw } = project();
    keepSourceHash(root, raw);
    writeFileSync(join(raw, SOURCE_HASH_FILE), `  ${sourceHash(root)}\n\n`);
    expect(resumeRefusal(root, raw)).toBeUndefined();
  });
});
