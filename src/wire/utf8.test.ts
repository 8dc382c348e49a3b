import { describe, expect, it } from 'vitest';
import { WireErrorCode, isWireError } from './errors.js';
import { encodeOtlpMetrics } from './otlp.js';
import { decodeOtlpMetricsFast } from './otlp-decode.js';
import { decodeRemoteWriteV1, encodeRemoteWriteV1 } from './remote-write-v1.js';
import { decodeRemoteWriteV2, encodeRemoteWriteV2 } from './remote-write-v2.js';

// Issue 14, finding 5: invalid UTF-8 was decoded to U+FFFD, so two different label values could
// land in one series. Every binary decoder now refuses it and names the label.

/** Overwrites the first occurrence of the ASCII placeholder `QQQ` with `a\xffb` (or `bytes`). */
function corrupt(body: Uint8Array, bytes = [0x61, 0xff, 0x62]): Uint8Array {
  const at = Buffer.from(body).indexOf('QQQ');
  if (at < 0) throw new Error('placeholder not found');
  const out = Uint8Array.from(body);
  out.set(bytes, at);
  return out;
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(isWireError(e, WireErrorCode.PROTOBUF)).toBe(true);
    return (e as Error).message;
  }
  throw new Error('decoded without error');
}

const rw = (labels: [string, string][]) => [{ labels, samples: [{ tMs: 1, value: 1 }] }];
const v1 = () => (body: Uint8Array) => {
  const b = decodeRemoteWriteV1(body);
  for (let i = 0; i < b.seriesCount; i++) b.labels(i);
};
const str = (key: string, value: string) => ({ key, value: { value: { case: 'stringValue' as const, value } } });
const otlp = (name: string, attrs: ReturnType<typeof str>[], resource: ReturnType<typeof str>[] = []) =>
  encodeOtlpMetrics({ resourceMetrics: [{ resource: { attributes: resource }, scopeMetrics: [{ metrics: [{ name, data: { case: 'gauge', value: { dataPoints: [{ attributes: attrs, timeUnixNano: 1n, value: { case: 'asDouble', value: 1 } }] } } }] }] }] }, 'protobuf');

describe('invalid UTF-8 is refused, naming the label', () => {
  it.each([
    ['remote write 1.0, a value', encodeRemoteWriteV1(rw([['__name__', 'up'], ['job', 'QQQ']])), v1, 'series 0: the value of label "job" ("a\uFFFDb") is not valid UTF-8'],
    ['remote write 1.0, a name', encodeRemoteWriteV1(rw([['__name__', 'up'], ['QQQ', 'x']])), v1, 'series 0: label name "a\uFFFDb" is not valid UTF-8'],
    ['remote write 1.0, the second series', encodeRemoteWriteV1([...rw([['__name__', 'up']]), ...rw([['__name__', 'QQQ']])]), v1, 'series 1: the value of label "__name__"'],
    ['remote write 2.0, a value', encodeRemoteWriteV2(rw([['__name__', 'up'], ['job', 'QQQ']])), () => decodeRemoteWriteV2, 'series 0: the value of label "job" ("a\uFFFDb") is not valid UTF-8'],
    ['remote write 2.0, a name', encodeRemoteWriteV2(rw([['__name__', 'up'], ['QQQ', 'x']])), () => decodeRemoteWriteV2, 'series 0: label name "a\uFFFDb" is not valid UTF-8'],
    ['OTLP, an attribute value', otlp('m', [str('job', 'QQQ')]), () => decodeOtlpMetricsFast, 'the value of attribute "job" ("a\uFFFDb") is not valid UTF-8'],
    ['OTLP, an attribute key', otlp('m', [str('QQQ', 'x')]), () => decodeOtlpMetricsFast, 'attribute key "a\uFFFDb" is not valid UTF-8'],
    ['OTLP, a resource attribute', otlp('m', [], [str('service.name', 'QQQ')]), () => decodeOtlpMetricsFast, 'the value of attribute "service.name"'],
    ['OTLP, a metric name', otlp('QQQ', []), () => decodeOtlpMetricsFast, 'metric name "a\uFFFDb" is not valid UTF-8'],
  ] as [string, Uint8Array, (b: Uint8Array) => (b: Uint8Array) => unknown, string][])('%s', (_name, body, decoder, want) => {
    expect(refusal(() => decoder(body)(corrupt(body)))).toContain(want);
  });

  it.each([
    ['an overlong encoding', [0xc0, 0x80, 0x41]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a truncated sequence', [0x41, 0xe2, 0x82]],
  ])('refuses %s', (_name, bytes) => {
    expect(refusal(() => v1()(corrupt(encodeRemoteWriteV1(rw([['__name__', 'up'], ['job', 'QQQ']])), bytes)))).toContain('not valid UTF-8');
  });

  it('still decodes valid multi-byte UTF-8 exactly', () => {
    const b = decodeRemoteWriteV1(encodeRemoteWriteV1(rw([['__name__', 'up'], ['zone', 'é€😀']])));
    expect(b.labels(0)).toEqual(['__name__', 'up', 'zone', 'é€😀']);
    expect(decodeOtlpMetricsFast(otlp('m', [str('k', 'é€😀')])).resourceMetrics[0].scopeMetrics[0].metrics[0]).toMatchObject({ name: 'm' });
  });
});
