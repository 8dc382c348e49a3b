/**
 * Interop: Debian's Prometheus 2.42 scrapes a static target (a tiny HTTP server here that serves
 * text exposition) and remote-writes what it scraped into Infersight's `/api/v1/write`; the
 * samples are read back through Infersight's `/api/v1/query`.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { MemoryLogger, systemClock } from '../../src/model/index.js';
import { startServer } from '../../src/server/serve.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { freePort, itWithPeer, startPeer, waitFor } from '../peers/peers.js';

const cleanups = useCleanups();

const EXPOSITION = `# HELP interop_requests_total Requests served.
# TYPE interop_requests_total counter
interop_requests_total{path="/a"} 42
interop_requests_total{path="/b"} 7
# HELP interop_kv_cache_usage KV cache usage.
# TYPE interop_kv_cache_usage gauge
interop_kv_cache_usage{gpu="0"} 0.75
# HELP interop_latency_seconds Latency.
# TYPE interop_latency_seconds histogram
interop_latency_seconds_bucket{le="0.1"} 1
interop_latency_seconds_bucket{le="1"} 3
interop_latency_seconds_bucket{le="+Inf"} 4
interop_latency_seconds_sum 5.5
interop_latency_seconds_count 4
`;

interface Vector {
  status: string;
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

describe('interop: Prometheus 2.42 remote-writes into Infersight', () => {
  itWithPeer('scraped samples arrive through remote_write and can be queried back', 'prometheus', async (prometheus) => {
    const t = tempDir('interop-rw');
    cleanups.push(t.remove);
    const logger = new MemoryLogger();
    const server = await startServer({ listen: '127.0.0.1:0', storage: { dir: path.join(t.dir, 'infersight'), fsync: { mode: 'never' } }, logger, clock: systemClock });
    cleanups.push(() => server.close());
    await server.ready;
    const base = `http://127.0.0.1:${server.http.address.port}`;

    const target = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' });
      res.end(EXPOSITION);
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => target.close(() => r())));
    const targetAddr = `127.0.0.1:${(target.address() as AddressInfo).port}`;

    const config = path.join(t.dir, 'prometheus.yml');
    fs.writeFileSync(
      config,
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: static',
        '    static_configs:',
        `      - targets: ['${targetAddr}']`,
        'remote_write:',
        `  - url: ${base}/api/v1/write`,
        '    queue_config:',
        '      batch_send_deadline: 1s',
        '      min_backoff: 100ms',
        '    metadata_config:',
        '      send_interval: 1s',
        '',
      ].join('\n'),
    );
    const port = await freePort();
    const prom = startPeer(prometheus, [`--config.file=${config}`, `--storage.tsdb.path=${path.join(t.dir, 'prometheus')}`, `--web.listen-address=127.0.0.1:${port}`]);
    cleanups.push(prom.stop);

    const query = async (q: string): Promise<Vector['data']['result']> => {
      const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(q)}`);
      return ((await res.json()) as Vector).data.result;
    };
    const byLabel = (rows: Vector['data']['result'], label: string) => Object.fromEntries(rows.map((r) => [r.metric[label], r.value[1]]));

    const requests = await waitFor(`interop_requests_total in Infersight (prometheus output: ${prom.output().slice(-800)})`, async () => {
      const r = await query('interop_requests_total{job="static"}');
      return r.length === 2 ? r : undefined;
    });
    expect(byLabel(requests, 'path')).toEqual({ '/a': '42', '/b': '7' });
    expect(requests[0].metric).toMatchObject({ job: 'static', instance: targetAddr });
    // Prometheus' own series about the scrape travel too.
    const up = await waitFor('up', async () => {
      const r = await query('up{job="static"}');
      return r.length === 1 ? r : undefined;
    });
    expect(up[0].value[1]).toBe('1');
    expect(byLabel(await query('interop_latency_seconds_bucket'), 'le')).toEqual({ '0.1': '1', '1': '3', '+Inf': '4' });
    expect((await query('interop_kv_cache_usage'))[0].value[1]).toBe('0.75');
    // Several scrapes arrived, each one sample per series, in order: rate() works.
    await waitFor('three scrapes', async () => {
      const r = await query('count_over_time(up{job="static"}[1m])');
      return r.length === 1 && Number(r[0].value[1]) >= 3 ? r : undefined;
    });
    expect(logger.lines.filter((e) => e.level === 'error')).toEqual([]);
  });
});
