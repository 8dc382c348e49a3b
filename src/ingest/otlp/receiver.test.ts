import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOtlpMetrics, encodeOtlpMetrics, type OtlpEncoding, type OtlpMetricsInit } from '../../wire/index.js';
import { MemoryStorage } from '../../storage/testing/index.js';
import { OtlpReceiver } from './receiver.js';

const NOW = 1_764_547_200_000;
const ns = (ms: number): bigint => BigInt(ms) * 1_000_000n;
const str = (key: string, v: string) => ({ key, value: { value: { case: 'stringValue' as const, value: v } } });
const RESOURCE = [str('service.name', 'vllm'), str('service.namespace', 'llm'), str('service.instance.id', 'pod-1'), str('cloud.availability_zone', 'az-a')];

type Metric = NonNullable<NonNullable<OtlpMetricsInit['resourceMetrics']>[number]['scopeMetrics']>[number]['metrics'];

function request(metrics: Metric, resource = RESOURCE): OtlpMetricsInit {
  return { resourceMetrics: [{ resource: { attributes: resource }, scopeMetrics: [{ scope: { name: 's' }, metrics }] }] };
}

function setup(options: ConstructorParameters<typeof OtlpReceiver>[1] = {}) {
  const store = new MemoryStorage();
  const rx = new OtlpReceiver(store, { clock: () => NOW, ...options });
  const send = async (init: OtlpMetricsInit, enc: OtlpEncoding = 'protobuf', headers: Record<string, string> = {}) => {
    const ct = enc === 'protobuf' ? 'application/x-protobuf' : 'application/json';
    const r = await rx.handle({ body: encodeOtlpMetrics(init, enc), headers: { 'content-type': ct, ...headers } });
    return { status: r.status, body: r.body, text: typeof r.body === 'string' ? r.body : new TextDecoder().decode(r.body) };
  };
  return { store, rx, send };
}

const gauge = (name: string, unit: string, v: number, attrs = [str('gpu', '0')], tMs = NOW) =>
  ({ name, unit, data: { case: 'gauge' as const, value: { dataPoints: [{ timeUnixNano: ns(tMs), attributes: attrs, value: { case: 'asDouble' as const, value: v } }] } } });
const sum = (name: string, temporality: 1 | 2, monotonic: boolean, v: number, tMs = NOW) =>
  ({ name, data: { case: 'sum' as const, value: { aggregationTemporality: temporality, isMonotonic: monotonic, dataPoints: [{ timeUnixNano: ns(tMs), value: { case: 'asInt' as const, value: BigInt(v) } }] } } });
const histogram = (temporality: 1 | 2, counts: number[], tMs = NOW) => ({
  name: 'request.duration',
  unit: 's',
  data: { case: 'histogram' as const, value: { aggregationTemporality: temporality, dataPoints: [{ timeUnixNano: ns(tMs), count: BigInt(counts.reduce((a, b) => a + b, 0)), sum: 1.5, explicitBounds: [0.1, 1], bucketCounts: counts.map(BigInt) }] } },
});
const ID = 'instance="pod-1", job="llm/vllm"';

