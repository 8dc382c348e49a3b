import { describe, expect, it } from 'vitest';
import { Labels } from '../model/index.js';
import type { Appendable } from '../storage/index.js';
import { encodeOtlpMetrics, encodeRemoteWriteV1, encodeRemoteWriteV2, snappyEncode, type RemoteWriteV1Series } from '../wire/index.js';
import { CardinalityTracker } from './cardinality.js';
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from './limits.js';
import { OtlpReceiver } from './otlp/receiver.js';
import { RemoteWriteReceiver } from './remote-write.js';
import { SeriesCache, SeriesEntry, seriesEntryBytes } from './series.js';
import { MemoryStorage } from '../storage/testing/index.js';

// Regression tests for issue 14, finding 3 (ingest memory) and the receivers' side of finding 5.

const NOW = 1_764_547_200_000;
const V1 = { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy' };
const V2 = { 'content-type': 'application/x-protobuf;proto=io.prometheus.write.v2.Request', 'content-encoding': 'snappy' };
const S = (labels: [string, string][], tMs = NOW, value = 1): RemoteWriteV1Series => ({ labels, samples: [{ tMs, value }] });
const KIB28 = 'v'.repeat(28 * 1024);

function receiver(limits: Partial<IngestLimits> = {}, store: Appendable = new MemoryStorage()) {
  const rx = new RemoteWriteReceiver(store, { limits, clock: () => NOW });
  const send = async (series: RemoteWriteV1Series[], v2 = false) => {
    const body = snappyEncode(v2 ? encodeRemoteWriteV2(series) : encodeRemoteWriteV1(series));
    const r = await rx.handle({ body, headers: v2 ? V2 : V1 });
    return { status: r.status, text: String(r.body) };
  };
  return { rx, send };
}

/**
 * `count` series `{__name__="<prefix><i>"}` with one sample each, as an encoded remote write 1.0
 * body: written by hand, since the generated encoder takes seconds for 100k series.
 */
function distinctNames(prefix: string, count: number): Uint8Array {
  const enc = new TextEncoder();
  const parts: number[] = [];
  for (let i = 0; i < count; i++) {
    const name = enc.encode(`${prefix}${i}`);
    const label = [0x0a, 8, ...enc.encode('__name__'), 0x12, name.length, ...name];
    const sample = [0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x10, ...varint(NOW)];
    const series = [0x0a, label.length, ...label, 0x12, sample.length, ...sample];
    parts.push(0x0a, series.length, ...series);
  }
  return Uint8Array.from(parts);
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

/** An appendable that only counts what is committed: no storage memory in the big tests. */
function countingStore(): Appendable & { committed: number } {
  const store = {
    committed: 0,
    appender: () => {
      let n = 0;
      return {
        append: (ref: number) => (n++, ref === 0 ? 1 : ref),
        commit: () => ((store.committed += n), Promise.resolve()),
        rollback: () => undefined,
      };
    },
  };
  return store;
}

describe('series cache: bounded in bytes, filled only after a commit', () => {
  it('stays empty after 20 refused writes with 28 KiB labels (timestamps too far ahead)', async () => {
    // Label limits raised so that the series pass them and the clock check refuses the request.
    const store = new MemoryStorage();
    const { rx, send } = receiver({ maxLabelValueBytes: 64 * 1024 }, store);
    for (let i = 0; i < 20; i++) {
      const series = Array.from({ length: 10 }, (_, k) => S([['__name__', 'big'], ['k', `${i}-${k}-${KIB28}`]], NOW + 3_600_000));
      const r = await send(series, i % 2 === 1);
      expect([r.status, r.text]).toEqual([400, expect.stringContaining('in the future')]);
      expect(r.text.length).toBeLessThan(4200);
    }
    expect(rx.cacheBytes).toBe(0);
    expect(store.committed).toEqual([]);
  });

  it.each([
    ['1.0', false],
    ['2.0', true],
  ])('refuses 28 KiB label values by default (%s), naming the label, and caches nothing', async (_v, v2) => {
    const { rx, send } = receiver();
    const r = await send([S([['__name__', 'big'], ['payload', KIB28]])], v2);
    expect([r.status, r.text]).toEqual([400, expect.stringContaining('the value of label "payload" is 28672 bytes long, the limit is 4096')]);
    expect(rx.cacheBytes).toBe(0);
  });

  it('never holds more than its byte budget, however large the accepted labels', async () => {
    const budget = 1024 * 1024;
    const { rx, send } = receiver({ seriesCacheBytes: budget, maxLabelValueBytes: 64 * 1024 });
    for (let i = 0; i < 40; i++) {
      expect((await send(Array.from({ length: 5 }, (_, k) => S([['__name__', 'big'], ['k', `${i}-${k}-${KIB28}`]])))).status).toBe(204);
      expect(rx.cacheBytes).toBeLessThanOrEqual(budget);
    }
    expect(rx.cacheBytes).toBeGreaterThan(budget / 4);
  });

  it('keeps recently used entries when a generation is dropped', () => {
    const entry = (i: number) => new SeriesEntry(Labels.fromPairs(['__name__', 'm', 'i', String(i)]));
    const one = seriesEntryBytes('k0', entry(0).labels);
    const cache = new SeriesCache(one * 10); // two generations of about five entries each
    const hot = entry(0);
    cache.set('k0', hot);
    for (let i = 1; i < 100; i++) {
      cache.set(`k${i}`, entry(i));
      expect(cache.get('k0')).toBe(hot);
      expect(cache.bytes).toBeLessThanOrEqual(one * 10);
    }
    expect(cache.get('k1')).toBeUndefined();
  });
});

describe('label limits: refused before anything is appended', () => {
  const many = (n: number): [string, string][] => [['__name__', 'm'], ...Array.from({ length: n - 1 }, (_, i): [string, string] => [`l${String(i).padStart(3, '0')}`, 'x'])];
  it.each([
    ['too many labels', [S(many(65))], 'it has 65 labels, the limit is 64'],
    ['a label name too long', [S([['__name__', 'm'], ['n'.repeat(257), 'x']])], 'is 257 bytes long, the limit is 256'],
    ['a label value too long, in UTF-8 bytes', [S([['__name__', 'm'], ['v', 'é'.repeat(2049)]])], 'the value of label "v" is 4098 bytes long, the limit is 4096'],
  ] as [string, RemoteWriteV1Series[], string][])('%s', async (_n, bad, want) => {
    const store = new MemoryStorage();
    const { send } = receiver({}, store);
    const r = await send([S([['__name__', 'ok']]), ...bad]);
    expect([r.status, r.text]).toEqual([400, expect.stringContaining(want)]);
    expect(store.committed).toEqual([]);
  });

  it('accepts what is exactly at the limits', async () => {
    const { send } = receiver();
    expect((await send([S(many(64)), S([['__name__', 'm'], ['n'.repeat(256), 'é'.repeat(2048)]])])).status).toBe(204);
  });

  it('refuses an OTLP request whose series is over a label limit, in OTLP\'s error format', async () => {
    const store = new MemoryStorage();
    const rx = new OtlpReceiver(store, { clock: () => NOW });
    const str = (key: string, value: string) => ({ key, value: { value: { case: 'stringValue' as const, value } } });
    const point = (attrs: ReturnType<typeof str>[]) => ({ attributes: attrs, timeUnixNano: BigInt(NOW) * 1_000_000n, value: { case: 'asDouble' as const, value: 1 } });
    const init = { resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'ok', data: { case: 'gauge' as const, value: { dataPoints: [point([])] } } }, { name: 'big', data: { case: 'gauge' as const, value: { dataPoints: [point([str('payload', KIB28)])] } } }] }] }] };
    const json = await rx.handle({ body: encodeOtlpMetrics(init, 'json'), headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(400);
    expect(json.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(new TextDecoder().decode(json.body as Uint8Array))).toEqual({ code: 3, message: expect.stringContaining('the value of label "payload" is 28672 bytes long') });
    const pb = await rx.handle({ body: encodeOtlpMetrics(init, 'protobuf'), headers: { 'content-type': 'application/x-protobuf' } });
    expect([pb.status, pb.headers['Content-Type']]).toEqual([400, 'application/x-protobuf']);
    expect(Buffer.from(pb.body as Uint8Array).subarray(0, 2)).toEqual(Buffer.from([0x08, 0x03])); // Status.code = 3
    expect(store.committed).toEqual([]);
    expect(rx.cacheBytes).toBe(0);
  });
});

