import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WireError, WireErrorCode, isWireError } from './errors.js';
import { decodeRemoteWriteV1, decodeRemoteWriteV1Message, encodeRemoteWriteV1, type RemoteWriteV1Series } from './remote-write-v1.js';
import { decodeRemoteWriteV2, encodeRemoteWriteV2 } from './remote-write-v2.js';
import { snappyDecode, snappyDecodedLength, snappyEncode } from './snappy.js';

/** Decodes with the fast decoder and renders every series as `labels @t=v ...`. */
function renderV1(bytes: Uint8Array): string[] {
  const b = decodeRemoteWriteV1(bytes);
  const out: string[] = [];
  for (let i = 0; i < b.seriesCount; i++) {
    const l = b.labels(i);
    const pairs: string[] = [];
    for (let k = 0; k < l.length; k += 2) pairs.push(`${l[k]}=${l[k + 1]}`);
    const samples: string[] = [];
    for (let k = b.sampleStart[i]; k < b.sampleStart[i + 1]; k++) samples.push(`@${b.tMs[k]}=${b.values[k]}`);
    out.push(`{${pairs.join(',')}} ${samples.join(' ')}`.trim());
  }
  return out;
}

const S = (labels: [string, string][], ...samples: [number, number][]): RemoteWriteV1Series => ({ labels, samples: samples.map(([tMs, value]) => ({ tMs, value })) });

describe('remote write 1.0 codec', () => {
  it.each([
    ['one series, one sample', [S([['__name__', 'up'], ['job', 'a']], [1000, 1])], ['{__name__=up,job=a} @1000=1']],
    ['several samples in order', [S([['__name__', 'x']], [1, 0.5], [2, -2], [3, Infinity])], ['{__name__=x} @1=0.5 @2=-2 @3=Infinity']],
    ['negative and large timestamps', [S([['__name__', 'x']], [-1000, 1], [2 ** 52, 2])], [`{__name__=x} @-1000=1 @${2 ** 52}=2`]],
    ['no samples', [S([['__name__', 'x']])], ['{__name__=x}']],
    ['unicode labels kept as sent (order too)', [S([['z', 'é'], ['__name__', 'ü']], [5, 5])], ['{z=é,__name__=ü} @5=5']],
    ['no series', [], []],
  ] as [string, RemoteWriteV1Series[], string[]][])('%s', (_name, series, want) => {
    expect(renderV1(encodeRemoteWriteV1(series))).toEqual(want);
  });

  it('keys series by their encoded labels', () => {
    const b = decodeRemoteWriteV1(encodeRemoteWriteV1([S([['__name__', 'a']], [1, 1]), S([['__name__', 'b']], [1, 1]), S([['__name__', 'a']], [2, 2])]));
    expect(b.labelKeys[0]).toBe(b.labelKeys[2]);
    expect(b.labelKeys[0]).not.toBe(b.labelKeys[1]);
  });

  it('decodes metadata and counts histograms and exemplars', () => {
    const md = [{ type: 'counter', metricFamilyName: 'http_requests_total', help: 'Requests.', unit: '' }];
    const b = decodeRemoteWriteV1(encodeRemoteWriteV1([], md));
    expect(b.metadata).toEqual(md);
    // TimeSeries{labels: [{__: xy}], histograms: [{}], exemplars: [{}]}, written by hand.
    const series = Uint8Array.from([0x0a, 0x0e, 0x0a, 0x08, 0x0a, 0x02, 0x5f, 0x5f, 0x12, 0x02, 0x78, 0x79, 0x22, 0x00, 0x1a, 0x00]);
    const d = decodeRemoteWriteV1(series);
    expect([d.seriesCount, d.histogramCount, d.exemplarCount]).toEqual([1, 1, 1]);
  });

  it.each([
    ['truncated', Uint8Array.from([0x0a, 0x05, 0x0a])],
    ['wrong wire type for timeseries', Uint8Array.from([0x08, 0x01])],
    ['illegal field number 0', Uint8Array.from([0x02, 0x00])],
    ['sample with a string value', Uint8Array.from([0x0a, 0x04, 0x12, 0x02, 0x0a, 0x00])],
    ['varint running off the end', Uint8Array.from([0x0a, 0x02, 0x12, 0xff])],
  ])('refuses a malformed message: %s', (_name, bytes) => {
    expect(() => renderV1(bytes)).toThrow(WireError);
  });

  it('agrees with the generated decoder on random requests', () => {
    const label = fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }));
    const sample = fc.record({ tMs: fc.integer({ min: -(2 ** 40), max: 2 ** 45 }), value: fc.double() });
    const series = fc.record({ labels: fc.array(label, { maxLength: 4 }), samples: fc.array(sample, { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(series, { maxLength: 5 }), (req) => {
        const bytes = encodeRemoteWriteV1(req);
        const ref = decodeRemoteWriteV1Message(bytes);
        const fast = decodeRemoteWriteV1(bytes);
        expect(fast.seriesCount).toBe(ref.timeseries.length);
        ref.timeseries.forEach((ts, i) => {
          expect(fast.labels(i)).toEqual(ts.labels.flatMap((l) => [l.name, l.value]));
          const got = [];
          for (let k = fast.sampleStart[i]; k < fast.sampleStart[i + 1]; k++) got.push([fast.tMs[k], fast.values[k]]);
          expect(got).toEqual(ts.samples.map((s) => [Number(s.timestamp), s.value]));
        });
      }),
    );
  });
});

