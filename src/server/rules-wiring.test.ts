import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryLogger } from '../model/index.js';
import { useCleanups } from '../model/testing/cleanups.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { EMPTY_RULES_CONFIG, parseRulesConfig } from './rules-wiring.js';
import { startServer } from './serve.js';

const cleanups = useCleanups();

describe('parseRulesConfig', () => {
  it.each([
    ['an empty file', '', { ...EMPTY_RULES_CONFIG, dir: '/etc' }],
    [
      'global settings, rule and SLO files',
      'global:\n  evaluation_interval: 30s\n  rule_query_offset: 1m\n  external_labels: {cluster: eu-1}\nrule_files: [rules/*.yml]\nslo_files: [slos.yml]\n',
      { ...EMPTY_RULES_CONFIG, dir: '/etc', evaluationIntervalMs: 30_000, ruleQueryOffsetMs: 60_000, externalLabels: { cluster: 'eu-1' }, ruleFiles: ['rules/*.yml'], sloFiles: ['slos.yml'] },
    ],
  ])('reads %s', (_name, text, want) => {
    expect(parseRulesConfig(text, '/etc')).toEqual(want);
  });

  it.each([
    ['a rule_files entry that is not a string', 'rule_files: [[a]]\n', /line 1/],
    ['an empty rule_files entry', "rule_files: ['']\n", /rule_files entry 1 is empty/],
    ['a bad evaluation_interval', 'global:\n  evaluation_interval: 5x\n', /line 2/],
    ['an Alertmanager without targets section type', 'alerting:\n  alertmanagers: [{static_configs: 3}]\n', /line 2/],
  ])('refuses %s with its line', (_name, text, want) => {
    expect(() => parseRulesConfig(text, '/etc')).toThrow(want);
  });
});

describe('rules in the server', () => {
  async function serve(config: string, files: Record<string, string>) {
    const t = tempDir('rules-wiring');
    cleanups.push(t.remove);
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(t.dir, name)), { recursive: true });
      fs.writeFileSync(path.join(t.dir, name), text);
    }
    fs.writeFileSync(path.join(t.dir, 'infersight.yml'), config);
    const server = await startServer({
      listen: '127.0.0.1:0',
      storage: { dir: path.join(t.dir, 'data'), fsync: { mode: 'never' } },
      logger: new MemoryLogger(),
      clock: Date.now,
      scrape: { configFile: path.join(t.dir, 'infersight.yml') },
      ui: false,
    });
    cleanups.push(() => server.close());
    await server.ready;
    return { server, dir: t.dir };
  }

  it('runs the groups of rule_files and of slo_files together', async () => {
    const { server } = await serve('global:\n  evaluation_interval: 1h\nrule_files: [rules/*.yml]\nslo_files: [slos.yml]\n', {
      'rules/a.yml': 'groups:\n  - name: a\n    rules:\n      - record: x:up\n        expr: sum(up)\n',
      'slos.yml': 'slos:\n  - slo: availability\n    objective: 0.999\n',
    });
    const groups = server.rules.source().snapshot().groups.map((g) => `${path.basename(g.file)}: ${g.name}`);
    expect(groups).toContain('a.yml: a');
    expect(groups.filter((g) => g.startsWith('slos.yml: ')).length).toBeGreaterThanOrEqual(2);
  });

  // The manager keeps the defaults it was built with; the wiring fills them into the groups.
  it.each([
    ['sets none', '', [3_600_000, 0], [7_200_000, 60_000]],
    ['sets its own interval and query_offset', '    interval: 5m\n    query_offset: 10s\n', [300_000, 10_000], [300_000, 10_000]],
  ])('applies a reloaded evaluation_interval and rule_query_offset to a group that %s', async (_name, own, before, after) => {
    const rules = `groups:\n  - name: a\n${own}    rules:\n      - record: x:up\n        expr: sum(up)\n`;
    const { server, dir } = await serve('global:\n  evaluation_interval: 1h\nrule_files: [rules/*.yml]\n', { 'rules/a.yml': rules });
    const group = () => server.rules.source().snapshot().groups.map((g) => [g.intervalMs, g.queryOffsetMs]);
    expect(group()).toEqual([before]);
    fs.writeFileSync(path.join(dir, 'infersight.yml'), 'global:\n  evaluation_interval: 2h\n  rule_query_offset: 1m\nrule_files: [rules/*.yml]\n');
    await server.reloadConfig();
    expect(group()).toEqual([after]);
  });

  it.each([
    ['a rule file', { 'rules/a.yml': 'groups:\n  - name: a\n    rules:\n      - record: x:up\n        expr: sum(up\n' }, /a\.yml.*could not parse expression/s],
    ['an SLO file', { 'rules/a.yml': 'groups: []\n', 'slos.yml': 'slos:\n  - slo: availabilty\n    objective: 0.999\n' }, /slos\.yml.*line 2.*unknown slo "availabilty"/s],
  ])('does not start on a broken %s, naming the file and the line', async (_name, files, want) => {
    await expect(serve('rule_files: [rules/*.yml]\nslo_files: [slos.yml]\n', files)).rejects.toThrow(want);
  });
});
