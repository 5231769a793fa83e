/**
 * Reads sent once and judged wherever they are asked: within one process (the
 * main process's probes, or one worker's checks), a get or count whose path
 * and body equal those of a read already answered is not sent again — the
 * asker gets that answer, marked with who sent it (`Exchange.sharedFrom`,
 * shown in its evidence), and it counts as a request of the one that sent it.
 *
 * Only reads whose answer the run cannot change in between are shared:
 * - reads of a resource the run does not write (the read-only resources, the
 *   store, a path that is no resource): no create, update or delete of the
 *   run reaches them, so the same request gets the same records (a store
 *   other clients write may differ between two reads anyway; a shared answer
 *   is one snapshot every asker judges alike);
 * - reads with a key that is not the run's (wrong, missing, near-miss) that
 *   were refused (a status outside 2xx): a refusal carries none of the store's
 *   data, so no write changes it. One that was served (a 2xx, records or not)
 *   is not shared: what it leaks depends on the records there at that moment.
 * Writes are never shared, nor reads of a resource the run writes with its
 * own key (their answers change with every check's writes), nor an answer
 * that is no usable verdict of the target (no answer, a 5xx or a 429, cut):
 * the next asker sends its own.
 */
import { jsonIsParsedText, type Exchange } from './http.js';
import { resources } from '../schema/model.js';

/** A read the memo may share: its key (path and body) and whether it carries the run's own key. */
export interface SharedRead {
  key: string;
  ownKey: boolean;
}

const READS = new Set(['get', 'count']);

/** The prefixes of the resources the run writes; any other path (read-only resources, the store, no resource) it never changes. */
const WRITTEN = new Set(resources().filter((r) => r.writable).map((r) => r.prefix));

/** Answer text kept for sharing, at most, per process (the oldest answers make way): memory stays bounded on a large store. */
export const SHARED_READS_BYTES = 16 * 1024 * 1024;

/** An answer kept for sharing. */
export interface Kept {
  /** the exchange as answered; without `json` when `parse` (its records are parsed from its text for each asker) */
  ex: Exchange;
  /** who sent it */
  by: string;
  /** each asker's records are JSON.parse(ex.response.text): the text holds no secret, so it is what was parsed */
  parse?: true;
}

export class SharedReads {
  /** answers (or the request in flight) by path and body; an answer that may not be shared is removed once settled */
  private readonly answers = new Map<string, Promise<Kept | undefined>>();
  /** the settled answers kept, oldest first */
  private readonly done = new Map<string, Kept>();
  private bytes = 0;
  /** reads answered from an earlier request (not sent) */
  hits = 0;

  /**
   * @param apiKey the run's key: a read with another key is shared only when it was refused
   * @param askedBy who is asking now (a check, an item, the probes): named on the answers others reuse
   * @param budget answer text kept at most, in UTF-16 code units
   */
  constructor(private readonly apiKey: string, private readonly askedBy: () => string, private readonly budget = SHARED_READS_BYTES) {}

  /** The read `path` with `body` as the memo keys it, or undefined when it is never shared. */
  readOf(path: string, body: unknown, headers?: Record<string, string>): SharedRead | undefined {
    if (headers && Object.keys(headers).length) return undefined;
    const cut = path.lastIndexOf('/');
    if (!READS.has(path.slice(cut + 1))) return undefined;
    const ownKey = (body as { authentication?: { apiKey?: unknown } } | null)?.authentication?.apiKey === this.apiKey;
    // the run's own key on a resource it writes: the answer changes with its writes
    if (ownKey && WRITTEN.has(path.slice(0, cut))) return undefined;
    return { key: `${path}\n${typeof body === 'string' ? body : JSON.stringify(body)}`, ownKey };
  }

  /**
   * The answer to `read` (readOf): an equal read's, when one was answered (or
   * is in flight) with an answer that may be shared — marked `sharedFrom`
   * with who sent it — else `send()`'s.
   */
  async read(read: SharedRead, send: () => Promise<Exchange>): Promise<Exchange> {
    const earlier = this.answers.get(read.key);
    const kept = earlier && (await earlier);
    if (kept) {
      this.hits++;
      // each asker gets its own parsed records: one that sorts or edits them changes no other's
      return { ...kept.ex, json: kept.parse ? JSON.parse(kept.ex.response!.text) : structuredClone(kept.ex.json), sharedFrom: kept.by };
    }
    const by = this.askedBy();
    const sent = send();
    // kept as answered, before the sender can touch its records (this reaction runs before the sender's)
    const keeping = sent.then((ex) => (shareable(read, ex) ? keep(ex, by) : undefined), () => undefined);
    this.answers.set(read.key, keeping);
    void keeping.then((k) => this.settled(read.key, keeping, k));
    return sent;
  }

  /** The answers kept (settled), oldest first: what another process's memo is seeded with (seed). */
  kept(): Array<[string, Kept]> {
    return [...this.done];
  }

  /**
   * Answers another process kept (the main process's probes, handed to each
   * worker with the run state): shared here as if sent here, named by who sent them there.
   */
  seed(entries: ReadonlyArray<readonly [string, Kept]>): void {
    for (const [key, k] of entries) {
      if (this.answers.has(key)) continue;
      const kept = Promise.resolve(k);
      this.answers.set(key, kept);
      this.settled(key, kept, k);
    }
  }

  /** An answer settled: dropped when it may not be shared, else counted against the budget (the oldest kept make way). */
  private settled(key: string, keeping: Promise<Kept | undefined>, k: Kept | undefined): void {
    if (this.answers.get(key) !== keeping) return;
    if (!k) {
      this.answers.delete(key);
      return;
    }
    this.done.set(key, k);
    this.bytes += sizeOf(key, k);
    for (const [old, o] of this.done) {
      if (this.bytes <= this.budget) break;
      this.done.delete(old);
      this.answers.delete(old);
      this.bytes -= sizeOf(old, o);
    }
  }
}

/**
 * What is kept of an answer to share: its records as a private copy no asker
 * can touch — none at all when they can be parsed again from its text (the
 * text holds no secret: most answers), else a structured clone (an answer
 * with a secret redacted in its text, e.g. the store get's apikey). The rest
 * of the exchange (request as shown, status, headers, text) is never edited
 * once answered, and is shared as it is.
 */
function keep(ex: Exchange, by: string): Kept {
  if (ex.json === undefined) return { ex: { ...ex }, by };
  if (!jsonIsParsedText(ex)) return { ex: { ...ex, json: structuredClone(ex.json) }, by };
  const { json: _records, ...rest } = ex;
  return { ex: rest, by, parse: true };
}

const sizeOf = (key: string, k: Kept) => key.length + (k.ex.response?.text.length ?? 0);

/** May this answer be given to the next asker of the same read? A usable answer; with another key than the run's, a refusal only. */
function shareable(read: SharedRead, ex: Exchange): boolean {
  const status = ex.response?.status;
  if (status === undefined || ex.transportError || ex.notSent || ex.response!.truncated) return false;
  if (status >= 500 || status === 429) return false;
  return read.ownKey || status < 200 || status > 299;
}