describe('remote write 2.0 codec', () => {
  it('round-trips series, samples and metadata through the symbol table', () => {
    const bytes = encodeRemoteWriteV2([
      { labels: [['__name__', 'up'], ['job', 'a']], samples: [{ tMs: 7, value: 1 }], type: 'gauge', help: 'Up.', unit: 'seconds' },
      { labels: [['__name__', 'up'], ['job', 'b']], samples: [] },
    ]);
    const b = decodeRemoteWriteV2(bytes);
    expect(b.series).toEqual([
      { labels: ['__name__', 'up', 'job', 'a'], tMs: [7], values: [1], histogramCount: 0, exemplarCount: 0, type: 'gauge', help: 'Up.', unit: 'seconds' },
      { labels: ['__name__', 'up', 'job', 'b'], tMs: [], values: [], histogramCount: 0, exemplarCount: 0, type: 'unknown', help: '', unit: '' },
    ]);
  });

  it.each([
    ['a label reference outside the symbols', Uint8Array.from([0x22, 0x00, 0x2a, 0x03, 0x0a, 0x01, 0x05])],
    ['an odd number of label references', Uint8Array.from([0x22, 0x00, 0x2a, 0x03, 0x0a, 0x01, 0x00])],
    ['garbage', Uint8Array.from([0xff, 0xff, 0xff])],
  ])('refuses %s', (_name, bytes) => {
    expect(() => decodeRemoteWriteV2(bytes)).toThrow(WireError);
  });
});

describe('snappy', () => {
  it('round-trips and reports the declared length', () => {
    const data = new TextEncoder().encode('hello hello hello hello');
    const block = snappyEncode(data);
    expect(snappyDecodedLength(block)).toBe(data.length);
    expect(snappyDecode(block, 1000)).toEqual(data);
  });

  it.each([
    ['an empty body', new Uint8Array(0), WireErrorCode.SNAPPY],
    ['a bad length varint', Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), WireErrorCode.SNAPPY],
    ['a length over the limit (nothing allocated)', Uint8Array.from([0xff, 0xff, 0xff, 0x7f]), WireErrorCode.TOO_LARGE],
    ['a copy before any literal', Uint8Array.from([0x04, 0x01, 0x00]), WireErrorCode.SNAPPY],
    // Made snappyjs 0.7.0 loop forever: a 4-byte literal length with the top bit set.
    ['a literal length with the top bit set', Uint8Array.from(Buffer.from('62fcb8fa48e2f20168', 'hex')), WireErrorCode.SNAPPY],
    ['output shorter than declared', Uint8Array.from([0x05, 0x04, 0x61, 0x62, 0x63]), WireErrorCode.SNAPPY],
  ])('refuses %s', (_name, block, code) => {
    let err: unknown;
    try {
      snappyDecode(block, 1 << 20);
    } catch (e) {
      err = e;
    }
    expect(isWireError(err, code)).toBe(true);
  });
});

describe('fuzz: decoders only ever throw WireError', () => {
  const good = snappyEncode(
    encodeRemoteWriteV1([S([['__name__', 'http_requests_total'], ['job', 'api']], [1000, 1], [2000, 2]), S([['__name__', 'up']], [1000, 1])]),
  );
  const check = (bytes: Uint8Array): void => {
    try {
      const raw = snappyDecode(bytes, 1 << 14);
      const b = decodeRemoteWriteV1(raw);
      for (let i = 0; i < b.seriesCount; i++) b.labels(i);
      decodeRemoteWriteV2(raw);
    } catch (e) {
      if (!(e instanceof WireError)) throw e;
    }
  };

  it('random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), check), { numRuns: 2000 });
  });

  it('mutations of a valid request', () => {
    const mutation = fc.array(fc.tuple(fc.nat(good.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(mutation, fc.nat(good.length), (edits, cut) => {
        const b = good.slice(0, Math.max(1, cut));
        for (const [at, v] of edits) if (at < b.length) b[at] = v;
        check(b);
      }),
      { numRuns: 3000 },
    );
  });

  it('random protobuf after a valid snappy frame', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (raw) => check(snappyEncode(raw))), { numRuns: 2000 });
  });
});
