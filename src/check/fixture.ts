/**
 * A fixture shared by the checks of one file: built once, lazily, by the first
 * check that needs it (so its requests and any failure are attributed to a
 * check, never lost in a hook), and deleted after the file's last check.
 * This is how a property costs a few round trips: one create carries many
 * generated records, then many checks query them.
 */
import type * as fc from 'fast-check';
import { afterAll } from 'vitest';
import type { StoreClient } from '../client/api.js';
import { ChainRecorder } from '../client/chain.js';
import type { DepthProfile, RunConfig } from '../config.js';
import type { ObservationKey, ObservationValue } from '../observe/registry.js';
import { fixtureBuilt } from './chains.js';
import { observed, runtime } from './runtime.js';
import { Scope } from './scope.js';
import { drawMany, drawOne } from './seed.js';

/** What a fixture's build gets: where its records go, the client it sends with, and the run's values and draws. */
export interface FixtureContext {
  /** records created through it are deleted after the file's last check */
  scope: Scope;
  /** the client of the check that builds the fixture (its requests are that check's evidence), or the run's */
  client: StoreClient;
  config: RunConfig;
  depth: DepthProfile;
  /** an observation probed before the run, or its fallback (src/observe/registry.ts) */
  observed<K extends ObservationKey>(key: K): ObservationValue<K>;
  /** one value of `arb`, drawn from the run seed and `label`: the same label, the same value, whichever check builds it */
  sample<T>(arb: fc.Arbitrary<T>, label: string): T;
  /** `n` values of `arb`, drawn from the run seed and `label` */
  sampleMany<T>(arb: fc.Arbitrary<T>, label: string, n: number): T[];
}

export interface Fixture<T> {
  /** pass the check's ctx so the build's requests count as that check's evidence */
  get(ctx?: { client: StoreClient }): Promise<T>;
}

function fixtureContext(client: StoreClient, scope: Scope): FixtureContext {
  const rt = runtime();
  return {
    scope,
    client,
    config: rt.config,
    depth: rt.depth,
    observed,
    sample: (arb, label) => drawOne(arb, rt.config.seed, label),
    sampleMany: (arb, label, n) => drawMany(arb, rt.config.seed, label, n),
  };
}

/**
 * The scopes of the fixtures built in the file now running (a worker runs one
 * file at a time): the first fixture's afterAll closes them all together
 * (Scope.closeTogether: one round trip per level of references, not one per
 * fixture one after another), the others find nothing left.
 */
const built = new Set<Scope>();

async function closeBuilt(): Promise<void> {
  const scopes = [...built];
  built.clear();
  await Scope.closeTogether(scopes);
}

/** `build` gets the fixture's scope, the client of the check that builds it, and the run's values and draws. */
export function fixture<T>(build: (f: FixtureContext) => Promise<T>): Fixture<T> {
  let value: Promise<T> | undefined;
  afterAll(closeBuilt);
  return {
    get(ctx) {
      if (!value) {
        const rt = runtime();
        const maxItems = rt.observations['limits.maxDataItems'];
        // built for no check: its round trips are the file's own, before the checks that wait for it
        const chain = ctx?.client ? undefined : new ChainRecorder();
        const client = ctx?.client ?? rt.client.fork(chain!.add);
        const scope = new Scope(client, typeof maxItems === 'number' ? maxItems : null);
        built.add(scope);
        value = build(fixtureContext(client, scope));
        if (chain) value.then(() => fixtureBuilt(chain.chain()), () => fixtureBuilt(chain.chain()));
        // a rejected build is reported by every check that awaits it; keep Node from flagging it unhandled
        value.catch(() => undefined);
      }
      return value;
    },
  };
}
