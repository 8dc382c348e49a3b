/**
 * The default LLM rule pack over a large simulated fleet, live: `infersight demo --scenario
 * fleet-<N>` (the built CLI: run `npm run build` first) scraped every 15 s, first with no rules
 * (the pack's file emptied, SIGHUP) for BENCH_MINUTES, then with the pack (restored, SIGHUP) for
 * as long. Each phase reports what the rest of the server sees: the p99 and max of scrape
 * durations, the event-loop delay (p99 of the server's own summary, and its max), and the
 * latency of a one-sample remote write sent every second. The pack phase adds each group's
 * evaluation time (p50 and max over the phase, from /api/v1/rules), the rules' evaluation
 * count and the missed iterations. One JSON line.
 *
 * Env: BENCH_INSTANCES (default 1000), BENCH_MINUTES (default 2).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startDemoCli } from '../../test/e2e/cli.js';
import { waitFor } from '../../test/peers/peers.js';
import { Labels } from '../../src/model/index.js';
import { RemoteWriteAppendable } from '../../src/storage/index.js';

const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1000);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 2);

const quantile = (xs: number[], q: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

interface RulesData {
  groups: { name: string; evaluationTime: number; lastEvaluation: string; rules: unknown[] }[];
}

async function api<T>(base: string, p: string): Promise<T> {
  const body = (await (await fetch(`${base}${p}`)).json()) as { data: T };
  return body.data;
}

async function scalar(base: string, query: string): Promise<number> {
  const r = await api<{ result: { value: [number, string] }[] }>(base, `/api/v1/query?query=${encodeURIComponent(query)}`);
  return r.result.length === 0 ? NaN : Number(r.result[0].value[1]);
}

/** One phase: remote writes every second, /metrics and /api/v1/rules every 15 s. */
async function phase(base: string, minutes: number, withRules: boolean) {
  const rw = new RemoteWriteAppendable(`${base}/api/v1/write`);
  const writeMs: number[] = [];
  const loopP99: number[] = [];
  const loopMax: number[] = [];
  const groupTimes = new Map<string, number[]>();
  const end = Date.now() + minutes * 60_000;
  let nextScrape = Date.now();
  for (let k = 0; Date.now() < end; k++) {
    const t0 = performance.now();
    const app = rw.appender();
    app.append(0, Labels.from({ __name__: 'bench_probe', phase: withRules ? 'rules' : 'none' }), Date.now(), k);
    await app.commit();
    writeMs.push(performance.now() - t0);
    if (Date.now() >= nextScrape) {
      nextScrape += 15_000;
      const metrics = await (await fetch(`${base}/metrics`)).text();
      const p99 = /^infersight_event_loop_delay_seconds\{quantile="0.99"\} (\S+)$/m.exec(metrics);
      const max = /^infersight_event_loop_delay_max_seconds (\S+)$/m.exec(metrics);
      if (p99) loopP99.push(Number(p99[1]));
      if (max) loopMax.push(Number(max[1]));
      if (withRules) {
        for (const g of (await api<RulesData>(base, '/api/v1/rules')).groups) {
          const list = groupTimes.get(g.name) ?? [];
          list.push(g.evaluationTime);
          groupTimes.set(g.name, list);
        }
      }
    }
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - t0))));
  }
  const window = `${minutes}m`;
  const out: Record<string, unknown> = {
    scrapeP99S: r3(await scalar(base, `quantile(0.99, quantile_over_time(0.99, scrape_duration_seconds[${window}]))`)),
    scrapeMaxS: r3(await scalar(base, `max(max_over_time(scrape_duration_seconds[${window}]))`)),
    eventLoopP99S: r3(quantile(loopP99, 0.5)),
    eventLoopMaxS: r3(Math.max(...loopMax)),
    remoteWriteP50Ms: r3(quantile(writeMs, 0.5)),
    remoteWriteP99Ms: r3(quantile(writeMs, 0.99)),
    remoteWriteMaxMs: r3(Math.max(...writeMs)),
  };
  if (withRules) {
    const all = [...groupTimes.values()].flat();
    const perGroup = Object.fromEntries([...groupTimes].map(([g, xs]) => [g, { p50S: r3(quantile(xs, 0.5)), maxS: r3(Math.max(...xs)) }]));
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const sum = (name: string): number => [...metrics.matchAll(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
    Object.assign(out, {
      groups: groupTimes.size,
      groupEvalP50S: r3(quantile(all, 0.5)),
      groupEvalMaxS: r3(Math.max(...all)),
      ruleEvaluations: sum('infersight_rule_evaluations_total'),
      ruleFailures: sum('infersight_rule_evaluation_failures_total'),
      missedIterations: sum('infersight_rule_group_iterations_missed_total'),
      perGroup,
    });
  }
  return out;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-pack-'));
const demo = await startDemoCli(['--data', dir, '--scenario', `fleet-${INSTANCES}`, '--gateway.listen', 'off', '--history', '0']);
try {
  const packFile = path.join(dir, 'sim', 'rules', 'llm-pack.rules.yml');
  const pack = fs.readFileSync(packFile, 'utf8');
  const reload = async (text: string, groups: number): Promise<void> => {
    fs.writeFileSync(packFile, text);
    demo.child.kill('SIGHUP');
    await waitFor(`${groups} rule groups`, async () => ((await api<RulesData>(demo.base, '/api/v1/rules')).groups.length === groups ? true : undefined), 120_000);
  };
  const packGroups = (await api<RulesData>(demo.base, '/api/v1/rules')).groups.length;
  // Most instances scraped with rates before measuring.
  await waitFor('rates for most instances', async () => ((await scalar(demo.base, 'count(count by (instance) (rate(llm_time_to_first_token_seconds_count[1m]) > 0))')) > INSTANCES * 0.5 ? true : undefined), 10 * 60_000);
  await reload('groups: []\n', 0);
  const none = await phase(demo.base, MINUTES, false);
  await reload(pack, packGroups);
  const rules = await phase(demo.base, MINUTES, true);
  const rulesCount = (pack.match(/^\s*- (record|alert):/gm) ?? []).length;
  console.log(JSON.stringify({ bench: 'rules-pack-live', instances: INSTANCES, minutes: MINUTES, rules: rulesCount, withoutRules: none, withPack: rules }));
} finally {
  await demo.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
