import http from 'node:http';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../model/testing/cleanups.js';
import { Labels, MemoryLogger } from '../../model/index.js';
import { Db } from '../../tsdb/index.js';
import { tempDir } from '../../tsdb/testing/temp-dir.js';
import { startServer, type RunningServer, type ServeOptions } from '../serve.js';
import { encodeRemoteWriteV1, snappyEncode } from '../../wire/index.js';
import { responseTooLargeMessage } from './respond.js';

const T0 = 1_700_000_000_000;
const SERIES = 200;
const POINTS = 3_000; // one a second; values with 12 significant digits, so pairs are long

const cleanups = useCleanups();

/**
 * A server over `SERIES` series `big{i}` of `POINTS` samples each; `clock` counts its reads. With
 * `msPerRead` the clock is virtual: each read moves it on by that much, so a query's slices
 * between yields (`yieldEveryMs` of its clock) are a fixed number of reads, whatever the machine.
 */
async function start(extra: Partial<ServeOptions> = {}, msPerRead?: number): Promise<{ server: RunningServer; base: string; reads: () => number }> {
  const t = tempDir('api-bounded');
  cleanups.push(t.remove);
  const end = T0 + POINTS * 1000;
  const db = await Db.open({ dir: t.dir, fsync: { mode: 'never' }, logger: new MemoryLogger(), clock: () => end });
  const app = db.appender();
  for (let i = 0; i < SERIES; i++) {
    const labels = Labels.from({ __name__: 'big', i: String(i) });
    let ref = 0;
    for (let k = 0; k < POINTS; k++) ref = app.append(ref, labels, T0 + k * 1000, i + k / 7);
  }
  await app.commit();
  await db.close();
  let reads = 0;
  let virtualMs = Date.now();
  const clock = (): number => {
    reads++;
    return msPerRead === undefined ? Date.now() : (virtualMs += msPerRead);
  };
  const server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock, ...extra });
  cleanups.push(() => server.close());
  await server.ready;
  return { server, base: `http://127.0.0.1:${server.http.address.port}`, reads: () => reads };
}

/** Lets `n` turns of the event loop pass (each a `setImmediate`), without waiting for time. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Turns the event loop until `cond` holds (at most `max` turns). */
async function until(cond: () => boolean, max = 1_000_000): Promise<void> {
  for (let i = 0; i < max && !cond(); i++) await turns(1);
  if (!cond()) throw new Error('condition never held');
}

const HEAVY = encodeURIComponent('count_over_time(big[100y:1s])');
const RANGE = `/api/v1/query_range?query=big&start=${T0 / 1000}&end=${T0 / 1000 + POINTS - 1}&step=1`;

describe('a heavy query does not hold the server', () => {
  it('answers /-/healthy while count_over_time(x[100y:1s]) runs, and the query fails with 503 timeout', async () => {
    const { base, reads } = await start();
    const order: string[] = [];
    const before = reads();
    const query = fetch(`${base}/api/v1/query?query=${HEAVY}&time=${T0 / 1000 + POINTS}&timeout=1s`).then(async (r) => {
      order.push('query');
      return { status: r.status, body: await r.json() };
    });
    await until(() => reads() > before + 50); // the query is evaluating
    const healthy = fetch(`${base}/-/healthy`).then((r) => {
      order.push('healthy');
      return r.status;
    });
    expect(await healthy).toBe(200);
    expect(await query).toEqual({ status: 503, body: { status: 'error', errorType: 'timeout', error: 'query timed out in expression evaluation' } });
    expect(order).toEqual(['healthy', 'query']);
  });

  it('stops evaluating a query whose client disconnects', async () => {
    const { base, reads } = await start({ engine: { timeoutMs: 60_000 } });
    const before = reads();
    const req = http.get(`${base}/api/v1/query?query=${HEAVY}&time=${T0 / 1000 + POINTS}`);
    req.on('error', () => undefined);
    await until(() => reads() > before + 50);
    req.destroy();
    // Once the disconnect is seen, the clock (read at every check and turn of the query) stops.
    let last = -1;
    await until(() => {
      const now = reads();
      const still = now === last;
      last = now;
      return still;
    });
    const stoppedAt = reads();
    await turns(50);
    expect(reads()).toBe(stoppedAt);
    // The whole evaluation needs a clock read per 1,024 of its 3.2e9 steps (3 million reads).
    expect(stoppedAt - before).toBeLessThan(300_000);
  });
});

/** Clock reads a query's slice between two yields takes with `msPerRead` 1 and the default `yieldEveryMs` of 10. */
const SLICE_READS = 10;
/** A light request needs some turns of the event loop (accept, parse, evaluate, answer; the client is in this process too), the long query one slice per turn. */
const LIGHT_SLICES = 100;

/** A light piece of work sent while the long query runs; resolves once it is answered and checked. */
type Probe = (base: string) => Promise<void>;

