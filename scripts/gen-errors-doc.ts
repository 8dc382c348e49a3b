// gen-errors-doc: rewrites the tables of docs/errors.md from the error registries
// (src/<module>/errors.ts), keeping the page's hand-written prose.
//
//   npm run gen-errors-doc              rewrite docs/errors.md
//   npm run gen-errors-doc -- --check   exit 1 when docs/errors.md is stale (CI)
//
// The test test/tooling/errors-doc.test.ts fails on a stale page too.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderErrorsDoc } from './errors-doc.js';

const target = new URL('../docs/errors.md', import.meta.url);
const current = readFileSync(target, 'utf8');
const doc = renderErrorsDoc(current);

if (process.argv.includes('--check')) {
  if (current !== doc) {
    process.stderr.write('gen-errors-doc: docs/errors.md is stale; run `npm run gen-errors-doc`\n');
    process.exit(1);
  }
  process.stdout.write('gen-errors-doc: docs/errors.md is up to date\n');
} else {
  writeFileSync(target, doc);
  process.stdout.write('gen-errors-doc: wrote the tables of docs/errors.md\n');
}
