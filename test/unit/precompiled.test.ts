/**
 * The validators compiled once and kept (src/schema/precompiled.ts) judge as the validators ajv
 * compiles in place: same verdict, same errors, for every definition of every schema; the kept
 * module is found by what it was compiled from, and one that is missing, stale or broken is
 * compiled again.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/schema/ajv.js';
import { schemaModel } from '../../src/schema/model.js';
import { definitionKeys, loadPrecompiled, precompiledFile, precompiledSource, readPrecompiled, writePrecompiled } from '../../src/schema/precompiled.js';
import { payloadArb } from '../../generators/index.js';

const docs = [...schemaModel().byId.values()];
const dir = mkdtempSync(join(tmpdir(), 'storecheck-precompiled-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('precompiled validators', () => {
  const source = precompiledSource(docs);
  const pre = loadPrecompiled(source);
  const ajv = createAjv(docs);
  const verdict = (fn: any, v: unknown) => ({ ok: fn(v), errors: fn.errors ?? null });

  it('hold every definition, each judging as ajv compiles it: valid payloads, and values bent one field at a time', () => {
    expect([...pre.keys()]).toEqual(definitionKeys(docs));
    const writable = schemaModel().resources.filter((r) => r.writable);
    // the decimal and integer limits are code keywords of their own: values at, within and past them
    const bent = ['12.5', '12,5', '123456789012.1', '1.123', '007', '-0.50', '99999999999', '123456789012', '1e3', 12, null, ''];
    const differ: string[] = [];
    const compare = (key: string, v: unknown, what: string) => {
      if (JSON.stringify(verdict(pre.get(key), v)) !== JSON.stringify(verdict(ajv.getSchema(key), v))) differ.push(what);
    };
    for (const r of writable) {
      const key = `${r.schemaId}#/$defs/Payload`;
      for (const p of fc.sample(payloadArb(r.name, { tag: 'sc-pre', refs: {} }), { seed: 24, numRuns: 3 })) {
        compare(key, p, r.name);
        for (const name of Object.keys(p)) for (const v of bent) compare(key, { ...p, [name]: v }, `${r.name}.${name} = ${JSON.stringify(v)}`);
      }
    }
    // and anything at all, against every definition
    const values = fc.sample(fc.jsonValue({ maxDepth: 3 }), { seed: 24, numRuns: 10 });
    for (const key of definitionKeys(docs)) for (const v of values) compare(key, v, `${key}: ${JSON.stringify(v)}`);
    expect(differ).toEqual([]);
    // the comparison sees a difference where there is one
    expect(verdict(pre.get(`${writable[0].schemaId}#/$defs/Payload`), {}).ok).toBe(false);
  });

  it('are kept under a name made from what they were compiled from; a missing, stale or broken module is none', () => {
    expect(readPrecompiled(dir, docs)).toBeUndefined();
    const file = writePrecompiled(dir, docs, source);
    expect(file).toBe(precompiledFile(dir, docs));
    expect(readdirSync(dir)).toEqual([file!.slice(dir.length + 1)]);
    expect(readPrecompiled(dir, docs)?.size).toBe(definitionKeys(docs).length);
    // another schema set (one description changed): another name, not found
    const changed = docs.map((d, i) => (i === 0 ? { ...d, description: `${d.description ?? ''} changed` } : d));
    expect(precompiledFile(dir, changed)).not.toBe(file);
    expect(readPrecompiled(dir, changed)).toBeUndefined();
    // a module others may write is not run
    chmodSync(file!, 0o666);
    expect(readPrecompiled(dir, docs)).toBeUndefined();
    chmodSync(file!, 0o644);
    expect(readPrecompiled(dir, docs)?.size).toBe(definitionKeys(docs).length);
    writeFileSync(file!, 'module.exports = {};');
    expect(readPrecompiled(dir, docs)).toBeUndefined();
    writeFileSync(file!, 'this is not JavaScript (');
    expect(readPrecompiled(dir, docs)).toBeUndefined();
    // a folder that cannot be made: nothing kept, no throw
    expect(writePrecompiled(join(file!, 'below-a-file'), docs, source)).toBeUndefined();
  });

  it('judge in a thread that never loads ajv itself: a worker reading them skips its ~25 ms of loading', () => {
    const kept = mkdtempSync(join(tmpdir(), 'storecheck-precompiled-only-'));
    try {
      writePrecompiled(kept, docs, source);
      const helper = fileURLToPath(new URL('../helpers/precompiled-only.ts', import.meta.url));
      const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', helper, kept], { encoding: 'utf8', timeout: 30_000 }));
      // every resource's Record judged (an empty object is no record), by the kept code alone
      expect(out).toMatchObject({ how: 'read', judged: schemaModel().resources.length, anyValid: false });
      expect(out.loaded.filter((f: string) => !/[\\/]ajv[\\/]dist[\\/]runtime[\\/]/.test(f))).toEqual([]);
    } finally {
      rmSync(kept, { recursive: true, force: true });
    }
  });
});
