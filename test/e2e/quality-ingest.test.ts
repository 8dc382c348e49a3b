// Score ingest and the quality namespace, whole process: `infersight serve` from dist/, over HTTP.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { encodeRemoteWriteV1, snappyEncode } from '../../src/wire/index.js';
import { waitFor } from '../peers/peers.js';
import { startDemoCli, startServe, type RunningCli } from './cli.js';

const cleanups = useCleanups();

interface Vector {
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

async function serve(dir: string, extra: string[] = []): Promise<RunningCli> {
  const cli = await startServe(['--data', path.join(dir, 'data'), ...extra]);
  cleanups.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGTERM');
    await cli.exited;
  });
  return cli;
}

const query = async (base: string, q: string): Promise<Vector['data']['result']> =>
  ((await (await fetch(`${base}/api/v1/query?query=${encodeURIComponent(q)}`)).json()) as Vector).data.result;
const postScores = (base: string, scores: unknown[]): Promise<Response> =>
  fetch(`${base}/api/v1/quality/scores`, { method: 'POST', body: JSON.stringify({ scores }), headers: { 'Content-Type': 'application/json' } });
const score = (value: number, tS: number) => ({ model: 'llama', component: 'llama-a', dimension: 'safety', score: value, evaluator: 'e2e', request_id: `r-${value}`, time: tS });

describe('score ingest (whole process)', () => {
  it('keeps an acknowledged batch across kill -9, and the mean goes on from it after the restart', async () => {
    const t = tempDir('e2e-quality-kill');
    cleanups.push(t.remove);
    const first = await serve(t.dir);
    const nowS = Date.now() / 1000;
    const res = await postScores(first.base, [score(1, nowS - 2), score(0, nowS - 1)]);
    expect([res.status, await res.json()]).toEqual([200, { status: 'success', data: { accepted: 2 } }]);
    // Acknowledged means in the WAL: no graceful shutdown.
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await serve(t.dir);
    const [mean] = await query(second.base, 'llm_quality_score');
    expect(mean.metric).toEqual({ __name__: 'llm_quality_score', model: 'llama', component: 'llama-a', dimension: 'safety' });
    const before = Number(mean.value[1]);
    expect(before).toBeGreaterThan(0.45);
    expect(before).toBeLessThan(0.5);
    expect((await query(second.base, 'llm_quality_evaluations_total'))[0].value[1]).toBe('2');
    // The restored mean continues: a third score of 1 lifts it to about 2/3, where a fresh mean would be 1.
    expect((await postScores(second.base, [score(1, Date.now() / 1000)])).status).toBe(200);
    const after = Number((await query(second.base, 'llm_quality_score'))[0].value[1]);
    expect(after).toBeGreaterThan(0.6);
    expect(after).toBeLessThan(0.7);
    expect((await query(second.base, 'llm_quality_evaluations_total'))[0].value[1]).toBe('3');
  });

  it('refuses a hostile batch with 400 and the problems, storing nothing, and goes on serving', async () => {
    const t = tempDir('e2e-quality-hostile');
    cleanups.push(t.remove);
    const cli = await serve(t.dir);
    const nowS = Date.now() / 1000;
    const res = await postScores(cli.base, [score(0.5, nowS), score(1.5, nowS), score(0.5, nowS + 3600)]);
    const body = (await res.json()) as { errorType: string; data: { problems: { index: number; field: string }[] } };
    expect(res.status).toBe(400);
    expect(body.errorType).toBe('bad_data');
    expect(body.data.problems.map((p) => `${p.index}.${p.field}`)).toEqual(['1.score', '2.time']);
    const huge = await fetch(`${cli.base}/api/v1/quality/scores`, { method: 'POST', body: 'x'.repeat(10 * 1024 * 1024), headers: { 'Content-Type': 'application/json' } }).catch(() => null);
    // The server may answer 413 and close before the whole body is sent; either way nothing is stored.
    if (huge !== null) expect(huge.status).toBe(413);
    expect(await query(cli.base, '{__name__=~"llm_quality_.+"}')).toEqual([]);
    expect((await fetch(`${cli.base}/-/healthy`)).status).toBe(200);
  });
});

