/**
 * `storecheck list [GLOB] [--items]`: the check ids of the item catalogue
 * (src/items) with their rule and spec section — or, with --items, every spec
 * item id — so a user can write --only, --expect and baselines without
 * running anything. GLOB uses the --only syntax (comma-separated, `*`).
 */
import { catalogue } from '../items/index.js';
import { rule } from '../rules.js';
import { parseOptions, UsageError, type OptionSpec } from './options.js';
import { onlyPattern } from '../run/vitest.js';

const LIST_OPTIONS: OptionSpec[] = [
  { flag: 'items', kind: 'flag', help: 'list spec items (<check>#<case>) instead of checks' },
  { flag: 'help', kind: 'flag', help: 'this help' },
];

export async function listCommand(args: string[]): Promise<number> {
  const { options, positional } = parseOptions(args, LIST_OPTIONS);
  if (options.help) {
    process.stdout.write('storecheck list [GLOB] [--items]   check ids (or spec item ids) of the catalogue, for --only\n');
    return 0;
  }
  if (positional.length > 1) throw new UsageError(`list takes one GLOB at most (comma-separate several), got ${positional.length}`);
  const re = positional[0] ? onlyPattern(positional[0]) : undefined;
  const checks = catalogue().filter((c) => !re || re.test(`${c.id} — `));
  const lines = options.items
    ? checks.flatMap((c) => c.items.map((i) => `${i.id}\t${i.title}`))
    : checks.map((c) => `${c.id}\t${c.rule}\t${rule(c.rule).section}\t${c.items.length} item(s)`);
  process.stdout.write(lines.join('\n') + (lines.length ? '\n' : ''));
  process.stderr.write(`${checks.length} check(s), ${checks.reduce((n, c) => n + c.items.length, 0)} item(s)\n`);
  return 0;
}
