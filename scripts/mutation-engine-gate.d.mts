/** The picked ids a sampled run wrote (JSON: { ids: string[] }), or undefined for a whole run. */
export function readSample(file: string | undefined): Set<string> | undefined;
/** Whether the mutant of this id is tested: in the picked ids (no sample: every mutant). */
export function sampled(mutantId: string, ids: ReadonlySet<string> | undefined): boolean;
/** The exit code an earlier record of this mutant in runs.jsonl gives (1 detected, 0 not), or undefined. */
export function recordedExit(jsonl: string, mutantId: string): 0 | 1 | undefined;
/** Whether a sampled mutant is left for a later resume: its id is below `from` (`--sample-from`; 0: never). */
export function deferred(mutantId: string, ids: ReadonlySet<string> | undefined, from: number): boolean;
