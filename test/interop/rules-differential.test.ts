/**
 * Differential: Debian's Prometheus 2.42 and Infersight evaluate the same rule file over the
 * same remote-written data, live; their recorded series, `ALERTS` and `ALERTS_FOR_STATE` samples
 * and their `/api/v1/alerts` answers must agree.
 *
 * How the two are made to see the same thing at the same instants:
 * - The data (1 s resolution, from 10 minutes ago to 2 minutes ahead) is written to both before
 *   any rule is loaded; an instant query at t reads only samples at or before t, so what a rule
 *   sees at t is the same in both stores.
 * - Both evaluate the one rule file at the same path, and Infersight aligns a group's
 *   evaluation times as Prometheus does (an offset from the hash of the group's name and file),
 *   so both evaluate at the same instants.
 * - Both load the rules by a reload at about the same moment; only samples at instants both
 *   evaluated are compared.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { Labels } from '../../src/model/index.js';
import { groupOffsetNs } from '../../src/rules/index.js';
import { RemoteWriteAppendable } from '../../src/storage/index.js';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { startServe } from '../e2e/cli.js';
import { freePort, itWithPeer, startReadyPeer, waitFor } from '../peers/peers.js';

const cleanups = useCleanups();

const INTERVAL_S = 1;
/** How long both evaluate, in seconds. */
const RUN_S = 45;

/** The rule file both evaluate: recording rules (one chained), alerts with `for`, `keep_firing_for`, templates. */
const RULES = `groups:
  - name: recording
    interval: ${INTERVAL_S}s
    rules:
      - record: endpoint_status:diff_requests:rate30s
        expr: sum by (endpoint, status) (rate(diff_requests_total[30s]))
      - record: endpoint:diff_errors:ratio30s
        expr: sum by (endpoint) (endpoint_status:diff_requests:rate30s{status="500"}) / sum by (endpoint) (endpoint_status:diff_requests:rate30s)
      - record: endpoint:diff_latency_seconds:p99
        expr: histogram_quantile(0.99, sum by (le, endpoint) (rate(diff_latency_seconds_bucket[30s])))
        labels:
          source: differential
      - record: diff_fleet_kv:max
        expr: max(diff_kv_usage)
  - name: alerts
    interval: ${INTERVAL_S}s
    rules:
      - alert: KvCacheHigh
        expr: diff_kv_usage > 0.8
        for: 6s
        labels:
          severity: page
          replica: '{{ $labels.instance }}'
        annotations:
          summary: 'KV cache of {{ $labels.instance }} at {{ $value | humanizePercentage }}'
          description: '{{ printf "%.3f" $value }} since {{ with query "diff_fleet_kv:max" }}{{ . | first | value | humanize }}{{ end }}'
      - alert: KvCacheCritical
        expr: diff_kv_usage > 0.9
        keep_firing_for: 5s
        labels:
          severity: critical
      - alert: ErrorRatioHigh
        expr: endpoint:diff_errors:ratio30s > 0.05
        for: 3s
        annotations:
          summary: '{{ $labels.endpoint }} errors {{ humanize $value }}'
      - alert: Watchdog
        expr: vector(1)
`;

/** One value per second; times are seconds after the data's base time. */
type Schedule = (s: number) => number;

/** kv usage of two instances: a rises over 0.8, then over 0.9, then falls; b stays low. */
const KV: Record<string, Schedule> = {
  'i-a': (s) => (s < 12 ? 0.5 : s < 30 ? 0.85 : s < 36 ? 0.95 : 0.3),
  'i-b': () => 0.4,
};

/** Requests: e1 gets 5xx between 15 s and 35 s. */
function requestsAt(endpoint: string, status: string, s: number): number {
  const base = Math.max(0, s + 600) * (endpoint === 'e1' ? 10 : 4);
  if (status === '200') return base;
  // errors accumulate only inside the error window
  const errorSeconds = endpoint === 'e1' ? Math.max(0, Math.min(s, 35) - 15) : 0;
  return errorSeconds * 2;
}

