// gen-dashboards: writes the Grafana export (scripts/dashboard-exports.ts) to docs/dashboards/:
// every built-in dashboard (src/dashboards) as <id>.grafana.json and the default rule pack
// (src/rules/pack) as llm-pack.rules.yml beside them.
//
//   npm run gen-dashboards              write the files
//   npm run gen-dashboards -- --check   exit 1 when a file is stale or missing (CI)
//
// The test test/dashboards/exports.test.ts fails on a stale file too.
import { writeFileSync } from 'node:fs';
import { dashboardExports, staleExports } from './dashboard-exports.js';

const dir = new URL('../docs/dashboards/', import.meta.url);
const files = dashboardExports();

if (process.argv.includes('--check')) {
  const stale = staleExports(dir, files);
  for (const name of stale) process.stderr.write(`gen-dashboards: docs/dashboards/${name} is stale; run \`npm run gen-dashboards\`\n`);
  if (stale.length > 0) process.exit(1);
  process.stdout.write(`gen-dashboards: ${files.length} export file(s) up to date\n`);
} else {
  for (const f of files) {
    writeFileSync(new URL(f.name, dir), f.text);
    process.stdout.write(`gen-dashboards: wrote docs/dashboards/${f.name} (${f.text.split('\n').length} lines)\n`);
  }
}
