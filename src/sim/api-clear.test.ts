// DELETE /api/v1/sim/faults/<id>: a fault cleared early stops acting at once, and the ground truth
// says when it ended.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neutralEffects, type Fleet } from './fleet.js';
import { startSimulation, type RunningSimulation } from './start.js';

const T0 = Date.UTC(2025, 0, 6, 9);
const MIN = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'infersight-sim-clear-'));
const truth = join(dir, 'ground-truth.json');
let run: RunningSimulation;

beforeAll(async () => {
  // slow-instance: its scenario fault (id 1) throttles chat-prod-i1 from minute 5 to 20.
  run = await startSimulation({ scenario: 'slow-instance', mode: 'manual', seed: 2, clock: () => T0, fileSdPath: join(dir, 'sd.json'), groundTruthPath: truth });
});
afterAll(async () => {
  await run.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  json: { status: string; data?: { id: number; endMs: number; startMs: number; virtualEndMs: number; source: string }; errorType?: string; error?: string };
}

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const r = await fetch(`${run.url}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: r.status, json: (await r.json()) as Answer['json'] };
}

/** Every fault-driven field of the fleet, as `apply` leaves it with no fault active. */
function effects(fleet: Fleet): unknown {
  return {
    components: fleet.components.map((c) => c.fx),
    azFactors: fleet.endpoints.map((e) => [...e.azFactor.values()].filter((v) => v !== 1)),
    instances: fleet.instances.map((i) => ({ slowdown: i.slowdown, throttled: i.throttled, foreign: i.foreignMiBPerGpu })),
    replicas: fleet.replicas.map((r) => ({ ...r.errors, slowdown: r.limits.slowdown / r.instance.slowdown })),
  };
}
const neutral = (fleet: Fleet): unknown => ({
  components: fleet.components.map(() => neutralEffects()),
  azFactors: fleet.endpoints.map(() => []),
  instances: fleet.instances.map(() => ({ slowdown: 1, throttled: false, foreign: 0 })),
  replicas: fleet.replicas.map(() => ({ http500: 0, http503: 0, midStreamAbort: 0, slowdown: 1 })),
});

describe('DELETE /api/v1/sim/faults/<id>', () => {
  it.each([
    ['0', 400, 'bad_data'],
    ['abc', 400, 'bad_data'],
    ['1.5', 400, 'bad_data'],
    ['%zz', 400, 'bad_data'],
    ['99', 404, 'not_found'],
  ])('id %s: %i %s in the API error envelope', async (id, status, errorType) => {
    const r = await call('DELETE', `/api/v1/sim/faults/${id}`);
    expect(r.status).toBe(status);
    expect(r.json).toMatchObject({ status: 'error', errorType });
    expect(r.json.error).toContain(id === '99' ? 'no fault with id 99' : 'invalid fault id');
  });

  it('clears a scenario fault mid-way: the fleet is neutral at once and stays so; the ground truth ends now', async () => {
    const sim = run.simulation;
    await run.advanceTo(T0 + 8 * MIN);
    expect(sim.fleet.instances.find((i) => i.id === 'chat-prod-i1')).toMatchObject({ slowdown: 2.5, throttled: true });
    expect(effects(sim.fleet)).not.toEqual(neutral(sim.fleet));

    const r = await call('DELETE', '/api/v1/sim/faults/1');
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ id: 1, source: 'scenario', startMs: T0 + 5 * MIN, endMs: T0 + 8 * MIN, virtualEndMs: T0 + 8 * MIN });
    expect(effects(sim.fleet)).toEqual(neutral(sim.fleet));
    await run.advanceTo(T0 + 12 * MIN);
    expect(effects(sim.fleet)).toEqual(neutral(sim.fleet));

    const gt = await call('GET', '/api/v1/sim/ground-truth');
    expect((gt.json.data as unknown as { endMs: number }[])[0].endMs).toBe(T0 + 8 * MIN);
    expect(JSON.parse(readFileSync(truth, 'utf8'))[0].endMs).toBe(T0 + 8 * MIN);
    // Clearing again changes nothing: the fault is over.
    expect((await call('DELETE', '/api/v1/sim/faults/1')).json.data).toMatchObject({ endMs: T0 + 8 * MIN });
  });

  it('clears an injected fault, and one not started yet never starts', async () => {
    const sim = run.simulation;
    const now = sim.nowMs;
    const errs = await call('POST', '/api/v1/sim/faults', { kind: 'engine-errors', scope: { component: 'qwen2-5-7b-instruct' }, duration: '10m' });
    const later = await call('POST', '/api/v1/sim/faults', { kind: 'kv-cache-pressure', scope: { component: 'gpt-oss-20b' }, startIn: '2m', duration: '10m' });
    await run.advanceTo(now + MIN);
    expect(sim.fleet.replicas.some((r) => r.errors.http500 > 0)).toBe(true);

    const cleared = await call('DELETE', `/api/v1/sim/faults/${errs.json.data?.id}`);
    expect(cleared.json.data).toMatchObject({ source: 'injected', endMs: now + MIN });
    const pending = await call('DELETE', `/api/v1/sim/faults/${later.json.data?.id}`);
    expect(pending.json.data).toMatchObject({ startMs: now + 2 * MIN, endMs: now + 2 * MIN });
    expect(effects(sim.fleet)).toEqual(neutral(sim.fleet));
    await run.advanceTo(now + 5 * MIN);
    expect(effects(sim.fleet)).toEqual(neutral(sim.fleet));
  });
});
