/**
 * `startDemo` sends a share of the simulated load through the gateway: the gateway's series
 * (`job="gateway"`, both paths, overhead latency, status classes) reach the store next to the
 * simulated front door's, and the two together count the requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noopLogger, systemClock } from '../../src/model/index.js';
import { startDemo, type RunningDemo } from '../../src/server/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { waitFor } from '../peers/peers.js';

let demo: RunningDemo;
let base: string;
const dir = tempDir('gateway-demo');

beforeAll(async () => {
  demo = await startDemo({
    listen: '127.0.0.1:0',
    storage: { dir: dir.dir },
    speed: 60,
    scrapeInterval: '1s',
    gateway: { listen: '127.0.0.1:0', listenRequired: true, share: 0.5, maxPerSec: 8 },
    logger: noopLogger,
    clock: systemClock,
  });
  await demo.server.ready;
  const a = demo.server.http.address;
  base = `http://${a.address}:${a.port}`;
});
afterAll(async () => {
  await demo.close();
  dir.remove();
});

async function query(q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const res = await fetch(`${base}/api/v1/query`, { method: 'POST', body: new URLSearchParams({ query: q }) });
  const body = (await res.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  if (body.status !== 'success') throw new Error(`query ${q} failed`);
  return body.data.result;
}

describe('infersight demo through the gateway', () => {
  it('the gateway carries part of the load and its series reach the store with identity labels', async () => {
    const paths = await waitFor('gateway requests on both paths', async () => {
      const r = await query('sum by (stream) (llm_client_requests_total{job="gateway", status_class="2xx"})');
      return r.length === 2 && r.every((x) => Number(x.value[1]) > 0) ? r : undefined;
    });
    expect(paths.map((p) => p.metric.stream).sort()).toEqual(['false', 'true']);
    const overhead = await query('sum by (model, engine, az) (llm_client_overhead_latency_seconds_count{job="gateway"})');
    expect(overhead.length).toBeGreaterThan(0);
    for (const o of overhead) for (const l of ['model', 'engine', 'az']) expect(o.metric[l], l).toBeTruthy();
    const ttft = await query('count(llm_client_time_to_first_token_seconds_bucket{job="gateway", stream="true"})');
    expect(Number(ttft[0].value[1])).toBeGreaterThan(0);
    // Both front doors report; the simulated one counts only the arrivals the gateway did not take.
    const jobs = await waitFor('both front doors', async () => {
      const r = (await query('count by (job) (llm_client_requests_total)')).map((j) => j.metric.job).sort();
      return r.length === 2 ? r : undefined;
    });
    expect(jobs).toEqual(['gateway', 'sim-frontdoor']);
    const l = demo.load!;
    expect(l.sent).toBeGreaterThan(0);
    expect(l.failed, `sent ${l.sent}, answered ${l.answered}, failed ${l.failed}`).toBe(0);
  }, 90_000);
});
