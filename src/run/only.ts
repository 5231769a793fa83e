/**
 * `--only` as vitest applies it: a test-name pattern over check ids (tests are
 * named `<id> — <title>`). Light to import: the CLI's list and validation use
 * it without loading vitest.
 */

/**
 * `--only 'product.*,*.filters.range.*'` → a test-name regex over check ids (names are `<id> — <title>`).
 * An item pattern (`<check>#<case>`) selects its check here; the check then judges only the matching items.
 */
export function onlyPattern(only: string): RegExp {
  const alternatives = only.split(',').map((s) => s.trim()).filter(Boolean).map((glob) =>
    glob.split('#')[0].split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^ ]*'),
  );
  return new RegExp(`^(?:${alternatives.join('|')}) — `);
}
