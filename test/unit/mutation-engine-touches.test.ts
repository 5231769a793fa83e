/**
 * The runner's policy for a survivor of the default server (scripts/mutation-engine-touches.ts):
 * the choices its code reads, one call away at most, decide which variant stores judge it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BEHAVIOUR } from '../../reference/behaviour.js';
import { ROOT } from '../../reference/cli-process.js';
import { choicesOf, storesFor, touchesOf } from '../../scripts/mutation-engine-touches.js';
import type { ListedMutant } from '../../scripts/mutation-engine-sample.js';

const KEYS = new Set(['astral', 'order', 'edgeSpaces', 'maxDataItems']);

const ENGINE = [
  'class Engine {',
  '  toRecordValue(x) {',
  "    if (typeof x === 'string') return astralColumn(this.behaviour, x);",
  '    return x;',
  '  }',
  '  sorted(list) {',
  '    const { order } = this.behaviour;',
  '    return list.filter((r) => r.ok);',
  '  }',
  '  plain(v) { return v + 1; }',
  '  far(v) { return this.toRecordValue(v); }',
  '  caller(v) { return this.behaviour.maxDataItems ? this.plain(v) : v; }',
  '  dispatch(r) {',
  '    const s = this.behaviour.astral;',
  "    if (r.live && this.behaviour.order === 'id') return 1;",
  '    return s;',
  '  }',
  '}',
  'const LIMIT = 3;',
  '',
].join('\n');
const READINGS = ['export function astralColumn(b, v) {', "  return b.astral === 'kept' ? v : trimmed(b, v);", '}', 'function trimmed(b, v) { return b.edgeSpaces ? v.trim() : v; }', ''].join('\n');

function at(id: string, text: string, source = ENGINE): ListedMutant {
  const lines = source.split('\n');
  const line = lines.findIndex((l) => l.includes(text));
  const column = lines[line].indexOf(text);
  return { id, fileName: 'reference/engine.ts', mutatorName: 'M', replacement: 'x', location: { start: { line, column }, end: { line, column: column + text.length } } };
}

describe('the choices a mutant touches', () => {
  const sources = { 'reference/engine.ts': ENGINE, 'reference/readings.ts': READINGS };
  const t = touchesOf([at('1', "typeof x === 'string'"), at('2', 'r.ok'), at('3', 'v + 1'), at('4', 'LIMIT = 3'), at('5', 'this.toRecordValue(v)')], sources, KEYS);

  it('reads in the enclosing function (depth 0), in the functions it calls and those calling it (depth 1), not further', () => {
    // astralColumn reads astral one call away; trimmed (edgeSpaces) is two calls away: not counted
    expect(t['1']).toEqual([{ key: 'astral', depth: 1 }]);
    // a destructured key, read in the method holding the arrow function the mutant is in
    expect(t['2']).toEqual([{ key: 'order', depth: 0 }]);
    // read by a caller, which decides whether it runs: one call away
    expect(t['3']).toEqual([{ key: 'maxDataItems', depth: 1 }]);
    // a module constant: none
    expect(t['4']).toBeUndefined();
    // a method called through this: its reads are one call away, its callees' two
    expect(t['5']).toBeUndefined();
  });

  it('a store chooses the keys its variants set otherwise than the defaults', () => {
    const defaults = { astral: 'kept', order: 'asc', maxDataItems: null };
    expect(choicesOf([{ astral: 'refused' }, { order: 'asc', maxDataItems: 10 }], defaults)).toEqual(['astral', 'maxDataItems']);
    expect(choicesOf([{ maxDataItems: null, astral: undefined }], defaults)).toEqual([]);
  });

  it('a survivor goes to the stores choosing otherwise on what it reads: nearest read first, then most keys, at most two', () => {
    const stores = [
      { name: 'a', chooses: ['order'] },
      { name: 'b', chooses: ['astral'] },
      { name: 'c', chooses: ['astral', 'edgeSpaces'] },
      { name: 'd', chooses: ['maxDataItems'] },
    ];
    const touches = [{ key: 'edgeSpaces', depth: 0 }, { key: 'astral', depth: 1 }, { key: 'order', depth: 1 }];
    // c reads edgeSpaces in the function itself; a and b one call away, one key each: in the stores' order
    expect(storesFor(touches, stores).map((s) => [s.name, s.keys])).toEqual([['c', ['astral', 'edgeSpaces']], ['a', ['order']]]);
    expect(storesFor(touches, stores, 5).map((s) => s.name)).toEqual(['c', 'a', 'b']);
    expect(storesFor([], stores)).toEqual([]);
  });

  it('a key read on the mutant\'s own line comes first: it most likely decides the mutated expression', () => {
    const [touch] = [touchesOf([at('6', 'r.live')], sources, KEYS)['6']];
    expect(touch).toEqual([{ key: 'astral', depth: 0 }, { key: 'order', depth: 0, line: true }]);
    const stores = [{ name: 'a', chooses: ['astral'] }, { name: 'o', chooses: ['order'] }];
    expect(storesFor(touch, stores, 1).map((s) => s.name)).toEqual(['o']);
  });

  it('sends seed 2029\'s usersCountPath survivor to the store without a users count path (it refuses every request there)', () => {
    const engine = readFileSync(join(ROOT, 'reference', 'engine.ts'), 'utf8');
    const real = { 'reference/engine.ts': engine, 'reference/readings.ts': readFileSync(join(ROOT, 'reference', 'readings.ts'), 'utf8') };
    const m = at('519', "route?.resource.documentedCountPath && route.op === 'count'", engine);
    const touch = touchesOf([m], real, new Set(Object.keys(DEFAULT_BEHAVIOUR)))['519'];
    expect(touch.find((x) => x.key === 'usersCountPath')).toEqual({ key: 'usersCountPath', depth: 0, line: true });
    // the run's stores, in their order: two choosing other key statuses (read earlier in dispatch), then the one without the path
    const stores = [
      { name: 'page-size-below-one-default+order-id+exclusive-ranges+replace-updates+error-403-flat', chooses: ['invalidKeyStatus', 'missingKeyStatus'] },
      { name: 'error-text-400+overlong-truncated+max-batch-10+extra-fields+small-store', chooses: ['invalidKeyStatus', 'missingKeyStatus'] },
      { name: 'users-count-absent', chooses: ['usersCountPath'] },
    ];
    expect(storesFor(touch, stores)[0].name).toBe('users-count-absent');
  });
});
