/**
 * The run ledger: every id the run creates is appended to ledger.jsonl the
 * moment its create answer arrives, so cleanup — at the end, on a signal, or
 * later by `storecheck sweep` — deletes exactly what the run created and
 * nothing else. Updates and deletes of ids the ledger does not hold are refused.
 *
 * A create is announced before it is sent ('creating': the resource, a unique
 * property and the run-tagged values it carries) and resolved when its answer
 * arrives ('created' with the same `intent`). An intent never resolved — the
 * process was killed, or the answer was lost — is settled by cleanup, which
 * looks the records up by those values: a crash between the target storing a
 * record and the ledger hearing of it leaves nothing behind either.
 *
 * The ids a create answered are the run's at once ('created' with `pending`),
 * but its intent resolves only when a get has shown each of them carrying the
 * run's tag (confirm): a target that answered with the ids of records it held
 * before leaves the intent open, so cleanup still finds what it really stored.
 * An id a get shows without the tag is disowned ('disowned'): never written to.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirs } from '../files.js';

export interface LedgerEntry {
  op: 'created' | 'deleted' | 'probe' | 'creating' | 'disowned';
  resource: string;
  ids: string[];
  runTag: string;
  at: string;
  /** 'creating': the intent id; 'created': the intent it resolves (or, with `pending`, will resolve once its ids are confirmed) */
  intent?: string;
  /** 'created': the ids are the run's, the intent stays open until a get shows each carrying the run's tag */
  pending?: true;
  /** 'creating': the unique property looked up, and the run-tagged values sent */
  key?: string;
  values?: string[];
}

/** A create announced and never resolved: its records, if any, are found by `key` ∈ `values`. */
export interface CreateIntent {
  intent: string;
  resource: string;
  key: string;
  values: string[];
  /** the tag every value starts with: a lookup only ever claims records carrying it */
  runTag: string;
  /**
   * the create was answered with ids (the ledger holds them) that no get has
   * yet shown carrying the tag: a read-back of those ids tells what it stored
   */
  answered?: boolean;
}

export class NotOwnedError extends Error {
  constructor(resource: string, id: unknown, op: string) {
    super(`refused to ${op} ${resource} ${String(id)}: this run did not create it (only ids in the run ledger are ever changed)`);
    this.name = 'NotOwnedError';
  }
}

export class Ledger {
  private readonly owned = new Map<string, Set<string>>();
  private readonly deleted = new Map<string, Set<string>>();
  /** probe ids: fresh GUIDs sent to see how unknown ids are answered; never created, never counted or cleaned up */
  private readonly probes = new Map<string, Set<string>>();
  private readonly open = new Map<string, CreateIntent>();
  /** open intents whose answered ids await confirmation: intent -> resource and the ids not yet confirmed */
  private readonly awaiting = new Map<string, { resource: string; ids: Set<string> }>();
  /** resource\0id -> the intent its confirmation helps resolve */
  private readonly awaitedBy = new Map<string, string>();
  /** ids a get showed without any of the ledger's run tags: not the run's, never written to */
  private readonly disowned = new Map<string, Set<string>>();
  private intentCount = 0;
  private readonly intentPrefix = randomBytes(3).toString('hex');

  /** `file` undefined keeps the ledger in memory only (unit tests). */
  constructor(readonly file: string | undefined, readonly runTag: string) {
    if (file) makeDirs(dirname(file));
  }

  private append(entry: Omit<LedgerEntry, 'runTag' | 'at' | 'ids'> & { ids?: string[] }): void {
    if (!this.file) return;
    // one line per write with O_APPEND: concurrent workers never interleave a line
    appendFileSync(this.file, JSON.stringify({ ...entry, runTag: this.runTag, at: new Date().toISOString() }) + '\n');
  }

  /**
   * Announce a create before sending it; returns the intent id to pass to
   * recordCreated (or resolveIntent) when the answer is known.
   */
  recordCreating(resource: string, key: string, values: string[]): string {
    const intent = `${this.intentPrefix}-${++this.intentCount}`;
    this.open.set(intent, { intent, resource, key, values, runTag: this.runTag });
    this.append({ op: 'creating', resource, ids: [], intent, key, values });
    return intent;
  }

  recordCreated(resource: string, ids: string[], intent?: string): void {
    const set = this.owned.get(resource) ?? new Set();
    for (const id of ids) set.add(id.toLowerCase());
    this.owned.set(resource, set);
    if (intent) this.open.delete(intent);
    this.append({ op: 'created', resource, ids, ...(intent ? { intent } : {}) });
  }

  /**
   * The ids a create's answer gave, carrying the run's tag: the run's own from
   * now on, while `intent` stays open until a get shows each of them with the
   * tag (confirm) — one the get shows without it is disowned instead.
   */
  recordCreatedPending(resource: string, ids: string[], intent: string): void {
    if (!ids.length) return this.resolveIntent(resource, intent);
    const set = this.owned.get(resource) ?? new Set();
    for (const id of ids) set.add(id.toLowerCase());
    this.owned.set(resource, set);
    const waiting = this.awaitConfirmation(resource, ids, intent);
    this.append({ op: 'created', resource, ids, intent, pending: true });
    // every id already shown carrying the tag (created again under ids a get listed): settled now
    if (!waiting && this.open.delete(intent)) this.append({ op: 'created', resource, ids: [], intent });
  }

