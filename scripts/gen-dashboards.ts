// gen-dashboards: writes the Grafana export of every built-in dashboard (src/dashboards) to
// docs/dashboards/<id>.grafana.json.
//
//   npm run gen-dashboards              write the files
//   npm run gen-dashboards -- --check   exit 1 when a file is stale or missing (CI)
//
// The test test/dashboards/insights.test.ts fails on a stale file too.
import { readFileSync, writeFileSync } from 'node:fs';
import { DASHBOARDS, grafanaJson } from '../src/dashboards/index.js';

const dir = new URL('../docs/dashboards/', import.meta.url);
const check = process.argv.includes('--check');
let stale = 0;

for (const d of DASHBOARDS) {
  const name = `${d.id}.grafana.json`;
  const target = new URL(name, dir);
  const text = grafanaJson(d);
  if (check) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      // missing counts as stale
    }
    if (current !== text) {
      process.stderr.write(`gen-dashboards: docs/dashboards/${name} is stale; run \`npm run gen-dashboards\`\n`);
      stale++;
    }
  } else {
    writeFileSync(target, text);
    process.stdout.write(`gen-dashboards: wrote docs/dashboards/${name} (${text.split('\n').length} lines)\n`);
  }
}
if (check) {
  if (stale > 0) process.exit(1);
  process.stdout.write(`gen-dashboards: ${DASHBOARDS.length} Grafana export(s) up to date\n`);
}
