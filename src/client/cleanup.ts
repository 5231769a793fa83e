/**
 * Cleanup in bulk: delete what a ledger says a run created and did not see
 * gone, and read it back — in lists as large as the target takes, resources
 * side by side. Used at the end of each check file (in its worker: what the
 * file's checks and fixtures created), after the probes (the main process's
 * own records), at the end of a run and by `storecheck sweep`
 * (src/run/cleanup.ts).
 *
 * For each resource: one read-back by the id filter (lists of at most the get
 * cap, or the page size the target was seen to honour) tells the records still
 * there from those already gone; the ones there that carry a run tag are
 * deleted (lists of at most the observed data limit, halved when the target
 * refuses a list for its size) and read back again, three rounds at most.
 * Resources go side by side, but a resource only after every resource whose
 * records reference it (products before their categories). The client's gate
 * bounds the requests in flight.
 *
 * Nothing is taken on the target's word:
 * - an id counts as deleted only when a read-back lists it no more — and only
 *   a read-back that answered usably: a time-out, an endpoint given up, an
 *   answer cut at the size limit or one listing records never asked for (the
 *   filter not applied) proves nothing, and those ids are `unverified`, with
 *   the reason — never left behind, never deleted in the ledger;
 * - an id is `leftBehind` only when a read-back listed it after the deletes;
 * - only ids the ledger holds are deleted, and a record read back without any
 *   of the ledger's run tags is never deleted (not the run's own).
 */
import { carriesTag, type CallResult, type Rec, type StoreClient } from './api.js';
import type { Ledger } from './ledger.js';
import { pollUntil } from './poll.js';
import { deletionRank, GET_CAP, resource as resourceModel } from '../schema/model.js';

export interface CleanupLimits {
  /** ids per read-back (a get by the id filter, one page) */
  readList: number;
  /** ids per delete filter (a list the target refuses, 400 or 413, is halved) */
  deleteList: number;
  /** how long a deletion may take to show in reads (a lagging store); 0: at once */
  settleMs: number;
}

/** Without observations (sweep): lists of the get cap, halved on refusal; a deletion shows at once. */
export const DEFAULT_CLEANUP_LIMITS: Readonly<CleanupLimits> = Object.freeze({ readList: GET_CAP, deleteList: GET_CAP, settleMs: 0 });

/** Records whose removal could not be verified, for one reason. */
export interface Unverified {
  resource: string;
  reason: string;
  ids: string[];
  /** records of an unanswered create, known only by the run-tagged values they would carry */
  values?: string[];
}

/** A record a read-back showed still there after the deletes, and why it was not removed. */
export interface Remaining {
  resource: string;
  id: string;
  why: string;
}

export interface Cleaned {
  /** per resource, the ids deleted now (read back gone) */
  removed: Record<string, string[]>;
  /** per resource, the ids already gone at the first read-back (deleted by the checks, or earlier) */
  alreadyGone: Record<string, string[]>;
  leftBehind: Remaining[];
  unverified: Unverified[];
  /** records found by looking up unanswered creates (now in the ledger) */
  found: number;
  /** --keep-data: per resource, the ids a read-back showed still there (not deleted) */
  kept: Record<string, string[]>;
}

export function emptyCleaned(): Cleaned {
  return { removed: {}, alreadyGone: {}, leftBehind: [], unverified: [], found: 0, kept: {} };
}

/** The rounds of delete-and-read-back before what is still there is left behind. */
const DELETE_ROUNDS = 3;
/** Read-backs of the ids a read-back did not list, before the rest are taken as gone (a page cap may hide records). */
const READ_ROUNDS = 4;
/** Answers cut at the size limit that a resource's read-backs may split (in halves) before the rest is unverified. */
const CUT_SPLITS = 6;

const NOT_OURS = "a get by id shows a record without the run's tag under this id (not what the run created): never deleted";
const STILL_THERE = 'the target answered success, yet it is still there when read back';
const PADDED = 'the read-back listed records never asked for (the id filter was not applied): absence cannot be read from it';

