import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { encodeRemoteWriteV1, encodeRemoteWriteV2, snappyEncode, type RemoteWriteV1Series } from '../../src/wire/index.js';
import { startServe, type RunningCli } from './cli.js';

/**
 * Issue 14, findings 3 and 5, against the built CLI: hostile remote write bodies are refused with
 * a 400 and the text Prometheus senders log, the server stays healthy and keeps taking normal
 * writes, and the store holds nothing of the refused requests (no samples, no series).
 */
describe('remote write under hostile input (whole process)', () => {
  const t = tempDir('e2e-ingest-hostile');
  let cli: RunningCli;
  const now = Date.now();
  const V1 = { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' };
  const V2 = { 'Content-Type': 'application/x-protobuf;proto=io.prometheus.write.v2.Request', 'Content-Encoding': 'snappy' };
  const S = (labels: [string, string][], tMs = now): RemoteWriteV1Series => ({ labels, samples: [{ tMs, value: 1 }] });
  const post = (body: Uint8Array, headers: Record<string, string> = V1) => fetch(`${cli.base}/api/v1/write`, { method: 'POST', body, headers });
  const v1 = (series: RemoteWriteV1Series[]) => snappyEncode(encodeRemoteWriteV1(series));

  beforeAll(async () => {
    // Small limits, so that the global one is reached with small requests; label values up to
    // 32 KiB, so that 28 KiB labels get as far as the clock check.
    cli = await startServe(['--data', t.dir, '--otlp.listen', 'off', '--ingest.max-series', '1000', '--ingest.max-labels-per-series', '40', '--ingest.max-label-value-length', '32768']);
    expect((await post(v1([S([['__name__', 'ok_total'], ['job', 'a']])]))).status).toBe(204);
  });
  afterAll(async () => {
    cli.child.kill('SIGTERM');
    await cli.exited;
    t.remove();
  });

  const big = 'x'.repeat(28 * 1024);
  const badUtf8 = (): Uint8Array => {
    const raw = encodeRemoteWriteV1([S([['__name__', 'refused_utf8'], ['job', 'aQb']])]);
    raw[Buffer.from(raw).indexOf('aQb') + 1] = 0xff;
    return snappyEncode(raw);
  };
  const manyNames = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => S([['__name__', `${prefix}_${i}`]]));

  it.each<[string, () => Uint8Array, Record<string, string>, string]>([
    ['28 KiB labels with timestamps an hour ahead (1.0)', () => v1(Array.from({ length: 20 }, (_, i) => S([['__name__', 'refused_ahead'], ['k', `${i}${big}`]], now + 3_600_000))), V1, 'in the future'],
    ['28 KiB labels with timestamps an hour ahead (2.0)', () => snappyEncode(encodeRemoteWriteV2(Array.from({ length: 20 }, (_, i) => S([['__name__', 'refused_ahead'], ['k', `${i}${big}`]], now + 3_600_000)))), V2, 'in the future'],
    ['a label value over the limit', () => v1([S([['__name__', 'refused_long'], ['k', 'y'.repeat(40_000)]])]), V1, 'the value of label "k" is 40000 bytes long, the limit is 32768'],
    ['a label name over the limit', () => v1([S([['__name__', 'refused_name'], ['n'.repeat(300), 'v']])]), V1, 'is 300 bytes long, the limit is 256'],
    ['too many labels', () => v1([S([['__name__', 'refused_many'], ...Array.from({ length: 40 }, (_, i): [string, string] => [`l${String(i).padStart(2, '0')}`, 'v'])])]), V1, 'it has 41 labels, the limit is 40'],
    ['invalid UTF-8 in a label value', badUtf8, V1, 'the value of label "job" ("a\uFFFDb") is not valid UTF-8'],
    ['distinct metric names past the global series limit', () => v1(manyNames('refused_global', 1001)), V1, 'global series limit exceeded'],
    ['new series, then a sample the store refuses (out of order)', () => v1([...manyNames('refused_ooo', 100), S([['__name__', 'ok_total'], ['job', 'a']], now - 60_000)]), V1, 'out of order sample'],
    ['not snappy', () => Uint8Array.from([0xff, 0xff, 0xff, 0xff]), V1, 'snappy'],
  ])('refuses %s with a 400 and a plain-text reason', async (_name, body, headers, want) => {
    for (let i = 0; i < 20; i++) {
      const res = await post(body(), headers);
      expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([400, 'text/plain; charset=utf-8', expect.stringContaining(want)]);
    }
  });

  it('stays healthy, takes normal writes, and holds nothing of the refused requests', async () => {
    expect((await fetch(`${cli.base}/-/healthy`)).status).toBe(200);
    expect((await post(v1([S([['__name__', 'ok_total'], ['job', 'b']], now + 1000)]))).status).toBe(204);
    const names = (await (await fetch(`${cli.base}/api/v1/label/__name__/values`)).json()) as { data: string[] };
    expect(names.data).toEqual(['ok_total']);
    const status = (await (await fetch(`${cli.base}/api/v1/status/tsdb`)).json()) as { data: { headStats: { numSeries: number } } };
    expect(status.data.headStats.numSeries).toBe(2);
    const metrics = await (await fetch(`${cli.base}/metrics`)).text();
    expect(metrics).toContain('infersight_tsdb_head_series 2');
  });
});
