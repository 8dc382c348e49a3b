// The generated rule files against the real promtool (Debian's 2.42): `promtool check rules`
// accepts the default pack, a pack with other options and SLO files of every kind and scope, and
// `promtool test rules` runs the unit tests of test/rules/testdata/llm-pack.promtool.yml (the rules
// the simulator cannot drive, and a few pinned with their annotations).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { RULE_PACK_FILE, parseSloFile, rulePack, ruleFileYaml, sloRuleGroups } from '../../src/rules/index.js';
import { itWithPeer } from '../peers/peers.js';

const root = new URL('../../', import.meta.url).pathname;

/** Runs promtool; returns its exit status and output. */
function promtool(path: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(path, args, { cwd: root, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Writes `text` to a temp file, runs `promtool check rules` on it, removes it. */
function checkText(path: string, text: string): { status: number | null; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pack-promtool-'));
  try {
    const file = join(dir, 'rules.yml');
    writeFileSync(file, text);
    return promtool(path, ['check', 'rules', file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SLO_FILE = `
slos:
  - slo: ttft
    objective: 0.995
    threshold: 2500ms
    endpoint: chat-prod
    component: gpt-oss-20b
    histogram: llm_time_to_first_token_seconds
    period: 28d
  - slo: itl
    objective: 0.9
    threshold_seconds: 0.05
    histogram: llm_client_inter_token_latency_seconds
  - slo: e2e
    objective: 0.99
    threshold: 1m
  - slo: availability
    objective: 0.9995
    endpoint: llama-prod
`;

describe('promtool and the generated rule files', () => {
  itWithPeer('check rules accepts the checked-in pack', 'promtool', async (path) => {
    const r = promtool(path, ['check', 'rules', `docs/rules/${RULE_PACK_FILE}`]);
    expect(r.out).toContain('SUCCESS');
    expect(r.status).toBe(0);
  });

  itWithPeer('check rules accepts a pack with other options and an SLO file of every kind', 'promtool', async (path) => {
    const pack = rulePack({ kvBand: { low: 0.6, high: 0.8 }, azSkewFactor: 2, slos: parseSloFile(SLO_FILE, 'slos.yml') });
    const r = checkText(path, ruleFileYaml(pack.groups));
    expect(r.out).toContain('SUCCESS');
    expect(r.status).toBe(0);
    const slo = checkText(path, ruleFileYaml(sloRuleGroups(parseSloFile(SLO_FILE, 'slos.yml'))));
    expect(slo.status, slo.out).toBe(0);
  });

  itWithPeer('check rules refuses a broken expression (the check can fail)', 'promtool', async (path) => {
    const groups = rulePack().groups.slice(0, 1).map((g) => ({ ...g, rules: [{ ...g.rules[0], expr: 'sum by (le (rate(x[5m]))' }] }));
    const r = checkText(path, ruleFileYaml(groups));
    expect(r.status).toBe(1);
    expect(r.out).toContain('could not parse expression');
  });

  itWithPeer('an SLI leaves out a source whose layout lacks the threshold and the check names it (promtool test rules)', 'promtool', async (path) => {
    // Two front doors: job a has a bucket at 2.5 s, job b (bounds 2 and 4) has none. Reading b at a
    // neighbouring le would count its requests under the wrong threshold; the SLI leaves b out.
    const dir = mkdtempSync(join(tmpdir(), 'pack-promtool-'));
    try {
      writeFileSync(join(dir, 'slo.rules.yml'), ruleFileYaml(sloRuleGroups([{ slo: 'ttft', objective: 0.9, thresholdSeconds: 2.5 }])));
      const h = 'llm_client_time_to_first_token_seconds';
      const series = (job: string, le: string, perMin: number) => `      - series: '${h}_bucket{endpoint="e", component="c", job="${job}", le="${le}"}'\n        values: '0+${perMin}x30'`;
      const count = (job: string) => `      - series: '${h}_count{endpoint="e", component="c", job="${job}"}'\n        values: '0+10x30'`;
      const test = [
        'rule_files: [slo.rules.yml]',
        'evaluation_interval: 1m',
        'tests:',
        '  - interval: 1m',
        '    input_series:',
        series('a', '1.0', 5),
        series('a', '2.5', 8),
        series('a', '+Inf', 10),
        count('a'),
        series('b', '2', 1),
        series('b', '4', 1),
        series('b', '+Inf', 10),
        count('b'),
        '    promql_expr_test:',
        // Rounded: the ratio of two extrapolated rates is 0.2 give or take the last bit.
        '      - expr: round(slo:sli_error:ratio_rate5m * 1000)',
        '        eval_time: 10m',
        '        exp_samples:',
        `          - labels: '{slo="ttft", objective="0.9", threshold_seconds="2.5", endpoint="e", component="c"}'`,
        '            value: 200',
        '    alert_rule_test:',
        '      - eval_time: 20m',
        '        alertname: SLOThresholdNotABucketBound',
        '        exp_alerts:',
        '          - exp_labels: { severity: ticket, slo: ttft, objective: "0.9", threshold_seconds: "2.5", endpoint: e, component: c, job: b }',
        '            exp_annotations:',
        '              summary: ttft SLO threshold 2.5 s is not a bucket bound of b for c',
        `              description: The histogram ${h} of this source has no bucket le=2.5, so its requests are left out of the SLI (never read at a neighbouring bound). Choose a threshold that is a bound of every layout, or read the SLI from the front door.`,
        '              runbook: docs/runbooks.md#slothresholdnotabucketbound',
      ].join('\n');
      writeFileSync(join(dir, 'slo.test.yml'), `${test}\n`);
      const r = promtool(path, ['test', 'rules', join(dir, 'slo.test.yml')]);
      expect(r.out).toContain('SUCCESS');
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  itWithPeer('test rules passes the pack unit tests', 'promtool', async (path) => {
    const r = promtool(path, ['test', 'rules', 'test/rules/testdata/llm-pack.promtool.yml']);
    expect(r.out).toContain('SUCCESS');
    expect(r.status).toBe(0);
  });
});
