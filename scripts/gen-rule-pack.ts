// gen-rule-pack: writes the default LLM rule pack (src/rules/pack, typed data) as a Prometheus rule
// file to docs/rules/llm-pack.rules.yml.
//
//   npm run gen-rule-pack              write the file
//   npm run gen-rule-pack -- --check   exit 1 when the file is stale or missing (CI)
//
// The test test/rules/pack-file.test.ts fails on a stale file too.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { RULE_PACK_FILE, rulePackYaml } from '../src/rules/index.js';

const dir = new URL('../docs/rules/', import.meta.url);
const target = new URL(RULE_PACK_FILE, dir);
const text = rulePackYaml();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current !== text) {
    process.stderr.write(`gen-rule-pack: docs/rules/${RULE_PACK_FILE} is stale; run \`npm run gen-rule-pack\`\n`);
    process.exit(1);
  }
  process.stdout.write(`gen-rule-pack: docs/rules/${RULE_PACK_FILE} up to date\n`);
} else {
  mkdirSync(dir, { recursive: true });
  writeFileSync(target, text);
  process.stdout.write(`gen-rule-pack: wrote docs/rules/${RULE_PACK_FILE} (${text.split('\n').length} lines)\n`);
}