/** Writes the data set, t in [base - 600 s, base + 120 s], to a remote-write URL. */
async function writeData(url: string, baseMs: number): Promise<void> {
  const rw = new RemoteWriteAppendable(url);
  for (let from = -600; from <= 120; from += 120) {
    const app = rw.appender();
    for (let s = from; s < Math.min(from + 120, 121); s++) {
      const t = baseMs + s * 1000;
      for (const [instance, kv] of Object.entries(KV)) app.append(0, Labels.from({ __name__: 'diff_kv_usage', instance }), t, kv(s));
      for (const endpoint of ['e1', 'e2']) {
        for (const status of ['200', '500']) app.append(0, Labels.from({ __name__: 'diff_requests_total', endpoint, status }), t, requestsAt(endpoint, status, s));
        const n = Math.max(0, s + 600);
        const slow = endpoint === 'e1' && s > 20 ? 0.3 : 0.05;
        for (const [le, share] of [['0.1', 0.9 - slow], ['0.5', 0.99], ['1', 1], ['+Inf', 1]] as const) {
          app.append(0, Labels.from({ __name__: 'diff_latency_seconds_bucket', endpoint, le }), t, Math.round(n * 10 * share));
        }
      }
    }
    await app.commit();
  }
}

/** A config file with or without `rule_files`. */
function config(rulesFile: string | null): string {
  return ['global:', `  evaluation_interval: ${INTERVAL_S}s`, ...(rulesFile === null ? [] : ['rule_files:', `  - ${rulesFile}`]), ''].join('\n');
}

interface MatrixRow {
  metric: Record<string, string>;
  values: [number, string][];
}
interface ApiAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: string;
  activeAt: string;
  value: string;
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const body = (await res.json()) as { status: string; data: T; error?: string };
  if (body.status !== 'success') throw new Error(`${url}: ${body.error ?? res.status}`);
  return body.data;
}

/** Every sample of the rules' output series in (from, to], as `labels @ t = value` lines. */
async function ruleOutput(base: string, atS: number, windowS: number): Promise<Map<number, string[]>> {
  const q = `{__name__=~"ALERTS|ALERTS_FOR_STATE|endpoint.*|diff_fleet_kv:max"}[${windowS}s]`;
  const data = await getJson<{ result: MatrixRow[] }>(`${base}/api/v1/query?query=${encodeURIComponent(q)}&time=${atS}`);
  const byTime = new Map<number, string[]>();
  for (const row of data.result) {
    const labels = Object.entries(row.metric)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(',');
    for (const [t, v] of row.values) {
      const list = byTime.get(t) ?? [];
      list.push(`{${labels}} ${v}`);
      byTime.set(t, list);
    }
  }
  for (const list of byTime.values()) list.sort();
  return byTime;
}