  /** Wait for a get to show `ids` (those not yet confirmed) before `intent` resolves; false: none left to wait for. */
  private awaitConfirmation(resource: string, ids: string[], intent: string): boolean {
    const left = new Set(ids.map((id) => id.toLowerCase()).filter((id) => !this.isConfirmed(resource, id)));
    if (!left.size) return false;
    this.awaiting.set(intent, { resource, ids: left });
    for (const id of left) this.awaitedBy.set(`${resource}\u0000${id}`, intent);
    return true;
  }

  /** The create of `intent` is known to have stored nothing (refused, or looked up and absent). */
  resolveIntent(resource: string, intent: string): void {
    this.recordCreated(resource, [], intent);
  }

  /** Creates announced and never resolved (only what this ledger or the files it loaded saw). */
  openIntents(): CreateIntent[] {
    return [...this.open.values()].map((x) => (this.awaiting.get(x.intent)?.ids.size ? { ...x, answered: true } : x));
  }

  recordDeleted(resource: string, ids: string[]): void {
    const set = this.deleted.get(resource) ?? new Set();
    for (const id of ids) set.add(id.toLowerCase());
    this.deleted.set(resource, set);
    this.append({ op: 'deleted', resource, ids });
  }

  /** A freshly generated GUID used to probe unknown-id behaviour: allowed, never a real record. */
  recordProbe(resource: string, id: string): void {
    const set = this.probes.get(resource) ?? new Set();
    set.add(id.toLowerCase());
    this.probes.set(resource, set);
    this.append({ op: 'probe', resource, ids: [id] });
  }

  /** May the run write to this id: a record it created, or a probe id (never a real record). */
  owns(resource: string, id: unknown): boolean {
    if (typeof id !== 'string') return false;
    const lower = id.toLowerCase();
    return (this.owned.get(resource)?.has(lower) ?? false) || (this.probes.get(resource)?.has(lower) ?? false);
  }

  /** the tags of the runs whose lines were loaded (sweep and cleanup act for them) */
  private readonly loadedTags = new Set<string>();

  /** The run tags a record of this ledger carries: the run's own, and those of every run loaded. */
  tags(): string[] {
    return [this.runTag, ...this.loadedTags].filter((t) => t.length > 0);
  }

  /** Ids whose record a get by id showed carrying the run's tag (or listed no record): checked once per id. */
  private readonly confirmed = new Map<string, Set<string>>();

  /** Is this id a probe id, or confirmed by a get (confirm)? */
  isConfirmed(resource: string, id: string): boolean {
    const lower = id.toLowerCase();
    return (this.probes.get(resource)?.has(lower) ?? false) || (this.confirmed.get(resource)?.has(lower) ?? false);
  }

  confirm(resource: string, ids: string[]): void {
    const set = this.confirmed.get(resource) ?? new Set();
    for (const id of ids) {
      const lower = id.toLowerCase();
      set.add(lower);
      const intent = this.awaitedBy.get(`${resource}\u0000${lower}`);
      if (intent === undefined) continue;
      this.awaitedBy.delete(`${resource}\u0000${lower}`);
      const waiting = this.awaiting.get(intent);
      waiting?.ids.delete(lower);
      // every id the create answered is shown carrying the tag: the create is settled
      if (waiting && !waiting.ids.size) {
        this.awaiting.delete(intent);
        if (this.open.delete(intent)) this.append({ op: 'created', resource, ids: [], intent });
      }
    }
    this.confirmed.set(resource, set);
  }

  /** Not confirmed and not disowned: a get has not yet shown whose record this id holds. */
  awaitsConfirmation(resource: string, id: string): boolean {
    const lower = id.toLowerCase();
    return this.owns(resource, lower) && !this.isConfirmed(resource, lower);
  }

  /**
   * A get showed these owned ids holding records without any of the ledger's
   * run tags: they are not the run's (the create answered ids of records the
   * store held before). Never owned from now on; the create's intent stays
   * open, so cleanup looks up what it really stored.
   */
  disown(resource: string, ids: string[]): void {
    const lowers = ids.map((id) => id.toLowerCase()).filter((id) => this.owned.get(resource)?.has(id));
    if (!lowers.length) return;
    const set = this.disowned.get(resource) ?? new Set();
    for (const id of lowers) {
      this.owned.get(resource)!.delete(id);
      set.add(id);
      const intent = this.awaitedBy.get(`${resource}\u0000${id}`);
      this.awaitedBy.delete(`${resource}\u0000${id}`);
      if (intent !== undefined) this.awaiting.get(intent)?.ids.delete(id);
    }
    this.disowned.set(resource, set);
    this.append({ op: 'disowned', resource, ids: lowers });
  }