describe('invalid UTF-8 through the receivers', () => {
  it('refuses it instead of merging two values into one series', async () => {
    const store = new MemoryStorage();
    const { rx } = receiver({}, store);
    for (const b of [0xfe, 0xff]) {
      const raw = encodeRemoteWriteV1([S([['__name__', 'up'], ['job', 'aQb']])]);
      raw[Buffer.from(raw).indexOf('aQb') + 1] = b;
      const r = await rx.handle({ body: snappyEncode(raw), headers: V1 });
      expect([r.status, String(r.body)]).toEqual([400, expect.stringContaining('the value of label "job" ("a\uFFFDb") is not valid UTF-8')]);
    }
    expect(store.committed).toEqual([]);
  });

  it('refuses OTLP protobuf with invalid UTF-8 in an attribute, naming it, and OTLP/JSON with a lone surrogate', async () => {
    const store = new MemoryStorage();
    const rx = new OtlpReceiver(store, { clock: () => NOW });
    const init = { resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'm', data: { case: 'gauge' as const, value: { dataPoints: [{ attributes: [{ key: 'job', value: { value: { case: 'stringValue' as const, value: 'aQb' } } }], timeUnixNano: BigInt(NOW) * 1_000_000n, value: { case: 'asDouble' as const, value: 1 } }] } } }] }] }] };
    const pb = encodeOtlpMetrics(init, 'protobuf');
    pb[Buffer.from(pb).indexOf('aQb') + 1] = 0xff;
    const r = await rx.handle({ body: pb, headers: { 'content-type': 'application/x-protobuf' } });
    expect([r.status, new TextDecoder().decode(r.body as Uint8Array)]).toEqual([400, expect.stringContaining('the value of attribute "job" ("a\uFFFDb") is not valid UTF-8')]);
    const json = new TextDecoder().decode(encodeOtlpMetrics(init, 'json')).replace('aQb', 'a\\ud800b');
    const j = await rx.handle({ body: new TextEncoder().encode(json), headers: { 'content-type': 'application/json' } });
    expect([j.status, new TextDecoder().decode(j.body as Uint8Array)]).toEqual([400, expect.stringContaining('invalid UTF8')]);
    expect(store.committed).toEqual([]);
  });
});