const oneSeriesQuery: Probe = async (base) => {
  const r = await fetch(`${base}/api/v1/query?query=${encodeURIComponent('big{i="3"}')}&time=${T0 / 1000 + POINTS}`);
  expect(await r.json()).toEqual({ status: 'success', data: { resultType: 'vector', result: [{ metric: { __name__: 'big', i: '3' }, value: [T0 / 1000 + POINTS, String(3 + (POINTS - 1) / 7)] }] } });
};

const remoteWrite: Probe = async (base) => {
  const tMs = T0 + POINTS * 1000;
  const body = snappyEncode(encodeRemoteWriteV1([{ labels: [['__name__', 'written']], samples: [{ tMs, value: 42 }] }]));
  const w = await fetch(`${base}/api/v1/write`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy' } });
  expect(w.status).toBe(204);
  // Committed: the next query sees it.
  const r = await fetch(`${base}/api/v1/query?query=written&time=${tMs / 1000}`);
  expect(((await r.json()) as { data: { result: { value: unknown[] }[] } }).data.result.map((x) => x.value)).toEqual([[tMs / 1000, '42']]);
};

describe('a long query does not delay light work beyond a few of its slices', () => {
  it.each([
    ['a one-series instant query', oneSeriesQuery],
    ['a remote write, then reading it back', remoteWrite],
  ])('%s is answered while count_over_time(x[100y:1s]) is still evaluating', async (_what, probe) => {
    // Each clock read is 1 virtual ms: the long query yields every SLICE_READS reads. Its timeout
    // (30,000 reads) only ends it should yielding break: then the probe waits for that and fails.
    const { base, reads } = await start({ engine: { timeoutMs: 30_000 } }, 1);
    const before = reads();
    let longAnswered = false;
    const long = http.get(`${base}/api/v1/query?query=${HEAVY}&time=${T0 / 1000 + POINTS}`, (res) => {
      longAnswered = true;
      res.resume();
    });
    long.on('error', () => undefined);
    cleanups.push(() => long.destroy());
    await until(() => reads() > before + 50); // the long query is evaluating
    const sentAt = reads();
    await probe(base);
    const answeredAt = reads();
    expect(longAnswered).toBe(false);
    // Ordering and progress, not time: the long query went on meanwhile (its clock reads), and the
    // probe waited for no more than LIGHT_SLICES of its slices.
    await until(() => reads() > answeredAt + SLICE_READS);
    expect(longAnswered).toBe(false);
    expect(answeredAt - sentAt).toBeLessThan(LIGHT_SLICES * SLICE_READS);
  });
});

describe('query answers are streamed and capped', () => {
  it.each([
    ['plain', {}],
    ['gzip', { 'Accept-Encoding': 'gzip' }],
  ])('streams a %s range answer of 600,000 points as valid JSON', async (_what, headers) => {
    const { base } = await start();
    const reply = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(base + RANGE, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['transfer-encoding']).toBe('chunked');
    expect(reply.headers['content-length']).toBeUndefined();
    const text = (reply.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(reply.body) : reply.body).toString();
    const body = JSON.parse(text) as { status: string; data: { result: { values: unknown[] }[] } };
    expect(body.status).toBe('success');
    expect(body.data.result).toHaveLength(SERIES);
    expect(body.data.result.reduce((n, s) => n + s.values.length, 0)).toBe(SERIES * POINTS);
  });

  it('refuses an answer sure to pass --query.max-response-bytes with 422 execution, before sending any of it', async () => {
    const { base } = await start({ api: { maxResponseBytes: 1_000_000 } });
    const r = await fetch(base + RANGE);
    expect({ status: r.status, body: await r.json() }).toEqual({ status: 422, body: { status: 'error', errorType: 'execution', error: responseTooLargeMessage(1_000_000) } });
  });

  it('cuts the connection of an answer that passes the cap while streaming, never sending invalid JSON as complete', async () => {
    // Pairs take at least 17 bytes each here (10.2 MB in all) but about 30 in fact: 15 MB passes the first check.
    const { base } = await start({ api: { maxResponseBytes: 15_000_000 } });
    const outcome = await new Promise<string>((resolve) => {
      http
        .get(base + RANGE, (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => resolve(`complete after ${bytes} bytes`));
          res.on('error', () => resolve(`cut, status ${res.statusCode}, ${bytes > 1_000_000 ? 'over' : 'under'} 1 MB received`));
        })
        .on('error', (e) => resolve(`request error ${e.message}`));
    });
    expect(outcome).toBe('cut, status 200, over 1 MB received');
  });

  it('keeps small answers as one body with Content-Length, as before', async () => {
    const { base } = await start();
    const r = await fetch(`${base}/api/v1/query?query=count(big)&time=${T0 / 1000 + 10}`);
    expect(r.headers.get('content-length')).not.toBeNull();
    expect(await r.json()).toEqual({ status: 'success', data: { resultType: 'vector', result: [{ metric: {}, value: [T0 / 1000 + 10, '200'] }] } });
  });
});