/**
 * Delete and read back every id `ids` holds (default: what the ledger holds
 * outstanding); record in the ledger each id a read-back shows gone. The
 * first read-backs go side by side for every resource (a read needs no
 * order); then, in deletion order, the resources of a level side by side,
 * what was still there is deleted and read back again. Most ids are gone by
 * the time they are read back (the checks deleted them): one round trip.
 */
export async function cleanOutstanding(client: StoreClient, ledger: Ledger, limits: CleanupLimits, ids: Map<string, string[]> = ledger.outstanding()): Promise<Cleaned> {
  const out = emptyCleaned();
  const cuts = new Map([...ids.keys()].map((r) => [r, { left: CUT_SPLITS }]));
  const present = new Map(await Promise.all([...ids.keys()].map(async (r) => [r, await firstLook(client, ledger, r, ids.get(r)!, limits, cuts.get(r)!, out)] as const)));
  const left = [...present.entries()].filter(([, mine]) => mine.length).map(([r]) => r);
  for (const level of deletionLevels(left)) {
    await Promise.all(level.map((r) => deleteRounds(client, ledger, r, present.get(r)!, limits, cuts.get(r)!, out)));
  }
  return out;
}

/**
 * --keep-data: the first read-backs of cleanOutstanding and no delete. The
 * run's own records a read-back lists are `kept` (for sweep later); what it
 * shows gone (the checks' own deletes) is deleted in the ledger; a listed
 * record without the run's tag is left behind as not the run's; what no
 * usable read-back could show is `unverified`. Resources side by side.
 */
export async function readBackOutstanding(client: StoreClient, ledger: Ledger, limits: CleanupLimits, ids: Map<string, string[]> = ledger.outstanding()): Promise<Cleaned> {
  const out = emptyCleaned();
  await Promise.all([...ids].map(async ([resource, list]) => {
    const mine = await firstLook(client, ledger, resource, list, limits, { left: CUT_SPLITS }, out);
    if (mine.length) (out.kept[resource] ??= []).push(...mine);
  }));
  return out;
}

/**
 * Creates announced and never answered (a killed process, a lost answer):
 * their records are looked up by the run-tagged values they carried (side by
 * side, three tries each) and taken into the ledger; a lookup that fails
 * leaves them unverified.
 */
export async function settleIntents(client: StoreClient, ledger: Ledger, out: Cleaned): Promise<void> {
  await Promise.all(ledger.openIntents().map(async (intent) => {
    let found = await client.findTagged(intent.resource, intent.key, intent.values, intent.runTag);
    for (let attempt = 1; attempt < 3 && !found.ok; attempt++) found = await client.findTagged(intent.resource, intent.key, intent.values, intent.runTag);
    if (!found.ok) {
      // a create answered with ids: those ids' own read-back says whether they could be verified
      if (intent.answered) return;
      const why = found.exchange ? unreadable({ ok: false, exchange: found.exchange }) : 'the lookup got no usable answer';
      out.unverified.push({ resource: intent.resource, reason: `an unanswered create's records could not be looked up by ${intent.key}: ${why}`, ids: [], values: [...intent.values] });
      return;
    }
    ledger.recordCreated(intent.resource, found.ids, intent.intent);
    out.found += found.ids.length;
  }));
}

/**
 * The resources in the order they may be deleted, in levels: a resource
 * comes after every resource whose records reference it (src/schema/model.ts
 * references); the resources of one level go side by side.
 */
export function deletionLevels(names: string[]): string[][] {
  const left = new Set(names);
  const levels: string[][] = [];
  while (left.size) {
    const free = [...left].filter((n) => ![...left].some((o) => o !== n && referencesOf(o).includes(n)));
    // never empty (the model refuses a cycle of references); should it be, the rest go one by one
    const level = (free.length ? free : [...left].slice(0, 1)).sort((a, b) => deletionRank(a) - deletionRank(b));
    levels.push(level);
    for (const n of level) left.delete(n);
  }
  return levels;
}

