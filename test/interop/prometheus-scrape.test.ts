import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { startServe } from '../e2e/cli.js';
import { freePort, itWithPeer, startPeer, waitFor } from '../peers/peers.js';

const cleanups = useCleanups();

interface PromVector {
  status: string;
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

describe('interop: real Prometheus scrapes infersight /metrics', () => {
  itWithPeer('Prometheus 2.42 ingests every self-metric family without a parse error', 'prometheus', async (prometheus) => {
    const t = tempDir('interop-prom');
    cleanups.push(t.remove);
    const serve = await startServe(['--data', path.join(t.dir, 'infersight')]);
    cleanups.push(async () => {
      serve.child.kill('SIGTERM');
      await serve.exited;
    });
    const target = serve.base.replace('http://', '');
    const config = path.join(t.dir, 'prometheus.yml');
    fs.writeFileSync(
      config,
      ['global:', '  scrape_interval: 1s', 'scrape_configs:', '  - job_name: infersight', '    static_configs:', `      - targets: ['${target}']`, ''].join('\n'),
    );
    const port = await freePort();
    const prom = startPeer(prometheus, [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(t.dir, 'prometheus')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ]);
    cleanups.push(prom.stop);
    const query = async (q: string): Promise<PromVector> => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(q)}`);
      return (await res.json()) as PromVector;
    };
    // The scrape succeeded (up == 1) and Prometheus kept the TSDB's own series.
    await waitFor(`up{job="infersight"} == 1 (prometheus output: ${prom.output().slice(-500)})`, async () => {
      const r = await query('up{job="infersight"} == 1');
      return r.data.result.length === 1 ? r : undefined;
    });
    const series = await waitFor('infersight_tsdb_head_series', async () => {
      const r = await query('infersight_tsdb_head_series');
      return r.data.result.length === 1 ? r.data.result[0] : undefined;
    });
    expect(series.metric).toMatchObject({ job: 'infersight', instance: target });
    const reasons = await query('count by (reason) (infersight_tsdb_rejected_samples_total)');
    expect(reasons.data.result.map((r) => r.metric.reason).sort()).toEqual(['duplicate', 'invalid_at_commit', 'out_of_bounds', 'out_of_order', 'too_old']);
    const failures = await query('scrape_samples_post_metric_relabeling{job="infersight"}');
    expect(Number(failures.data.result[0].value[1])).toBeGreaterThan(20);
  });
});
