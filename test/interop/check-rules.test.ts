/**
 * `infersight check-rules` against Debian's `promtool check rules` (2.42) on a table of good and
 * bad rule files: the committed ones in testdata/rules/ and hostile ones generated here (a huge
 * file, binary garbage, deep nesting, an alias bomb, a 1 MB expression). Both tools get the same
 * path, so nothing is normalised but the order of errors that promtool takes from a Go map (a
 * rule's label and annotation errors come in random order there). Every file must give the same
 * exit status, stdout and stderr, or be listed in KNOWN with the reason; the test prints
 * `check-rules: N files, M identical, K known differences`, and fails on an unlisted difference
 * and on a listed one that has gone away.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect } from 'vitest';
import { mulberry32 } from '../../src/model/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { runCli } from '../e2e/cli.js';
import { itWithPeer } from '../peers/peers.js';

const TESTDATA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata/rules');

/**
 * Files on which we knowingly differ from promtool 2.42, and why. `verdict: true` marks a
 * difference in exit status; the others differ only in wording and still agree on the verdict.
 */
const KNOWN: Record<string, { reason: string; verdict?: true }> = {
  'bad-query-offset.yml': { reason: 'query_offset is a Prometheus 3.x field; we follow 3.x and accept it, 2.42 refuses it', verdict: true },
  'bad-promql.yml': { reason: "src/promql words a bad offset as Prometheus 3.x does ('expected number, duration, step(), or range()'; 2.42: 'expected duration')" },
  'bad-yaml-syntax.yml': { reason: "YAML syntax errors: the yaml package's message and line, not yaml.v3's (both print it twice and fail)" },
  'bad-unclosed-flow.yml': { reason: "YAML syntax errors: the yaml package's message and line, not yaml.v3's" },
  'bad-unclosed-quote.yml': { reason: "YAML syntax errors: the yaml package's message and line, not yaml.v3's" },
  'gen-deep-500.yml': { reason: 'we refuse nesting past 100 levels before parsing (the yaml package recurses per level); yaml.v3 allows 10,000' },
};

/** Hostile files, generated so that no megabyte sits in the repository. */
function generate(dir: string): string[] {
  const files: Record<string, string | Uint8Array> = {};
  const rules = Array.from({ length: 40 }, (_, i) => `      - record: r${i}\n        expr: sum by (job) (rate(up[5m])) > ${i}`).join('\n');
  files['gen-huge.yml'] = 'groups:\n' + Array.from({ length: 500 }, (_, g) => `  - name: g${g}\n    rules:\n${rules}\n`).join('');
  const rand = mulberry32(16);
  files['gen-binary.bin'] = Uint8Array.from({ length: 4096 }, () => Math.floor(rand() * 256));
  files['gen-bad-utf8.yml'] = Uint8Array.from([...new TextEncoder().encode('groups:\n  - name: "'), 0xc3, 0x28, 0x22, 0x0a]);
  files['gen-control-char.yml'] = 'groups: []\n\x07\n';
  files['gen-bom.yml'] = '\ufeffgroups:\n  - name: g\n    rules:\n      - record: a\n        expr: up\n';
  files['gen-deep-flow.yml'] = `groups: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`;
  files['gen-deep-500.yml'] = `groups: ${'['.repeat(500)}${']'.repeat(500)}\n`;
  files['gen-1mb-expr.yml'] = `groups:\n  - name: g\n    rules:\n      - record: a\n        expr: 'up{job="${'x'.repeat(1 << 20)}"}'\n`;
  files['gen-1mb-bad-expr.yml'] = `groups:\n  - name: g\n    rules:\n      - record: a\n        expr: 'up{job="${'x'.repeat(1 << 20)}"} +'\n`;
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++) bomb.push(`${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(9).fill(`*${'abcdefghi'[i - 1]}`).join(', ')}]`);
  files['gen-alias-bomb-unread.yml'] = bomb.join('\n') + '\ngroups: []\n';
  // Aliases that the schema does expand: 300 groups of 300 rules of 300 labels.
  const labels = `{${Array.from({ length: 300 }, (_, i) => `l${i}: v`).join(', ')}}`;
  files['gen-alias-bomb.yml'] =
    `groups:\n  - name: g\n    rules:\n      - &r {record: a, expr: up, labels: ${labels}}\n  - &g\n    name: h\n    rules: [${Array(300).fill('*r').join(', ')}]\n` +
    '  - *g\n'.repeat(300);
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  return Object.keys(files).map((f) => path.join(dir, f));
}

/** Sorts each run of a rule's label and annotation errors, whose order promtool takes from a Go map. */
function normaliseMapOrder(stderr: string): string {
  const lines = stderr.split('\n');
  const mapped = /^(.*: group ".*", rule \d+, ".*": )(invalid label name|invalid annotation name|label "|annotation ")/;
  for (let i = 0; i < lines.length; ) {
    const m = mapped.exec(lines[i]);
    let j = i + 1;
    while (m !== null && j < lines.length && mapped.exec(lines[j])?.[1] === m[1]) j++;
    lines.splice(i, j - i, ...lines.slice(i, j).sort());
    i = j;
  }
  return lines.join('\n');
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function promtool(bin: string, file: string): Outcome {
  const res = spawnSync(bin, ['check', 'rules', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: res.status, stdout: res.stdout, stderr: normaliseMapOrder(res.stderr) };
}

async function ours(file: string): Promise<Outcome> {
  const res = await runCli(['check-rules', file]);
  return { code: res.code, stdout: res.stdout, stderr: normaliseMapOrder(res.stderr) };
}

const t = tempDir('check-rules');
afterAll(() => t.remove());

describe('check-rules against promtool check rules', () => {
  itWithPeer(
    'every file gets the same verdict and the same words, apart from the known differences',
    'promtool',
    async (bin) => {
      const files = [...fs.readdirSync(TESTDATA).sort().map((f) => path.join(TESTDATA, f)), ...generate(t.dir)];
      expect(files.length).toBeGreaterThanOrEqual(25);
      const unexpected: string[] = [];
      const stale: string[] = [];
      let identical = 0;
      let verdicts = 0;
      let report = '';
      for (const file of files) {
        const name = path.basename(file);
        const [want, got] = [promtool(bin, file), await ours(file)];
        const same = want.code === got.code && want.stdout === got.stdout && want.stderr === got.stderr;
        const known = KNOWN[name];
        if (same) {
          identical++;
          if (known !== undefined) stale.push(name);
        } else if (known === undefined || (known.verdict !== true && want.code !== got.code)) {
          unexpected.push(`${name}:\n--- promtool (exit ${want.code})\n${want.stdout}${want.stderr}--- infersight (exit ${got.code})\n${got.stdout}${got.stderr}`);
        } else {
          if (want.code !== got.code) verdicts++;
          report += `  known: ${name} (exit ${want.code} vs ${got.code}): ${known.reason}\n`;
        }
      }
      const knownCount = files.length - identical - unexpected.length;
      process.stdout.write(`check-rules: ${files.length} files, ${identical} identical, ${knownCount} known differences (${verdicts} in verdict)\n${report}`);
      expect(unexpected).toEqual([]);
      // A difference that went away must leave KNOWN, so the list stays true.
      expect(stale).toEqual([]);
    },
    600_000,
  );
});
