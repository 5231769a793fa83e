/**
 * npm run report:allure [-- REPORT_DIR]: renders REPORT_DIR/allure-results
 * (default reports/latest) into REPORT_DIR/allure-report with allure 3.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const dir = resolve(process.argv[2] ?? join(root, 'reports', 'latest'));
const results = join(dir, 'allure-results');
if (!existsSync(results)) {
  process.stderr.write(`report:allure: no ${results} (run \`npm run conformance\` first, or pass a report directory)\n`);
  process.exit(2);
}
const out = join(dir, 'allure-report');
const bin = join(root, 'node_modules', '.bin', 'allure');
const r = spawnSync(bin, ['generate', results, '--output', out, '--report-name', 'storecheck'], { stdio: 'inherit' });
if (r.status === 0) process.stdout.write(`allure report: ${join(out, 'index.html')}\n`);
process.exit(r.status ?? 1);
