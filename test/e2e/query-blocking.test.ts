import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { Labels, noopLogger } from '../../src/model/index.js';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { Db } from '../../src/tsdb/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { encodeRemoteWriteV1, snappyEncode } from '../../src/wire/index.js';
import { startServe, type RunningCli } from './cli.js';

/**
 * Issue 15 in the built `infersight serve`: long queries (`count_over_time(x[100y:1s])`, 3.2e9
 * subquery steps, with a 10 minute timeout, so they end only when cancelled) neither delay light
 * work nor outlive their clients. Only ordering is asserted: what is answered while the long
 * queries have not answered, and what gets a query slot once their clients are gone.
 */

const END = 1_700_000_000_000;
const LONG = `/api/v1/query?query=${encodeURIComponent('count_over_time(x[100y:1s])')}&time=${END / 1000}`;
const cleanups = useCleanups();

/** `serve` with `--query.max-concurrency 2` over 20 series `x{i}` of one hour at 15 s. */
async function serveWithData(): Promise<RunningCli> {
  const t = tempDir('e2e-query-blocking');
  cleanups.push(t.remove);
  const db = await Db.open({ dir: t.dir, fsync: { mode: 'never' }, logger: noopLogger, clock: () => END });
  const app = db.appender();
  for (let i = 0; i < 20; i++) {
    const labels = Labels.from({ __name__: 'x', i: String(i) });
    let ref = 0;
    for (let tMs = END - 3_600_000; tMs <= END; tMs += 15_000) ref = app.append(ref, labels, tMs, i);
  }
  await app.commit();
  await db.close();
  const cli = await startServe(['--data', t.dir, '--retention', '0', '--otlp.listen', 'off', '--query.timeout', '10m', '--query.max-concurrency', '2']);
  cleanups.push(async () => {
    cli.child.kill('SIGTERM');
    await cli.exited;
  });
  return cli;
}

/**
 * Sends a long query; resolves once the request is written (so a request sent after it on another
 * connection is read after it). `answered()` says whether any answer came back, `cancel()` disconnects.
 */
async function startLong(base: string): Promise<{ answered: () => boolean; cancel: () => void }> {
  let answered = false;
  const req = http.get(base + LONG, (res) => {
    answered = true;
    res.resume();
  });
  req.on('error', () => undefined);
  cleanups.push(() => req.destroy());
  await new Promise((resolve) => req.once('finish', resolve));
  return { answered: () => answered, cancel: () => req.destroy() };
}

/**
 * Three round trips through the API's request handling (a label-names call, which takes no query
 * slot) after a request was written: by then that earlier request has been read and has reached
 * the engine, as these did.
 */
async function barrier(base: string): Promise<void> {
  for (let i = 0; i < 3; i++) expect((await fetch(`${base}/api/v1/labels`)).status).toBe(200);
}

/** The value of `x{i="3"}` at END, asked as a one-series instant query. */
async function oneSeries(base: string): Promise<unknown> {
  const r = await fetch(`${base}/api/v1/query?query=${encodeURIComponent('x{i="3"}')}&time=${END / 1000}`);
  return ((await r.json()) as { data: { result: { value: unknown[] }[] } }).data.result.map((s) => s.value);
}

describe('long queries in infersight serve', () => {
  it('answer a one-series query and a remote write while they run, and a disconnect frees their slots', async () => {
    const cli = await serveWithData();
    const a = await startLong(cli.base);
    await barrier(cli.base);
    expect((await fetch(`${cli.base}/-/healthy`)).status).toBe(200);
    expect(await oneSeries(cli.base)).toEqual([[END / 1000, '3']]);
    const body = snappyEncode(encodeRemoteWriteV1([{ labels: [['__name__', 'written']], samples: [{ tMs: END + 1000, value: 42 }] }]));
    const w = await fetch(`${cli.base}/api/v1/write`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' } });
    expect(w.status).toBe(204);
    const back = await fetch(`${cli.base}/api/v1/query?query=written&time=${END / 1000 + 1}`);
    expect(((await back.json()) as { data: { result: { value: unknown[] }[] } }).data.result.map((s) => s.value)).toEqual([[END / 1000 + 1, '42']]);
    expect(a.answered()).toBe(false);

    // Both slots taken: a third query waits until a long one stops, which only its client's
    // disconnect can do before the 10 minute timeout.
    const b = await startLong(cli.base);
    await barrier(cli.base);
    const waiting = oneSeries(cli.base);
    await barrier(cli.base);
    a.cancel();
    b.cancel();
    expect(await waiting).toEqual([[END / 1000, '3']]);
    expect([a.answered(), b.answered()]).toEqual([false, false]);
  }, 60_000);
});
