/**
 * A bash/curl reproducer per exchange, with the key as $STORE_API_KEY (the
 * evidence is already redacted, so the placeholder is what the body holds).
 * Bash's own ${var//pattern/replacement} puts the key in, whatever characters it has.
 */
import type { Exchange } from '../client/http.js';
import { REDACTED } from '../client/redact.js';

export function curlFor(ex: Pick<Exchange, 'request'>): string {
  const body = JSON.stringify(ex.request.body, null, 1);
  const url = shellQuote(ex.request.url);
  const curl = `curl -sS -i -X POST ${url} -H 'content-type: application/json'`;
  if (!body.includes(REDACTED)) return `${curl} --data-binary @- <<'JSON'\n${body}\nJSON`;
  // the key is escaped for a JSON string (backslashes, then quotes) before it goes in; the quoted
  // replacement keeps bash 5.2 from reading & or \\ in the key specially
  const escapeKey = 'k=${STORE_API_KEY//\\\\/\\\\\\\\}; k=${k//\\"/\\\\\\"}';
  return `body=$(cat <<'JSON'\n${body}\nJSON\n)\n${escapeKey}\n${curl} --data-binary "\${body//\\${REDACTED}/"$k"}"`;
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
