/**
 * How long heavy queries hold the event loop (issue 15's blocking measure): a server in this
 * process over 20 series of one hour at 15 s runs BENCH_QUERIES concurrent
 * `count_over_time(x[100y:1s])` (3.2e9 subquery steps, each stopped by `timeout=BENCH_TIMEOUT`,
 * default 10 s) while three probes, each asking again as soon as it is answered, run beside them:
 *
 * - `GET /-/healthy`;
 * - a one-series instant query (`x{i="0"}`);
 * - a remote write of one sample (a new timestamp of one series, snappy protobuf), answered 204
 *   once committed to the head.
 *
 * Prints the worst event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution) and its
 * p99, and for each probe the count answered and the p99 and worst round trip during the heavy
 * queries, with the heavy queries' statuses (docs/benchmarks.md). The probes' clients share the
 * server's event loop, so one round trip needs several turns of it.
 *
 * Env: BENCH_QUERIES (default 1), BENCH_TIMEOUT (default 10s).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Labels, MemoryLogger } from '../../src/model/index.js';
import { startServer } from '../../src/server/index.js';
import { Db } from '../../src/tsdb/index.js';
import { encodeRemoteWriteV1, snappyEncode } from '../../src/wire/index.js';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 1);
const TIMEOUT = process.env.BENCH_TIMEOUT ?? '10s';
const END = 1_700_000_000_000;

const round = (x: number | null): number | null => (x === null ? null : Math.round(x * 10) / 10);

/** Count, p99 and worst of round trips in ms. */
function summary(ms: number[]): { answered: number; p99Ms: number | null; worstMs: number | null } {
  const s = [...ms].sort((a, b) => a - b);
  const p99 = s.length === 0 ? null : s[Math.min(s.length - 1, Math.floor(s.length * 0.99))];
  return { answered: s.length, p99Ms: round(p99), worstMs: round(s.at(-1) ?? null) };
}

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
  const heavy = `${base}/api/v1/query?query=${encodeURIComponent('count_over_time(x[100y:1s])')}&time=${END / 1000}&timeout=${TIMEOUT}`;
  const light = `${base}/api/v1/query?query=${encodeURIComponent('x{i="0"}')}&time=${END / 1000}`;
  // Each write carries the next millisecond after END: in order, inside the head's range.
  let writeT = END;
  const write = async (): Promise<number> => {
    const body = snappyEncode(encodeRemoteWriteV1([{ labels: [['__name__', 'rw_probe']], samples: [{ tMs: ++writeT, value: 1 }] }]));
    const r = await fetch(`${base}/api/v1/write`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' } });
    await r.text();
    if (r.status !== 204) throw new Error(`remote write answered ${r.status}`);
    return r.status;
  };
  const get = async (url: string): Promise<number> => {
    const r = await fetch(url);
    await r.text();
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
    return r.status;
  };

  // Warm-up (JIT, first connections): one short heavy query and each probe once, not measured.
  await (await fetch(heavy.replace(`timeout=${TIMEOUT}`, 'timeout=200ms'))).text();
  await get(`${base}/-/healthy`);
  await get(light);
  await write();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const began = performance.now();
  let running = true;
  const statuses = Promise.all(Array.from({ length: QUERIES }, () => fetch(heavy).then(async (r) => (await r.text(), r.status)))).finally(() => {
    running = false;
  });
  /** Asks `probe` again and again while the heavy queries run; the round trips that ended while they ran. */
  const probeLoop = async (probe: () => Promise<number>): Promise<number[]> => {
    const out: number[] = [];
    while (running) {
      const t0 = performance.now();
      await probe();
      if (running) out.push(performance.now() - t0);
    }
    return out;
  };
  const [healthy, query, remoteWrite] = await Promise.all([probeLoop(() => get(`${base}/-/healthy`)), probeLoop(() => get(light)), probeLoop(write)]);
  const wallMs = performance.now() - began;
  loop.disable();
  console.log(
    JSON.stringify({
      bench: 'promql.blocking',
      queries: QUERIES,
      timeout: TIMEOUT,
      queryStatuses: await statuses,
      wallMs: Math.round(wallMs),
      worstLoopDelayMs: round(loop.max / 1e6),
      loopDelayP99Ms: round(loop.percentile(99) / 1e6),
      healthy: summary(healthy),
      oneSeriesQuery: summary(query),
      remoteWrite: summary(remoteWrite),
    }),
  );
  await server.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