describe('OTLP translation', () => {
  it('translates gauges, counters and up-down counters with Prometheus names, job and instance', async () => {
    const { send, store } = setup({ targetInfo: false });
    const r = await send(request([gauge('gpu.utilization', '1', 0.5), sum('requests', 2, true, 7), sum('queue.size', 2, false, 3), gauge('memory.used', 'By', 1024, [str('job', 'ignored'), str('http.method', 'GET')])]));
    expect(r.status).toBe(200);
    expect(store.lines()).toEqual([
      `gpu_utilization_ratio{gpu="0", ${ID}} @${NOW}=0.5`,
      `requests_total{${ID}} @${NOW}=7`,
      `queue_size{${ID}} @${NOW}=3`,
      `memory_used_bytes{http_method="GET", ${ID}} @${NOW}=1024`,
    ]);
  });

  it('writes classic histograms with cumulative le buckets, and summaries', async () => {
    const { send, store } = setup({ targetInfo: false });
    const summary = {
      name: 'latency',
      unit: 'ms',
      data: { case: 'summary' as const, value: { dataPoints: [{ timeUnixNano: ns(NOW), count: 4n, sum: 10, quantileValues: [{ quantile: 0.5, value: 2 }, { quantile: 0.99, value: 9 }] }] } },
    };
    await send(request([histogram(2, [1, 2, 3]), summary]));
    expect(store.lines()).toEqual([
      `request_duration_seconds_sum{${ID}} @${NOW}=1.5`,
      `request_duration_seconds_count{${ID}} @${NOW}=6`,
      `request_duration_seconds_bucket{${ID}, le="0.1"} @${NOW}=1`,
      `request_duration_seconds_bucket{${ID}, le="1"} @${NOW}=3`,
      `request_duration_seconds_bucket{${ID}, le="+Inf"} @${NOW}=6`,
      `latency_milliseconds_sum{${ID}} @${NOW}=10`,
      `latency_milliseconds_count{${ID}} @${NOW}=4`,
      `latency_milliseconds{${ID}, quantile="0.5"} @${NOW}=2`,
      `latency_milliseconds{${ID}, quantile="0.99"} @${NOW}=9`,
    ]);
  });

  it('accumulates delta sums and histograms into cumulative series, once per point', async () => {
    const { send, store, rx } = setup({ targetInfo: false });
    await send(request([sum('tokens', 1, true, 5, NOW - 2000), histogram(1, [1, 0, 0], NOW - 2000)]));
    await send(request([sum('tokens', 1, true, 3, NOW - 1000), histogram(1, [0, 2, 1], NOW - 1000)]));
    // A retried export (same point time) is not counted twice.
    await send(request([sum('tokens', 1, true, 3, NOW - 1000)]));
    await send(request([sum('tokens', 1, true, 1, NOW)]));
    expect(store.lines().filter((l) => l.startsWith('tokens_total'))).toEqual([
      `tokens_total{${ID}} @${NOW - 2000}=5`,
      `tokens_total{${ID}} @${NOW - 1000}=8`,
      `tokens_total{${ID}} @${NOW}=9`,
    ]);
    expect(store.lines().filter((l) => l.includes('_bucket') && l.includes('+Inf'))).toEqual([
      `request_duration_seconds_bucket{${ID}, le="+Inf"} @${NOW - 2000}=1`,
      `request_duration_seconds_bucket{${ID}, le="+Inf"} @${NOW - 1000}=4`,
    ]);
    expect(store.lines()).toContain(`request_duration_seconds_bucket{${ID}, le="1"} @${NOW - 1000}=3`);
    expect(rx.deltaSeries).toBe(2);
  });

  it('keeps delta totals unchanged when a request is refused', async () => {
    const { send, store } = setup({ targetInfo: false });
    await send(request([sum('tokens', 1, true, 5, NOW - 2000)]));
    store.failCommits('ERR_STORAGE_UNAVAILABLE', 1);
    expect((await send(request([sum('tokens', 1, true, 3, NOW - 1000)]))).status).toBe(503);
    expect((await send(request([sum('tokens', 1, true, 3, NOW - 1000)]))).status).toBe(200);
    expect(store.lines()).toEqual([`tokens_total{${ID}} @${NOW - 2000}=5`, `tokens_total{${ID}} @${NOW - 1000}=8`]);
  });

  it('writes target_info for resources with more than job and instance', async () => {
    const { send, store } = setup();
    await send(request([gauge('g', '', 1, [], NOW - 400_000), gauge('h', '', 1, [], NOW)]));
    expect(store.lines().filter((l) => l.startsWith('target_info'))).toEqual([
      `target_info{cloud_availability_zone="az-a", ${ID}} @${NOW - 400_000}=1`,
      `target_info{cloud_availability_zone="az-a", ${ID}} @${NOW - 250_000}=1`,
      `target_info{cloud_availability_zone="az-a", ${ID}} @${NOW - 100_000}=1`,
      `target_info{cloud_availability_zone="az-a", ${ID}} @${NOW}=1`,
    ]);
    const only = setup();
    await only.send(request([gauge('g', '', 1)], [str('service.name', 'x')]));
    expect(only.store.lines()).toEqual([`g{gpu="0", job="x"} @${NOW}=1`]);
  });

  it('promotes resource attributes, joins colliding attribute names, marks points without value stale', async () => {
    const { send, store } = setup({ targetInfo: false, promoteResourceAttributes: ['cloud.availability_zone'] });
    const point = { timeUnixNano: ns(NOW), flags: 1, attributes: [str('a.b', '1'), str('a_b', '2')], value: { case: 'asDouble' as const, value: 3 } };
    await send(request([{ name: 'x', data: { case: 'gauge', value: { dataPoints: [point] } } }]));
    expect(store.lines()).toEqual([`x{a_b="1;2", cloud_availability_zone="az-a", ${ID}} @${NOW}=stale`]);
  });

  it('refuses exponential histograms and metrics without temporality through partial success, writing the rest', async () => {
    const { send, store } = setup({ targetInfo: false });
    const exp = { name: 'exp', data: { case: 'exponentialHistogram' as const, value: { aggregationTemporality: 2, dataPoints: [{ timeUnixNano: ns(NOW) }, { timeUnixNano: ns(NOW) }] } } };
    const r = await send(request([exp, sum('nope', 0 as 1, true, 1), gauge('ok', '', 1)]), 'json');
    expect(r.status).toBe(200);
    const body = JSON.parse(r.text) as { partialSuccess: { rejectedDataPoints: string; errorMessage: string } };
    expect(body.partialSuccess.rejectedDataPoints).toBe('3');
    expect(body.partialSuccess.errorMessage).toContain('exponential histograms are not supported yet (metric "exp")');
    expect(store.lines()).toEqual([`ok{gpu="0", ${ID}} @${NOW}=1`]);
  });
});