  /** Was this id disowned (a get showed it without the run's tag)? */
  isDisowned(resource: string, id: string): boolean {
    return this.disowned.get(resource)?.has(id.toLowerCase()) ?? false;
  }

  assertOwned(resource: string, id: unknown, op: string): void {
    if (!this.owns(resource, id)) throw new NotOwnedError(resource, id, op);
  }

  /** Ids created and not yet deleted, by resource. */
  outstanding(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [resource, ids] of this.owned) {
      const gone = this.deleted.get(resource) ?? new Set();
      const left = [...ids].filter((id) => !gone.has(id));
      if (left.length) out.set(resource, left);
    }
    return out;
  }

  /** Ids created of one resource (deleted ones included). */
  createdCountOf(resource: string): number {
    return this.owned.get(resource)?.size ?? 0;
  }

  createdCount(): number {
    let n = 0;
    for (const ids of this.owned.values()) n += ids.size;
    return n;
  }

  /**
   * Rebuild a ledger from one or more ledger.jsonl files (cleanup in the main
   * process, sweep). `onlyRunTag`: only that run's lines (a report dir reused
   * keeps the lines of earlier runs, for sweep; a run cleans up its own).
   */
  static load(files: string[], runTag = 'sweep', onlyRunTag?: string): Ledger {
    const l = new Ledger(undefined, runTag);
    const resolved = new Set<string>();
    const pendingLines: LedgerEntry[] = [];
    const disownedLines: LedgerEntry[] = [];
    for (const f of files) {
      if (!existsSync(f)) continue;
      const lines = readFileSync(f, 'utf8').split('\n');
      for (const [i, line] of lines.entries()) {
        if (!line.trim()) continue;
        let e: LedgerEntry;
        try {
          e = JSON.parse(line);
        } catch {
          // a process killed while appending can leave its last line unfinished: nothing followed it
          if (i === lines.length - 1) continue;
          throw new Error(`${f}:${i + 1}: not a ledger line (expected JSON)`);
        }
        if (onlyRunTag !== undefined && e.runTag !== onlyRunTag) continue;
        if (typeof e.runTag === 'string' && e.runTag) l.loadedTags.add(e.runTag);
        if (e.op === 'creating') {
          if (e.intent && e.key && Array.isArray(e.values) && !resolved.has(e.intent)) {
            l.open.set(e.intent, { intent: e.intent, resource: e.resource, key: e.key, values: e.values, runTag: e.runTag });
          }
          continue;
        }
        if (e.op === 'created' && e.intent && !e.pending) {
          // lines of concurrent writers may land in any order: a resolution can precede its intent
          resolved.add(e.intent);
          l.open.delete(e.intent);
        }
        if (e.op === 'created' && e.intent && e.pending) pendingLines.push(e);
        if (e.op === 'disowned') disownedLines.push(e);
        if (e.op === 'created' || e.op === 'probe') {
          // probe ids were never records: allowed to write to, never counted or cleaned up
          const into = e.op === 'probe' ? l.probes : l.owned;
          const set = into.get(e.resource) ?? new Set();
          for (const id of e.ids) set.add(id.toLowerCase());
          into.set(e.resource, set);
        } else if (e.op === 'deleted') l.recordDeletedInMemory(e.resource, e.ids);
      }
    }
    // after every line (their order is not the order they were written in): what awaits confirmation, what was disowned
    for (const e of disownedLines) for (const id of e.ids) l.owned.get(e.resource)?.delete(id.toLowerCase());
    // (an open intent whose ids were all disowned stays open, waiting for nothing: cleanup looks it up)
    for (const e of pendingLines) if (l.open.has(e.intent!)) l.awaitConfirmation(e.resource, e.ids.filter((id) => l.owns(e.resource, id)), e.intent!);
    return l;
  }

  private recordDeletedInMemory(resource: string, ids: string[]): void {
    const set = this.deleted.get(resource) ?? new Set();
    for (const id of ids) set.add(id.toLowerCase());
    this.deleted.set(resource, set);
  }

  /** Attach a file to an in-memory ledger so later deletions are recorded. */
  withFile(file: string): Ledger {
    const l = new Ledger(file, this.runTag);
    for (const [r, ids] of this.owned) l.owned.set(r, new Set(ids));
    for (const [r, ids] of this.deleted) l.deleted.set(r, new Set(ids));
    for (const [r, ids] of this.probes) l.probes.set(r, new Set(ids));
    for (const [k, v] of this.open) l.open.set(k, v);
    for (const [k, v] of this.awaiting) l.awaiting.set(k, { resource: v.resource, ids: new Set(v.ids) });
    for (const [k, v] of this.awaitedBy) l.awaitedBy.set(k, v);
    for (const [r, ids] of this.disowned) l.disowned.set(r, new Set(ids));
    for (const t of this.loadedTags) l.loadedTags.add(t);
    return l;
  }
}
