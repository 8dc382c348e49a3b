import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { encodeRemoteWriteV1, snappyEncode } from '../../src/wire/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { startServe } from '../e2e/cli.js';
import { freePort, itWithPeer, startPeer, waitFor } from '../peers/peers.js';

const cleanups = useCleanups();

interface PromVector {
  status: string;
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

/**
 * A real Prometheus 2.42 federates from the built `infersight serve`: it scrapes `/federate` with
 * `honor_labels: true`, and the samples arrive with their own labels (the source's `job` and
 * `instance`, no `instance` where the source had none) and their own timestamps.
 */
describe('interop: real Prometheus federates from infersight /federate', () => {
  itWithPeer('Prometheus 2.42 scrapes /federate with honor_labels and stores the samples as they were', 'prometheus', async (prometheus) => {
    const t = tempDir('interop-federate');
    cleanups.push(t.remove);
    const serve = await startServe(['--data', path.join(t.dir, 'infersight'), '--otlp.listen', 'off']);
    cleanups.push(async () => {
      serve.child.kill('SIGTERM');
      await serve.exited;
    });
    // Samples from a few seconds ago (federation answers within the 5 m lookback of the wall clock).
    const tMs = Date.now() - 2_000;
    const pushed = [
      { labels: [['__name__', 'fed_interop_requests_total'], ['code', '200'], ['instance', 'src-1'], ['job', 'source']] as [string, string][], samples: [{ tMs, value: 42 }] },
      { labels: [['__name__', 'fed_interop_requests_total'], ['code', '500'], ['instance', 'src-2'], ['job', 'source']] as [string, string][], samples: [{ tMs, value: 7 }] },
      { labels: [['__name__', 'fed_interop_queue'], ['job', 'source']] as [string, string][], samples: [{ tMs: tMs - 500, value: 3.5 }] },
    ];
    const write = await fetch(`${serve.base}/api/v1/write`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' },
      body: snappyEncode(encodeRemoteWriteV1(pushed)),
    });
    expect(write.status).toBe(204);

    const config = path.join(t.dir, 'prometheus.yml');
    fs.writeFileSync(
      config,
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: federate',
        '    honor_labels: true',
        '    metrics_path: /federate',
        '    params:',
        "      'match[]': ['{__name__=~\"fed_interop_.+\"}']",
        '    static_configs:',
        `      - targets: ['${serve.base.replace('http://', '')}']`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    const prom = startPeer(prometheus, [`--config.file=${config}`, `--storage.tsdb.path=${path.join(t.dir, 'prometheus')}`, `--web.listen-address=127.0.0.1:${port}`]);
    cleanups.push(prom.stop);
    const query = async (q: string): Promise<PromVector> => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(q)}`);
      return (await res.json()) as PromVector;
    };

    await waitFor(`up{job="federate"} == 1 (prometheus output: ${prom.output().slice(-500)})`, async () => {
      const r = await query('up{job="federate"} == 1');
      return r.data.result.length === 1 ? r : undefined;
    });
    const requests = await waitFor('fed_interop_requests_total in Prometheus', async () => {
      const r = await query('fed_interop_requests_total');
      return r.data.result.length === 2 ? r.data.result : undefined;
    });
    expect(requests.map((r) => [r.metric, r.value[1]]).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))).toEqual([
      [{ __name__: 'fed_interop_requests_total', code: '200', instance: 'src-1', job: 'source' }, '42'],
      [{ __name__: 'fed_interop_requests_total', code: '500', instance: 'src-2', job: 'source' }, '7'],
    ]);
    // No instance label: federation's instance="" kept the scrape target's address off it.
    const queue = await query('fed_interop_queue');
    expect(queue.data.result.map((r) => [r.metric, r.value[1]])).toEqual([[{ __name__: 'fed_interop_queue', job: 'source' }, '3.5']]);
    // The samples keep their timestamps (honor_timestamps), to the millisecond.
    const stamps = await query('timestamp(fed_interop_queue) * 1000 or timestamp(fed_interop_requests_total{code="200"}) * 1000');
    expect(stamps.data.result.map((r) => Math.round(Number(r.value[1]))).sort()).toEqual([tMs - 500, tMs].sort());
    const scraped = await query('scrape_samples_scraped{job="federate"}');
    expect(scraped.data.result.map((r) => r.value[1])).toEqual(['3']);
  });
});
