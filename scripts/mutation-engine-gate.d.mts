/** Whether the mutant of this id is tested under the rule "every:offset" (no rule: every mutant). */
export function sampled(mutantId: string, rule: string | undefined): boolean;
