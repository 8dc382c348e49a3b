import { describe, expect, it, test } from 'vitest';
import type { CostSummary } from '../../cost/index.js';
import { useCleanups } from '../../model/testing/cleanups.js';
import { FakeTimers } from '../../model/testing/fake-timers.js';
import { FIXTURE_COST_MODULE, FIXTURE_REASON } from '../testing/cost-fixture.js';
import { DX_END_MS, DX_START_MS, startDiagnosisServer } from '../testing/diagnosis-fixture.js';
import { costSummaryJson } from './cost.js';

const cleanups = useCleanups('all');
const q = (params: [string, string][]) => new URLSearchParams(params).toString();

/** A server over the diagnosis fixture with the fixture cost module, cost replayed over the whole span. */
const start = (): Promise<string> => {
  const timers = new FakeTimers(DX_END_MS);
  return startDiagnosisServer(cleanups, {
    clock: timers.clock,
    cost: { module: FIXTURE_COST_MODULE, timers },
    backfill: { description: 'test', run: async () => undefined, rulesFromMs: DX_START_MS },
  });
};
let base: Promise<string> | undefined;
const server = (): Promise<string> => (base ??= start());

describe('/api/v1/cost/summary', () => {
  it('answers the summary at a time in the envelope, times in seconds, no NaN', async () => {
    const res = await fetch(`${await server()}/api/v1/cost/summary?${q([['time', String(DX_END_MS / 1000 - 600)]])}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; data: Record<string, unknown> };
    expect(body.status).toBe('success');
    expect(body.data).toMatchObject({
      time: DX_END_MS / 1000 - 600,
      catalog: { takenOn: '2026-11-01', region: 'us-east-1', instanceTypes: 1 },
      components: [
        { endpoint: 'chat', component: 'llama-a', dollarsPerHour: 1.006, gpus: 1, dollarsPerMillionInputTokens: null, dollarsPerMillionOutputTokens: null, benchmarkEfficiency: 0.5 },
        { component: 'qwen-b', benchmarkEfficiency: null },
      ],
      verdicts: [{ replica: 'llama-a-0', bound: 'memory', reason: FIXTURE_REASON }, { replica: 'qwen-b-0' }],
      findings: [{ kind: 'over-provisioned', since: DX_END_MS / 1000 - 600 - 6 * 3600, dollarsPerDay: 24 }],
    });
  });

  test.each([
    ['a time that is not one', [['time', 'yesterday']], 400, 'bad_data', `invalid parameter "time": Invalid time value for 'time': cannot parse "yesterday" to a valid timestamp`],
    ['a time past the largest', [['time', '1e400']], 400, 'bad_data', `invalid parameter "time": Invalid time value for 'time': cannot parse "1e400" to a valid timestamp`],
    ['a huge time value', [['time', '9'.repeat(100_000)]], 400, 'bad_data', `invalid parameter "time": Invalid time value for 'time': longer than 64 characters`],
  ] as [string, [string, string][], number, string, string | undefined][])('refuses %s in the API error format', async (_name, params, status, errorType, error) => {
    const res = await fetch(`${await server()}/api/v1/cost/summary?${q(params)}`);
    expect(res.status).toBe(status);
    const body = (await res.json()) as { status: string; errorType: string; error: string };
    expect(body.status).toBe('error');
    expect(body.errorType).toBe(errorType);
    if (error !== undefined) expect(body.error).toBe(error);
    expect(body.error.length).toBeLessThan(2000);
  });

  it('refuses a form body past the limit without reading it all', async () => {
    const res = await fetch(`${await server()}/api/v1/cost/summary?${q([['x', 'y'.repeat(2 * 1024 * 1024)]])}`).catch((e: unknown) => e);
    // Node's own header limit or the API's: either way the server is still serving afterwards.
    if (res instanceof Response) expect(res.status).toBeGreaterThanOrEqual(400);
    expect((await fetch(`${await server()}/api/v1/cost/summary`)).status).toBe(200);
  });
});

describe('/api/v1/cost/catalog', () => {
  it('answers the prices and benchmarks in force with their date and sources', async () => {
    const body = (await (await fetch(`${await server()}/api/v1/cost/catalog`)).json()) as { data: unknown };
    expect(body.data).toEqual({
      prices: {
        takenOn: '2026-11-01',
        region: 'us-east-1',
        file: null,
        instances: [{ instanceType: 'g5.xlarge', provider: 'custom', onDemandPerHourUsd: 1.006, effectivePerHourUsd: 1.006, discount: 0, pricing: 'on-demand', gpuCount: 1, gpuModel: 'NVIDIA A10G', gpuMemoryGiB: 24 }],
      },
      benchmarks: {
        file: null,
        entries: [{ model: 'llama-a', instanceType: 'g5.xlarge', engine: 'vllm', gpusPerReplica: 1, points: [{ concurrency: 8, outputTpsPerSequence: 40, outputTpsAggregate: 320 }], source: 'test fixture' }],
      },
    });
  });
});

describe('costSummaryJson', () => {
  it('writes values that are not finite as null, or 0 where the field is a number', () => {
    const s: CostSummary = {
      timeMs: 1_000,
      catalog: { takenOn: 'd', region: 'r', instanceTypes: 0 },
      components: [{ endpoint: 'e', component: 'c', model: 'm', dollarsPerHour: Number.NaN, gpus: 1, dollarsPerMillionInputTokens: Number.POSITIVE_INFINITY, dollarsPerMillionOutputTokens: 2, benchmarkEfficiency: null }],
      idle: { gpus: 0, dollarsPerHour: Number.NaN },
      verdicts: [],
      findings: [],
    };
    expect(costSummaryJson(s)).toMatchObject({ time: 1, components: [{ dollarsPerHour: 0, dollarsPerMillionInputTokens: null, dollarsPerMillionOutputTokens: 2 }], idle: { dollarsPerHour: 0 } });
  });
});
