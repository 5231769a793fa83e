/**
 * The run ledger: every id the run creates is appended to ledger.jsonl the
 * moment its create answer arrives, so cleanup — at the end, on a signal, or
 * later by `storecheck sweep` — deletes exactly what the run created and
 * nothing else. Updates and deletes of ids the ledger does not hold are refused.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface LedgerEntry {
  op: 'created' | 'deleted' | 'probe';
  resource: string;
  ids: string[];
  runTag: string;
  at: string;
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

  /** `file` undefined keeps the ledger in memory only (unit tests). */
  constructor(readonly file: string | undefined, readonly runTag: string) {
    if (file) mkdirSync(dirname(file), { recursive: true });
  }

  private append(entry: Omit<LedgerEntry, 'runTag' | 'at'>): void {
    if (!this.file) return;
    // one line per write with O_APPEND: concurrent workers never interleave a line
    appendFileSync(this.file, JSON.stringify({ ...entry, runTag: this.runTag, at: new Date().toISOString() }) + '\n');
  }

  recordCreated(resource: string, ids: string[]): void {
    const set = this.owned.get(resource) ?? new Set();
    for (const id of ids) set.add(id.toLowerCase());
    this.owned.set(resource, set);
    this.append({ op: 'created', resource, ids });
  }

  recordDeleted(resource: string, ids: string[]): void {
    const set = this.deleted.get(resource) ?? new Set();
    for (const id of ids) set.add(id.toLowerCase());
    this.deleted.set(resource, set);
    this.append({ op: 'deleted', resource, ids });
  }

  /** A freshly generated GUID used to probe unknown-id behaviour: allowed, never a real record. */
  recordProbe(resource: string, id: string): void {
    const set = this.owned.get(resource) ?? new Set();
    set.add(id.toLowerCase());
    this.owned.set(resource, set);
    this.append({ op: 'probe', resource, ids: [id] });
  }

  owns(resource: string, id: unknown): boolean {
    return typeof id === 'string' && (this.owned.get(resource)?.has(id.toLowerCase()) ?? false);
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

  createdCount(): number {
    let n = 0;
    for (const ids of this.owned.values()) n += ids.size;
    return n;
  }

  /** Rebuild a ledger from one or more ledger.jsonl files (cleanup in the main process, sweep). */
  static load(files: string[], runTag = 'sweep'): Ledger {
    const l = new Ledger(undefined, runTag);
    for (const f of files) {
      if (!existsSync(f)) continue;
      for (const [i, line] of readFileSync(f, 'utf8').split('\n').entries()) {
        if (!line.trim()) continue;
        let e: LedgerEntry;
        try {
          e = JSON.parse(line);
        } catch {
          throw new Error(`${f}:${i + 1}: not a ledger line (expected JSON)`);
        }
        if (e.op === 'created' || e.op === 'probe') {
          const set = l.owned.get(e.resource) ?? new Set();
          for (const id of e.ids) set.add(id.toLowerCase());
          l.owned.set(e.resource, set);
          if (e.op === 'probe') l.recordDeletedInMemory(e.resource, e.ids);
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
    return l;
  }
}
