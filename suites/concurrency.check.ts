/**
 * Requests that overlap (issue 16), for every writable resource:
 *   <r>.concurrency.updates     #none-lost [#versions]  updates of one record sent together
 *   <r>.concurrency.creates     #none-lost #distinct-ids creates sent together
 *   <r>.concurrency.count       #between               a count sent while creates land
 *   <r>.concurrency.delete-walk #no-duplicates         a page walk while records are deleted
 * Each check declares how many requests it sends together (suites/concurrency/*:
 * *_AT_ONCE, by depth) and never more than --concurrency; their order of
 * answer is in the evidence of every failure.
 */
import { check, checksOf, resources, type SuiteDeclaration } from '../src/check/index.js';
import { refsFixture, refsFor } from './support/refs.js';
import { judgeConcurrentCreates, judgeCountWhileCreating } from './concurrency/creates.js';
import { judgeDeleteDuringWalk } from './concurrency/delete-walk.js';
import { judgeConcurrentUpdates } from './concurrency/updates.js';

/** The checks this file registers (every catalogue check of these rules), read before the run by its plan (src/items/plan.ts). */
export const REGISTERS: SuiteDeclaration = {
  rules: ['concurrency.updates', 'concurrency.creates', 'concurrency.count', 'concurrency.delete-walk'],
};

const WRITABLE = resources().filter((r) => r.writable && r.payload.length > 0);
const refs = refsFixture('concurrency');

for (const r of WRITABLE) {
  const [updates] = checksOf('concurrency.updates', r.name);
  check(updates, async (ctx) => {
    const { ids, names } = await refsFor(refs, ctx, r);
    await judgeConcurrentUpdates(ctx, r, ids, names);
  });

  const [creates] = checksOf('concurrency.creates', r.name);
  check(creates, async (ctx) => {
    await judgeConcurrentCreates(ctx, r, (await refsFor(refs, ctx, r)).ids);
  });

  const [count] = checksOf('concurrency.count', r.name);
  check(count, async (ctx) => {
    await judgeCountWhileCreating(ctx, r, (await refsFor(refs, ctx, r)).ids);
  });

  const [walk] = checksOf('concurrency.delete-walk', r.name);
  check(walk, async (ctx) => {
    await judgeDeleteDuringWalk(ctx, r, (await refsFor(refs, ctx, r)).ids);
  });
}