describe('OTLP/HTTP receiver', () => {
  it('answers 200 with an empty ExportMetricsServiceResponse in the request encoding', async () => {
    const { send } = setup();
    const pb = await send(request([gauge('g', '', 1)]));
    expect([pb.status, pb.body]).toEqual([200, new Uint8Array(0)]);
    const json = await send(request([gauge('g', '', 2, [], NOW + 1)]), 'json');
    expect([json.status, json.text]).toEqual([200, '{}']);
  });

  it('takes gzip bodies and refuses other encodings and content types', async () => {
    const { rx, store } = setup({ targetInfo: false });
    const body = zlib.gzipSync(encodeOtlpMetrics(request([gauge('g', '', 1)]), 'json'));
    expect((await rx.handle({ body, headers: { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' } })).status).toBe(200);
    expect(store.lines()).toHaveLength(1);
    expect((await rx.handle({ body, headers: { 'content-type': 'application/json', 'content-encoding': 'br' } })).status).toBe(415);
    expect((await rx.handle({ body, headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await rx.handle({ body: Uint8Array.from([1, 2, 3]), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } })).status).toBe(400);
  });

  it('refuses bodies over the limit, compressed or not', async () => {
    const { rx } = setup({ limits: { maxBodyBytes: 100 } });
    const big = encodeOtlpMetrics(request([gauge('g'.repeat(200), '', 1)]), 'json');
    expect((await rx.handle({ body: big, headers: { 'content-type': 'application/json' } })).status).toBe(413);
    expect((await rx.handle({ body: zlib.gzipSync(big), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } })).status).toBe(413);
  });

  it('refuses out-of-order samples with 400 and writes nothing of the request', async () => {
    const { send, store } = setup({ targetInfo: false });
    await send(request([gauge('g', '', 1)]));
    const r = await send(request([gauge('h', '', 1), gauge('g', '', 2, undefined, NOW - 1000)]));
    expect([r.status, r.text]).toEqual([400, expect.stringContaining('out of order sample')]);
    expect(store.lines()).toEqual([`g{gpu="0", ${ID}} @${NOW}=1`]);
  });

  it('fuzz: random and mutated bodies always get a 2xx or 4xx answer', async () => {
    const { rx } = setup();
    const good = encodeOtlpMetrics(request([gauge('g', '', 1), histogram(1, [1, 2, 3])]), 'protobuf');
    expect(decodeOtlpMetrics(good, 'protobuf').resourceMetrics).toHaveLength(1);
    const edits = fc.array(fc.tuple(fc.nat(good.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 200 }), edits.map((es) => {
        const b = good.slice();
        for (const [at, v] of es) b[at] = v;
        return b;
      })), fc.constantFrom('application/x-protobuf', 'application/json'), async (body, ct) => {
        const r = await rx.handle({ body, headers: { 'content-type': ct } });
        expect(r.status < 500, `status ${r.status}: ${String(r.body)}`).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });
});
