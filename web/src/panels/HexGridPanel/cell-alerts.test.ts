import { describe, expect, it } from 'vitest';
import type { HexGridOptions } from '../../../../src/dashboards/types.js';
import type { ActiveAlert, InstantSample } from '../../../../src/query/index.js';
import { RULES_GOLDEN } from '../../api/testdata/rules-golden.js';
import { cellAlertsText, matchCellAlerts } from './cell-alerts.js';
import { buildHexCells } from './hex-cells.js';

const OPTS: HexGridOptions = { cells: 'cells', views: { instance: 'instance', replica: 'replica', endpoint: 'endpoint' }, groupBy: 'az', health: [], filterVariable: 'instance' };

/** The replicas of the golden's data set (test/e2e/rules-api-capture.ts), plus a second replica on i-0a1. */
const REPLICAS: InstantSample[] = [
  ['chat', 'chat-llama', 'i-0a1', 'chat-llama-r1', 'us-east-1a'],
  ['code', 'code-qwen', 'i-0a1', 'code-qwen-r9', 'us-east-1a'],
  ['chat', 'chat-llama', 'i-0b2', 'chat-llama-r2', 'us-east-1b'],
  ['code', 'code-qwen', 'i-0c3', 'code-qwen-r1', 'us-east-1c'],
  ['code', 'code-qwen', 'i-0d4', 'code-qwen-r2', 'us-east-1a'],
  ['chat', 'chat-llama', 'i-0e5', 'chat-llama-r3', 'us-east-1c'],
].map(([endpoint, component, instance, replica, az]) => ({ metric: { endpoint, component, instance, replica, az }, value: [1, '1'] }));

const alert = (state: ActiveAlert['state'], labels: Record<string, string>): ActiveAlert => ({ labels, annotations: {}, state, value: '1e+00' });
const ALERTS: ActiveAlert[] = [
  ...RULES_GOLDEN.alerts.data.alerts,
  alert('pending', { alertname: 'SLOBurnRateFast', slo: 'ttft', endpoint: 'chat', component: 'chat-llama', severity: 'page' }),
  alert('firing', { alertname: 'GPUMemoryHigh', instance: 'i-0c3', gpu: '0' }),
  alert('firing', { alertname: 'FleetWide', severity: 'ticket' }),
  // Names an instance and a component it does not run: no cell.
  alert('firing', { alertname: 'Mismatch', instance: 'i-0c3', component: 'chat-llama' }),
];

function check(view: string): Record<string, string> {
  const cells = buildHexCells([{ refId: 'cells', unit: 'none', samples: REPLICAS }], OPTS, view, []);
  const m = matchCellAlerts(cells, ALERTS);
  return Object.fromEntries(
    cells
      .map((c): [string, string] => {
        const a = m.get(c.id);
        return [`${c.value}@${c.group}`, a === undefined ? '-' : `${a.state}: ${a.alerts.map((x) => x.labels.alertname).join(' ')}`];
      })
      .sort(([x], [y]) => x.localeCompare(y)),
  );
}

describe('matchCellAlerts', () => {
  it('puts instance, replica and component alerts on the instance cells, worst first', () => {
    expect(check('instance')).toEqual({
      'i-0a1@us-east-1a': 'firing: KVCacheFull SLOBurnRateFast',
      'i-0b2@us-east-1b': 'pending: KVCachePreScale SLOBurnRateFast',
      'i-0c3@us-east-1c': 'firing: GPUMemoryHigh',
      'i-0d4@us-east-1a': 'firing: KVCacheFull',
      'i-0e5@us-east-1c': 'pending: SLOBurnRateFast',
    });
  });

  it('matches replica cells by replica and endpoint cells by endpoint', () => {
    expect(check('replica')).toMatchObject({ 'chat-llama-r1@us-east-1a': 'firing: KVCacheFull SLOBurnRateFast', 'code-qwen-r9@us-east-1a': '-', 'code-qwen-r1@us-east-1c': 'firing: GPUMemoryHigh' });
    expect(check('endpoint')).toEqual({
      'chat@us-east-1a': 'firing: KVCacheFull SLOBurnRateFast',
      'chat@us-east-1b': 'pending: KVCachePreScale SLOBurnRateFast',
      'chat@us-east-1c': 'pending: SLOBurnRateFast',
      'code@us-east-1a': 'firing: KVCacheFull',
      'code@us-east-1c': 'firing: GPUMemoryHigh',
    });
  });

  it.each([
    [{ state: 'firing', firing: 2, pending: 1, alerts: [] }, '2 alerts firing, 1 pending'],
    [{ state: 'pending', firing: 0, pending: 1, alerts: [] }, '1 alert pending'],
    [undefined, 'no alerts'],
  ] as const)('says %j as %s', (a, text) => {
    expect(cellAlertsText(a)).toBe(text);
  });
});
