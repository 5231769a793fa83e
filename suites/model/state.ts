/**
 * The model of a model-based run (issue 16): the run's own records of one
 * resource as the spec says they must be after the commands so far — which
 * ids live, which were deleted, the payload values each is known to hold, and
 * the contents of its versions (§3). Only the run's own records: every query
 * of a run is narrowed to their ids, so the store's other data never matters.
 *
 * What the spec leaves open is applied as observed: under partial updates
 * (observation update.semantics) the properties an update does not supply keep
 * their values; under replace-style updates they are unknown afterwards (a
 * target resets them to defaults of its own choosing), so they are not judged.
 */
import { type Rec, type ResourceModel } from '../../src/check/index.js';
import type { Payload } from '../../generators/index.js';

const lower = (s: string) => s.toLowerCase();

export interface ModelRecord {
  id: string;
  /** payload values the record is known to hold (as sent) */
  values: Payload;
  /** contents of its versions, oldest first (undefined: not known, e.g. reset by a replace-style update) */
  versions?: Array<string | undefined>;
  /** the record as get showed it when the target last agreed with the model (filter expectations read it) */
  reading?: Rec;
}

export class StoreModel {
  /** live records in creation order, by lower-cased id */
  readonly live = new Map<string, ModelRecord>();
  /** deleted ids, by lower-cased id */
  readonly gone = new Map<string, string>();

  /**
   * `versioned`: the payload property a version records (content), for the
   * resources with a version history.
   */
  constructor(readonly r: ResourceModel, readonly semantics: 'partial' | 'replace', readonly versioned: string | undefined) {}

  liveIds(): string[] {
    return [...this.live.values()].map((x) => x.id);
  }

  goneIds(): string[] {
    return [...this.gone.values()];
  }

  /** Every id the run has had, live then deleted: the id filter of every query of the sequence. */
  allIds(): string[] {
    return [...this.liveIds(), ...this.goneIds()];
  }

  create(id: string, payload: Payload): void {
    const rec: ModelRecord = { id, values: { ...payload } };
    if (this.versioned) rec.versions = [contentOf(payload, this.versioned)];
    this.live.set(lower(id), rec);
  }

  /** §4 update: the supplied values; the rest kept (partial) or unknown (replace); §3: one more version. */
  update(id: string, change: Payload): void {
    const rec = this.live.get(lower(id));
    if (!rec) return;
    rec.values = this.semantics === 'partial' ? { ...rec.values, ...change } : { ...change };
    if (this.versioned) {
      const content = this.versioned in change || this.semantics === 'partial' ? contentOf(rec.values, this.versioned) : undefined;
      rec.versions = [...(rec.versions ?? []), content];
    }
  }

  /**
   * An update of a deleted id on a target that upserts (observation
   * update.unknownId = upserted): the record lives again, holding what the
   * update supplied; its other values and its history are not known.
   */
  revive(id: string, change: Payload): void {
    const key = lower(id);
    this.gone.delete(key);
    this.live.set(key, { id, values: { ...change } });
  }

  delete(id: string): void {
    const key = lower(id);
    const rec = this.live.get(key);
    this.live.delete(key);
    this.gone.set(key, rec?.id ?? id);
  }

  get(id: string): ModelRecord | undefined {
    return this.live.get(lower(id));
  }

  toString(): string {
    return `${this.r.name}: ${this.live.size} live, ${this.gone.size} deleted`;
  }
}

function contentOf(values: Payload, prop: string): string | undefined {
  const v = values[prop];
  return typeof v === 'string' ? v : undefined;
}

/** The payload property a version records: the versions item field that is also a payload property (content). */
export function versionedProp(r: ResourceModel): string | undefined {
  if (!r.versionsOrder) return undefined;
  const item = r.fields.find((f) => f.name === 'versions')?.itemFields?.map((f) => f.name) ?? [];
  return r.payload.find((p) => item.includes(p.name) && p.name !== 'id')?.name;
}
