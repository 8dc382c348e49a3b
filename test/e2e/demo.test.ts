import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { waitFor } from '../peers/peers.js';
import { startDemoCli } from './cli.js';

interface VectorResult {
  metric: Record<string, string>;
  value: [number, string];
}

const cleanups = useCleanups();

async function query(base: string, q: string): Promise<VectorResult[]> {
  const res = await fetch(`${base}/api/v1/query`, { method: 'POST', body: new URLSearchParams({ query: q }) });
  const body = (await res.json()) as { status: string; data: { result: VectorResult[] } };
  if (body.status !== 'success') throw new Error(`query ${q} failed`);
  return body.data.result;
}

const IDENTITY = ['az', 'component', 'endpoint', 'instance', 'instance_type', 'replica'];

describe('infersight demo (whole process)', () => {
  it('scrapes the simulated fleet into unified series with identity labels, and an injected fault shows in the data', async () => {
    const t = tempDir('e2e-demo');
    cleanups.push(t.remove);
    const demo = await startDemoCli(['--data', t.dir, '--speed', '60', '--scrape-interval', '1s']);
    cleanups.push(async () => {
      await demo.stop();
    });

    // Every engine's replicas report the unified TTFT histogram, KV usage and token counters.
    for (const metric of ['llm_time_to_first_token_seconds_bucket', 'llm_kv_cache_usage_ratio', 'llm_generation_tokens_total']) {
      const engines = await waitFor(`${metric} from vLLM and SGLang`, async () => {
        const r = await query(demo.base, `count by (engine) (${metric})`);
        const names = r.map((x) => x.metric.engine).sort();
        return names.includes('vllm') && names.includes('sglang') ? names : undefined;
      });
      expect(engines).toEqual(expect.arrayContaining(['vllm', 'sglang']));
      const series = await query(demo.base, `topk(1, ${metric})`);
      for (const l of IDENTITY) expect(series[0].metric, `${metric} has ${l}`).toHaveProperty(l);
    }
    const gpu = await waitFor('DCGM gauges', async () => {
      const r = await query(demo.base, 'count by (az, instance_type) (gpu_power_usage_watts)');
      return r.length > 0 ? r : undefined;
    });
    expect(gpu[0].metric).toHaveProperty('az');
    expect(demo.stdout()).toContain('Inject a fault');

    // A rate-limit burst on one component: its 429 count climbs, and the ground truth names it.
    const rejected = async (): Promise<number> =>
      (await query(demo.base, 'sum(llm_client_requests_total{status_class="429", component="gpt-oss-20b"})')).reduce((a, r) => a + Number(r.value[1]), 0);
    const before = await rejected();
    const res = await fetch(`${demo.base}/api/v1/sim/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'rate-limit-burst', scope: { component: 'gpt-oss-20b' }, duration: '30m' }),
    });
    expect(res.status).toBeLessThan(300);
    const truth = (await (await fetch(`${demo.base}/api/v1/sim/ground-truth`)).json()) as { data: { kind: string }[] };
    expect(truth.data.map((g) => g.kind)).toContain('rate-limit-burst');
    const after = await waitFor('429s after the burst', async () => {
      const v = await rejected();
      return v > before + 20 ? v : undefined;
    });
    expect(after).toBeGreaterThan(before);

    // Cleared early through the demo server: the ground truth ends it now, long before its 30 minutes.
    const injected = ((await res.json()) as { data: { id: number; endMs: number } }).data;
    const cleared = await fetch(`${demo.base}/api/v1/sim/faults/${injected.id}`, { method: 'DELETE' });
    expect(cleared.status).toBe(200);
    const end = ((await cleared.json()) as { data: { endMs: number } }).data.endMs;
    expect(end).toBeLessThan(injected.endMs);
    expect(end).toBeLessThanOrEqual(Date.now());
    expect((await fetch(`${demo.base}/api/v1/sim/faults/${injected.id + 100}`, { method: 'DELETE' })).status).toBe(404);

    expect(await demo.stop()).toBe(0);
  }, 120_000);

  it('replays the history of a scenario file on a fresh data directory before it is ready, then goes on live without a rejected sample', async () => {
    const t = tempDir('e2e-demo-history');
    cleanups.push(t.remove);
    const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/examples/scenario.json');
    const demo = await startDemoCli(['--data', t.dir, '--history', '1h', '--scenario-file', file, '--gateway.listen', 'off']);
    cleanups.push(async () => {
      await demo.stop();
    });
    const readyS = Date.now() / 1000;
    expect(demo.stdout()).toMatch(/Replaying the last 1h of the simulated fleet/);
    await waitFor('the banner', () => Promise.resolve(demo.stdout().includes('Ctrl-C') ? true : undefined));
    expect(demo.stdout()).toMatch(/History: the last 1h(\dm)? replayed in [\d.]+ s/);
    expect((await fetch(`${demo.base}/-/ready`)).status).toBe(200);
    // Samples from 50 minutes ago, scraped through file_sd with the scenario's identity labels.
    const old = await fetch(`${demo.base}/api/v1/query`, { method: 'POST', body: new URLSearchParams({ query: 'count by (component) (up{job="sglang"} == 1)', time: String(readyS - 50 * 60) }) });
    const series = ((await old.json()) as { data: { result: VectorResult[] } }).data.result;
    expect(series.map((r) => r.metric.component)).toEqual(['qwen']);
    // The example's slow-instance fault starts 30 minutes after the replay's start: 30 minutes ago.
    const truth = (await (await fetch(`${demo.base}/api/v1/sim/ground-truth`)).json()) as { data: { kind: string; startMs: number; endMs: number }[] };
    const slow = truth.data.find((g) => g.kind === 'slow-instance');
    expect(Math.abs(slow!.startMs / 1000 - (readyS - 30 * 60))).toBeLessThan(120);
    expect(slow!.endMs - slow!.startMs).toBe(15 * 60_000);
    // The default rule pack ran over the same span as if it had been live: its recorded series
    // exist 50 minutes back, one sample per 15 s evaluation.
    const recorded = await fetch(`${demo.base}/api/v1/query`, { method: 'POST', body: new URLSearchParams({ query: 'max(count_over_time(slo:sli_requests:rate5m[10m]))', time: String(readyS - 40 * 60) }) });
    const rec = ((await recorded.json()) as { data: { result: { value: [number, string] }[] } }).data.result;
    expect(Number(rec[0]?.value[1])).toBeGreaterThanOrEqual(39);
    // Cost (src/cost's evaluator, on by default) was computed over the history too, in step with it.
    const costThen = await fetch(`${demo.base}/api/v1/query`, { method: 'POST', body: new URLSearchParams({ query: 'sum(llm_cost_dollars_per_hour)', time: String(readyS - 45 * 60) }) });
    const costRes = ((await costThen.json()) as { data: { result: { value: [number, string] }[] } }).data.result;
    expect(Number(costRes[0]?.value[1])).toBeGreaterThan(0);
    const summary = (await (await fetch(`${demo.base}/api/v1/cost/summary`)).json()) as { status: string; data: { components: { component: string; dollarsPerHour: number }[] } };
    expect(summary.status).toBe('success');
    expect(summary.data.components.map((c) => c.component)).toContain('qwen');
    expect(summary.data.components.every((c) => c.dollarsPerHour > 0)).toBe(true);
    // And it runs live: every group of the pack is listed, and evaluates without errors.
    const rules = await waitFor('a live evaluation of every pack group', async () => {
      const r = (await (await fetch(`${demo.base}/api/v1/rules`)).json()) as { data: { groups: { name: string; file: string; rules: { health: string; lastError?: string }[] }[] } };
      const groups = r.data.groups.filter((g) => !g.name.endsWith(':period'));
      return groups.length > 0 && groups.every((g) => g.rules.every((x) => x.health !== 'unknown')) ? r.data.groups : undefined;
    });
    expect(rules.every((g) => g.file.endsWith('rules/llm-pack.rules.yml'))).toBe(true);
    expect(rules.flatMap((g) => g.rules.filter((x) => x.health === 'err').map((x) => x.lastError))).toEqual([]);
    // Live scrapes follow the replayed ones: none is refused as out of order or duplicate.
    await waitFor('a live scrape after the history', async () => {
      const r = await query(demo.base, `count(timestamp(up) > ${readyS})`);
      return r.length > 0 ? r : undefined;
    });
    const metrics = await (await fetch(`${demo.base}/metrics`)).text();
    for (const reason of ['out_of_order', 'duplicate', 'out_of_bounds', 'too_old']) expect(metrics).toContain(`infersight_tsdb_rejected_samples_total{reason="${reason}"} 0\n`);
    expect(await demo.stop()).toBe(0);

    // The directory holds data now: a second start keeps it and goes live at once.
    const again = await startDemoCli(['--data', t.dir, '--history', '1h', '--scenario-file', file, '--gateway.listen', 'off']);
    cleanups.push(async () => {
      await again.stop();
    });
    await waitFor('the banner', () => Promise.resolve(again.stdout().includes('Ctrl-C') ? true : undefined));
    expect(again.stdout()).not.toContain('Replaying');
    expect(again.stdout()).toContain(`History: none replayed, ${t.dir} holds data already`);
    expect(await again.stop()).toBe(0);
  }, 180_000);
});
