/**
 * The quality loop of `startDemo` on loopback: the demo's real clients → the gateway (sampling) →
 * the gateway's `SampleSink` bound to the pipeline → the sample store → `/api/v1/quality/samples`.
 * src/quality's parts are the small stand-ins of src/server/testing/quality-fixture.ts (a pipeline
 * that stores each pair with one stage-1 check, an in-memory store), so this checks the wiring:
 * what the gateway samples reaches the store and the API, with the demo's judge settings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noopLogger, systemClock } from '../../src/model/index.js';
import type { QualitySamplesData, QualityStatusData } from '../../src/query/index.js';
import { startDemo, type RunningDemo } from '../../src/server/index.js';
import { testQualityParts } from '../../src/server/testing/quality-fixture.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { waitFor } from '../peers/peers.js';

let demo: RunningDemo;
let base: string;
const dir = tempDir('quality-loop');
const parts = testQualityParts();

beforeAll(async () => {
  demo = await startDemo({
    listen: '127.0.0.1:0',
    storage: { dir: dir.dir },
    speed: 60,
    scrapeInterval: '1s',
    gateway: { listen: '127.0.0.1:0', listenRequired: true, share: 0.5, maxPerSec: 8 },
    logger: noopLogger,
    clock: systemClock,
    quality: parts.options,
  });
  await demo.server.ready;
  const a = demo.server.http.address;
  base = `http://${a.address}:${a.port}`;
});
afterAll(async () => {
  await demo.close();
  dir.remove();
});

async function get<T>(path: string): Promise<T> {
  const body = (await (await fetch(base + path)).json()) as { status: string; data: T };
  if (body.status !== 'success') throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}

describe('infersight demo: the gateway samples into the quality store', () => {
  it('sampled pairs of real requests reach the store and the API, with identity labels and a stage-1 evaluation', async () => {
    const samples = await waitFor('sampled pairs', async () => {
      const d = await get<QualitySamplesData>('/api/v1/quality/samples?limit=5');
      return d.samples.length >= 2 ? d.samples : undefined;
    });
    for (const s of samples) {
      expect(s.pair.model).not.toBe('');
      expect(s.pair.component).not.toBe('');
      expect(s.pair.prompt).toMatch(/^user: /);
      expect(s.evaluations.map((e) => e.evaluator)).toEqual(['stage1:empty']);
    }
    const status = await get<QualityStatusData>('/api/v1/quality/status');
    expect(status.judge).toMatchObject({ model: 'infersight-sim-judge', baseURL: `${demo.sim.url}/v1` });
    expect(status.store.pairs).toBeGreaterThanOrEqual(2);
    expect(parts.pipelines.length).toBe(1);
    expect(parts.pipelines[0].accepted).toBeGreaterThanOrEqual(2);
  }, 90_000);
});
