/**
 * A bash/curl reproducer per exchange, with the key as $STORE_API_KEY (the
 * evidence is already redacted, so the placeholder is what the body holds).
 * Bash's own ${var//pattern/replacement} puts the key in, whatever characters it has.
 * A near-miss key (shown as $STORE_API_KEY[<case>], src/values/near-miss.ts) is
 * derived from $STORE_API_KEY by the same rule in bash, so the reproducer
 * sends what the run sent; a padded key is shown as the placeholder padded,
 * which the key's own substitution turns into the padded key.
 */
import type { Exchange } from '../client/http.js';
import { REDACTED } from '../client/redact.js';
import { NEAR_MISS, NEAR_MISS_CASES, nearMissPlaceholder } from '../values/near-miss.js';

/** `$k` escaped for a JSON string: backslashes, then quotes (the quoted replacement keeps bash 5.2 from reading & or \\ specially). */
const ESCAPE_K = 'k=${k//\\\\/\\\\\\\\}; k=${k//\\"/\\\\\\"}';

/** A placeholder as a bash pattern: $, [ and ] taken literally. */
const pattern = (placeholder: string) => placeholder.replace(/[$[\]]/g, (c) => `\\${c}`);

export function curlFor(ex: Pick<Exchange, 'request'>): string {
  const body = JSON.stringify(ex.request.body, null, 1);
  const url = shellQuote(ex.request.url);
  const curl = `curl -sS -i -X POST ${url} -H 'content-type: application/json'`;
  if (!body.includes(REDACTED)) return `${curl} --data-binary @- <<'JSON'\n${body}\nJSON`;
  const lines = [`body=$(cat <<'JSON'\n${body}\nJSON\n)`];
  for (const c of NEAR_MISS_CASES) {
    const shown = nearMissPlaceholder(c, REDACTED);
    // a padded key needs nothing of its own: the key's substitution below pads it as shown
    if (shown.startsWith(`${REDACTED}[`) && body.includes(shown)) lines.push(`k=${REDACTED}; ${NEAR_MISS[c].bash}; ${ESCAPE_K}; body=\${body//${pattern(shown)}/"$k"}`);
  }
  lines.push(`k=${REDACTED}; ${ESCAPE_K}`);
  lines.push(`${curl} --data-binary "\${body//${pattern(REDACTED)}/"$k"}"`);
  return lines.join('\n');
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
