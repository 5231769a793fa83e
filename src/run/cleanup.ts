/**
 * Deletes exactly what the ledger says a run created and did not delete —
 * at the end of a run (whatever happened), and in `storecheck sweep`.
 */
import { StoreClient } from '../client/api.js';
import { Ledger } from '../client/ledger.js';

export interface CleanupResult {
  created: number;
  deleted: number;
  leftBehind: string[];
  requests: number;
  /** per resource, the ids deleted now */
  removed: Record<string, string[]>;
}

export interface CleanupTarget {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  insecure: boolean;
  ledgerFile?: string;
}

/** Products reference categories and collections, so they go first. */
const DELETE_ORDER = ['product', 'blog-post', 'coupon', 'page', 'collection', 'category'];

export async function cleanupLedger(target: CleanupTarget, ledgerFiles: string[], batch = 50): Promise<CleanupResult> {
  const loaded = Ledger.load(ledgerFiles);
  const ledger = target.ledgerFile ? loaded.withFile(target.ledgerFile) : loaded;
  const client = new StoreClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, timeoutMs: target.timeoutMs, insecure: target.insecure, connections: 4, retries: 3, ledger });
  const result: CleanupResult = { created: loaded.createdCount(), deleted: 0, leftBehind: [], requests: 0, removed: {} };
  try {
    const outstanding = ledger.outstanding();
    const resources = [...outstanding.keys()].sort((a, b) => rank(a) - rank(b));
    for (const resource of resources) {
      const ids = outstanding.get(resource)!;
      for (let i = 0; i < ids.length; i += batch) {
        const chunk = ids.slice(i, i + batch);
        let ok = false;
        let problem = '';
        for (let attempt = 0; attempt < 3 && !ok; attempt++) {
          try {
            const res = await client.delete(resource, chunk);
            ok = res.ok;
            problem = res.problem ?? '';
            // a target with a smaller batch limit: fall back to one id at a time
            if (!ok && res.exchange.response?.status === 400 && chunk.length > 1) {
              ok = true;
              for (const id of chunk) {
                const one = await client.delete(resource, [id]);
                if (!one.ok) { ok = false; problem = one.problem ?? ''; }
              }
            }
          } catch (e) {
            problem = (e as Error).message;
          }
        }
        if (ok) {
          result.deleted += chunk.length;
          (result.removed[resource] ??= []).push(...chunk);
        } else {
          result.leftBehind.push(...chunk.map((id) => `${resource}:${id} (${problem})`));
        }
      }
    }
  } finally {
    result.requests = client.http.stats.requests;
    await client.close();
  }
  return result;
}

function rank(resource: string): number {
  const i = DELETE_ORDER.indexOf(resource);
  return i === -1 ? DELETE_ORDER.length : i;
}
