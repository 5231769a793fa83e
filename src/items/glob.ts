/**
 * The one glob of ids: `--only`, the item selection of a check and
 * `--expect` entries all match check and item ids with it. `*` matches any
 * run of characters but a space (ids hold none; a vitest test name
 * `<id> — <title>` does, so a glob never reaches into the title); every
 * other character is literal.
 */

/** A glob as a regex source, unanchored (for building a larger pattern, e.g. vitest's test-name pattern). */
export function globSource(glob: string): string {
  return glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^ ]*');
}

/** A glob as a regex matching a whole id. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${globSource(glob)}$`);
}
