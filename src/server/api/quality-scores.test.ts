import { describe, expect, it } from 'vitest';
import { GATEWAY_JOB } from '../../gateway/index.js';
import { MemoryLogger } from '../../model/index.js';
import { useCleanups } from '../../model/testing/cleanups.js';
import { GATEWAY_JOB_LABEL_VALUE } from '../../normalize/index.js';
import { tempDir } from '../../tsdb/testing/temp-dir.js';
import { encodeOtlpMetrics, encodeRemoteWriteV1, snappyEncode } from '../../wire/index.js';
import { startServer, type ServeOptions } from '../serve.js';

const NOW = Date.UTC(2026, 0, 5, 12, 0, 0);
const NOW_S = NOW / 1000;
const cleanups = useCleanups();

async function start(dir?: string, extra: Partial<ServeOptions> = {}): Promise<{ base: string; close: () => Promise<void>; dir: string }> {
  let d = dir;
  if (d === undefined) {
    const t = tempDir('quality-scores');
    cleanups.push(t.remove);
    d = t.dir;
  }
  const server = await startServer({ listen: '127.0.0.1:0', storage: { dir: d, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock: () => NOW, ui: false, ...extra });
  cleanups.push(() => server.close());
  await server.ready;
  return { base: `http://127.0.0.1:${server.http.address.port}`, close: () => server.close(), dir: d };
}

const good = { model: 'llama', component: 'llama-a', dimension: 'safety', score: 0.9, evaluator: 'ext', time: NOW_S - 10 };
const post = (base: string, body: string | Uint8Array, type = 'application/json'): Promise<Response> =>
  fetch(`${base}/api/v1/quality/scores`, { method: 'POST', body, headers: { 'Content-Type': type } });

async function query(base: string, q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const r = (await (await fetch(`${base}/api/v1/query?query=${encodeURIComponent(q)}&time=${NOW_S}`)).json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  return r.data.result;
}
/** How many quality series (and `up` series, which the push tests send beside them) are stored. */
async function qualitySeries(base: string): Promise<number> {
  const [r] = await query(base, 'count({__name__=~"llm_quality_.+|up"})');
  return r === undefined ? 0 : Number(r.value[1]);
}

describe('POST /api/v1/quality/scores', () => {
  it('stores a batch as the recent mean and the evaluation counter, and answers how many it took', async () => {
    const { base } = await start();
    const res = await post(base, JSON.stringify({ scores: [good, { ...good, score: 0.5 }, { ...good, dimension: 'relevance', score: 1 }] }));
    expect([res.status, await res.json()]).toEqual([200, { status: 'success', data: { accepted: 3 } }]);
    const mean = await query(base, 'llm_quality_score');
    expect(mean.map((r) => [r.metric.dimension, Number(r.value[1])])).toEqual([['relevance', 1], ['safety', 0.7]]);
    expect(mean[0].metric).toEqual({ __name__: 'llm_quality_score', model: 'llama', component: 'llama-a', dimension: 'relevance' });
    expect((await query(base, 'sum(llm_quality_evaluations_total)'))[0].value[1]).toBe('3');
  });

  const big = (n: number, entry: unknown = {}): string => JSON.stringify({ scores: Array.from({ length: n }, () => entry) });
  it.each([
    ['not JSON', '{"scores": [', 400, /the body is not JSON/],
    ['wrong types', JSON.stringify({ scores: [{ ...good, score: '0.9', model: 1 }] }), 400, /scores\[0\]\.model: must be a string/],
    ['NaN', '{"scores":[{"score":NaN}]}', 400, /not JSON/],
    ['a score of 1.5', JSON.stringify({ scores: [good, { ...good, score: 1.5 }] }), 400, /scores\[1\]\.score: 1.5 is not in \[0, 1\]/],
    ['a score of -0.1', JSON.stringify({ scores: [{ ...good, score: -0.1 }] }), 400, /-0.1 is not in/],
    ['an unknown dimension', JSON.stringify({ scores: [{ ...good, dimension: 'humour' }] }), 400, /dimension: must be one of/],
    ['a future time', JSON.stringify({ scores: [{ ...good, time: NOW_S + 3600 }] }), 400, /in the future/],
    ['100k entries', big(100_000), 413, /100000 entries, more than the limit of 10000/],
    ['10k entries of 500 bytes (a 5 MB body)', big(10_000, { ...good, evaluator: 'e'.repeat(128), request_id: 'r'.repeat(256), model: 'm'.repeat(128) }), 413, /over 4194304 bytes/],
    ['a 10 MB body', 'x'.repeat(10 * 1024 * 1024), 413, /over 4194304 bytes/],
    ['deep nesting', `{"scores":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 400, /deeper than 8 levels/],
    ['a huge string', JSON.stringify({ scores: [{ ...good, component: 'c'.repeat(1_000_000) }] }), 400, /component: is 1000000 characters long/],
    ['duplicate keys', JSON.stringify({ scores: [good] }).replace('"score":0.9', '"score":0.9,"score":7'), 400, /the key "score" appears twice/],
    ['a __proto__ key', JSON.stringify({ scores: [good] }).replace('{"model"', '{"__proto__":{"isAdmin":true},"model"'), 400, /scores\[0\]\.__proto__: unknown field/],
    ['a constructor.prototype key', '{"scores":[],"constructor":{"prototype":{"polluted":1}}}', 400, /constructor: unknown field/],
  ])('refuses %s with %i, storing nothing, and goes on serving', async (_name, body, status, want) => {
    const { base } = await start();
    const res = await post(base, body);
    const json = (await res.json()) as { status: string; errorType: string; error: string; data?: { problems: unknown[] } };
    expect([res.status, json.status, json.errorType]).toEqual([status, 'error', 'bad_data']);
    expect(json.error).toMatch(want);
    expect(await qualitySeries(base)).toBe(0);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect((await fetch(`${base}/-/healthy`)).status).toBe(200);
    expect((await post(base, JSON.stringify({ scores: [good] }))).status).toBe(200);
  });

  it('lists the problems in data, with indexes and fields', async () => {
    const { base } = await start();
    const res = await post(base, JSON.stringify({ scores: [good, { ...good, score: 2, time: NOW_S + 120 }] }));
    const json = (await res.json()) as { data: { problems: unknown[] } };
    expect(json.data.problems).toEqual([
      { index: 1, field: 'score', message: '2 is not in [0, 1]' },
      { index: 1, field: 'time', message: 'is 120.000 s in the future, more than the 60 s allowed for clock skew' },
    ]);
  });

  it('refuses a body that is not JSON by its content type', async () => {
    const { base } = await start();
    const res = await post(base, JSON.stringify({ scores: [good] }), 'text/plain');
    expect(res.status).toBe(415);
    expect(await qualitySeries(base)).toBe(0);
  });

  it('answers 503 when quality ingest is off', async () => {
    const { base } = await start(undefined, { qualityScores: false });
    expect((await post(base, JSON.stringify({ scores: [good] }))).status).toBe(503);
  });

  it('continues the means from the stored ones after a restart', async () => {
    const first = await start(undefined, { qualityScores: { halfLifeMs: 3_600_000_000 } });
    expect((await post(first.base, JSON.stringify({ scores: [{ ...good, score: 1 }, { ...good, score: 0 }] }))).status).toBe(200);
    await first.close();
    const second = await start(first.dir, { qualityScores: { halfLifeMs: 3_600_000_000 } });
    expect((await post(second.base, JSON.stringify({ scores: [{ ...good, score: 1, time: NOW_S }] }))).status).toBe(200);
    // (1 + 0 + 1) / 3 with a half-life long enough not to matter; a fresh mean would be 1.
    expect(Number((await query(second.base, 'llm_quality_score'))[0].value[1])).toBeCloseTo(2 / 3, 6);
    expect((await query(second.base, 'llm_quality_evaluations_total'))[0].value[1]).toBe('3');
  });
});

describe('the quality namespace on the push paths', () => {
  const rwHeaders = { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' };
  const quality = (extra: [string, string][]): { labels: [string, string][]; samples: { tMs: number; value: number }[] } => ({
    labels: [['__name__', 'llm_quality_score'], ['model', 'llama'], ['component', 'llama-a'], ['dimension', 'safety'], ...extra],
    samples: [{ tMs: NOW, value: 0.9 }],
  });
  const up = { labels: [['__name__', 'up'], ['job', 'a']] as [string, string][], samples: [{ tMs: NOW, value: 1 }] };

  it.each([
    ['gpu', [['gpu', '0']]],
    ['replica', [['replica', 'r-1']]],
    ['a vLLM job', [['job', 'vllm']]],
    ['the gateway’s job', [['job', 'gateway']]],
  ] as [string, [string, string][]][])('remote write with a quality series carrying %s answers 400 and writes nothing of the request', async (_name, extra) => {
    const { base } = await start();
    const res = await fetch(`${base}/api/v1/write`, { method: 'POST', body: snappyEncode(encodeRemoteWriteV1([up, quality(extra)])), headers: rwHeaders });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/llm_quality_score: (label|job) .* (infrastructure-only|source)/);
    expect(await qualitySeries(base)).toBe(0);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/infersight_quality_refused_samples_total\{reason="(source|label)"\} 1/);
  });

  it('remote write takes quality series of an external evaluator (job and instance are target labels)', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/api/v1/write`, {
      method: 'POST',
      body: snappyEncode(encodeRemoteWriteV1([quality([['job', 'sim-quality'], ['instance', 'quality-llama-a'], ['endpoint', 'chat']])])),
      headers: rwHeaders,
    });
    expect(res.status).toBe(204);
    expect((await query(base, 'llm_quality_score'))[0].metric.job).toBe('sim-quality');
  });

  const str = (key: string, v: string) => ({ key, value: { value: { case: 'stringValue' as const, value: v } } });
  const otlp = (attrs: [string, string][]): Uint8Array =>
    encodeOtlpMetrics(
      {
        resourceMetrics: [
          {
            scopeMetrics: [
              {
                metrics: [
                  { name: 'up_ok', data: { case: 'gauge', value: { dataPoints: [{ timeUnixNano: BigInt(NOW) * 1_000_000n, value: { case: 'asDouble', value: 1 } }] } } },
                  {
                    name: 'llm_quality_score',
                    data: { case: 'gauge', value: { dataPoints: [{ attributes: attrs.map(([k, v]) => str(k, v)), timeUnixNano: BigInt(NOW) * 1_000_000n, value: { case: 'asDouble', value: 0.9 } }] } },
                  },
                ],
              },
            ],
          },
        ],
      },
      'json',
    );

  it('OTLP with a quality series carrying gpu answers 400 in its format and writes nothing of the request', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/api/v1/otlp/v1/metrics`, { method: 'POST', body: otlp([['model', 'llama'], ['dimension', 'safety'], ['gpu', '0']]), headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/"code":3.*label \\"gpu\\" is infrastructure-only/);
    expect(await query(base, 'count({__name__=~"up_ok|llm_quality_.+"})')).toEqual([]);
  });

  it('OTLP takes a quality series with the quality labels only', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/api/v1/otlp/v1/metrics`, { method: 'POST', body: otlp([['model', 'llama'], ['dimension', 'safety']]), headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(200);
    expect((await query(base, 'llm_quality_score')).length).toBe(1);
  });

  it('knows the gateway’s job', () => {
    expect(GATEWAY_JOB_LABEL_VALUE).toBe(GATEWAY_JOB);
  });
});
