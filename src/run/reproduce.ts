/**
 * The command that reruns one failing check (or item) the way the run ran it:
 * the run's seed and depth, its target (`--base-url`; the key stays in
 * STORE_API_KEY, never on a command line), the switches that change what is
 * sent or judged (--read-only, --insecure, limits other than the defaults), the embedded
 * server's faults and variant, and — when a property failed — `--replay
 * SEED:PATH`, the one case fast-check shrank to.
 */
import type { RunConfig } from '../config.js';
import { shellQuote } from '../check/reproducer.js';
import { optionDefault } from '../cli/options.js';
import { INVOCATION } from '../invocation.js';

export type ReproducerConfig = Pick<RunConfig, 'seed' | 'depth' | 'baseUrl' | 'embedded' | 'readOnly' | 'insecure' | 'referenceFaults' | 'referenceVariant'> &
  Partial<Pick<RunConfig, 'visibilityTimeoutMs' | 'maxAnswerBytes'>>;

/** `npm run conformance -- --only '<id>' --seed N --depth D …` for a check or item id (`npx storecheck …` where installed). */
export function reproducerCommand(config: ReproducerConfig, id: string, failure: { seed?: number; path?: string } = {}): string {
  const parts = [INVOCATION, '--only', shellQuote(id), '--seed', String(config.seed), '--depth', config.depth];
  if (config.embedded) {
    if (config.referenceFaults?.length) parts.push('--reference-faults', shellQuote(config.referenceFaults.join(',')));
    if (config.referenceVariant) parts.push('--reference-variant', shellQuote(config.referenceVariant));
  } else parts.push('--base-url', shellQuote(config.baseUrl));
  if (config.readOnly) parts.push('--read-only');
  if (config.insecure) parts.push('--insecure');
  // limits the run was given (a default needs no flag: the rerun takes it too)
  const visibility = config.visibilityTimeoutMs;
  if (visibility !== undefined && visibility !== optionDefault('visibility-timeout-ms')) parts.push('--visibility-timeout-ms', String(visibility));
  const answerMb = config.maxAnswerBytes === undefined ? undefined : Math.round(config.maxAnswerBytes / 1024 / 1024);
  if (answerMb !== undefined && answerMb !== optionDefault('max-answer-mb')) parts.push('--max-answer-mb', String(answerMb));
  if (failure.path && failure.seed !== undefined) parts.push('--replay', `${failure.seed}:${failure.path}`);
  return parts.join(' ');
}
