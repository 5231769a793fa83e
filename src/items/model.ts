/**
 * Items judged over sequences and concurrent requests, for every writable
 * resource (issue 16), from the schema model:
 *   <r>.model.sequence          #create #update #update-deleted #delete #get #count #walk [#versions]
 *       one item per command kind of the model-based runs: after every command
 *       of that kind, the target agrees with a model of the run's own records
 *   <r>.concurrency.updates     #none-lost [#versions]
 *   <r>.concurrency.creates     #none-lost #distinct-ids
 *   <r>.concurrency.count       #between
 *   <r>.concurrency.delete-walk #no-duplicates
 * Versions items only for the resources with a version history (§3).
 */
import type { ResourceModel } from '../schema/model.js';
import type { CheckDraft } from './types.js';

/** The command kinds of a model-based run, each an item of `<r>.model.sequence` (what a command of that kind must leave). */
export const MODEL_COMMANDS = {
  create: 'after a create of a batch, get by the run’s ids shows exactly the model’s records with the values sent',
  update: 'after an update of one or several records, get shows the values supplied and every other record unchanged',
  'update-deleted': 'an update naming a record deleted earlier does not bring it back',
  delete: 'after a delete (several ids, several filter objects), exactly the named records are gone',
  get: 'a get with generated filters returns the model’s records that satisfy them, and no other',
  count: 'a count with generated filters equals the number of the model’s records that satisfy them',
  walk: 'walking the pages of the run’s records lists each live record exactly once',
  versions: 'the version history of a record holds one version per create and update, numbered 1..n, with their contents',
} as const;
export type ModelCommand = keyof typeof MODEL_COMMANDS;

/** The command kinds a resource's model-based runs use (versions only where §3 keeps a history). */
export function modelCommands(r: ResourceModel): ModelCommand[] {
  return (Object.keys(MODEL_COMMANDS) as ModelCommand[]).filter((k) => k !== 'versions' || !!r.versionsOrder);
}

export function modelChecks(r: ResourceModel): CheckDraft[] {
  if (!r.writable || !r.payload.length) return [];
  const base = { resource: r.name, writes: true } as const;
  const versioned = !!r.versionsOrder;
  return [
    { ...base, rule: 'model.sequence', kind: 'model', cases: modelCommands(r).map((k) => [k, MODEL_COMMANDS[k]]) },
    {
      ...base, rule: 'concurrency.updates', kind: 'concurrency',
      cases: [
        ['none-lost', 'updates of one record sent at once are all applied: the value each supplied is there after them'],
        ...(versioned ? [['versions', 'updates of one record sent at once each append one version: numbered 1..n, no gap or duplicate, every update’s content in one of them'] as [string, string]] : []),
      ],
    },
    {
      ...base, rule: 'concurrency.creates', kind: 'concurrency',
      cases: [['none-lost', 'creates sent at once store every item, once'], ['distinct-ids', 'creates sent at once answer a distinct id for every item']],
    },
    { ...base, rule: 'concurrency.count', kind: 'concurrency', cases: [['between', 'a count sent while creates land lies between the counts before and after them; after them it includes every one']] },
    { ...base, rule: 'concurrency.delete-walk', kind: 'concurrency', cases: [['no-duplicates', 'pages walked while records of them are deleted list no record twice and none that never existed']] },
  ];
}
