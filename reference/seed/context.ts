/**
 * What a record builder sees: its own random stream, its position, the records
 * already seeded (the "world", for references) and helpers for the audit fields.
 */
import type { Rng } from './rng.js';
import { dateTime, epoch } from './format.js';
import type { Lang } from './vocab.js';

export type Rec = Record<string, any>;

/** A person with a postal address that agrees with itself (people.ts makes them). */
export interface Person {
  lang: Lang;
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  cellphone: string;
  company: string;
  addressline1: string;
  addressline2: string;
  city: string;
  postalcode: string;
  countryid: string;
  countrycode: string;
  countryname: string;
  stateid: string;
  statecode: string;
  statename: string;
}

export interface StateInfo {
  id: string;
  country: string;
  code: string;
  name: string;
  cities: Array<{ name: string; postal: string; area: string[] }>;
}

export interface World {
  seedWords: [number, number];
  countries: Rec[];
  countryByCode: Map<string, Rec>;
  states: StateInfo[];
  stateByKey: Map<string, StateInfo>;
  statesCA: StateInfo[];
  statesUS: StateInfo[];
  /** full names of seeded users, the values of `author` */
  authors: string[];
  startingOrderNumber: number;
  records: Record<string, Rec[]>;
  /** values derived once from seeded records (e.g. image files), by key */
  derived: Map<string, unknown>;
}

/** createdon window of seeded records (UTC): 2020-01-01 .. 2025-06-30 */
export const T0 = epoch('2020-01-01 00:00:00');
export const T1 = epoch('2025-06-30 23:59:59');
/** no derived date (reviews, versions, trackings) goes past this */
export const T_END = epoch('2025-12-31 23:59:59');

export class Ctx<S = any> {
  /** the fields built so far; the engine fills the rest from the schema */
  core: Rec = {};
  /** addresses by field prefix ('' customer, 'billing', 'shipping', 'appliesto') */
  persons: Record<string, Partial<Person>> = {};

  constructor(
    readonly rng: Rng,
    readonly i: number,
    readonly n: number,
    readonly world: World,
    readonly resource: string,
    /** records of this resource built before this one */
    readonly built: Rec[],
    /** per-resource state prepared once (permutations, indexes) */
    readonly state: S,
  ) {}

  id(): string {
    return (this.core.id ??= this.rng.guid());
  }

  /**
   * createdon as epoch seconds, chosen once: spread over T0..T1, and about one
   * record in sixteen shares the createdon of the record before it (ties).
   */
  createdonSec(): number {
    if (this.core.createdon === undefined) {
      const prev = this.built[this.i - 1]?.createdon;
      this.core.createdon = prev && this.rng.chance(0.06) ? prev : dateTime(this.rng.int(T0, T1));
    }
    return epoch(this.core.createdon);
  }

  /** a seeded user's full name, or '' now and then (§2: author can be an empty string) */
  author(): string {
    if (this.core.author === undefined) {
      const pool = this.world.authors;
      this.core.author = pool.length === 0 || this.rng.chance(0.08) ? '' : this.rng.pick(pool);
    }
    return this.core.author;
  }

  /** a later moment: from + [minSec, maxSec], never after T_END */
  after(fromSec: number, minSec: number, maxSec: number): number {
    return Math.min(T_END, fromSec + this.rng.int(minSec, maxSec));
  }

  records(resource: string): Rec[] {
    return this.world.records[resource] ?? [];
  }

  /** a value computed once per seeding from the records built so far */
  derived<T>(key: string, make: () => T): T {
    let v = this.world.derived.get(key) as T | undefined;
    if (v === undefined) {
      v = make();
      this.world.derived.set(key, v);
    }
    return v;
  }
}

/**
 * Name i of a pool of size `size`, shuffled per seed: `perm` orders the first round;
 * later rounds reuse the pool and number the names (round 2, 3...) so they stay unique.
 */
export function poolIndex(perm: number[], i: number): { idx: number; round: number } {
  return { idx: perm[i % perm.length], round: Math.floor(i / perm.length) };
}

/**
 * Builder-only facts about a seeded record that are not fields of it (a record's
 * language, a shipping method's carrier). Builders set them as `_name` keys of
 * `core`; the engine moves them here so records hold schema fields only.
 */
const HINTS = new WeakMap<Rec, Rec>();

export function setHints(rec: Rec, hints: Rec): void {
  HINTS.set(rec, hints);
}

export function hint<T = any>(rec: Rec, name: string): T | undefined {
  return HINTS.get(rec)?.[name];
}
