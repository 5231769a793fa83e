/**
 * The reading probes (phase 1) and the writing probes (phase 2) side by side,
 * each resource read or written by one side at a time, so no reading sees a
 * probe's records and the probes' chain is the longer of the two, not their
 * sum (docs/speed.md "The probes' chain").
 *
 * Nothing is declared: a probe's requests say what it touches. A reading probe
 * holds a resource from its first get or count of it to its end; a writing
 * probe holds the one resource it writes from its first create, update or
 * delete to its end (its records deleted by then). A probe waits for the
 * other side's holders of the resource it touches:
 *
 *   - writes begin once the shared counts are read (the reading probes choose
 *     their resources on them) and the reading probes have claimed what those
 *     counts made them choose, so on most stores they never wait for a write;
 *   - a reading probe that comes to a resource a writing probe holds waits for
 *     it to end (its records gone), and holds it from then on;
 *   - a writing probe waits for every reading probe holding its resource.
 *
 * Left open: on a store whose reads lag its writes, a reading probe that comes
 * to a resource after a writing probe ended there may still see that probe's
 * (deleted) records for the lag. The reading probes choose their resources on
 * the counts, before any write, so only a later choice can (the string
 * comparison's next resources when the first gave too few answers); the
 * read-only resources come first in every choice (Shared.byCount).
 *
 * A writing probe that touched a second resource would wait for readers while
 * holding one they may wait for: that is refused (an error of the probe, so a
 * probe written so is noticed in the tests, never a deadlock in a run).
 */
import type { StoreClient } from '../client/api.js';
import { resources, type ResourceModel } from '../schema/model.js';
import type { Shared } from './shared.js';

type Res = ResourceModel | string;
type Side = 'read' | 'write';

const nameOf = (r: Res): string => (typeof r === 'string' ? r : r.name);
const WRITE_PATH = /\/(create|update|delete)$/;

/** The resource a raw request's path writes, if it is a write. */
function writtenBy(path: string): string | undefined {
  if (!WRITE_PATH.test(path)) return undefined;
  const prefix = path.replace(WRITE_PATH, '');
  return resources().find((r) => r.prefix === prefix)?.name ?? path;
}

/** The probe's ends, by the resource each side holds. */
class Holders {
  private readonly byResource = new Map<string, Set<Promise<void>>>();

  add(name: string, end: Promise<void>): void {
    let set = this.byResource.get(name);
    if (!set) this.byResource.set(name, (set = new Set()));
    if (set.has(end)) return;
    set.add(end);
    void end.then(() => set.delete(end));
  }

  has(name: string, end: Promise<void>): boolean {
    return this.byResource.get(name)?.has(end) === true;
  }

  /** the holders of `name` other than `end` (undefined: none) */
  others(name: string, end: Promise<void>): Promise<void>[] | undefined {
    const list = [...(this.byResource.get(name) ?? [])].filter((e) => e !== end);
    return list.length ? list : undefined;
  }
}

export class ProbeSchedule {
  private readonly readers = new Holders();
  private readonly writers = new Holders();

  /** @param writesMayBegin resolves once the reading probes have chosen their resources */
  constructor(private readonly writesMayBegin: Promise<unknown>) {}

  /** `end` (a reading probe) reads `name`: once no writing probe holds it. */
  async read(name: string, end: Promise<void>): Promise<void> {
    if (this.readers.has(name, end)) return;
    for (let w = this.writers.others(name, end); w; w = this.writers.others(name, end)) await Promise.all(w);
    this.readers.add(name, end);
  }

  /** `end` (a writing probe) writes `name`: once no reading probe holds it; its one resource (`holds`: its admission). */
  write(name: string, end: Promise<void>, holds: Map<string, Promise<void>>): Promise<void> {
    const admitted = holds.get(name);
    if (admitted) return admitted;
    if (holds.size) return Promise.reject(new Error(`a writing probe writes one resource (it wrote ${[...holds.keys()].join(', ')}, then ${name}): see src/observe/schedule.ts`));
    const admission = (async () => {
      await this.writesMayBegin;
      for (let r = this.readers.others(name, end); r; r = this.readers.others(name, end)) await Promise.all(r);
      this.writers.add(name, end);
    })();
    holds.set(name, admission);
    return admission;
  }

  /** The client a probe of `side` uses: its requests claim what they touch. */
  client(client: StoreClient, side: Side, end: Promise<void>): StoreClient {
    const holds = new Map<string, Promise<void>>();
    const claim = (name: string) => (side === 'read' ? this.read(name, end) : this.write(name, end, holds));
    // every call taking a resource first that reads it (byIds and findTagged call the real client's get beneath)
    const reads = new Set(side === 'read' ? ['get', 'count', 'byIds', 'findTagged'] : []);
    const writes = new Set(side === 'write' ? ['create', 'update', 'delete'] : []);
    return new Proxy(client, {
      get: (target, prop, receiver) => {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function') return v;
        const name = String(prop);
        if (reads.has(name) || writes.has(name)) return async (res: Res, ...rest: unknown[]) => {
          await claim(nameOf(res));
          return (v as (...a: unknown[]) => unknown).call(target, res, ...rest);
        };
        if (name === 'raw' && side === 'write') return async (path: string, ...rest: unknown[]) => {
          const written = writtenBy(path);
          if (written) await claim(written);
          return (v as (...a: unknown[]) => unknown).call(target, path, ...rest);
        };
        return (v as (...a: unknown[]) => unknown).bind(target);
      },
    });
  }

  /**
   * The shared reads as a probe of `side` sees them: through its client, except the
   * unfiltered counts, which every probe reads before any write (they are not a claim).
   */
  shared(shared: Shared, client: StoreClient, side: Side, end: Promise<void>): Shared {
    return new Proxy(shared, {
      get: (target, prop, receiver) => {
        if (prop === 'client') return client;
        // a page another probe read first is this one's too: it holds the resource as if it had read it
        if (prop === 'page' && side === 'read') return async (name: string) => {
          await this.read(name, end);
          return target.page.call(receiver, name);
        };
        if (prop === 'count' || prop === 'counts') return (Reflect.get(target, prop) as (...a: unknown[]) => unknown).bind(target);
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
  }
}

/** A promise resolved after the reactions already queued and one turn of the event loop (setImmediate). */
export const afterThisTurn = <T>(value: T): Promise<T> => new Promise((resolve) => setImmediate(() => resolve(value)));
