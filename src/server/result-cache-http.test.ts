import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { Labels, MemoryLogger } from '../model/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { startServer, type ServeOptions } from './serve.js';

/** The range-result cache as the HTTP API uses it: refreshes, the ways to skip it, `/metrics`. */

const SEC = 1000;
const T0 = 1_700_000_000_000;
const cleanups = useCleanups();

async function start(extra: Partial<ServeOptions> = {}, storage: Partial<ServeOptions['storage']> = {}) {
  const t = tempDir('result-cache-http');
  cleanups.push(t.remove);
  let nowMs = T0;
  const server = await startServer({
    listen: '127.0.0.1:0',
    logger: new MemoryLogger(),
    clock: () => nowMs,
    ui: false,
    ...extra,
    storage: { dir: t.dir, fsync: { mode: 'never' }, ...storage },
  });
  cleanups.push(() => server.close());
  await server.ready;
  const base = `http://127.0.0.1:${server.http.address.port}`;
  /** Writes one sample per series at `tMs` for two series, moving the clock on. */
  const scrape = async (tMs: number): Promise<void> => {
    nowMs += SEC;
    const app = server.db()!.appender();
    for (const i of ['a', 'b']) app.append(0, Labels.from({ __name__: 'up_total', instance: i }), tMs, tMs / 1000);
    await app.commit();
  };
  const range = async (startMs: number, endMs: number, extraParams = '', headers: Record<string, string> = {}): Promise<unknown> => {
    const q = `query=${encodeURIComponent('sum by (instance) (rate(up_total[1m]))')}&start=${startMs / 1000}&end=${endMs / 1000}&step=15s${extraParams}`;
    const res = await fetch(`${base}/api/v1/query_range?${q}`, { headers });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { result: unknown; stats?: unknown } };
    return body.data.result;
  };
  const metrics = async (): Promise<Record<string, number>> => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const out: Record<string, number> = {};
    for (const m of text.matchAll(/^(infersight_query_result_cache_[a-z_]+(?:\{result="[a-z]+"\})?) (\S+)$/gm)) out[m[1]] = Number(m[2]);
    return out;
  };
  return { scrape, range, metrics };
}

const requests = (r: string) => `infersight_query_result_cache_requests_total{result="${r}"}`;

describe('result cache over HTTP', () => {
  it('computes only the new steps of a refreshed dashboard and shows it in /metrics', async () => {
    const { scrape, range, metrics } = await start();
    for (let t = T0 - 3600 * SEC; t <= T0; t += 15 * SEC) await scrape(t);
    const first = await range(T0 - 1800 * SEC, T0);
    expect(await metrics()).toMatchObject({ [requests('miss')]: 1, [requests('partial')]: 0, infersight_query_result_cache_entries: 1 });
    expect(first).toEqual(await range(T0 - 1800 * SEC, T0, '&nocache=1'));
    // The dashboard refreshes 15 s later: one new scrape, the window moved by one step.
    await scrape(T0 + 15 * SEC);
    const moved = await range(T0 - 1785 * SEC, T0 + 15 * SEC);
    expect(moved).toEqual(await range(T0 - 1785 * SEC, T0 + 15 * SEC, '&nocache=1'));
    // Unchanged store: the same window again is a full hit.
    expect(await range(T0 - 1785 * SEC, T0 + 15 * SEC)).toEqual(moved);
    const m = await metrics();
    expect(m).toMatchObject({ [requests('partial')]: 1, [requests('hit')]: 1, [requests('bypass')]: 2 });
    expect(m.infersight_query_result_cache_bytes).toBeGreaterThan(0);
    expect(m.infersight_query_result_cache_max_bytes).toBe(128 * 1024 * 1024);
  });

  it('recomputes the steps a late sample touches', async () => {
    const { scrape, range, metrics } = await start({}, { outOfOrderWindowMs: 3600 * SEC });
    for (let t = T0 - 1800 * SEC; t <= T0; t += 15 * SEC) await scrape(t);
    await range(T0 - 900 * SEC, T0);
    await scrape(T0 - 300 * SEC + 7 * SEC); // out of order, inside the cached window
    expect(await range(T0 - 900 * SEC, T0)).toEqual(await range(T0 - 900 * SEC, T0, '&nocache=1'));
    expect((await metrics()).infersight_query_result_cache_invalidations_total).toBe(1);
  });

  it.each([
    ['nocache=1', '&nocache=1', {}],
    ['Cache-Control: no-cache', '', { 'cache-control': 'no-cache' }],
    ['Cache-Control: max-age=0, no-store', '', { 'cache-control': 'max-age=0, no-store' }],
    ['stats=all', '&stats=all', {}],
  ])('skips the lookup for %s', async (_name, params, headers) => {
    const { scrape, range, metrics } = await start();
    for (let t = T0 - 600 * SEC; t <= T0; t += 15 * SEC) await scrape(t);
    await range(T0 - 300 * SEC, T0);
    await range(T0 - 300 * SEC, T0, params, headers);
    expect(await metrics()).toMatchObject({ [requests('hit')]: 0, [requests('bypass')]: 1, [requests('miss')]: 1 });
    await range(T0 - 300 * SEC, T0);
    expect((await metrics())[requests('hit')]).toBe(1);
  });

  it('is off with a budget of 0', async () => {
    const { scrape, range, metrics } = await start({ resultCacheBytes: 0 });
    await scrape(T0);
    await range(T0 - 60 * SEC, T0);
    expect(await metrics()).toEqual({});
  });
});
