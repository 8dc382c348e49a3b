import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulation, type RunningSimulation } from './start.js';

const T0 = Date.UTC(2025, 0, 6, 9);
const dir = mkdtempSync(join(tmpdir(), 'infersight-sim-'));
const fileSd = join(dir, 'sd', 'targets.json');
const truth = join(dir, 'ground-truth.json');
let run: RunningSimulation;

beforeAll(async () => {
  run = await startSimulation({ scenario: 'slow-instance', mode: 'manual', seed: 2, clock: () => T0, fileSdPath: fileSd, groundTruthPath: truth });
});
afterAll(async () => {
  await run.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: { status: string; data?: unknown; error?: string } }> {
  const r = await fetch(`${run.url}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  return { status: r.status, json: (await r.json()) as { status: string; data?: unknown; error?: string } };
}

describe('control API', () => {
  it('lists the fault kinds with their parameters', async () => {
    const r = await call('GET', '/api/v1/sim/faults');
    const kinds = (r.json.data as { kind: string }[]).map((k) => k.kind);
    expect(kinds).toHaveLength(10);
    expect(kinds).toContain('quality-drift');
  });

  it('records the scenario fault as ground truth, over HTTP and in the file', async () => {
    const r = await call('GET', '/api/v1/sim/ground-truth');
    expect(r.json.data).toEqual([expect.objectContaining({ kind: 'slow-instance', scope: { instance: 'chat-prod-i1' }, startMs: T0 + 5 * 60_000, endMs: T0 + 20 * 60_000, source: 'scenario' })]);
    expect(JSON.parse(readFileSync(truth, 'utf8'))).toEqual(r.json.data);
  });

  it.each([
    [{ kind: 'meteor-strike' }, 'kind'],
    [{ kind: 'engine-errors', scope: { component: 'nope' } }, 'matches nothing'],
    [{ kind: 'engine-errors', scope: { zone: 'x' } }, 'scope.zone'],
    [{ kind: 'engine-errors', duration: 'soon' }, 'duration'],
  ])('refuses %j', async (body, message) => {
    const r = await call('POST', '/api/v1/sim/faults', body);
    expect(r.status).toBe(400);
    expect(r.json.error).toContain(message);
  });

  it('injects a fault that takes effect and joins the ground truth', async () => {
    const now = run.simulation.nowMs;
    const r = await call('POST', '/api/v1/sim/faults', { kind: 'engine-errors', scope: { component: 'qwen2-5-7b-instruct' }, duration: '3m', params: { http500: 0.5 } });
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ kind: 'engine-errors', source: 'injected', startMs: now, endMs: now + 180_000, params: { http500: 0.5 } });
    const qwen = run.simulation.component('qwen2-5-7b-instruct')!;
    const before = qwen.frontdoor.requests5xx;
    await run.advanceTo(now + 120_000);
    expect(qwen.frontdoor.requests5xx - before).toBeGreaterThan(20);
    expect(JSON.parse(readFileSync(truth, 'utf8'))).toHaveLength(2);
  });

  it('keeps the file_sd file in step with the targets', async () => {
    const groups = (): { targets: string[]; labels: Record<string, string> }[] => JSON.parse(readFileSync(fileSd, 'utf8'));
    expect(groups().map((g) => g.labels.__metrics_path__).sort()).toEqual(run.targets().map((t) => `/targets/${t.id}/metrics`).sort());
    expect(groups().every((g) => g.targets[0] === run.address)).toBe(true);
    const c = run.simulation.component('gpt-oss-20b')!;
    const added = run.simulation.fleet.addReplica(c, run.simulation.nowMs)!;
    await run.advanceTo(run.simulation.nowMs + 1000);
    expect(groups().find((g) => g.labels.replica === added.id)).toMatchObject({ labels: { job: 'vllm', component: 'gpt-oss-20b', model: 'openai/gpt-oss-20b', az: added.instance.az } });
    const sd = await call('GET', '/api/v1/sim/targets');
    expect(sd.json.data).toEqual(groups());
    // Not ready yet: the engine's port answers 503, so a scraper records the target down.
    expect((await fetch(`${run.url}/targets/replica-${added.id}/metrics`)).status).toBe(503);
  });
});
