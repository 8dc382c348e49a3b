import { describe, expect, it } from 'vitest';
import { MemoryLogger } from '../model/index.js';
import { StorageErrorCode } from '../storage/index.js';
import { encodeRemoteWriteV1, encodeRemoteWriteV2, snappyEncode, type RemoteWriteV1Series } from '../wire/index.js';
import { CardinalityTracker } from './cardinality.js';
import { RemoteWriteReceiver, remoteWriteProto } from './remote-write.js';
import type { IngestLimits } from './limits.js';
import { MemoryStorage } from '../storage/testing/index.js';

const NOW = 1_764_547_200_000;
const V1 = { 'content-type': 'application/x-protobuf', 'content-encoding': 'snappy', 'x-prometheus-remote-write-version': '0.1.0' };
const V2 = { 'content-type': 'application/x-protobuf;proto=io.prometheus.write.v2.Request', 'content-encoding': 'snappy', 'x-prometheus-remote-write-version': '2.0.0' };
const S = (labels: [string, string][], ...samples: [number, number][]): RemoteWriteV1Series => ({ labels, samples: samples.map(([tMs, value]) => ({ tMs, value })) });
const up = (job: string, ...samples: [number, number][]) => S([['__name__', 'up'], ['job', job]], ...samples);

function setup(limits: Partial<IngestLimits> = {}) {
  const store = new MemoryStorage();
  const rx = new RemoteWriteReceiver(store, { limits, clock: () => NOW, logger: new MemoryLogger() });
  const send = async (series: RemoteWriteV1Series[], headers: Record<string, string> = V1) => {
    const r = await rx.handle({ body: snappyEncode(encodeRemoteWriteV1(series)), headers });
    return { status: r.status, body: String(r.body), headers: r.headers };
  };
  return { store, rx, send };
}

describe('remote write negotiation', () => {
  it.each([
    ['', 'v1'],
    ['application/x-protobuf', 'v1'],
    ['application/x-protobuf;proto=prometheus.WriteRequest', 'v1'],
    ['application/x-protobuf; proto=io.prometheus.write.v2.Request', 'v2'],
    ['application/x-protobuf;charset=utf-8', 'v1'],
  ])('%j is %s', (ct, want) => {
    expect(remoteWriteProto(ct)).toBe(want);
  });

  it.each([
    [{ ...V1, 'content-type': 'application/json' }, 415, 'expected application/x-protobuf as the first (media) part'],
    [{ ...V1, 'content-type': 'application/x-protobuf;proto=foo.Bar' }, 415, 'unknown remote write protobuf message foo.Bar'],
    [{ ...V1, 'content-type': 'application/x-protobuf;proto' }, 415, 'expected parameters to be key-values'],
    [{ ...V1, 'content-encoding': 'gzip' }, 415, 'gzip encoding (compression) is not accepted'],
  ])('refuses %j with %i', async (headers, status, text) => {
    const { send, store } = setup();
    const r = await send([up('a', [NOW, 1])], headers);
    expect([r.status, r.body]).toEqual([status, expect.stringContaining(text)]);
    expect(store.committed).toEqual([]);
  });
});

