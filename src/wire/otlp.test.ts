import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WireError, isWireError, WireErrorCode } from './errors.js';
import { AggregationTemporality, decodeOtlpMetrics, encodeOtlpMetrics, encodeOtlpMetricsResponse, type OtlpEncoding, type OtlpMetricsInit } from './otlp.js';

const request: OtlpMetricsInit = {
  resourceMetrics: [
    {
      resource: { attributes: [{ key: 'service.name', value: { value: { case: 'stringValue', value: 'vllm' } } }] },
      scopeMetrics: [
        {
          scope: { name: 'meter' },
          metrics: [
            { name: 'gpu.util', unit: '1', data: { case: 'gauge', value: { dataPoints: [{ timeUnixNano: 1_000_000_000n, value: { case: 'asDouble', value: 0.5 } }] } } },
            {
              name: 'requests',
              data: { case: 'sum', value: { isMonotonic: true, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPoints: [{ timeUnixNano: 2_000_000_000n, value: { case: 'asInt', value: 7n } }] } },
            },
          ],
        },
      ],
    },
  ],
};

describe('OTLP metrics codec', () => {
  it.each(['protobuf', 'json'] as OtlpEncoding[])('round-trips a request as %s', (enc) => {
    const got = decodeOtlpMetrics(encodeOtlpMetrics(request, enc), enc);
    const metrics = got.resourceMetrics[0].scopeMetrics[0].metrics;
    expect(metrics.map((m) => [m.name, m.data.case])).toEqual([
      ['gpu.util', 'gauge'],
      ['requests', 'sum'],
    ]);
    expect(got.resourceMetrics[0].resource?.attributes[0].key).toBe('service.name');
  });

  it('reads OTLP/JSON as senders write it: camelCase, enums as numbers, int64 as strings, unknown fields', () => {
    const json = {
      resourceMetrics: [
        {
          resource: { attributes: [{ key: 'k', value: { intValue: '5' } }], futureField: 1 },
          scopeMetrics: [
            {
              metrics: [
                {
                  name: 'm',
                  sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: [{ timeUnixNano: '1700000000000000000', asInt: '3', exemplars: [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', asDouble: 1 }] }] },
                },
              ],
            },
          ],
        },
      ],
    };
    const got = decodeOtlpMetrics(new TextEncoder().encode(JSON.stringify(json)), 'json');
    const m = got.resourceMetrics[0].scopeMetrics[0].metrics[0];
    expect(m.data.case).toBe('sum');
    if (m.data.case === 'sum') {
      expect(m.data.value.aggregationTemporality).toBe(1);
      expect(m.data.value.dataPoints[0].timeUnixNano).toBe(1_700_000_000_000_000_000n);
    }
  });

  it.each([
    ['protobuf', Uint8Array.from([0x0a, 0x05, 0x01]), WireErrorCode.PROTOBUF],
    ['json', new TextEncoder().encode('{"resourceMetrics": ['), WireErrorCode.JSON],
    ['json', new TextEncoder().encode('{"resourceMetrics": 5}'), WireErrorCode.JSON],
    ['json', Uint8Array.from([0xff, 0xfe]), WireErrorCode.JSON],
  ] as [OtlpEncoding, Uint8Array, WireErrorCode][])('refuses malformed %s', (enc, body, code) => {
    let err: unknown;
    try {
      decodeOtlpMetrics(body, enc);
    } catch (e) {
      err = e;
    }
    expect(isWireError(err, code)).toBe(true);
  });

  it('encodes responses with and without partial success', () => {
    expect(encodeOtlpMetricsResponse('protobuf')).toEqual(new Uint8Array(0));
    expect(new TextDecoder().decode(encodeOtlpMetricsResponse('json'))).toBe('{}');
    expect(JSON.parse(new TextDecoder().decode(encodeOtlpMetricsResponse('json', { dataPoints: 3, message: 'no' })))).toEqual({
      partialSuccess: { rejectedDataPoints: '3', errorMessage: 'no' },
    });
  });
});

describe('fuzz: the OTLP decoder only ever throws WireError', () => {
  const good = encodeOtlpMetrics(request, 'protobuf');
  const goodJson = new TextDecoder().decode(encodeOtlpMetrics(request, 'json'));
  const check = (body: Uint8Array, enc: OtlpEncoding): void => {
    try {
      decodeOtlpMetrics(body, enc);
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
    }
  };

  it('random and mutated protobuf', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (b) => check(b, 'protobuf')), { numRuns: 2000 });
    const edits = fc.array(fc.tuple(fc.nat(good.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(edits, fc.nat(good.length), (es, cut) => {
        const b = good.slice(0, cut);
        for (const [at, v] of es) if (at < b.length) b[at] = v;
        check(b, 'protobuf');
      }),
      { numRuns: 2000 },
    );
  });

  it('random JSON values and mutated JSON text', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => check(new TextEncoder().encode(JSON.stringify(v)), 'json')), { numRuns: 1000 });
    fc.assert(
      fc.property(fc.nat(goodJson.length), fc.string({ maxLength: 5 }), (at, ins) => check(new TextEncoder().encode(goodJson.slice(0, at) + ins + goodJson.slice(at)), 'json')),
      { numRuns: 1000 },
    );
  });

  it('deeply nested attribute values do not overflow the stack', () => {
    let v = '{"stringValue":"x"}';
    for (let i = 0; i < 5000; i++) v = `{"arrayValue":{"values":[${v}]}}`;
    const body = `{"resourceMetrics":[{"resource":{"attributes":[{"key":"k","value":${v}}]}}]}`;
    check(new TextEncoder().encode(body), 'json');
    const pb: number[] = [];
    for (let i = 0; i < 5000; i++) pb.push(0x2a, 0x80, 0x80, 0x01, 0x0a, 0x80, 0x80, 0x01);
    check(Uint8Array.from(pb), 'protobuf');
  });
});
