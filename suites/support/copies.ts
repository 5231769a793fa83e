/**
 * Many records cheaply: one generated payload and n copies of it, each with
 * its own token in the run-tagged unique values (names, slugs, codes), created
 * in one request (or in batches the target accepts, Scope.create). For items
 * that need more records than a page holds (the 1000 cap, the default page size).
 * Strings are cut short: 1001 pages of generated content can weigh tens of MB
 * in one answer, and what these items judge is how many records come back.
 */
import type { FixtureContext, ResourceModel } from '../../src/check/index.js';
import { payloadArb, retoken, tokenOf, type Payload } from '../../generators/index.js';

/** Create n copies of one generated record; returns their ids. `kind` (2 letters) keeps tokens apart between uses. */
export async function createCopies(f: FixtureContext, r: ResourceModel, n: number, kind: string): Promise<string[]> {
  const tag = f.config.runTag;
  const base = f.sample(payloadArb(r.name, { tag }), `copies.${kind}.${r.name}`);
  const items = Array.from({ length: n }, (_, i) => short(retoken(r.name, base, tag, tokenOf(kind, i))));
  return (await f.scope.create(r, items)).map((x) => String(x.id));
}

/** Text cut to SHORT code points (the unique values keep their tag and token, which start them). */
const SHORT = 64;
function short(payload: Payload): Payload {
  // code points, without splitting the whole (long) text into an array: the copies share one text
  const cut = (v: string) => {
    if (v.length <= SHORT) return v;
    let out = '';
    let n = 0;
    for (const c of v) {
      if (n++ === SHORT) break;
      out += c;
    }
    // a cut inside the text may end it with a space: generated text never has one at its edges (a store may trim or refuse it)
    return out.replace(/\s$/u, 'x');
  };
  return Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, typeof v === 'string' ? cut(v) : v.map(cut)]));
}