function referencesOf(name: string): readonly string[] {
  try {
    return resourceModel(name).references;
  } catch {
    // a ledger line of a resource this model does not have: it references nothing we know
    return [];
  }
}

/** One resource's first read-back: what is gone is settled, what is there and not the run's is left behind; returns the run's own still there. */
async function firstLook(client: StoreClient, ledger: Ledger, resource: string, ids: string[], limits: CleanupLimits, cuts: { left: number }, out: Cleaned): Promise<string[]> {
  const first = await lookAll(client, resource, ids, limits.readList, cuts);
  settled(ledger, out.alreadyGone, resource, first.absent);
  out.unverified.push(...first.unverified.map((u) => ({ resource, ...u })));
  const tags = ledger.tags();
  const foreign = idsOf(first.present.filter((x) => !tags.some((t) => carriesTag(x, t))));
  for (const id of foreign) out.leftBehind.push({ resource, id, why: NOT_OURS });
  const notOurs = new Set(foreign.map((id) => id.toLowerCase()));
  // the ids as the target writes them (a store may keep its own letter case)
  const mine = idsOf(first.present).filter((id) => !notOurs.has(id.toLowerCase()));
  // read back just now carrying the run's tag: the client's ownership read-back before a delete is not needed again
  ledger.confirm(resource, mine);
  return mine;
}

/** Delete what the first read-back showed there and read back again, DELETE_ROUNDS at most; what stays is left behind. */
async function deleteRounds(client: StoreClient, ledger: Ledger, resource: string, there: string[], limits: CleanupLimits, cuts: { left: number }, out: Cleaned): Promise<void> {
  let mine = there;
  let why = STILL_THERE;
  for (let round = 0; round < DELETE_ROUNDS && mine.length; round++) {
    const problems = await deleteAll(client, resource, mine, limits.deleteList);
    const asked = mine;
    const back = (await pollUntil(() => lookAll(client, resource, asked, limits.readList, cuts), (l) => l.present.length === 0, limits.settleMs)).result;
    settled(ledger, out.removed, resource, back.absent);
    out.unverified.push(...back.unverified.map((u) => ({ resource, reason: `after the delete, ${u.reason}`, ids: u.ids })));
    mine = idsOf(back.present);
    why = (mine.length && problems.get(mine[0].toLowerCase())) || STILL_THERE;
  }
  for (const id of mine) out.leftBehind.push({ resource, id, why });
}

/** The ids of records, as written, each once. */
function idsOf(records: Rec[]): string[] {
  const seen = new Map<string, string>();
  for (const x of records) if (!seen.has(idOf(x))) seen.set(idOf(x), String(x.id));
  return [...seen.values()];
}

/** Ids a read-back showed gone: counted under `into`, and deleted in the ledger (a later cleanup has nothing to do for them). */
function settled(ledger: Ledger, into: Record<string, string[]>, resource: string, ids: string[]): void {
  if (!ids.length) return;
  (into[resource] ??= []).push(...ids);
  ledger.recordDeleted(resource, ids);
}

interface Look {
  /** records listed under an asked id */
  present: Rec[];
  /** asked ids a usable read-back did not list */
  absent: string[];
  unverified: { reason: string; ids: string[] }[];
}

/** Read back `ids` in lists of `size`, side by side. */
async function lookAll(client: StoreClient, resource: string, ids: string[], size: number, cuts: { left: number }): Promise<Look> {
  const looks = await Promise.all(chunks(ids, size).map((list) => look(client, resource, list, cuts)));
  return merged(looks);
}

/**
 * Read back one list: the records listed are there; the asked ids an answer
 * does not list are gone once a read-back of just those lists none of them
 * (a target that caps its pages below the list would otherwise hide some).
 * An answer cut at the size limit is read again in halves (CUT_SPLITS per
 * resource); any other unusable answer leaves the ids unverified.
 */
