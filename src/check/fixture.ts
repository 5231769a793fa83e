/**
 * A fixture shared by the checks of one file: built once, lazily, by the first
 * check that needs it (so its requests and any failure are attributed to a
 * check, never lost in a hook), and deleted after the file's last check.
 * This is how a property costs a few round trips: one create carries many
 * generated records, then many checks query them.
 */
import { afterAll } from 'vitest';
import type { StoreClient } from '../client/api.js';
import { runtime } from './runtime.js';
import { Scope } from './scope.js';

export interface Fixture<T> {
  /** pass the check's ctx so the build's requests count as that check's evidence */
  get(ctx?: { client: StoreClient }): Promise<T>;
}

/** `build` gets the fixture's scope and the client of the check that builds it (its reads are that check's evidence). */
export function fixture<T>(build: (scope: Scope, client: StoreClient) => Promise<T>): Fixture<T> {
  let scope: Scope | undefined;
  let value: Promise<T> | undefined;
  afterAll(async () => {
    if (scope) await scope.close();
  });
  return {
    get(ctx) {
      if (!value) {
        const rt = runtime();
        const maxItems = rt.observations['limits.maxDataItems'];
        const client = ctx?.client ?? rt.client;
        scope = new Scope(client, typeof maxItems === 'number' ? maxItems : null);
        value = build(scope, client);
        // a rejected build is reported by every check that awaits it; keep Node from flagging it unhandled
        value.catch(() => undefined);
      }
      return value;
    },
  };
}