describe('differential: rule evaluation, Prometheus 2.42 against Infersight', () => {
  itWithPeer(
    'the same rule file over the same data gives the same recorded series, ALERTS and alerts',
    'prometheus',
    async (prometheus) => {
      const t = tempDir('rules-diff');
      cleanups.push(t.remove);
      const rulesFile = path.join(t.dir, 'rules.yml');
      fs.writeFileSync(rulesFile, RULES);
      const promConfig = path.join(t.dir, 'prometheus.yml');
      const ourConfig = path.join(t.dir, 'infersight.yml');
      fs.writeFileSync(promConfig, config(null));
      fs.writeFileSync(ourConfig, config(null));

      const port = await freePort();
      const promBase = `http://127.0.0.1:${port}`;
      const prom = await startReadyPeer(
        'prometheus',
        prometheus,
        [`--config.file=${promConfig}`, `--storage.tsdb.path=${path.join(t.dir, 'prometheus')}`, `--web.listen-address=127.0.0.1:${port}`, '--web.enable-remote-write-receiver', '--web.enable-lifecycle'],
        `${promBase}/-/ready`,
      );
      cleanups.push(prom.stop);
      const ours = await startServe(['--data', path.join(t.dir, 'infersight'), '--config.file', ourConfig, '--web.enable-lifecycle']);
      cleanups.push(async () => {
        ours.child.kill('SIGTERM');
        await ours.exited;
      });

      const baseMs = Math.ceil(Date.now() / 1000) * 1000 + 5_000;
      await Promise.all([writeData(`${promBase}/api/v1/write`, baseMs), writeData(`${ours.base}/api/v1/write`, baseMs)]);

      // Load the rules in both just after a tick of the alerts group (its offset inside the second
      // is the same in both), so that both first evaluate it at the same next tick: an alert true
      // from the start (Watchdog) is then active since the same instant in both.
      const offsetMs = Number(groupOffsetNs(rulesFile, 'alerts', INTERVAL_S * 1000) / 1_000_000n);
      const sinceTick = (): number => (Date.now() - offsetMs + 1000) % 1000;
      while (sinceTick() < 20 || sinceTick() > 120) await new Promise((r) => setTimeout(r, 5));
      fs.writeFileSync(promConfig, config(rulesFile));
      fs.writeFileSync(ourConfig, config(rulesFile));
      const reload = async (base: string): Promise<void> => {
        const res = await fetch(`${base}/-/reload`, { method: 'POST' });
        expect(res.status, `${base} reload: ${await res.text()}`).toBe(200);
      };
      await Promise.all([reload(promBase), reload(ours.base)]);
      const loadedMs = Date.now();

      // Let both run through the schedule (the alerts fire, keep firing and resolve).
      await waitFor('the run', async () => (Date.now() > loadedMs + RUN_S * 1000 ? true : undefined), (RUN_S + 30) * 1000);
      const atS = Math.floor(Date.now() / 1000);
      const [theirs, mine] = await Promise.all([ruleOutput(promBase, atS, RUN_S + 10), ruleOutput(ours.base, atS, RUN_S + 10)]);

      // Compare at the instants both evaluated (the first tick of each may differ by one).
      const common = [...theirs.keys()].filter((k) => mine.has(k)).sort((a, b) => a - b);
      expect(common.length, `common evaluation instants (Prometheus ${theirs.size}, Infersight ${mine.size})`).toBeGreaterThan(RUN_S * 0.6);
      const diffs: string[] = [];
      for (const k of common) {
        const a = theirs.get(k) ?? [];
        const b = mine.get(k) ?? [];
        if (a.join('\n') !== b.join('\n')) diffs.push(`t=${k}\n  prometheus: ${a.join('\n              ')}\n  infersight: ${b.join('\n              ')}`);
      }
      expect(diffs.slice(0, 5).join('\n')).toBe('');
      // Every series kind of the rule file took part.
      const names = new Set(common.flatMap((k) => (theirs.get(k) ?? []).map((l) => /__name__="([^"]+)"/.exec(l)?.[1])));
      expect([...names].sort()).toEqual(['ALERTS', 'ALERTS_FOR_STATE', 'diff_fleet_kv:max', 'endpoint:diff_errors:ratio30s', 'endpoint:diff_latency_seconds:p99', 'endpoint_status:diff_requests:rate30s']);

      // The alerts API: same alerts, labels, rendered annotations, states and activeAt. Asked
      // between two ticks of the alerts group (its offset inside the second is known), so both
      // answer from the same evaluation.
      while (sinceTick() < 200 || sinceTick() > 500) await new Promise((r) => setTimeout(r, 5));
      const alerts = async (base: string): Promise<string[]> =>
        (await getJson<{ alerts: ApiAlert[] }>(`${base}/api/v1/alerts`)).alerts.map((a) => JSON.stringify([a.labels, a.annotations, a.state, a.activeAt, a.value])).sort();
      const [a, b] = await Promise.all([alerts(ours.base), alerts(promBase)]);
      expect(a).toEqual(b);
    },
    180_000,
  );
});
