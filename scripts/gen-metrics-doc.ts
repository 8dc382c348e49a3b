// gen-metrics-doc: writes docs/metrics.md from the metric catalog in src/semconv.
//
//   npm run gen-metrics-doc          write docs/metrics.md
//   npm run gen-metrics-doc -- --check   exit 1 when docs/metrics.md is stale (CI)
//
// The test src/normalize/catalog-files.test.ts fails on a stale file too.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderMetricsDoc } from '../src/semconv/index.js';

const target = new URL('../docs/metrics.md', import.meta.url);
const doc = renderMetricsDoc();

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current !== doc) {
    process.stderr.write('gen-metrics-doc: docs/metrics.md is stale; run `npm run gen-metrics-doc`\n');
    process.exit(1);
  }
  process.stdout.write('gen-metrics-doc: docs/metrics.md is up to date\n');
} else {
  writeFileSync(target, doc);
  process.stdout.write(`gen-metrics-doc: wrote docs/metrics.md (${doc.split('\n').length} lines)\n`);
}
