/**
 * How long heavy queries hold the event loop: a server (in this process) over 20 series of one
 * hour at 15 s runs BENCH_QUERIES concurrent `count_over_time(x[100y:1s])` (3.2e9 subquery steps,
 * each stopped by `timeout=BENCH_TIMEOUT`), while `/-/healthy` is asked again as soon as it
 * answers. Prints the worst event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms
 * resolution) and the p99 and worst `/-/healthy` round trip during the queries, with the
 * queries' statuses (docs/benchmarks.md).
 *
 * Env: BENCH_QUERIES (default 4), BENCH_TIMEOUT (default 3s).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Labels, MemoryLogger } from '../../src/model/index.js';
import { startServer } from '../../src/server/index.js';
import { Db } from '../../src/tsdb/index.js';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 4);
const TIMEOUT = process.env.BENCH_TIMEOUT ?? '3s';
const END = 1_700_000_000_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-blocking-'));
try {
  const db = await Db.open({ dir, fsync: { mode: 'never' }, logger: new MemoryLogger(), clock: () => END });
  const app = db.appender();
  for (let i = 0; i < 20; i++) {
    const labels = Labels.from({ __name__: 'x', i: String(i) });
    let ref = 0;
    for (let t = END - 3_600_000; t <= END; t += 15_000) ref = app.append(ref, labels, t, i);
  }
  await app.commit();
  await db.close();
  const server = await startServer({ listen: '127.0.0.1:0', storage: { dir, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock: Date.now });
  await server.ready;
  const base = `http://127.0.0.1:${server.http.address.port}`;
  const query = `${base}/api/v1/query?query=${encodeURIComponent('count_over_time(x[100y:1s])')}&time=${END / 1000}&timeout=${TIMEOUT}`;

  // Warm-up (JIT, first connections): one short heavy query and one health check, not measured.
  await (await fetch(query.replace(`timeout=${TIMEOUT}`, 'timeout=200ms'))).text();
  await (await fetch(`${base}/-/healthy`)).text();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const began = performance.now();
  let running = true;
  const statuses = Promise.all(Array.from({ length: QUERIES }, () => fetch(query).then(async (r) => (await r.text(), r.status)))).finally(() => {
    running = false;
  });
  const healthy: number[] = [];
  while (running) {
    const t0 = performance.now();
    const r = await fetch(`${base}/-/healthy`);
    await r.text();
    if (running) healthy.push(performance.now() - t0);
  }
  const wallMs = performance.now() - began;
  loop.disable();
  healthy.sort((a, b) => a - b);
  const p99 = healthy.length === 0 ? null : healthy[Math.min(healthy.length - 1, Math.floor(healthy.length * 0.99))];
  const round = (x: number | null): number | null => (x === null ? null : Math.round(x * 10) / 10);
  console.log(
    JSON.stringify({
      bench: 'promql.blocking',
      queries: QUERIES,
      timeout: TIMEOUT,
      queryStatuses: await statuses,
      wallMs: Math.round(wallMs),
      worstLoopDelayMs: round(loop.max / 1e6),
      loopDelayP99Ms: round(loop.percentile(99) / 1e6),
      healthyAnswered: healthy.length,
      healthyP99Ms: round(p99),
      healthyWorstMs: round(healthy.at(-1) ?? null),
    }),
  );
  await server.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
