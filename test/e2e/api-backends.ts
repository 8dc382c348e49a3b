/**
 * Backends loaded with the query-client suite's data set, for the API tests: a real Prometheus
 * (blocks built by promtool from OpenMetrics), a real VictoriaMetrics (`/api/v1/import/prometheus`)
 * and Infersight's own CLI (a data directory written through `Db`, then `infersight serve`).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { QueryClientSuiteData } from '../../src/query/testing/index.js';
import { openSuiteDb } from '../../src/server/testing/suite-db.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { freePort, startPeer, startVictoriaMetrics, waitFor } from '../peers/peers.js';
import { startServe } from './cli.js';

/** A running backend: its base URL and how to stop it (which also removes its directory). */
export interface RunningBackend {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts Prometheus on loopback over blocks that promtool built from the data set's OpenMetrics text. */
export async function startPrometheusWithData(prometheus: string, promtool: string, data: QueryClientSuiteData): Promise<RunningBackend> {
  const t = tempDir('api-prom');
  try {
    const om = path.join(t.dir, 'data.om');
    fs.writeFileSync(om, data.openMetrics);
    const tsdb = path.join(t.dir, 'tsdb');
    const built = spawnSync(promtool, ['tsdb', 'create-blocks-from', 'openmetrics', om, tsdb], { encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`promtool failed: ${built.stderr}${built.stdout}`);
    const config = path.join(t.dir, 'prometheus.yml');
    fs.writeFileSync(config, 'global:\n  scrape_interval: 1h\n');
    const port = await freePort();
    const peer = startPeer(prometheus, [`--config.file=${config}`, `--storage.tsdb.path=${tsdb}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn']);
    const url = `http://127.0.0.1:${port}`;
    const stop = async () => {
      await peer.stop();
      t.remove();
    };
    try {
      await waitFor(`Prometheus ready (${peer.output().slice(-300)})`, async () => ((await fetch(`${url}/-/ready`)).ok ? true : undefined));
    } catch (e) {
      await stop();
      throw e;
    }
    return { url, stop };
  } catch (e) {
    t.remove();
    throw e;
  }
}

/** Starts VictoriaMetrics on loopback and imports the data set's Prometheus text (millisecond timestamps). */
export async function startVictoriaMetricsWithData(vm: string, data: QueryClientSuiteData): Promise<RunningBackend> {
  const t = tempDir('api-vm');
  // The data set is from 2023: startVictoriaMetrics keeps data of any age and answers from storage, not from the rollup cache.
  const peer = await startVictoriaMetrics(vm, t.dir).catch((e: unknown) => {
    t.remove();
    throw e;
  });
  const url = peer.base;
  const stop = async () => {
    await peer.stop();
    t.remove();
  };
  try {
    const res = await fetch(`${url}/api/v1/import/prometheus`, { method: 'POST', body: data.prometheusText });
    if (res.status !== 204) throw new Error(`import answered ${res.status}: ${await res.text()}`);
    await fetch(`${url}/internal/force_flush`);
    const want = data.series.length;
    const window = `start=${data.startMs / 1000}&end=${data.endMs / 1000}`;
    await waitFor('imported series visible', async () => {
      const r = (await (await fetch(`${url}/api/v1/series?match[]=${encodeURIComponent('{__name__=~"suite_.+"}')}&${window}`)).json()) as { data: unknown[] };
      return r.data.length === want ? true : undefined;
    });
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, stop };
}

/** Writes the data set into a fresh data directory through `Db`, then starts the built `infersight serve` on it. */
export async function startInfersightWithData(data: QueryClientSuiteData, extraArgs: string[] = []): Promise<RunningBackend> {
  const t = tempDir('api-infersight');
  try {
    const db = await openSuiteDb(t.dir, data);
    await db.close();
    const cli = await startServe(['--data', t.dir, ...extraArgs]);
    return {
      url: cli.base,
      stop: async () => {
        cli.child.kill('SIGTERM');
        await cli.exited;
        t.remove();
      },
    };
  } catch (e) {
    t.remove();
    throw e;
  }
}
