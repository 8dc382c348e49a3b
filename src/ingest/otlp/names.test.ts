import { describe, expect, it } from 'vitest';
import { labelName, metricName, type MetricKind } from './names.js';

describe('OTLP metric names (Prometheus UnderscoreEscapingWithSuffixes)', () => {
  it.each([
    ['http.server.duration', 's', 'histogram', 'http_server_duration_seconds'],
    ['http.server.request.size', 'By', 'histogram', 'http_server_request_size_bytes'],
    ['requests', '{request}', 'counter', 'requests_total'],
    ['requests.total', '1', 'counter', 'requests_total'],
    ['total.requests', '', 'counter', 'requests_total'],
    ['cpu.utilization', '1', 'gauge', 'cpu_utilization_ratio'],
    ['cpu.ratio.used', '1', 'gauge', 'cpu_used_ratio'],
    ['cpu.utilization', '1', 'counter', 'cpu_utilization_total'],
    ['queue.size', '1', 'updowncounter', 'queue_size'],
    ['throughput', 'By/s', 'gauge', 'throughput_bytes_per_second'],
    ['speed', 'm/s', 'gauge', 'speed_meters_per_second'],
    ['tokens', '{token}/s', 'gauge', 'tokens_per_second'],
    ['latency_seconds', 's', 'histogram', 'latency_seconds'],
    ['memory', 'MiBy', 'gauge', 'memory_mebibytes'],
    ['temp', 'Cel', 'gauge', 'temp_celsius'],
    ['load', '%', 'gauge', 'load_percent'],
    ['odd', 'foo bar', 'gauge', 'odd_foo_bar'],
    ['vllm:num_requests_running', '', 'gauge', 'vllm:num_requests_running'],
    ['a__b..c', '', 'gauge', 'a_b_c'],
    ['2xx.count', '', 'counter', '_2xx_count_total'],
    ['größe', 'By', 'gauge', 'gr_e_bytes'],
    ['...', '', 'gauge', null],
    ['', '', 'gauge', null],
  ] as [string, string, MetricKind, string | null][])('%j [%s] %s → %j', (name, unit, kind, want) => {
    expect(metricName(name, unit, kind)).toBe(want);
  });
});

describe('OTLP attribute names', () => {
  it.each([
    ['http.method', 'http_method'],
    ['service.instance.id', 'service_instance_id'],
    ['123abc', 'key_123abc'],
    ['_private', 'key_private'],
    ['__reserved__', '__reserved__'],
    ['größe', 'gr__e'],
    ['...', null],
    ['', null],
  ])('%j → %j', (key, want) => {
    expect(labelName(key)).toBe(want);
  });
});