describe('global series limit: distinct metric names do not get around the per-metric limit', () => {
  it('refuses the requests of 100k series each with distinct names past the limit', async () => {
    const store = countingStore();
    const tracker = new CardinalityTracker(DEFAULT_INGEST_LIMITS.maxSeriesPerMetric, DEFAULT_INGEST_LIMITS.cardinalityWindowMs, DEFAULT_INGEST_LIMITS.maxSeries);
    const rx = new RemoteWriteReceiver(store, { tracker, clock: () => NOW });
    const statuses: number[] = [];
    let last = '';
    for (let k = 0; k < 10; k++) {
      const r = await rx.handle({ body: snappyEncode(distinctNames(`m_${k}_`, 100_000)), headers: V1 });
      statuses.push(r.status);
      if (r.status !== 204) last = String(r.body);
    }
    expect(statuses).toEqual([204, 204, 204, 204, 204, 400, 400, 400, 400, 400]);
    expect(last).toContain('global series limit exceeded: the receivers would have more than 500000 active series');
    expect(store.committed).toBe(500_000);
    expect(tracker.activeSeries).toBe(500_000);
  }, 120_000);

  it('encodes the big test\'s bodies as the generated encoder does', () => {
    expect(distinctNames('m_', 3)).toEqual(encodeRemoteWriteV1([0, 1, 2].map((i) => S([['__name__', `m_${i}`]]))));
  });

  it('counts series of every receiver together and forgets them after the window', async () => {
    let now = NOW;
    const tracker = new CardinalityTracker(0, 60_000, 3);
    const store = new MemoryStorage();
    const rw = new RemoteWriteReceiver(store, { tracker, clock: () => now });
    const send = (...names: string[]) => rw.handle({ body: snappyEncode(encodeRemoteWriteV1(names.map((n) => S([['__name__', n]], now)))), headers: V1 });
    expect((await send('a', 'b')).status).toBe(204);
    expect((await send('a', 'b', 'c')).status).toBe(204); // a and b are known: one new
    expect((await send('d')).status).toBe(400);
    now += 61_000;
    expect((await send('d', 'e', 'f')).status).toBe(204);
    expect(tracker.activeSeries).toBe(3);
  });
});
