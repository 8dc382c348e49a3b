/**
 * Interop: the OpenTelemetry JS SDK's real OTLP exporters push metrics into Infersight, over
 * http/protobuf (to the separate OTLP listener, `POST /v1/metrics`) and http/json (to the main
 * listener, `POST /api/v1/otlp/v1/metrics`); the translated series are read back through
 * Infersight's own `/api/v1/query`.
 */
import { AggregationTemporalityPreference, OTLPMetricExporter as JsonExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { MemoryLogger, systemClock } from '../../src/model/index.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';

const cleanups = useCleanups();

interface Vector {
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

async function start(): Promise<{ server: RunningServer; base: string; otlpBase: string }> {
  const t = tempDir('interop-otlp');
  cleanups.push(t.remove);
  const server = await startServer({
    listen: '127.0.0.1:0',
    storage: { dir: t.dir, fsync: { mode: 'never' } },
    logger: new MemoryLogger(),
    clock: systemClock,
    ingest: { otlpListen: { address: '127.0.0.1:0', required: true } },
  });
  cleanups.push(() => server.close());
  await server.ready;
  const otlp = server.otlpHttp;
  if (otlp === null) throw new Error('no OTLP listener');
  return { server, base: `http://127.0.0.1:${server.http.address.port}`, otlpBase: `http://127.0.0.1:${otlp.address.port}` };
}

async function query(base: string, q: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(q)}`);
  const body = (await res.json()) as Vector;
  return Object.fromEntries(body.data.result.map((r) => [JSON.stringify(r.metric), r.value[1]]));
}

/** Records a fixed set of instruments twice, exporting after each round. */
async function push(exporter: PushMetricExporter, serviceName: string): Promise<void> {
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'service.instance.id': 'pod-1', 'cloud.region': 'eu-west-1' }),
    readers: [reader],
  });
  const meter = provider.getMeter('interop');
  const requests = meter.createCounter('llm.requests', { unit: '{request}' });
  const latency = meter.createHistogram('llm.request.duration', { unit: 's', advice: { explicitBucketBoundaries: [0.1, 1, 10] } });
  const kv = meter.createObservableGauge('gpu.kv_cache.usage', { unit: '1' });
  kv.addCallback((r) => r.observe(0.25, { gpu: '0' }));
  const queue = meter.createUpDownCounter('llm.queue.size');
  requests.add(3, { model: 'llama' });
  latency.record(0.05, { model: 'llama' });
  latency.record(2, { model: 'llama' });
  queue.add(5);
  await provider.forceFlush();
  // Export timestamps are milliseconds apart at best; make the second round land later.
  await new Promise((r) => setTimeout(r, 20));
  requests.add(4, { model: 'llama' });
  latency.record(0.5, { model: 'llama' });
  queue.add(-2);
  await provider.forceFlush();
  await provider.shutdown();
}

describe('interop: OpenTelemetry JS SDK exporters push into Infersight', () => {
  it.each([
    ['http/protobuf, cumulative, to the OTLP listener', 'proto', AggregationTemporalityPreference.CUMULATIVE],
    ['http/protobuf, delta, to the OTLP listener', 'proto', AggregationTemporalityPreference.DELTA],
    ['http/json, cumulative, to /api/v1/otlp/v1/metrics', 'json', AggregationTemporalityPreference.CUMULATIVE],
    ['http/json, delta, to /api/v1/otlp/v1/metrics', 'json', AggregationTemporalityPreference.DELTA],
  ] as const)('%s', async (_name, kind, temporality) => {
    const { base, otlpBase } = await start();
    const exporter =
      kind === 'proto'
        ? new ProtoExporter({ url: `${otlpBase}/v1/metrics`, temporalityPreference: temporality })
        : new JsonExporter({ url: `${base}/api/v1/otlp/v1/metrics`, temporalityPreference: temporality });
    await push(exporter, 'gateway');
    const id = { instance: 'pod-1', job: 'gateway' };
    const key = (name: string, extra: Record<string, string> = {}) => JSON.stringify(Object.fromEntries(Object.entries({ __name__: name, ...extra, ...id }).sort()));
    expect(await query(base, 'llm_requests_total')).toEqual({ [key('llm_requests_total', { model: 'llama' })]: '7' });
    expect(await query(base, 'llm_queue_size')).toEqual({ [key('llm_queue_size')]: '3' });
    expect(await query(base, 'gpu_kv_cache_usage_ratio')).toEqual({ [key('gpu_kv_cache_usage_ratio', { gpu: '0' })]: '0.25' });
    expect(await query(base, 'llm_request_duration_seconds_bucket')).toEqual({
      [key('llm_request_duration_seconds_bucket', { model: 'llama', le: '0.1' })]: '1',
      [key('llm_request_duration_seconds_bucket', { model: 'llama', le: '1' })]: '2',
      [key('llm_request_duration_seconds_bucket', { model: 'llama', le: '10' })]: '3',
      [key('llm_request_duration_seconds_bucket', { model: 'llama', le: '+Inf' })]: '3',
    });
    expect(await query(base, 'llm_request_duration_seconds_count')).toEqual({ [key('llm_request_duration_seconds_count', { model: 'llama' })]: '3' });
    expect(Number(Object.values(await query(base, 'llm_request_duration_seconds_sum'))[0])).toBeCloseTo(2.55);
    const info = await query(base, 'target_info');
    expect(Object.keys(info).map((k) => JSON.parse(k) as Record<string, string>)).toEqual([expect.objectContaining({ cloud_region: 'eu-west-1', ...id })]);
  });
});
