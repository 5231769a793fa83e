/**
 * Writes schemas/config.schema.json from the run option table (src/cli/options.ts RUN_OPTIONS):
 *   npx tsx scripts/config-schema.ts            write it
 *   npx tsx scripts/config-schema.ts --check    exit 1 when the committed file differs
 * (test/unit/cli-config.test.ts fails when they disagree.)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CONFIG_SCHEMA_FILE, configSchema } from '../src/cli/config-file.js';

const text = JSON.stringify(configSchema(), null, 2) + '\n';
if (process.argv.includes('--check')) {
  const same = existsSync(CONFIG_SCHEMA_FILE) && readFileSync(CONFIG_SCHEMA_FILE, 'utf8') === text;
  console.log(same ? 'config schema: up to date' : 'config schema: stale (run npx tsx scripts/config-schema.ts)');
  process.exit(same ? 0 : 1);
}
writeFileSync(CONFIG_SCHEMA_FILE, text);
console.log(`wrote ${CONFIG_SCHEMA_FILE}`);
