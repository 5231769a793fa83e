/**
 * The records a payload's references point at (product categoryid and
 * collectionid, page backgroundfileid…), from the model: a few categories and
 * collections created once per check file, and existing files (they cannot be
 * created through the API; with none, the all-zero GUID of §2 stands in).
 */
import {
  fixture, resource, resources, type CheckContext, type Fixture, type Rec, type ResourceModel,
} from '../../src/check/index.js';
import { batches } from './writes.js';

export interface Refs {
  /** ids by referenced resource name */
  ids: Partial<Record<string, string[]>>;
  /** lower-cased id -> name, for every referenced record */
  names: Map<string, string>;
}

/** Resources some payload property references, from the model. */
export const REFERENCED = [...new Set(resources().filter((r) => r.writable).flatMap((r) => r.payload.map((p) => p.references).filter((x): x is string => !!x)))];

/**
 * A refs fixture for the calling check file (call once, at module level).
 * `label` (the file's name) seeds its records: every fixture's records carry
 * values of their own, so a lost create's lookup can only find its own.
 */
export function refsFixture(label: string): Fixture<Refs> {
  return fixture<Refs>(async (f) => {
    const out: Refs = { ids: {}, names: new Map() };
    // the referenced resources created side by side (their payloads carry no references); taken in, in their order
    const all = await Promise.all(REFERENCED.map(async (name): Promise<Rec[]> => {
      const target = resource(name);
      if (target.writable) {
        const items = f.sample(batches(target, { tag: f.config.runTag }, { minLength: 3, maxLength: 3 }), `refs:${label}:${name}`);
        return f.scope.create(target, items, { acceptRecovered: true });
      }
      const got = await f.client.get(target, { pagination: { pageSize: 3 } });
      return got.ok ? (got.value ?? []).slice(0, 3) : [];
    }));
    REFERENCED.forEach((name, i) => {
      const records = all[i];
      out.ids[name] = records.map((x) => x.id).filter((id): id is string => typeof id === 'string');
      for (const x of records) if (typeof x.id === 'string' && typeof x.name === 'string') out.names.set(x.id.toLowerCase(), x.name);
    });
    return out;
  });
}

const needsRefs = (r: ResourceModel) => r.payload.some((p) => p.references);

/** The refs a resource's payloads need (none asked when it references nothing). */
export async function refsFor(fx: Fixture<Refs>, ctx: CheckContext, r: ResourceModel): Promise<Refs> {
  return needsRefs(r) ? fx.get(ctx) : { ids: {}, names: new Map() };
}
