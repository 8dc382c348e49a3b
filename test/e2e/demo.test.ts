import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { waitFor } from '../peers/peers.js';
import { startDemoCli } from './cli.js';

interface VectorResult {
  metric: Record<string, string>;
  value: [number, string];
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

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

    expect(await demo.stop()).toBe(0);
  }, 120_000);
});
