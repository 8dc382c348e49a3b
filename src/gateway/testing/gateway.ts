/** Test helpers: a gateway in front of given upstream URLs, with fake timers and an in-memory store. */
import type { RequestGuard } from '../../http/index.js';
import { validateGatewayConfig, type GatewayConfig } from '../config.js';
import type { HealthProbe } from '../health.js';
import { MemorySampleSink } from '../sampling.js';
import { startGateway, type RunningGateway } from '../server.js';
import { FakeTimers } from '../../model/testing/fake-timers.js';
import { MemoryStorage } from '../../storage/testing/index.js';

/** A gateway under test and its ports. */
export interface TestGateway {
  readonly gw: RunningGateway;
  readonly store: MemoryStorage;
  readonly timers: FakeTimers;
  readonly samples: MemorySampleSink;
  readonly config: GatewayConfig;
  /** POSTs JSON (or raw text) to the gateway and reads the whole answer. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read decoded JSON directly
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; text: string; json: any }>;
  /** The latest written value of a series (after `gw.flush()`). */
  value(name: string, match?: Readonly<Record<string, string>>): Promise<number>;
}

/** A model entry for `validateGatewayConfig` with one replica per URL (labels `r<i>`, AZ `az<i>`). */
export function modelEntry(name: string, urls: readonly string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, replicas: urls.map((url, i) => ({ url, labels: { replica: `r${i}`, az: `az${i}`, instance: `i${i}`, engine: 'vllm', component: 'c', endpoint: 'e' } })), ...extra };
}

/** Starts a gateway on a free port with `raw` configuration (snake_case, as in YAML), behind `guard` when given. */
export async function startTestGateway(raw: Record<string, unknown>, probe?: HealthProbe, guard?: RequestGuard): Promise<TestGateway> {
  const config = validateGatewayConfig({ health_check: { enabled: false }, ...raw });
  const timers = new FakeTimers(Date.UTC(2025, 0, 6, 9));
  const store = new MemoryStorage();
  const samples = new MemorySampleSink();
  const gw = await startGateway({ config, appendable: store, listen: '127.0.0.1:0', timers, now: timers.clock, sampleSink: samples, probe, guard });
  return {
    gw,
    store,
    timers,
    samples,
    config,
    post: async (path, body, headers = {}) => {
      const r = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
      const text = await r.text();
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // SSE or text
      }
      return { status: r.status, headers: r.headers, text, json };
    },
    value: async (name, match = {}) => {
      await gw.flush();
      return store.latest(name, match);
    },
  };
}

/** Splits an SSE body into its `data:` payloads. */
export function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((e) => e.trim() !== '')
    .map((e) => e.replace(/^data: ?/, ''));
}
