// `/api/v1/rules` and `/api/v1/alerts` as Prometheus 2.42 answers them and as `rulesApiData` /
// `alertsApiData` build them, for the same rule file: after normalizing what must differ between
// two runs (times, durations), the JSON is the same text, key order included.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { alertsApiData, rulesApiData, runRulesOver, type RuleGroupSpec } from '../../src/rules/index.js';
import { alertingSpec, groupSpec, recordingSpec } from '../../src/rules/testing/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { freePort, itWithPeer, startReadyPeer, waitFor } from '../peers/peers.js';
import { formatExpr, openRulesDb } from '../rules/harness.js';

const RULE_FILE = {
  groups: [
    {
      name: 'shapes',
      limit: 10,
      rules: [
        { record: 'plain', expr: 'vector(1)' },
        { record: 'labeled', expr: 'vector(2) * 1', labels: { team: 'infra' } },
        { alert: 'AlwaysFiring', expr: 'vector(3) > 0', keep_firing_for: '5m', labels: { severity: 'page' }, annotations: { summary: 'always' } },
        { alert: 'LongPending', expr: 'vector(0.25) > 0', for: '1h', annotations: { b: 'x', a: 'y' } },
        { alert: 'Never', expr: 'vector(1) < 0', for: '30s' },
      ],
    },
  ],
};

function ourSpecs(file: string): RuleGroupSpec[] {
  return [
    groupSpec(
      'shapes',
      [
        recordingSpec('plain', 'vector(1)'),
        recordingSpec('labeled', 'vector(2) * 1', { team: 'infra' }),
        alertingSpec('AlwaysFiring', 'vector(3) > 0', { keepFiringForMs: 300_000, labels: { severity: 'page' }, annotations: { summary: 'always' } }),
        alertingSpec('LongPending', 'vector(0.25) > 0', { forMs: 3_600_000, annotations: { b: 'x', a: 'y' } }),
        alertingSpec('Never', 'vector(1) < 0', { forMs: 30_000 }),
      ],
      { file, limit: 10, intervalMs: 1000 },
    ),
  ];
}

/** Replaces what differs between two runs: times and measured durations. */
function normalize(v: unknown): string {
  return JSON.stringify(v, (key, value: unknown) => {
    if (['lastEvaluation', 'activeAt', 'keepFiringSince'].includes(key) && typeof value === 'string') return 'TIME';
    if (key === 'evaluationTime' && typeof value === 'number') return 0;
    return value;
  });
}

describe('rules and alerts API shapes against Prometheus 2.42', () => {
  itWithPeer('rulesApiData and alertsApiData answer what Prometheus answers', 'prometheus', async (prometheus) => {
    const t = tempDir('rules-api');
    const rulesFile = path.join(t.dir, 'rules.json');
    fs.writeFileSync(rulesFile, JSON.stringify(RULE_FILE));
    const config = path.join(t.dir, 'prometheus.yml');
    fs.writeFileSync(config, `global:\n  evaluation_interval: 1s\nrule_files: [${JSON.stringify(rulesFile)}]\n`);
    const port = await freePort();
    const prom = await startReadyPeer('prometheus', prometheus, [`--config.file=${config}`, `--storage.tsdb.path=${path.join(t.dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], `http://127.0.0.1:${port}/-/ready`);
    const d = await openRulesDb();
    try {
      const get = async (p: string): Promise<unknown> => ((await (await fetch(`http://127.0.0.1:${port}${p}`)).json()) as { data: unknown }).data;
      // Wait until every rule has been evaluated once (health no longer unknown).
      const theirs = await waitFor('every rule evaluated', async () => {
        const data = (await get('/api/v1/rules')) as { groups: { rules: { health: string }[] }[] };
        return data.groups[0]?.rules.every((r) => r.health === 'ok') ? data : undefined;
      });
      const theirAlerts = await get('/api/v1/alerts');
      const theirRecords = await get('/api/v1/rules?type=record');
      const res = await runRulesOver(ourSpecs(rulesFile), 0, 3000, { query: d.client, appendable: d.db, formatExpr, align: 'from' });
      expect(normalize(rulesApiData(res.snapshot))).toBe(normalize(theirs));
      expect(normalize(rulesApiData(res.snapshot, 'record'))).toBe(normalize(theirRecords));
      expect(normalize(alertsApiData(res.snapshot))).toBe(normalize(theirAlerts));
    } finally {
      await d.close();
      await prom.stop();
      t.remove();
    }
  });
});
