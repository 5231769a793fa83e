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
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirs } from '../files.js';

export interface LedgerEntry {
  op: 'created' | 'deleted' | 'probe' | 'creating';
  resource: string;
  ids: string[];
  runTag: string;
  at: string;
  /** 'creating': the intent id; 'created': the intent it resolves */
  intent?: string;
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

  /** The create of `intent` is known to have stored nothing (refused, or looked up and absent). */
  resolveIntent(resource: string, intent: string): void {
    this.recordCreated(resource, [], intent);
  }

  /** Creates announced and never resolved (only what this ledger or the files it loaded saw). */
  openIntents(): CreateIntent[] {
    return [...this.open.values()];
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
    for (const id of ids) set.add(id.toLowerCase());
    this.confirmed.set(resource, set);
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
        if (e.op === 'created' && e.intent) {
          // lines of concurrent writers may land in any order: a resolution can precede its intent
          resolved.add(e.intent);
          l.open.delete(e.intent);
        }
        if (e.op === 'created' || e.op === 'probe') {
          // probe ids were never records: allowed to write to, never counted or cleaned up
          const into = e.op === 'probe' ? l.probes : l.owned;
          const set = into.get(e.resource) ?? new Set();
          for (const id of e.ids) set.add(id.toLowerCase());
          into.set(e.resource, set);
        } else if (e.op === 'deleted') l.recordDeletedInMemory(e.resource, e.ids);
      }
    }
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
    for (const t of this.loadedTags) l.loadedTags.add(t);
    return l;
  }
}
