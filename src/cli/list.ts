/**
 * `storecheck list [GLOB] [--only PATTERN] [--items] [--json]`: the checks of
 * the item catalogue (src/items) with their rule, spec section and level — or,
 * with --items, every spec item — so a user can write --only, --expect and
 * baselines without running anything; no target is contacted. The pattern
 * uses the --only syntax and the same matching as a run (src/items/select.ts): a
 * run with `--only P` runs exactly what `list --only P` prints.
 */
import { rule } from '../rules.js';
import { itemSelector, selectChecks } from '../items/select.js';
import { commandHelp, COMMON_OPTIONS, parseOptions, UsageError, type OptionSpec } from './options.js';
import { checkOnly } from './validate.js';

export const OPTIONS: OptionSpec[] = [
  { flag: 'only', kind: 'string', arg: 'PATTERN', help: "check or item ids, globs with *, comma-separated (as a run's --only; a GLOB argument is the same)" },
  { flag: 'items', kind: 'flag', help: 'list spec items (<check>#<case>) instead of checks' },
  { flag: 'json', kind: 'flag', help: 'print JSON (an array) instead of columns' },
  ...COMMON_OPTIONS,
];

export const HELP = commandHelp(
  'storecheck list [GLOB] [--only PATTERN] [--items] [--json]',
  'Prints the check ids of the catalogue (id, rule, spec section, level, number of items), or with ' +
    '--items every spec item, for --only, --expect and baselines. Nothing is run and no target is ' +
    'contacted. A pattern that selects nothing is a usage error naming the closest ids.',
  OPTIONS,
  "examples:\n  storecheck list --only 'product.filters.*'\n  storecheck list --items --only '*.filters.range.*#equal' --json",
);

export async function listCommand(args: string[]): Promise<number> {
  const { options, positional } = parseOptions(args, OPTIONS);
  if (positional.length > 1) throw new UsageError(`list takes one GLOB at most (comma-separate several), got ${positional.length}`);
  const only = [positional[0], options.only as string | undefined].filter((p): p is string => p !== undefined).join(',') || undefined;
  if (only !== undefined) checkOnly(only, only === options.only ? '--only' : 'the pattern');
  const checks = selectChecks(only);
  const items = checks.flatMap((c) => {
    const keep = itemSelector(only, c);
    return c.items.filter((i) => keep(i.case));
  });
  let out: string;
  if (options.items) {
    out = options.json
      ? JSON.stringify(items.map((i) => ({ id: i.id, check: i.check, rule: i.rule, resource: i.resource, kind: i.kind, title: i.title })), null, 2) + '\n'
      : columns(items.map((i) => [i.id, i.title]));
  } else {
    const rows = checks.map((c) => {
      const r = rule(c.rule);
      return { id: c.id, rule: c.rule, section: r.section, level: r.level, resource: c.resource, writes: c.writes, items: c.items.length };
    });
    out = options.json
      ? JSON.stringify(rows, null, 2) + '\n'
      : columns(rows.map((r) => [r.id, r.rule, r.section, r.level, `${r.items} item${r.items === 1 ? '' : 's'}`]));
  }
  process.stdout.write(out);
  process.stderr.write(`${checks.length} check(s), ${items.length} item(s)\n`);
  return 0;
}

/** Rows as space-aligned columns (the last column is not padded). */
function columns(rows: string[][]): string {
  if (!rows.length) return '';
  const widths = rows[0].map((_, k) => Math.max(...rows.map((r) => r[k].length)));
  return rows.map((r) => r.map((cell, k) => (k === r.length - 1 ? cell : cell.padEnd(widths[k]))).join('  ')).join('\n') + '\n';
}
