/**
 * Helpers for the reference server's unit tests: start a server, call it,
 * build valid payloads from the schema model.
 */
import { resources, type PayloadPropModel, type ResourceModel } from '../../src/schema/model.js';
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../../reference/server.js';

export async function start(opts: ReferenceOptions = {}): Promise<ReferenceServer> {
  return startReferenceServer({ apiKey: 'test-key-0123456789', ...opts });
}

export interface Reply { status: number; body: any; text: string; headers: Headers }

export async function call(srv: ReferenceServer, path: string, body: Record<string, unknown> = {}, init: { key?: string | null; headers?: Record<string, string>; method?: string; raw?: string } = {}): Promise<Reply> {
  const payload = init.key === null ? body : { authentication: { apiKey: init.key ?? srv.apiKey }, ...body };
  const res = await fetch(srv.url + path, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.method && init.method !== 'POST' ? undefined : init.raw ?? JSON.stringify(payload),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* text body */
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export function res(name: string): ResourceModel {
  const r = resources().find((x) => x.name === name);
  if (!r) throw new Error(`no resource ${name}`);
  return r;
}

let counter = 0;

/** A value valid for one payload property. `refs` maps a resource name to an existing id. */
export function valueFor(p: PayloadPropModel, refs: Record<string, string>): unknown {
  const n = ++counter;
  switch (p.kind) {
    case 'list':
      if (p.references) return refs[p.references] ? [refs[p.references]] : [];
      return [`tag-${n}`, `tag-${n}-b`];
    case 'boolean': return n % 2 ? 'true' : 'false';
    case 'integer': return String(n % 50 + 1);
    case 'decimal': return p.decimal && p.decimal.digits < 3 ? '1.25' : `${n % 90 + 10}.50`;
    case 'datetime': return '2024-03-04 05:06:07';
    case 'date': return '2024-03-04';
    case 'guid': return p.references && refs[p.references] ? refs[p.references] : '00000000-0000-0000-0000-000000000000';
    case 'predefined': return p.knownValues?.[0] ?? 'PHYSICAL';
    default: return `${p.name}-${n}-${Math.random().toString(36).slice(2, 8)}`;
  }
}

export function payloadFor(r: ResourceModel, refs: Record<string, string>, only: 'all' | 'required' = 'all'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of r.payload) if (only === 'all' || p.required) out[p.name] = valueFor(p, refs);
  return out;
}

/** One existing id per resource (for references). */
export async function referenceIds(srv: ReferenceServer): Promise<Record<string, string>> {
  const refs: Record<string, string> = {};
  for (const r of resources()) {
    if (r.single) continue;
    const got = await call(srv, `${r.prefix}/get`, { pagination: { pageNumber: '1', pageSize: '1' } });
    if (Array.isArray(got.body) && got.body[0]) refs[r.name] = got.body[0].id;
  }
  return refs;
}

