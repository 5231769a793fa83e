/** Whether the mutant of this id is tested under the rule "every:offset" (no rule: every mutant). */
export function sampled(mutantId: string, rule: string | undefined): boolean;
/** The exit code an earlier record of this mutant in runs.jsonl gives (1 detected, 0 not), or undefined. */
export function recordedExit(jsonl: string, mutantId: string): 0 | 1 | undefined;
/** Whether a sampled mutant is left for a later resume: its id is below `from` (`--sample-from`; 0: never). */
export function deferred(mutantId: string, rule: string | undefined, from: number): boolean;