describe('the quality namespace (whole process)', () => {
  it('refuses a remote-write request with a quality series carrying gpu, writing nothing of it', async () => {
    const t = tempDir('e2e-quality-rw');
    cleanups.push(t.remove);
    const cli = await serve(t.dir);
    const tMs = Date.now();
    const body = snappyEncode(
      encodeRemoteWriteV1([
        { labels: [['__name__', 'rw_ok'], ['job', 'x']], samples: [{ tMs, value: 1 }] },
        { labels: [['__name__', 'llm_quality_score'], ['model', 'm'], ['component', 'c'], ['dimension', 'safety'], ['gpu', '0']], samples: [{ tMs, value: 0.9 }] },
      ]),
    );
    const res = await fetch(`${cli.base}/api/v1/write`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' } });
    expect([res.status, await res.text()]).toEqual([400, 'llm_quality_score: label "gpu" is infrastructure-only; a quality series is per model and deployment (docs/quality.md)\n']);
    expect(await query(cli.base, '{__name__=~"rw_ok|llm_quality_.+"}')).toEqual([]);
  });

  it('drops and counts quality series scraped from an engine job or with an infrastructure label, and keeps an evaluator’s', async () => {
    const exposition = (extra: string) =>
      `# TYPE llm_quality_score gauge\nllm_quality_score{model="m",component="c",dimension="safety"} 0.9\nllm_quality_score{model="m",component="c",dimension="relevance"${extra}} 0.8\n`;
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' });
      res.end(req.url === '/engine' ? exposition('') : exposition(',gpu="0"'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const addr = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const t = tempDir('e2e-quality-scrape');
    cleanups.push(t.remove);
    const file = path.join(t.dir, 'infersight.yml');
    const job = (name: string, p: string) => `  - job_name: ${name}\n    metrics_path: ${p}\n    static_configs: [{targets: ['${addr}']}]\n`;
    fs.writeFileSync(file, `global: {scrape_interval: 1s, scrape_timeout: 1s}\nscrape_configs:\n${job('vllm', '/engine')}${job('my-evaluator', '/evaluator')}`);
    const cli = await serve(t.dir, ['--config.file', file]);
    await waitFor('both jobs scraped', async () => ((await query(cli.base, 'up == 1')).length === 2 ? true : undefined));
    // Only the evaluator's clean series; the scrapes themselves succeeded.
    const stored = await query(cli.base, 'llm_quality_score');
    expect(stored.map((r) => `${r.metric.job} ${r.metric.dimension}`)).toEqual(['my-evaluator safety']);
    const metrics = await (await fetch(`${cli.base}/metrics`)).text();
    expect(Number(/infersight_quality_refused_samples_total\{reason="source"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(2);
    expect(Number(/infersight_quality_refused_samples_total\{reason="label"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
  });
});

describe('the simulator’s quality exporter (whole process)', () => {
  it('passes the guard: infersight demo stores its llm_quality_* series and refuses none', async () => {
    const t = tempDir('e2e-quality-demo');
    cleanups.push(t.remove);
    const demo = await startDemoCli(['--data', t.dir, '--speed', '60', '--scrape-interval', '1s', '--gateway.listen', 'off']);
    cleanups.push(async () => {
      await demo.stop();
    });
    const series = await waitFor('sim-quality scraped', async () => {
      const r = await query(demo.base, 'llm_quality_score{job="sim-quality"}');
      return r.length > 0 ? r : undefined;
    });
    expect(Object.keys(series[0].metric).sort()).toEqual(['__name__', 'component', 'dimension', 'endpoint', 'instance', 'job', 'model']);
    const metrics = await (await fetch(`${demo.base}/metrics`)).text();
    expect(metrics).toContain('infersight_quality_refused_samples_total{reason="source"} 0');
    expect(metrics).toContain('infersight_quality_refused_samples_total{reason="label"} 0');
  });
});