describe('remote write receiver', () => {
  it('writes 1.0 requests and answers 204', async () => {
    const { send, store } = setup();
    expect((await send([up('a', [NOW - 2000, 1], [NOW - 1000, 0]), up('b', [NOW, 1])])).status).toBe(204);
    // A missing Content-Type and Content-Encoding mean 1.0 and snappy, as in Prometheus.
    expect((await send([up('a', [NOW, 1])], {})).status).toBe(204);
    expect(store.lines()).toEqual([
      `up{job="a"} @${NOW - 2000}=1`,
      `up{job="a"} @${NOW - 1000}=0`,
      `up{job="b"} @${NOW}=1`,
      `up{job="a"} @${NOW}=1`,
    ]);
  });

  it('writes 2.0 requests and reports what was written in headers', async () => {
    const { rx, store } = setup();
    const body = snappyEncode(encodeRemoteWriteV2([{ labels: [['__name__', 'x'], ['a', 'b']], samples: [{ tMs: NOW, value: 2 }, { tMs: NOW + 1, value: 3 }], type: 'gauge' }]));
    const r = await rx.handle({ body, headers: V2 });
    expect(r.status).toBe(204);
    expect(r.headers).toMatchObject({ 'X-Prometheus-Remote-Write-Samples-Written': '2', 'X-Prometheus-Remote-Write-Histograms-Written': '0' });
    expect(store.lines()).toEqual([`x{a="b"} @${NOW}=2`, `x{a="b"} @${NOW + 1}=3`]);
    const bad = await rx.handle({ body: snappyEncode(Uint8Array.from([0xff])), headers: V2 });
    expect([bad.status, bad.headers['X-Prometheus-Remote-Write-Samples-Written']]).toEqual([400, '0']);
  });

  it.each([
    ['no metric name', [S([['job', 'a']], [NOW, 1])], 400, 'no metric name'],
    ['an empty label name', [S([['__name__', 'x'], ['', 'a']], [NOW, 1])], 400, 'empty name'],
    ['a duplicate label name', [S([['__name__', 'x'], ['b', '1'], ['a', '2'], ['b', '3']], [NOW, 1])], 400, 'label "b" appears twice'],
    ['a sample 11 minutes ahead', [up('a', [NOW + 11 * 60_000, 1])], 400, 'in the future'],
    ['a timestamp beyond 2^53', [up('a', [2 ** 60, 1])], 400, 'invalid timestamp'],
  ] as [string, RemoteWriteV1Series[], number, string][])('refuses %s, writing nothing', async (_n, series, status, text) => {
    const { send, store } = setup();
    const r = await send([up('ok', [NOW, 1]), ...series]);
    expect([r.status, r.body]).toEqual([status, expect.stringContaining(text)]);
    expect(store.committed).toEqual([]);
  });

  it('refuses out-of-order and duplicate samples with 400 and rolls the whole request back', async () => {
    const { send, store } = setup();
    expect((await send([up('a', [NOW, 1])])).status).toBe(204);
    const ooo = await send([up('b', [NOW, 1]), up('a', [NOW - 1000, 1])]);
    expect([ooo.status, ooo.body]).toEqual([400, expect.stringContaining('out of order sample')]);
    const dup = await send([up('b', [NOW, 1]), up('a', [NOW, 2])]);
    expect([dup.status, dup.body]).toEqual([400, expect.stringContaining('duplicate sample')]);
    // The same sample again (a retried batch) is accepted and ignored.
    expect((await send([up('a', [NOW, 1])])).status).toBe(204);
    expect(store.lines()).toEqual([`up{job="a"} @${NOW}=1`]);
    expect(store.rollbacks).toBe(2);
  });

  it.each([
    [StorageErrorCode.UNAVAILABLE, 503],
    [StorageErrorCode.STORAGE_CLOSED, 503],
    [StorageErrorCode.CORRUPTION, 500],
  ])('answers a commit failing with %s with %i', async (code, status) => {
    const { send, store } = setup();
    store.failCommits(code, 1);
    expect((await send([up('a', [NOW, 1])])).status).toBe(status);
    expect(store.committed).toEqual([]);
  });

  it('answers 503 while the store cannot open an appender', async () => {
    const { send, store } = setup();
    store.failOpen = StorageErrorCode.UNAVAILABLE;
    expect((await send([up('a', [NOW, 1])])).status).toBe(503);
  });

  it('refuses native histograms with a clear message', async () => {
    const { rx } = setup();
    const series = Uint8Array.from([0x0a, 0x10, 0x0a, 0x0a, 0x0a, 0x08, 0x5f, 0x5f, 0x6e, 0x61, 0x6d, 0x65, 0x5f, 0x5f, 0x22, 0x02, 0x78, 0x01]);
    const r = await rx.handle({ body: snappyEncode(series), headers: V1 });
    expect([r.status, String(r.body)]).toEqual([400, expect.stringContaining('cannot store native histograms')]);
  });

  it.each([
    ['a compressed body over the limit', { maxBodyBytes: 10 }, 413],
    ['a decompressed body over the limit', { maxBodyBytes: 60 }, 413],
    ['more series than allowed per request', { maxSeriesPerRequest: 1 }, 400],
  ] as [string, Partial<IngestLimits>, number][])('refuses %s', async (_n, limits, status) => {
    const { send, store } = setup(limits);
    const many = Array.from({ length: 3 }, (_, i) => up(`job-${i}-${'x'.repeat(20)}`, [NOW, 1]));
    expect((await send(many)).status).toBe(status);
    expect(store.committed).toEqual([]);
  });

  it('enforces the per-metric series limit, shared between receivers, over a sliding window', async () => {
    const store = new MemoryStorage();
    let now = NOW;
    const tracker = new CardinalityTracker(2, 60_000);
    const a = new RemoteWriteReceiver(store, { tracker, clock: () => now });
    const b = new RemoteWriteReceiver(store, { tracker, clock: () => now });
    const send = (rx: RemoteWriteReceiver, ...jobs: string[]) => rx.handle({ body: snappyEncode(encodeRemoteWriteV1(jobs.map((j) => up(j, [now, 1])))), headers: V1 });
    expect((await send(a, 'a', 'b')).status).toBe(204);
    const over = await send(b, 'c');
    expect([over.status, String(over.body)]).toEqual([400, expect.stringContaining('per-metric series limit exceeded: metric "up" would have more than 2 series')]);
    now += 1000;
    expect((await send(b, 'a', 'b')).status).toBe(204);
    now += 61_000; // a and b were last written 61 s ago: they no longer count
    expect((await send(a, 'c')).status).toBe(204);
    expect(tracker.seriesOf('up')).toBe(1);
  });
});
