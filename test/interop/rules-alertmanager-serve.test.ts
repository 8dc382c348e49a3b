/**
 * The built `infersight serve` against the real `prometheus-alertmanager` (Debian's 0.25) on
 * loopback: the `alerting:` section of `--config.file` points at it, a firing rule's alert arrives
 * through Alertmanager's API v2 with the external labels added, `/api/v1/alertmanagers` lists it,
 * and the alert resolves once a reload changes the rule so that it stops firing.
 */
import { describe, expect } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { itWithPeer, startAlertmanager as startAlertmanagerPeer, waitFor } from '../peers/peers.js';
import { apiData, rulesDir, serveRules } from '../e2e/rules-serve-lib.js';

const cleanups = useCleanups();

/** Starts Alertmanager with a receiver that sends nothing (test/peers/peers.ts `startAlertmanager`). */
async function startAlertmanager(binary: string): Promise<{ base: string; port: number }> {
  const t = tempDir('interop-am-serve');
  cleanups.push(t.remove);
  const am = await startAlertmanagerPeer(binary, 'route:\n  receiver: none\nreceivers:\n  - name: none\n', t.dir);
  cleanups.push(am.stop);
  return am;
}

interface AmAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  endsAt: string;
  generatorURL: string;
  status: { state: string };
}

const RULES = (expr: string) => `groups:
  - name: am
    rules:
      - alert: AlwaysFiring
        expr: ${expr}
        labels: { severity: page }
        annotations: { summary: 'value {{ $value }}' }
`;

describe('interop: serve sends its alerts to the real Alertmanager', () => {
  itWithPeer('a firing rule arrives with the external labels and resolves after a reload', 'prometheus-alertmanager', async (binary) => {
    const am = await startAlertmanager(binary);
    const config = [
      'global:',
      '  evaluation_interval: 1s',
      '  external_labels: { cluster: e2e, replica: r1 }',
      'alerting:',
      '  alertmanagers:',
      `    - static_configs: [{ targets: ['127.0.0.1:${am.port}'] }]`,
      'rule_files: [rules.yml]',
      '',
    ].join('\n');
    const d = rulesDir(cleanups, RULES('vector(1)'), config);
    const cli = await serveRules(cleanups, d);
    expect(await apiData(cli.base, '/api/v1/alertmanagers')).toEqual({
      activeAlertmanagers: [{ url: `http://127.0.0.1:${am.port}/api/v2/alerts` }],
      droppedAlertmanagers: [],
    });
    const amAlerts = async (): Promise<AmAlert[]> => (await (await fetch(`${am.base}/api/v2/alerts`)).json()) as AmAlert[];
    const [got] = await waitFor('the alert at Alertmanager', async () => {
      const a = await amAlerts();
      return a.length > 0 ? a : undefined;
    });
    expect(got.labels).toEqual({ alertname: 'AlwaysFiring', severity: 'page', cluster: 'e2e', replica: 'r1' });
    expect(got.annotations).toEqual({ summary: 'value 1' });
    expect(got.status.state).toBe('active');
    expect(got.generatorURL).toMatch(new RegExp(`^${cli.base}/graph\\?g0\\.expr=vector%281%29&g0\\.tab=1$`));
    // The rule stays, its expression stops matching: Infersight sends the alert resolved.
    d.writeRules(RULES('vector(1) == 2'));
    expect((await fetch(`${cli.base}/-/reload`, { method: 'POST' })).status).toBe(200);
    await waitFor('the alert resolved at Alertmanager', async () => {
      const a = await amAlerts();
      return a.every((x) => Date.parse(x.endsAt) <= Date.now()) ? true : undefined;
    });
  });
});