async function look(client: StoreClient, resource: string, ids: string[], cuts: { left: number }): Promise<Look> {
  const out: Look = { present: [], absent: [], unverified: [] };
  let asking = ids;
  for (let round = 0; asking.length; round++) {
    if (round === READ_ROUNDS) {
      out.unverified.push({ reason: `${READ_ROUNDS} read-backs each listed some of the asked ids and never none: the rest could not be told gone`, ids: asking });
      break;
    }
    const got = await client.byIds(resource, asking);
    if (!got.ok) {
      if (got.exchange.response?.truncated && asking.length > 1 && cuts.left-- > 0) {
        const half = asking.length >> 1;
        return merged([out, ...(await Promise.all([asking.slice(0, half), asking.slice(half)].map((h) => look(client, resource, h, cuts))))]);
      }
      out.unverified.push({ reason: unreadable(got), ids: asking });
      break;
    }
    const asked = new Set(asking.map((id) => id.toLowerCase()));
    const records = (got.value ?? []).filter((x): x is Rec => !!x && typeof x === 'object');
    const listed = records.filter((x) => asked.has(idOf(x)));
    const shown = new Set(listed.map((x) => idOf(x)));
    out.present.push(...listed);
    const rest = asking.filter((id) => !shown.has(id.toLowerCase()));
    if (records.length > listed.length) {
      if (rest.length) out.unverified.push({ reason: PADDED, ids: rest });
      break;
    }
    if (!listed.length) out.absent.push(...rest);
    asking = listed.length ? rest : [];
  }
  return out;
}

/** Why a read-back proves nothing, in a sentence. */
function unreadable(got: Pick<CallResult<unknown>, 'exchange' | 'ok' | 'problem'>): string {
  const ex = got.exchange;
  if (ex.transportError) return `the read-back got no answer (${ex.transportError.code}: ${ex.transportError.message})`;
  if (ex.response?.truncated) return `the read-back's answer was not taken in (${ex.parseError ?? 'cut'})`;
  return `the read-back got no usable answer (${got.problem ?? `HTTP ${ex.response?.status}`})`;
}

/**
 * Delete `ids` in lists of `size`, side by side; a list refused for its size
 * (400 or 413) is sent again in halves until a single id is refused. Returns
 * the problem of each id whose list the target did not accept (the caller's
 * read-back judges what is gone either way).
 */
async function deleteAll(client: StoreClient, resource: string, ids: string[], size: number): Promise<Map<string, string>> {
  const problems = new Map<string, string>();
  let pending = ids;
  let listSize = Math.max(1, size);
  while (pending.length) {
    const lists = chunks(pending, listSize);
    const results = await Promise.all(lists.map((list) => client.delete(resource, list).catch((e: Error) => ({ ok: false, problem: e.message, exchange: undefined }))));
    const refused: string[][] = [];
    lists.forEach((list, i) => {
      const r = results[i];
      if (r.ok || ('applied' in r && r.applied)) return;
      const status = r.exchange?.response?.status;
      if ((status === 400 || status === 413) && list.length > 1) refused.push(list);
      else for (const id of list) problems.set(id.toLowerCase(), r.problem ?? 'the delete failed');
    });
    if (!refused.length) break;
    listSize = Math.max(1, Math.floor(Math.max(...refused.map((l) => l.length)) / 2));
    pending = refused.flat();
  }
  return problems;
}

function merged(looks: Look[]): Look {
  return {
    present: looks.flatMap((l) => l.present),
    absent: looks.flatMap((l) => l.absent),
    unverified: looks.flatMap((l) => l.unverified),
  };
}

/** `items` in order, in lists of at most `size` (at least 1): the one way the run cuts ids and items into the lists a store takes. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  const n = Math.max(1, Math.floor(size));
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

const idOf = (x: Rec): string => String(x?.id).toLowerCase();
