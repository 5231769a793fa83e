/**
 * Rewrite src/items/check-weights.json (what --shard splits by, and the order the check files are
 * handed out: src/run/sequencer.ts) from the report.json of a standard run: each check's durationMs
 * and roundTrips.
 *
 *   npx tsx scripts/check-weights.ts reports/<run>/report.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = process.argv[2];
if (!file) {
  console.error('usage: npx tsx scripts/check-weights.ts <report.json of a standard run>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8')) as { run: { depth: string }; checks: Array<{ id: string; durationMs?: number; roundTrips?: number }> };
const ms: Record<string, number> = {};
const roundTrips: Record<string, number> = {};
for (const c of [...report.checks].sort((a, b) => a.id.localeCompare(b.id))) {
  if (typeof c.durationMs === 'number') ms[c.id] = Math.max(1, Math.round(c.durationMs));
  if (typeof c.roundTrips === 'number') roundTrips[c.id] = c.roundTrips;
}
const target = fileURLToPath(new URL('../src/items/check-weights.json', import.meta.url));
const old = JSON.parse(readFileSync(target, 'utf8')) as { about: string };
writeFileSync(target, JSON.stringify({ about: old.about, depth: report.run.depth, ms, roundTrips }, null, 1) + '\n');
console.log(`wrote ${target}: ${Object.keys(ms).length} checks`);
