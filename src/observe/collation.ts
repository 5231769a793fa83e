/**
 * collation.case, collation.accents, collation.trailingSpaces — how a String
 * array filter compares (§4 "matches records whose field equals any listed
 * value": equal under the store's collation, which the spec does not name).
 *
 * On records already there (read-only resources first; no write), one String
 * filter key of up to three resources: three records A, B, C with values no
 * collation confuses, then two gets —
 *   control  {key: [A, B, C]}                       all three come back (the filter works)
 *   variants {key: [A in the other letter case,      A back: case ignored
 *                   B with one accent changed,       B back: accents ignored
 *                   C with a trailing space]}        C back: trailing spaces ignored
 * Each part is the reading most keys agree on (a key that departs is named in
 * the detail; the filter checks judge every key under the reading).
 */
import type { Rec, StoreClient } from '../client/api.js';
import type { Exchange } from '../client/http.js';
import { GET_CAP, type FilterModel, type ResourceModel } from '../schema/model.js';
import { changeAccent, flipAsciiCase, looseText, modelledText, padRight } from '../values/index.js';
import { idsOf, type Shared } from './shared.js';
import { couldNotTell, observation, type Probe } from './types.js';
import type { Observation } from '../report/types.js';

const PARTS = [
  { key: 'collation.case', what: 'letter case', yes: 'insensitive', no: 'sensitive', variant: 'in the other letter case' },
  { key: 'collation.accents', what: 'accents', yes: 'insensitive', no: 'sensitive', variant: 'with one accent changed' },
  { key: 'collation.trailingSpaces', what: 'trailing spaces', yes: 'ignored', no: 'significant', variant: 'with a trailing space' },
] as const;
const KEYS_TRIED = 3;

/** The String array filter keys of a resource (not the id, not an alias). */
function textKeys(r: ResourceModel): FilterModel[] {
  return r.filters.filter((f) => f.filter === 'array' && f.valueKind === 'string' && f.key !== 'id' && !f.aliasOf && f.field === f.key);
}

interface Picks { a: Rec; b: Rec; c: Rec; values: [string, string, string]; variants: [string, string, string] }

/** Three records whose values are modelled, loosely distinct, and give each its variant. */
function pick(records: Rec[], f: FilterModel): Picks | undefined {
  const room = (f.maxLength ?? GET_CAP) - 1;
  const usable = records.filter((x) => typeof x.id === 'string' && typeof x[f.field] === 'string' && x[f.field].trim() !== ''
    && x[f.field] === x[f.field].trim() && modelledText(x[f.field]) && Array.from(x[f.field] as string).length <= room);
  const seen = new Set<string>();
  const distinct = usable.filter((x) => {
    const k = looseText(x[f.field]);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const a = distinct.find((x) => flipAsciiCase(x[f.field]) !== undefined);
  const b = distinct.find((x) => x !== a && changeAccent(x[f.field]) !== undefined);
  const c = distinct.find((x) => x !== a && x !== b);
  if (!a || !b || !c) return undefined;
  const values: [string, string, string] = [a[f.field], b[f.field], c[f.field]];
  return { a, b, c, values, variants: [flipAsciiCase(values[0])!, changeAccent(values[1])!, padRight(values[2])] };
}

interface KeyAnswer { where: string; found?: [boolean, boolean, boolean]; problem?: string; exchanges: Exchange[] }

async function tryKey(client: StoreClient, r: ResourceModel, f: FilterModel, p: Picks): Promise<KeyAnswer> {
  const where = `${r.prefix}/get ${f.key}`;
  const pagination = { pageSize: String(GET_CAP) };
  // the two gets side by side: the variants' answer counts only when the control's shows the filter works
  const [control, variants] = await Promise.all([
    client.get(r, { filters: { [f.key]: p.values }, pagination }),
    client.get(r, { filters: { [f.key]: p.variants }, pagination }),
  ]);
  if (!control.ok) return { where, problem: `{${f.key}: [3 values records hold]} failed: ${control.problem}`, exchanges: [control.exchange] };
  const has = (got: Rec[], x: Rec) => idsOf(got).includes(String(x.id).toLowerCase());
  if (![p.a, p.b, p.c].every((x) => has(control.value!, x))) return { where, problem: `{${f.key}: [3 values records hold]} did not return those 3 records`, exchanges: [control.exchange] };
  if (!variants.ok) return { where, problem: `{${f.key}: [the 3 values changed]} failed: ${variants.problem}`, exchanges: [control.exchange, variants.exchange] };
  const found: [boolean, boolean, boolean] = [has(variants.value!, p.a), has(variants.value!, p.b), has(variants.value!, p.c)];
  return { where, found, exchanges: [control.exchange, variants.exchange] };
}

/** The first String key of `r` whose records give three usable values, tried (undefined: none does). */
async function tryResource(client: StoreClient, shared: Shared, r: ResourceModel): Promise<KeyAnswer | undefined> {
  const { records } = await shared.page(r.name);
  for (const f of textKeys(r)) {
    const p = pick(records, f);
    if (p) return tryKey(client, r, f, p);
  }
  return undefined;
}

/** One part's reading: what every answering key says, else what most say (the others named), else none. */
function judgePart(i: number, answers: KeyAnswer[]): Observation {
  const part = PARTS[i];
  const answered = answers.filter((x) => x.found);
  const say = (x: KeyAnswer) => `${x.where}: ${x.found![i] ? 'matched' : 'did not match'} a value ${part.variant}`;
  const evidence = answered.flatMap((x) => x.exchanges.slice(-1));
  if (!answered.length) return couldNotTell(`no String array filter could be tried (${answers.map((x) => `${x.where}: ${x.problem}`).join('; ') || 'no resource holds three records with usable values'})`, ...answers.flatMap((x) => x.exchanges));
  const yes = answered.filter((x) => x.found![i]).length;
  const no = answered.length - yes;
  if (yes === no) return couldNotTell(`the keys tried disagree on ${part.what}: ${answered.map(say).join('; ')}`, ...evidence);
  const value = yes > no ? part.yes : part.no;
  const departing = answered.filter((x) => x.found![i] !== (yes > no));
  const note = departing.length ? `; departing from it: ${departing.map(say).join('; ')}` : '';
  return observation(value, `${part.what} ${value} in String array filters (${answered.length} key(s) on ${answered.length} resource(s)): ${answered.filter((x) => !departing.includes(x)).map(say).join('; ')}${note}`, ...evidence);
}

export const collationProbe: Probe = {
  name: 'string comparison',
  keys: PARTS.map((p) => p.key),
  phase: 1,
  async run({ client, shared }) {
    const answers: KeyAnswer[] = [];
    const candidates = (await shared.byCount(3, (x) => textKeys(x).length > 0)).map((c) => c.r);
    // as many resources side by side as answers are still wanted, in count order, until enough answered
    for (let next = 0; next < candidates.length;) {
      const wanted = KEYS_TRIED - answers.filter((x) => x.found).length;
      if (wanted <= 0) break;
      const batch = candidates.slice(next, next + wanted);
      next += batch.length;
      // taken in count order: a page that failed ends the probe, as it would have one resource after another
      for (const t of await Promise.allSettled(batch.map((r) => tryResource(client, shared, r)))) {
        if (t.status === 'rejected') throw t.reason;
        if (t.value) answers.push(t.value);
      }
    }
    return Object.fromEntries(PARTS.map((part, i) => [part.key, judgePart(i, answers)]));
  },
};
