/**
 * `--base-url` judged before anything is sent or written (exit 2 when broken):
 * a URL, http(s), no credentials in it (the API takes its key in the JSON body,
 * §5; a `user:password@` would be sent to the target as Basic auth and printed
 * in every report), no fragment (never sent to a server). A query string is
 * kept: the client puts it on every request (some gateways route by it).
 */
import { UsageError } from './options.js';

/** The URL as given, with any `user:password@` replaced: the only way it is shown once it carries credentials. */
export function withoutCredentials(given: string): string {
  return given.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

/** Throws a UsageError naming the problem; `flag` is how the user gave it. */
export function checkBaseUrl(given: string, flag = '--base-url'): void {
  const shown = withoutCredentials(given);
  let u: URL;
  try {
    u = new URL(given);
  } catch {
    throw new UsageError(`${flag} "${shown}" is not a URL (e.g. https://store.example.com)`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new UsageError(`${flag} must be http(s), got ${u.protocol} in "${shown}"`);
  if (u.username || u.password || shown !== given) {
    throw new UsageError(
      `${flag} "${shown}" carries credentials (user:password@): the API takes its key in the JSON body (authentication.apiKey), ` +
        'never in the URL; give the URL without them and the key in STORE_API_KEY',
    );
  }
  if (u.hash || given.includes('#')) throw new UsageError(`${flag} "${given}" has a fragment (#…), which is never sent to a server: give the API root without it`);
}
