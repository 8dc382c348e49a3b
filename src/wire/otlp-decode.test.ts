import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WireError } from './errors.js';
import { decodeOtlpMetricsFast } from './otlp-decode.js';
import type { OtlpAnyValue, OtlpKeyValue, OtlpMetricsRequest } from './otlp-view.js';
import { AggregationTemporality, decodeOtlpMetricsMessage, encodeOtlpMetrics, type OtlpMetricsInit } from './otlp.js';

/** Only what the view declares, bigints as strings: comparable across both decoders. */
function project(req: OtlpMetricsRequest): unknown {
  const any = (v: OtlpAnyValue | undefined): unknown => {
    const x = v?.value;
    if (x === undefined || x.case === undefined) return null;
    if (x.case === 'arrayValue') return { a: x.value.values.map(any) };
    if (x.case === 'kvlistValue') return { m: x.value.values.map(kv) };
    if (x.case === 'bytesValue') return { b: Array.from(x.value) };
    return { [x.case]: typeof x.value === 'bigint' ? String(x.value) : x.value };
  };
  const kv = (k: OtlpKeyValue): unknown => [k.key, any(k.value)];
  const big = (o: Record<string, unknown>): unknown => JSON.parse(JSON.stringify(o, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
  return req.resourceMetrics.map((rm) => ({
    resource: (rm.resource?.attributes ?? []).map(kv),
    scopes: rm.scopeMetrics.map((sm) =>
      sm.metrics.map((m) => {
        const d = m.data;
        if (d.case === undefined) return [m.name, m.unit, null];
        const points = d.value.dataPoints.map((p) => {
          if (d.case === 'exponentialHistogram' || p === null || typeof p !== 'object') return 'point';
          const q = p as unknown as Record<string, unknown> & { attributes: OtlpKeyValue[] };
          const keep = ['timeUnixNano', 'flags', 'value', 'count', 'sum', 'bucketCounts', 'explicitBounds', 'quantileValues'];
          const o: Record<string, unknown> = { attributes: q.attributes.map(kv) };
          for (const k of keep) if (k in q && q[k] !== undefined) o[k] = k === 'quantileValues' ? (q[k] as { quantile: number; value: number }[]).map((x) => [x.quantile, x.value]) : q[k];
          return big(o);
        });
        const extra = d.case === 'sum' ? [d.value.aggregationTemporality, d.value.isMonotonic] : d.case === 'histogram' || d.case === 'exponentialHistogram' ? [d.value.aggregationTemporality] : [];
        return [m.name, m.unit, d.case, extra, points];
      }),
    ),
  }));
}

const s = (key: string, v: string) => ({ key, value: { value: { case: 'stringValue' as const, value: v } } });
const REQUEST: OtlpMetricsInit = {
  resourceMetrics: [
    {
      resource: { attributes: [s('service.name', 'vllm'), { key: 'n', value: { value: { case: 'intValue', value: -5n } } }] },
      scopeMetrics: [
        {
          scope: { name: 'x', version: '1' },
          metrics: [
            { name: 'g', unit: '1', description: 'd', data: { case: 'gauge', value: { dataPoints: [{ timeUnixNano: 5n, attributes: [s('a', 'b'), { key: 'f', value: { value: { case: 'doubleValue', value: 1.5 } } }], value: { case: 'asDouble', value: 2.5 } }] } } },
            { name: 'c', data: { case: 'sum', value: { isMonotonic: true, aggregationTemporality: AggregationTemporality.DELTA, dataPoints: [{ timeUnixNano: 6n, flags: 1, value: { case: 'asInt', value: -3n }, exemplars: [{ value: { case: 'asDouble', value: 1 }, traceId: new Uint8Array(16) }] }] } } },
            { name: 'h', unit: 's', data: { case: 'histogram', value: { aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPoints: [{ timeUnixNano: 7n, count: 6n, sum: 1.5, bucketCounts: [1n, 2n, 3n], explicitBounds: [0.1, 1] }] } } },
            { name: 'e', data: { case: 'exponentialHistogram', value: { aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPoints: [{ timeUnixNano: 8n, scale: 3, positive: { offset: 1, bucketCounts: [1n] } }] } } },
            { name: 'q', data: { case: 'summary', value: { dataPoints: [{ timeUnixNano: 9n, count: 4n, sum: 10, quantileValues: [{ quantile: 0.5, value: 2 }], attributes: [{ key: 'l', value: { value: { case: 'arrayValue', value: { values: [{ value: { case: 'boolValue', value: true } }, { value: { case: 'bytesValue', value: Uint8Array.from([1, 2]) } }] } } } }, { key: 'm', value: { value: { case: 'kvlistValue', value: { values: [s('x', 'y')] } } } }] }] } } },
            { name: 'empty' },
          ],
        },
      ],
    },
    { scopeMetrics: [] },
  ],
};

describe('the fast OTLP protobuf decoder', () => {
  const bytes = encodeOtlpMetrics(REQUEST, 'protobuf');

  it('reads what the generated classes read', () => {
    expect(project(decodeOtlpMetricsFast(bytes))).toEqual(project(decodeOtlpMetricsMessage(bytes, 'protobuf')));
  });

  it('agrees with the generated classes on random requests', () => {
    const text = fc.string({ maxLength: 6 });
    const value = fc.oneof(
      text.map((v) => ({ value: { case: 'stringValue' as const, value: v } })),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((v) => ({ value: { case: 'intValue' as const, value: v } })),
      fc.double().map((v) => ({ value: { case: 'doubleValue' as const, value: v } })),
      fc.boolean().map((v) => ({ value: { case: 'boolValue' as const, value: v } })),
    );
    const attrs = fc.array(fc.record({ key: text, value }), { maxLength: 3 });
    const time = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
    const gauge = fc.record({ attributes: attrs, timeUnixNano: time, flags: fc.nat(3), v: fc.oneof(fc.double(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })) }).map((p) => ({
      name: 'g',
      data: { case: 'gauge' as const, value: { dataPoints: [{ attributes: p.attributes, timeUnixNano: p.timeUnixNano, flags: p.flags, value: typeof p.v === 'number' ? { case: 'asDouble' as const, value: p.v } : { case: 'asInt' as const, value: p.v } }] } },
    }));
    const hist = fc.record({ attributes: attrs, counts: fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { maxLength: 4 }), bounds: fc.array(fc.double(), { maxLength: 3 }), sum: fc.option(fc.double(), { nil: undefined }), t: fc.nat(2) }).map((p) => ({
      name: 'h',
      unit: 's',
      data: { case: 'histogram' as const, value: { aggregationTemporality: p.t, dataPoints: [{ attributes: p.attributes, timeUnixNano: 1n, count: 3n, sum: p.sum, bucketCounts: p.counts, explicitBounds: p.bounds }] } },
    }));
    const req = fc.record({ resource: attrs, metrics: fc.array(fc.oneof(gauge, hist), { maxLength: 4 }) });
    fc.assert(
      fc.property(req, (r) => {
        const b = encodeOtlpMetrics({ resourceMetrics: [{ resource: { attributes: r.resource }, scopeMetrics: [{ metrics: r.metrics }] }] }, 'protobuf');
        expect(project(decodeOtlpMetricsFast(b))).toEqual(project(decodeOtlpMetricsMessage(b, 'protobuf')));
      }),
      { numRuns: 500 },
    );
  });

  it('only ever throws WireError on mutated bodies', () => {
    const edits = fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(edits, (es) => {
        const b = bytes.slice();
        for (const [at, v] of es) b[at] = v;
        try {
          decodeOtlpMetricsFast(b);
        } catch (e) {
          if (!(e instanceof WireError)) throw e;
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('only ever throws WireError, on random bytes and deep nesting', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        try {
          decodeOtlpMetricsFast(b);
        } catch (e) {
          if (!(e instanceof WireError)) throw e;
        }
      }),
      { numRuns: 3000 },
    );
    const nested: number[] = [];
    for (let i = 0; i < 3000; i++) nested.push(0x2a, 0xff, 0xff, 0x03, 0x0a, 0xff, 0xff, 0x03);
    const v = Uint8Array.from([0x0a, 0x80, 0x80, 0x02, 0x0a, 0x80, 0x80, 0x02, 0x0a, 0x80, 0x80, 0x02, 0x12, 0x80, 0x80, 0x02, ...nested]);
    expect(() => decodeOtlpMetricsFast(v)).toThrow(WireError);
  });
});
