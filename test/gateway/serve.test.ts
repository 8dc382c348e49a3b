/**
 * The gateway wired into the product: inside `startServer` (its own listener, writing into the
 * server's store), and standalone, sending its metrics by remote write to a server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, validateGatewayConfig } from '../../src/gateway/index.js';
import { startFakeUpstream, type FakeUpstream } from '../../src/gateway/testing/fake-upstream.js';
import { noopLogger, systemClock } from '../../src/model/index.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { RemoteWriteAppendable } from '../../src/storage/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';

let up: FakeUpstream;
let server: RunningServer;
let base: string;
const dir = tempDir('gateway-serve');
const config = (): ReturnType<typeof validateGatewayConfig> =>
  validateGatewayConfig({ health_check: { enabled: false }, models: [{ name: 'm', replicas: [{ url: up.url, labels: { replica: 'r0', az: 'a', engine: 'vllm' } }] }] });

beforeAll(async () => {
  up = await startFakeUpstream({ chunks: 3 });
  server = await startServer({ listen: '127.0.0.1:0', storage: { dir: dir.dir }, logger: noopLogger, clock: systemClock, gateway: { config: config(), listen: '127.0.0.1:0' } });
  await server.ready;
  base = `http://${server.http.address.address}:${server.http.address.port}`;
});
afterAll(async () => {
  await server.close();
  await up.close();
  dir.remove();
});

async function query(q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const res = await fetch(`${base}/api/v1/query`, { method: 'POST', body: new URLSearchParams({ query: q }) });
  return ((await res.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } }).data.result;
}

const chat = (stream: boolean): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream }) });

describe('the gateway in the product', () => {
  it('inside serve: its metrics land in the server store', async () => {
    const gw = server.gateway!;
    expect((await fetch(`${gw.url}/v1/chat/completions`, chat(true))).status).toBe(200);
    expect((await fetch(`${gw.url}/v1/chat/completions`, chat(false))).status).toBe(200);
    await gw.flush();
    const r = await query('sum by (stream) (llm_client_requests_total{job="gateway", replica="r0", status_class="2xx"})');
    expect(r.map((x) => [x.metric.stream, x.value[1]]).sort()).toEqual([
      ['false', '1'],
      ['true', '1'],
    ]);
  });

  it('standalone: remote write into a server', async () => {
    const gw = await startGateway({ config: config(), appendable: new RemoteWriteAppendable(`${base}/api/v1/write`), listen: '127.0.0.1:0', logger: noopLogger });
    try {
      expect((await fetch(`${gw.url}/v1/chat/completions`, chat(true))).status).toBe(200);
      await gw.flush();
    } finally {
      await gw.close();
    }
    // Same labels as the in-process gateway's series (which stays idle here): its newer samples win.
    const r = await query('llm_client_time_to_first_token_seconds_count{job="gateway", stream="true"}');
    expect(r.length).toBe(1);
    expect(Number(r[0].value[1])).toBeGreaterThanOrEqual(1);
  });
});
