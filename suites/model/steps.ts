/**
 * How a command of a model-based run talks to the target and is judged: each
 * command is one step, judged as the item of its kind (`<r>.model.sequence#<kind>`);
 * after every write the target must agree with the model (`agree`). A failure
 * stops the sequence (fast-check then shrinks it to the shortest one that
 * still fails) and says the sequence that led there, one request per line.
 */
import {
  stopOnItemOutcome, TargetError, describeValue, type CheckContext, type ItemContext, type Rec, type Exchange,
  type ModelCommand, type ResourceModel,
} from '../../src/check/index.js';
import { getByIds, mismatchText, payloadMismatches } from '../support/writes.js';
import type { StoreModel } from './state.js';

/** The real side of a model-based run: where commands send, and what the failure report needs. */
export interface Real {
  ctx: CheckContext;
  r: ResourceModel;
  /** id -> name of the records payloads reference (categories, collections) */
  names: Map<string, string>;
  /** every request of this sequence so far, in order */
  sent: Exchange[];
  /** the commands run so far, as they print */
  ran: string[];
  /** the command kinds judged so far in this check (the items) */
  judged: Set<ModelCommand>;
  /** ids this sequence created (deleted when it ends) */
  created: string[];
}

export function newReal(ctx: CheckContext, r: ResourceModel, names: Map<string, string>, judged: Set<ModelCommand>): Real {
  return { ctx, r, names, sent: [], ran: [], judged, created: [] };
}

/** A step of a kind --only left out could not be taken: the sequence ends there, judging nothing more. */
export class SequenceAbandoned extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SequenceAbandoned';
  }
}

/**
 * Run one command as the item of its kind. Its outcome is recorded on the
 * item; a failure or a target error then stops the sequence. A kind --only
 * leaves out (`--only '<r>.model.sequence#walk'`) still runs — the selected
 * items need the sequence — but records nothing; if it cannot be taken, the
 * sequence is abandoned (SequenceAbandoned), not failed.
 */
export async function step(real: Real, kind: ModelCommand, command: string, body: (it: ItemContext) => Promise<void>): Promise<void> {
  real.ran.push(command);
  const run = async (it: ItemContext) => {
    try {
      await body(it);
    } finally {
      real.sent.push(...it.exchanges);
    }
  };
  if (!real.ctx.selected(kind)) {
    try {
      await real.ctx.item(kind, run, { runUnselected: true });
    } catch (e) {
      if (e instanceof TargetError) throw e;
      throw new SequenceAbandoned(`${command} (not selected) could not be taken: ${(e as Error).message.split('\n')[0]}`);
    }
    return;
  }
  real.judged.add(kind);
  await real.ctx.item(kind, run);
  stopOnItemOutcome();
}

const MAX_LINES = 60;
const MAX_BODY = 280;

/** One request as a line: path, body without the key, answer. */
export function requestLine(ex: Exchange, n: number): string {
  const { authentication: _key, ...rest } = (ex.request.body ?? {}) as Rec;
  let body = JSON.stringify(rest);
  if (body.length > MAX_BODY) body = `${body.slice(0, MAX_BODY)}…`;
  const answer = ex.response ? `${ex.response.status}` : ex.transportError ? `no answer (${ex.transportError.code})` : 'not sent';
  return `${n}. POST ${ex.request.path} ${body} → ${answer}`;
}

/**
 * The requests of the sequence so far (and of the step being judged), one per
 * line; a read repeated while waiting for a write to show is one line with
 * its count.
 */
export function sequenceText(real: Real, it: ItemContext): string {
  const all = [...real.sent, ...it.exchanges];
  const lines: string[] = [];
  for (let i = 0; i < all.length; ) {
    let j = i + 1;
    while (j < all.length && sameRequest(all[i], all[j])) j++;
    lines.push(j - i > 1 ? `${requestLine(all[i], i + 1).replace(/^[0-9]+\./, `${i + 1}–${j}.`)} (the same read ${j - i} times, waiting for the write to show)` : requestLine(all[i], i + 1));
    i = j;
  }
  const shown = lines.length > MAX_LINES ? [`… ${lines.length - MAX_LINES} earlier line(s)`, ...lines.slice(-MAX_LINES)] : lines;
  return `commands: ${real.ran.join(' → ')}\nrequests (one per line):\n${shown.join('\n')}`;
}

const sameRequest = (a: Exchange, b: Exchange) => a.request.path === b.request.path && JSON.stringify(a.request.body) === JSON.stringify(b.request.body);

/**
 * Fail the step: one sentence with where the spec says so, then the sequence
 * that led there; the counterexample is the commands that ran.
 */
export function failStep(it: ItemContext, real: Real, message: string, detail: { expected?: unknown; actual?: unknown; evidence?: Exchange[]; why: string }): never {
  const { why, ...rest } = detail;
  return it.fail({
    message: `${message} (${why})\n${sequenceText(real, it)}`,
    ...rest,
    counterexample: [...real.ran],
    evidence: detail.evidence ?? it.exchanges.slice(-2),
  });
}

/** Where the target and the model disagree, record by record. */
function disagreements(model: StoreModel, real: Real, byId: Map<string, Rec>): string[] {
  const out: string[] = [];
  for (const rec of model.live.values()) {
    const got = byId.get(rec.id.toLowerCase());
    if (!got) {
      out.push(`${rec.id} is missing`);
      continue;
    }
    for (const m of payloadMismatches(real.r, rec.values, got, 'get', { names: real.names })) out.push(`${rec.id} ${mismatchText(m, 'the model holds')}`);
  }
  for (const id of model.goneIds()) if (byId.has(id.toLowerCase())) out.push(`${id} was deleted, yet get returns it`);
  return out;
}

/**
 * After a write: get by every id the run has had must show exactly the live
 * records with the values the model holds, and none of the deleted ones (a
 * lagging store is read again until it does, or the visibility deadline).
 * The readings are kept: filter expectations are computed on them.
 */
export async function agree(it: ItemContext, model: StoreModel, real: Real, after: string): Promise<void> {
  const ids = model.allIds();
  if (!ids.length) return;
  const got = await getByIds(it, real.r, ids, `get by the ${ids.length} id(s) of the run's ${real.r.title} records ${after}`, (m) => disagreements(model, real, m).length === 0);
  const wrong = disagreements(model, real, got.byId);
  if (wrong.length) {
    failStep(it, real, `${after}, get by the run's ids disagrees with the model of its ${real.r.title} records: ${wrong.slice(0, 4).join('; ')}${wrong.length > 4 ? ` (+${wrong.length - 4} more)` : ''}`, {
      why: '§4 Create and update payloads, §4 Delete',
      expected: { live: Object.fromEntries([...model.live.values()].map((x) => [x.id, x.values])), deleted: model.goneIds() },
      actual: got.records.map((x) => (x && typeof x === 'object' ? x.id : x)),
      evidence: it.exchanges.slice(-2),
    });
  }
  for (const rec of model.live.values()) rec.reading = got.byId.get(rec.id.toLowerCase());
}

/** A short text for ids in command names. */
export const short = (id: string) => id.slice(0, 8);

export { describeValue };
